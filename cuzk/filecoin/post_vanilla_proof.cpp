#include "cuzk/filecoin/post_vanilla_proof.hpp"

namespace cuzk::filecoin {

namespace {
// Smallest bincode MerkleProof: variant + root + leaf + empty path.
constexpr std::size_t kMinMerkleProofBytes = 4 + 32 + 32 + 8;
// Smallest SectorProof: empty inclusion proofs + comm_c + comm_r_last.
constexpr std::size_t kMinSectorProofBytes = 8 + 32 + 32;
}  // namespace

Status read_post_sector_proof(BincodeReader& r, FallbackPoStSectorProof& out) {
  out = FallbackPoStSectorProof{};
  {
    BincodeReader::Field f(r, "sector_id");
    CUZK_RETURN_IF_ERROR(r.u64(out.sector_id));
  }
  {
    BincodeReader::Field f(r, "comm_r");
    CUZK_RETURN_IF_ERROR(r.bytes32(out.comm_r));
  }
  BincodeReader::Field fv(r, "vanilla_proof");
  BincodeReader::Field fs(r, "sectors");
  std::uint64_t n = 0;
  CUZK_RETURN_IF_ERROR(r.length(n, kMinSectorProofBytes));
  out.sectors.resize(n);
  for (std::uint64_t s = 0; s < n; ++s) {
    BincodeReader::Field fi(r, "", static_cast<std::int64_t>(s));
    PostSectorProof& sp = out.sectors[s];
    {
      BincodeReader::Field fp(r, "inclusion_proofs");
      std::uint64_t m = 0;
      CUZK_RETURN_IF_ERROR(r.length(m, kMinMerkleProofBytes));
      sp.inclusion_proofs.resize(m);
      for (std::uint64_t c = 0; c < m; ++c) {
        BincodeReader::Field fc(r, "", static_cast<std::int64_t>(c));
        CUZK_RETURN_IF_ERROR(read_merkle_proof(r, sp.inclusion_proofs[c]));
      }
    }
    {
      BincodeReader::Field f(r, "comm_c");
      CUZK_RETURN_IF_ERROR(r.bytes32(sp.comm_c));
    }
    BincodeReader::Field f(r, "comm_r_last");
    CUZK_RETURN_IF_ERROR(r.bytes32(sp.comm_r_last));
  }
  return {};
}

Result<FallbackPoStSectorProof> read_post_sector_proof(std::span<const std::uint8_t> bytes) {
  BincodeReader r(bytes);
  FallbackPoStSectorProof p;
  CUZK_RETURN_IF_ERROR(read_post_sector_proof(r, p));
  if (!r.at_end())
    return r.error(Errc::bad_encoding, std::to_string(r.remaining()) +
                                           " bytes follow the end of the FallbackPoStSectorProof");
  return p;
}

void write_post_sector_proof(BincodeWriter& w, const FallbackPoStSectorProof& p) {
  w.u64(p.sector_id);
  w.bytes32(p.comm_r);
  w.u64(p.sectors.size());
  for (const PostSectorProof& sp : p.sectors) {
    w.u64(sp.inclusion_proofs.size());
    for (const MerkleProof& m : sp.inclusion_proofs) write_merkle_proof(w, m);
    w.bytes32(sp.comm_c);
    w.bytes32(sp.comm_r_last);
  }
}

std::vector<std::uint8_t> write_post_sector_proof(const FallbackPoStSectorProof& p) {
  BincodeWriter w;
  write_post_sector_proof(w, p);
  return w.take();
}

}  // namespace cuzk::filecoin
