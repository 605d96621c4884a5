// The SnapDeals apex tree (rust-fil-proofs storage-proofs-update gadgets.rs `apex_por`;
// FORMATS.md §4.2). A partition's apex leaves are a row of tree_d (the SHA-256 binary tree over
// the sector's data): |apex_leaves| (a power of two, 8 or 128) consecutive nodes. In circuit:
//   1. hash the leaves pairwise, row by row, up to the apex root: apex_leaves − 1 SHA-256 node
//      hashes (filecoin-hashers Sha256Function::hash2_circuit, scope
//      "apex_tree generation hash (tree_row=r, siblings=i)"): each input to_bits_le (scopes
//      "a_bits" / "b_bits", 256 constraints each), bytes reordered MSB first, sha256 of the 512
//      bits (scope "hash"), the digest re-reversed per byte and 254 bits packed ("pack_le"):
//      45,379 constraints per hash;
//   2. PoR of the apex root to comm_d along the partition path (one sibling per level), steered by
//      the partition bits (por_no_challenge.hpp, scope "partition-tree por"): 45,381 per level + 1.
// Cost: (apex_leaves − 1)·45,379 + partition_bits·45,381 + 1 — 317,654 for 8 leaves and no
// partition bits, 5,808,515 for 128 leaves and one partition bit (upstream gadget tests).
#pragma once

#include <span>
#include <vector>

#include "cuzk/r1cs/gadgets/num.hpp"

namespace cuzk {

/// Sha256Function::hash2_circuit(a, b): the tree_d node of two children.
Result<AllocatedNum> sha256_hash2_circuit(ConstraintSystem& cs, const AllocatedNum& a,
                                          const AllocatedNum& b);

/// apex_por: |partition_bits| LSB first, |partition_path| one sibling per level (leaf side
/// first); size_mismatch when the leaf count is not a power of two ≥ 2 or the path and the bits
/// differ in length.
Status apex_por(ConstraintSystem& cs, std::span<const AllocatedNum> apex_leaves,
                std::span<const AllocatedBit> partition_bits,
                std::span<const AllocatedNum> partition_path, const AllocatedNum& comm_d);

/// Out of circuit: the root of the binary SHA-256 tree over |leaves| (a power of two ≥ 1).
Fr apex_root_native(std::span<const Fr> leaves);

}  // namespace cuzk
