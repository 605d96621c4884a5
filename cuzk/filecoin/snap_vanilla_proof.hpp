// The SnapDeals (empty-sector-update) vanilla proof of one partition, `PartitionProof`
// (storage-proofs-update vanilla.rs), as filecoin-proofs-api's generate_partition_proofs returns
// it (`bincode::serialize`, one buffer per partition):
//   comm_c [32], apex_leafs Vec<[32]> (u64 count; SHA-256 tree_d nodes),
//   challenge_proofs Vec<ChallengeProof> (u64 count)
//     ChallengeProof { proof_r_old: MerkleProof (tree_r, Poseidon, shape of the sector),
//                      proof_d_new: MerkleProof (tree_d, SHA-256 binary: Single),
//                      proof_r_new: MerkleProof (tree_r) }
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/base/status.hpp"
#include "cuzk/filecoin/bytes32.hpp"
#include "cuzk/filecoin/merkle_proof.hpp"

namespace cuzk::filecoin {

/// storage-proofs-update `ChallengeProof`.
struct SnapChallengeProof {
  MerkleProof proof_r_old;
  MerkleProof proof_d_new;
  MerkleProof proof_r_new;
  bool operator==(const SnapChallengeProof&) const = default;
};

/// storage-proofs-update `PartitionProof`.
struct SnapPartitionProof {
  Bytes32 comm_c{};
  std::vector<Bytes32> apex_leafs;
  std::vector<SnapChallengeProof> challenge_proofs;
  bool operator==(const SnapPartitionProof&) const = default;
};

Status read_snap_partition_proof(BincodeReader& r, SnapPartitionProof& out);
/// Reads a buffer that holds exactly one partition proof.
Result<SnapPartitionProof> read_snap_partition_proof(std::span<const std::uint8_t> bytes);
void write_snap_partition_proof(BincodeWriter& w, const SnapPartitionProof& p);
std::vector<std::uint8_t> write_snap_partition_proof(const SnapPartitionProof& p);

}  // namespace cuzk::filecoin
