// Merkle trees of whole sectors whose leaves are constant on aligned blocks (the synthetic
// SnapDeals inputs, docs/filecoin/synth-inputs.md): leaf i is blocks[i / (leaves / B)] for B
// blocks (a power of two dividing the leaf count). Every row of such a tree is again constant on
// aligned runs: a row of values V each repeated R times, hashed with arity a, is the row of
// H(v, …, v) for each v, each repeated R / a times, while a divides R; once R < a the row is
// written out (R = 1) and hashed group by group. So a 2^30-leaf tree of 1024 blocks costs about
// 1024 hashes per level for the bottom levels and a few thousand above, never the 2^30 leaves.
//   * Poseidon trees of the sector's shape (8-x-x: base levels of 8, a sub level of 8 and a top
//     level of 2 where the shape has them), as PoseidonTree builds them; proofs Single/Sub/Top as
//     poseidon_tree_proof's.
//   * The binary SHA-256 tree_d (tree_d_hash).
// The dense PoseidonTree / build_tree_d are the slow twins (synth_snap_test).
#pragma once

#include <cstdint>
#include <vector>

#include "cuzk/base/status.hpp"
#include "cuzk/base/thread_pool.hpp"
#include "cuzk/filecoin/merkle_proof.hpp"
#include "cuzk/filecoin/node.hpp"
#include "cuzk/filecoin/registered_proof.hpp"

namespace cuzk::filecoin {

class BlockTree {
 public:
  /// A Poseidon tree of |shape| over |leaves| leaves, leaf i = blocks[i / (leaves / B)];
  /// invalid_argument when B is not a power of two dividing |leaves| or the shape is not 8-x-x,
  /// out_of_range naming the block when a value is not below r.
  static Result<BlockTree> poseidon(const TreeShape& shape, std::uint64_t leaves,
                                    std::vector<Node> blocks, ThreadPool& pool);
  /// The binary SHA-256 tree_d over |leaves| (a power of two) leaves.
  static Result<BlockTree> sha256(std::uint64_t leaves, std::vector<Node> blocks, ThreadPool& pool);

  const Node& root() const { return rows_.back().values.front(); }
  std::uint64_t leaves() const { return leaves_; }
  /// The node at |level| (0 = leaves), position |index|.
  const Node& node(unsigned level, std::uint64_t index) const {
    const Row& r = rows_[level];
    return r.values[index / r.repeat];
  }
  /// The inclusion proof of |leaf| (< leaves()).
  MerkleProof proof(std::uint64_t leaf) const;

 private:
  struct Row {
    std::vector<Node> values;
    std::uint64_t repeat = 1;  ///< each value stands for this many consecutive nodes
  };
  bool sha_ = false;
  TreeShape shape_;
  std::uint64_t leaves_ = 0;
  unsigned base_levels_ = 0;
  std::vector<unsigned> arity_;  ///< per level, leaf level first
  std::vector<Row> rows_;        ///< leaf row first, root row last

  Status build(std::vector<Node> blocks, ThreadPool& pool);
  Node hash(unsigned level, std::span<const Node> children) const;
};

}  // namespace cuzk::filecoin
