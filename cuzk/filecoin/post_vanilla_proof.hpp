// The PoSt vanilla proof of one sector, `FallbackPoStSectorProof` (filecoin-proofs
// types/mod.rs), as filecoin-proofs-api's generate_single_vanilla_proof returns it
// (`bincode::serialize`) and Curio stores it:
//   sector_id u64, comm_r [32],
//   vanilla_proof: fallback::Proof { sectors: Vec<SectorProof> }          (u64 count)
//     SectorProof { inclusion_proofs: Vec<MerkleProof>, comm_c [32], comm_r_last [32] }
// storage-proofs-post fallback/vanilla.rs; MerkleProof as in merkle_proof.hpp. A sector's proof
// holds one SectorProof with one inclusion proof of tree_r_last per challenge (10 for WindowPoSt,
// 66 for WinningPoSt). FORMATS.md §7.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/base/status.hpp"
#include "cuzk/filecoin/bytes32.hpp"
#include "cuzk/filecoin/merkle_proof.hpp"

namespace cuzk::filecoin {

/// storage-proofs-post `SectorProof`.
struct PostSectorProof {
  std::vector<MerkleProof> inclusion_proofs;  ///< tree_r_last, one per challenge
  Bytes32 comm_c{};
  Bytes32 comm_r_last{};
  bool operator==(const PostSectorProof&) const = default;
};

/// filecoin-proofs `FallbackPoStSectorProof`.
struct FallbackPoStSectorProof {
  std::uint64_t sector_id = 0;
  Bytes32 comm_r{};
  std::vector<PostSectorProof> sectors;  ///< `vanilla_proof.sectors`: one per sector proof
  bool operator==(const FallbackPoStSectorProof&) const = default;
};

/// Reads one proof at the reader's position (several may follow each other).
Status read_post_sector_proof(BincodeReader& r, FallbackPoStSectorProof& out);
/// Reads a buffer that holds exactly one proof (bad_encoding when bytes are left over).
Result<FallbackPoStSectorProof> read_post_sector_proof(std::span<const std::uint8_t> bytes);
void write_post_sector_proof(BincodeWriter& w, const FallbackPoStSectorProof& p);
std::vector<std::uint8_t> write_post_sector_proof(const FallbackPoStSectorProof& p);

}  // namespace cuzk::filecoin
