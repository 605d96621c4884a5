// The PoSt vanilla verifier (storage-proofs-post fallback/vanilla.rs `FallbackPoSt::verify`, with
// the vanilla proofs as filecoin-proofs' partition_vanilla_proofs receives them: one
// FallbackPoStSectorProof per sector). For each public sector, at its position sector_index in the
// PoSt (post_challenges.hpp):
//   * the proof's sector_id and comm_r are the public ones, and it holds one SectorProof with
//     challenge_count inclusion proofs;
//   * inclusion proof n has the tree_r_last shape of the sector size (variant Single/Sub/Top, base
//     levels log8(nodes / base trees), one sub and one top level where the shape has them, arity − 1
//     siblings and an index below the arity per level), shows the leaf of challenge n (path index =
//     post_sector_challenges()[n]), hashes from its leaf to its root (Poseidon, MerkleTree tag), and
//     that root is the SectorProof's comm_r_last;
//   * Poseidon2(comm_c, comm_r_last) = comm_r (arity 2, MerkleTree tag: hash2 of
//     filecoin-hashers, checked in upstream's verify with comm_r_last = inclusion_proofs[0].root()).
// Stricter than upstream in one place: upstream ignores the SectorProof's comm_r_last field (it
// takes the first inclusion proof's root); here it must equal every root, as an honest prover
// writes it (vanilla_proof() checks root == comm_r_last) and as the circuit uses it.
// Errors name the sector, the challenge and the field; the first failure is reported.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "cuzk/base/status.hpp"
#include "cuzk/filecoin/bytes32.hpp"
#include "cuzk/filecoin/post_vanilla_proof.hpp"
#include "cuzk/filecoin/registered_proof.hpp"

namespace cuzk::filecoin {

/// A challenged sector's public data.
struct PostPublicSector {
  std::uint64_t sector_id = 0;
  Bytes32 comm_r{};
};

/// Verifies one sector's proof at |sector_index| (its position in the whole PoSt; 0 for
/// WinningPoSt). unsatisfied (or the decoding error of a node) naming sector, challenge and field.
Status verify_post_sector(const PostProof& proof, const Bytes32& randomness,
                          const PostPublicSector& sector, std::uint64_t sector_index,
                          const FallbackPoStSectorProof& vanilla);

/// Verifies a PoSt's vanilla proofs: |sectors| in PoSt order (WindowPoSt: all sectors, or the
/// sectors of partition |partition_index| when given; WinningPoSt: the one challenged sector),
/// each with the proof in |vanilla| that has its sector id.
Status verify_post_vanilla(const PostProof& proof, const Bytes32& randomness,
                           std::span<const PostPublicSector> sectors,
                           std::span<const FallbackPoStSectorProof> vanilla,
                           std::optional<std::uint64_t> partition_index = std::nullopt);

}  // namespace cuzk::filecoin
