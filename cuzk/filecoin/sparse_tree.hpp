// Merkle trees of whole sectors whose leaves are zero except a few (docs/filecoin/synth-inputs.md):
// the roots and inclusion proofs of a 32 or 64 GiB tree without its 2^30–2^31 leaves. A subtree
// whose leaves are all zero has the same root at every position of its level, so one digest per
// level is cached: Z[0] = the zero node, Z[l + 1] = H(Z[l], …, Z[l]) (arity of level l). Only the
// nodes above non-zero leaves are hashed; every other node is Z[level].
//   * Poseidon trees in the sector's shape (tree_c, tree_r_last; poseidon_tree.hpp): base levels
//     of arity 8, then the sub level (8) and the top level (2) where the shape has them — the
//     same tree as PoseidonTree over the dense leaves (the sub level hashes 8 base roots, the top
//     level 2 sub roots), so its proofs are Single/Sub/Top like poseidon_tree_proof's.
//   * The binary SHA-256 tree_d (tree_d.hpp: SHA-256(left ‖ right), byte 31 &= 0x3f).
// Cost: levels × (non-zero leaves) hashes at most; the dense PoseidonTree / build_tree_d are the
// slow twins (sparse_tree_test).
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "cuzk/base/status.hpp"
#include "cuzk/filecoin/merkle_proof.hpp"
#include "cuzk/filecoin/node.hpp"
#include "cuzk/filecoin/registered_proof.hpp"

namespace cuzk::filecoin {

class SparseTree {
 public:
  /// A Poseidon tree of |shape| over |leaves| leaves (base trees of a power of 8 leaves each);
  /// |nonzero| maps leaf index → value (each < r, index < leaves). invalid_argument / out_of_range
  /// naming the leaf otherwise.
  static Result<SparseTree> poseidon(const TreeShape& shape, std::uint64_t leaves,
                                     const std::map<std::uint64_t, Node>& nonzero);
  /// The binary SHA-256 tree_d over |leaves| (a power of two) leaves.
  static Result<SparseTree> sha256(std::uint64_t leaves,
                                   const std::map<std::uint64_t, Node>& nonzero);

  const Node& root() const { return levels_.back().begin()->second; }
  std::uint64_t leaves() const { return leaves_; }
  /// The node at |level| (0 = leaves), position |index|.
  const Node& node(unsigned level, std::uint64_t index) const;
  /// The inclusion proof of |leaf| (any leaf below leaves(), zero or not).
  MerkleProof proof(std::uint64_t leaf) const;
  /// Z[level]: the root of an all-zero subtree whose root is at |level|.
  const Node& zero(unsigned level) const { return zeros_[level]; }

 private:
  bool sha_ = false;
  TreeShape shape_;
  std::uint64_t leaves_ = 0;
  unsigned base_levels_ = 0;
  std::vector<unsigned> arity_;                        ///< per level, leaf level first
  std::vector<Node> zeros_;                            ///< Z[0..levels]
  std::vector<std::map<std::uint64_t, Node>> levels_;  ///< non-zero-subtree nodes per level

  Status build(std::map<std::uint64_t, Node> nonzero);
  Node hash(unsigned level, std::span<const Node> children) const;
};

}  // namespace cuzk::filecoin
