#include "cuzk/filecoin/snap_vanilla_proof.hpp"

namespace cuzk::filecoin {

namespace {
// Smallest ChallengeProof: three MerkleProofs of variant + root + leaf + empty path.
constexpr std::size_t kMinChallengeProofBytes = 3 * (4 + 32 + 32 + 8);
}  // namespace

Status read_snap_partition_proof(BincodeReader& r, SnapPartitionProof& out) {
  out = SnapPartitionProof{};
  {
    BincodeReader::Field f(r, "comm_c");
    CUZK_RETURN_IF_ERROR(r.bytes32(out.comm_c));
  }
  {
    BincodeReader::Field f(r, "apex_leafs");
    std::uint64_t n = 0;
    CUZK_RETURN_IF_ERROR(r.length(n, 32));
    out.apex_leafs.resize(n);
    for (std::uint64_t i = 0; i < n; ++i) {
      BincodeReader::Field fi(r, "", static_cast<std::int64_t>(i));
      CUZK_RETURN_IF_ERROR(r.bytes32(out.apex_leafs[i]));
    }
  }
  BincodeReader::Field f(r, "challenge_proofs");
  std::uint64_t n = 0;
  CUZK_RETURN_IF_ERROR(r.length(n, kMinChallengeProofBytes));
  out.challenge_proofs.resize(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    BincodeReader::Field fi(r, "", static_cast<std::int64_t>(i));
    SnapChallengeProof& c = out.challenge_proofs[i];
    const std::pair<const char*, MerkleProof*> parts[] = {{"proof_r_old", &c.proof_r_old},
                                                          {"proof_d_new", &c.proof_d_new},
                                                          {"proof_r_new", &c.proof_r_new}};
    for (const auto& [name, proof] : parts) {
      BincodeReader::Field fp(r, name);
      CUZK_RETURN_IF_ERROR(read_merkle_proof(r, *proof));
    }
  }
  return {};
}

Result<SnapPartitionProof> read_snap_partition_proof(std::span<const std::uint8_t> bytes) {
  BincodeReader r(bytes);
  SnapPartitionProof p;
  CUZK_RETURN_IF_ERROR(read_snap_partition_proof(r, p));
  if (!r.at_end())
    return r.error(Errc::bad_encoding,
                   std::to_string(r.remaining()) + " bytes follow the end of the PartitionProof");
  return p;
}

void write_snap_partition_proof(BincodeWriter& w, const SnapPartitionProof& p) {
  w.bytes32(p.comm_c);
  w.u64(p.apex_leafs.size());
  for (const Bytes32& b : p.apex_leafs) w.bytes32(b);
  w.u64(p.challenge_proofs.size());
  for (const SnapChallengeProof& c : p.challenge_proofs) {
    write_merkle_proof(w, c.proof_r_old);
    write_merkle_proof(w, c.proof_d_new);
    write_merkle_proof(w, c.proof_r_new);
  }
}

std::vector<std::uint8_t> write_snap_partition_proof(const SnapPartitionProof& p) {
  BincodeWriter w;
  write_snap_partition_proof(w, p);
  return w.take();
}

}  // namespace cuzk::filecoin
