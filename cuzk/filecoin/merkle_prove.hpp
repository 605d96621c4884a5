// Inclusion proofs out of built trees, as storage-proofs-core's MerkleTreeWrapper::gen_proof and
// gen_cached_proof produce them (merkle/proof.rs; merkle_proof.hpp describes the format):
//   * a Poseidon tree of shape base-sub-top (poseidon_tree.hpp): leaf c lies in base tree
//     i = c / w (w leaves each) at j = c mod w; each base level holds the arity − 1 siblings of
//     the current node (its group of |base| nodes in the row, without itself) and its position in
//     the group; 8-8-0 adds one sub level over the base roots (position i); 8-8-2 a sub level over
//     the |sub| base roots of sub tree i / sub (position i mod sub) and a top level over the sub
//     roots (position i / sub). Variant Single / Sub / Top as merkle_proof_kind(shape).
//   * tree_d (tree_d.hpp layout, every row leaves first): Single, one sibling per level
//     (node index xor 1), position = index & 1.
// A cached proof (rows_to_discard > 0) is the same proof; upstream rebuilds the discarded rows.
#pragma once

#include <cstdint>
#include <span>

#include "cuzk/filecoin/merkle_proof.hpp"
#include "cuzk/filecoin/node.hpp"
#include "cuzk/filecoin/poseidon_tree.hpp"

namespace cuzk::filecoin {

/// The proof of leaf |c| (< tree.leaves()) of |tree|.
MerkleProof poseidon_tree_proof(const PoseidonTree& tree, std::uint64_t c);

/// Row |level| (0 = the leaves) of a tree_d of |leaves| leaves stored as build_tree_d returns it.
std::span<const Node> tree_d_row(std::span<const Node> tree_d, std::uint64_t leaves,
                                 unsigned level);

/// The proof of leaf |c| of that tree_d.
MerkleProof tree_d_proof(std::span<const Node> tree_d, std::uint64_t leaves, std::uint64_t c);

}  // namespace cuzk::filecoin
