// PoR without challenge-bit allocation (rust-fil-proofs storage-proofs-core gadgets/por.rs
// `por_no_challenge_input`, used by SnapDeals; FORMATS.md §4.2): the caller's existing allocated
// bits (little-endian, the leaf index) steer the path, so nothing is allocated for them and no
// public input is made. With path levels base… then at most one sub and one top level:
//   per level h (scopes "merkle proof insert (height=h)", "merkle proof hash (height=h)"):
//     take log2(A) bits, insert the current node among the A − 1 given siblings (insertion.hpp:
//     2 / 8 / 22 constraints for A = 2 / 4 / 8), hash the A nodes (merkle.hpp merkle_node_circuit:
//     Poseidon_A with the MerkleTree tag, or SHA-256 for binary tree_d)
//   then computed·ONE = root ("calculated root == provided root")
// Every bit must be used (the bit count is Σ log2(A) over the levels: invalid_argument otherwise).
// Cost per level: SHA-256 binary 2 + 45,379 = 45,381; Poseidon 8: 22 + 505 = 527; 4: 8 + 377 =
// 385; 2: 2 + 311 = 313; plus 1 for the root check. (merkle.hpp's PoR costs log2(A) more per level
// and 1 more per path, for its bits and its packed public input.)
#pragma once

#include <span>
#include <vector>

#include "cuzk/r1cs/gadgets/merkle.hpp"

namespace cuzk {

/// Arities of a tree: base levels of |base|, then one |sub| level and one |top| level when
/// non-zero (top needs sub), as storage-proofs-core MerkleTreeTrait.
struct TreeArities {
  unsigned base = 2, sub = 0, top = 0;
};

/// por_no_challenge_input: |path| holds one vector of siblings per level, leaf level first (base
/// levels, then sub, then top); |bits| the leaf index, LSB first. size_mismatch for a level with
/// the wrong sibling count, invalid_argument for a bit count that does not match the path.
Status por_no_challenge_input(ConstraintSystem& cs, MerkleHash hash, const TreeArities& arities,
                              std::span<const AllocatedBit> bits, const AllocatedNum& leaf,
                              std::span<const std::vector<AllocatedNum>> path,
                              const AllocatedNum& root);

/// Out of circuit: the root reached from |leaf| at index |index| along |path| (sibling values per
/// level), with the same level arities.
Fr por_root_native(MerkleHash hash, const TreeArities& arities, std::uint64_t index, const Fr& leaf,
                   std::span<const std::vector<Fr>> path);

}  // namespace cuzk
