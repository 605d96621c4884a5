#include "cuzk/filecoin/merkle_prove.hpp"

#include <cassert>

namespace cuzk::filecoin {
namespace {

// The group of |arity| nodes around position |j| of |row|, without j itself.
template <class T, class Conv>
PathElement group_element(std::span<const T> row, std::uint64_t j, unsigned arity, Conv conv) {
  PathElement e;
  const std::uint64_t first = j - j % arity;
  e.index = j % arity;
  for (unsigned s = 0; s < arity; ++s)
    if (first + s != j) e.hashes.push_back(conv(row[first + s]));
  return e;
}

}  // namespace

MerkleProof poseidon_tree_proof(const PoseidonTree& tree, std::uint64_t c) {
  assert(c < tree.leaves());
  const TreeShape& shape = tree.shape();
  const auto conv = [](const Fr& x) { return node_from_fr(x); };
  MerkleProof p;
  p.kind = merkle_proof_kind(shape);
  const unsigned i = static_cast<unsigned>(c / tree.base_tree_leaves());
  std::uint64_t j = c % tree.base_tree_leaves();
  p.leaf = node_from_fr(tree.base_row(i, 0)[j]);
  for (unsigned level = 0; level + 1 < tree.base_rows(); ++level) {
    p.base_path.push_back(group_element(tree.base_row(i, level), j, shape.base, conv));
    j /= shape.base;
  }
  std::vector<Fr> base_roots(tree.base_tree_count());
  for (unsigned t = 0; t < tree.base_tree_count(); ++t) base_roots[t] = tree.base_root(t);
  if (shape.sub) p.sub_path.push_back(group_element<Fr>(base_roots, i, shape.sub, conv));
  if (shape.top)
    p.top_path.push_back(group_element<Fr>(tree.sub_roots(), i / shape.sub, shape.top, conv));
  p.root = node_from_fr(tree.root());
  return p;
}

std::span<const Node> tree_d_row(std::span<const Node> tree_d, std::uint64_t leaves,
                                 unsigned level) {
  std::uint64_t at = 0, width = leaves;
  for (unsigned l = 0; l < level; ++l) {
    at += width;
    width /= 2;
  }
  return tree_d.subspan(at, width);
}

MerkleProof tree_d_proof(std::span<const Node> tree_d, std::uint64_t leaves, std::uint64_t c) {
  assert(c < leaves && tree_d.size() == 2 * leaves - 1);
  MerkleProof p;
  p.kind = MerkleProofKind::single;
  p.leaf = tree_d[c];
  const auto same = [](const Node& n) { return n; };
  std::uint64_t at = 0, width = leaves, j = c;
  while (width > 1) {
    p.base_path.push_back(group_element(tree_d.subspan(at, width), j, 2, same));
    at += width;
    width /= 2;
    j /= 2;
  }
  p.root = tree_d.back();
  return p;
}

}  // namespace cuzk::filecoin
