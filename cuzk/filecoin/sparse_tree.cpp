#include "cuzk/filecoin/sparse_tree.hpp"

#include <string>

#include "cuzk/filecoin/tree_d.hpp"
#include "cuzk/hash/poseidon.hpp"

namespace cuzk::filecoin {

Result<SparseTree> SparseTree::poseidon(const TreeShape& shape, std::uint64_t leaves,
                                        const std::map<std::uint64_t, Node>& nonzero) {
  auto base = base_levels(shape, leaves);
  if (!base.ok()) return base.status();
  if (shape.base != 8 || (shape.sub != 0 && shape.sub != 8) || (shape.top != 0 && shape.top != 2) ||
      (shape.top && !shape.sub))
    return Status(Errc::invalid_argument, "sparse tree: shape " + shape.name() + " is not 8-x-x");
  SparseTree t;
  t.shape_ = shape;
  t.leaves_ = leaves;
  t.base_levels_ = *base;
  t.arity_.assign(*base, shape.base);
  if (shape.sub) t.arity_.push_back(shape.sub);
  if (shape.top) t.arity_.push_back(shape.top);
  for (const auto& [i, v] : nonzero)
    if (!fr_from_node(v).ok())
      return Status(Errc::out_of_range,
                    "sparse tree: leaf " + std::to_string(i) + " is not below r");
  CUZK_RETURN_IF_ERROR(t.build(nonzero));
  return t;
}

Result<SparseTree> SparseTree::sha256(std::uint64_t leaves,
                                      const std::map<std::uint64_t, Node>& nonzero) {
  if (leaves < 2 || (leaves & (leaves - 1)))
    return Status(Errc::invalid_argument,
                  "sparse tree_d: " + std::to_string(leaves) + " leaves is not a power of two");
  SparseTree t;
  t.sha_ = true;
  t.shape_ = TreeShape{2, 0, 0};
  t.leaves_ = leaves;
  for (std::uint64_t n = leaves; n > 1; n /= 2) t.arity_.push_back(2);
  t.base_levels_ = static_cast<unsigned>(t.arity_.size());
  CUZK_RETURN_IF_ERROR(t.build(nonzero));
  return t;
}

Node SparseTree::hash(unsigned level, std::span<const Node> children) const {
  if (sha_) return tree_d_hash(children[0], children[1]);
  std::vector<Fr> pre;
  pre.reserve(children.size());
  for (const Node& c : children) pre.push_back(*fr_from_node(c));
  const unsigned a = arity_[level];
  return node_from_fr(hash::poseidon_hash_merkle(*hash::poseidon_constants(a), pre));
}

Status SparseTree::build(std::map<std::uint64_t, Node> nonzero) {
  for (const auto& [i, v] : nonzero)
    if (i >= leaves_)
      return Status(Errc::out_of_range, "sparse tree: leaf " + std::to_string(i) +
                                            " is past the tree's " + std::to_string(leaves_));
  zeros_.assign(1, Node{});
  for (unsigned l = 0; l < arity_.size(); ++l) {
    const std::vector<Node> kids(arity_[l], zeros_[l]);
    zeros_.push_back(hash(l, kids));
  }
  levels_.clear();
  levels_.push_back(std::move(nonzero));
  for (unsigned l = 0; l < arity_.size(); ++l) {
    const unsigned a = arity_[l];
    std::map<std::uint64_t, Node> up;
    const auto& row = levels_[l];
    for (auto it = row.begin(); it != row.end();) {
      const std::uint64_t parent = it->first / a;
      std::vector<Node> kids(a, zeros_[l]);
      for (; it != row.end() && it->first / a == parent; ++it) kids[it->first % a] = it->second;
      up.emplace(parent, hash(l, kids));
    }
    levels_.push_back(std::move(up));
  }
  if (levels_.back().empty()) levels_.back().emplace(0, zeros_.back());
  return {};
}

const Node& SparseTree::node(unsigned level, std::uint64_t index) const {
  const auto it = levels_[level].find(index);
  return it == levels_[level].end() ? zeros_[level] : it->second;
}

MerkleProof SparseTree::proof(std::uint64_t leaf) const {
  return proof_from_nodes(
      sha_ ? MerkleProofKind::single : merkle_proof_kind(shape_), arity_, base_levels_, leaf,
      [this](unsigned l, std::uint64_t i) { return node(l, i); }, root());
}

}  // namespace cuzk::filecoin
