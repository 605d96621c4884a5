// Poseidon Merkle trees of the shapes Filecoin uses for tree_c and tree_r_last (base-sub-top
// arities 8-0-0, 8-8-0, 8-8-2; registered_proof.hpp TreeShape), as storage-proofs-core's merkle
// builders and the merkletree crate make them (FORMATS.md §3.4):
//   * the leaves are split into base_trees() = sub·top (or 1) contiguous base trees of equal size
//     (split_config_and_replica: base tree i covers nodes [i·w, (i+1)·w));
//   * each base tree is a full tree of arity `base` over its w leaves (w a power of the arity);
//     leaves are the elements themselves (PoseidonFunction::leaf is the identity);
//   * a parent is Poseidon_A(children in order) with the MerkleTree tag 2^A − 1
//     (shared_hash_frs / multi_node);
//   * 8-8-0: the root is Poseidon_8 of the 8 base roots (MerkleTree::from_trees);
//     8-8-2: sub tree j is Poseidon_8 of base roots [8j, 8j+8), the root is Poseidon_2 of the two
//     sub roots (from_sub_trees). Sub and top are single levels.
// Each base tree is kept as rust-fil-proofs' DiskStore holds it: its rows concatenated, leaves
// first, root last (get_merkle_tree_len(w, A) = w + w/A + … + 1 nodes).
// Cost: (w − 1)/(A − 1) arity-A hashes per base tree (arity 8: ~1.3k Fr multiplications each).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/base/status.hpp"
#include "cuzk/base/thread_pool.hpp"
#include "cuzk/ff/fr.hpp"
#include "cuzk/filecoin/registered_proof.hpp"

namespace cuzk::filecoin {

class PoseidonTree {
 public:
  /// The tree of |shape| over |leaves|. invalid_argument when an arity has no Poseidon constants
  /// (base 2/4/8, sub and top 0/2/4/8; top needs sub), or when the leaves do not split into
  /// base_trees() trees whose size is a power of the base arity ≥ the arity. Rows are hashed in
  /// parallel on |pool|.
  static Result<PoseidonTree> build(std::vector<Fr> leaves, const TreeShape& shape,
                                    ThreadPool& pool);

  const TreeShape& shape() const { return shape_; }
  /// Leaves of the whole tree.
  std::uint64_t leaves() const { return base_leaves_ * base_.size(); }
  /// Number of base trees (1, sub, or sub·top).
  unsigned base_tree_count() const { return static_cast<unsigned>(base_.size()); }
  /// Leaves of each base tree.
  std::uint64_t base_tree_leaves() const { return base_leaves_; }
  /// Rows of each base tree, the leaf row and the root included (log_A(w) + 1).
  unsigned base_rows() const { return static_cast<unsigned>(row_offsets_.size()); }
  /// Base tree |i|: all its rows concatenated, leaves first, root last.
  std::span<const Fr> base_tree(unsigned i) const { return base_[i]; }
  /// Row |level| (0 = leaves) of base tree |i|.
  std::span<const Fr> base_row(unsigned i, unsigned level) const;
  /// Root of base tree |i|.
  const Fr& base_root(unsigned i) const { return base_[i].back(); }
  /// Roots of the sub trees (8-8-2 only: 2), else empty.
  const std::vector<Fr>& sub_roots() const { return sub_roots_; }
  /// The root (comm_c for tree_c, comm_r_last for tree_r_last).
  const Fr& root() const { return root_; }

 private:
  TreeShape shape_;
  std::uint64_t base_leaves_ = 0;
  std::vector<std::uint64_t> row_offsets_;  ///< offset of each row inside a base tree
  std::vector<std::vector<Fr>> base_;
  std::vector<Fr> sub_roots_;
  Fr root_;
};

/// Number of nodes of a full tree of arity |arity| over |leaves| leaves (merkletree
/// get_merkle_tree_len): leaves + leaves/A + … + 1.
std::uint64_t merkle_tree_len(std::uint64_t leaves, unsigned arity);
/// Rows of that tree, leaves and root included (get_merkle_tree_row_count).
unsigned merkle_tree_rows(std::uint64_t leaves, unsigned arity);

}  // namespace cuzk::filecoin
