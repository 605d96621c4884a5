#include "cuzk/filecoin/block_tree.hpp"

#include <string>

#include "cuzk/filecoin/tree_d.hpp"
#include "cuzk/hash/poseidon.hpp"

namespace cuzk::filecoin {

Result<BlockTree> BlockTree::poseidon(const TreeShape& shape, std::uint64_t leaves,
                                      std::vector<Node> blocks, ThreadPool& pool) {
  auto base = base_levels(shape, leaves);
  if (!base.ok()) return base.status();
  if (shape.base != 8 || (shape.sub != 0 && shape.sub != 8) || (shape.top != 0 && shape.top != 2) ||
      (shape.top && !shape.sub))
    return Status(Errc::invalid_argument, "block tree: shape " + shape.name() + " is not 8-x-x");
  for (std::size_t i = 0; i < blocks.size(); ++i)
    if (!fr_from_node(blocks[i]).ok())
      return Status(Errc::out_of_range,
                    "block tree: block " + std::to_string(i) + "'s value is not below r");
  BlockTree t;
  t.shape_ = shape;
  t.leaves_ = leaves;
  t.base_levels_ = *base;
  t.arity_.assign(*base, shape.base);
  if (shape.sub) t.arity_.push_back(shape.sub);
  if (shape.top) t.arity_.push_back(shape.top);
  CUZK_RETURN_IF_ERROR(t.build(std::move(blocks), pool));
  return t;
}

Result<BlockTree> BlockTree::sha256(std::uint64_t leaves, std::vector<Node> blocks,
                                    ThreadPool& pool) {
  if (leaves < 2 || (leaves & (leaves - 1)))
    return Status(Errc::invalid_argument,
                  "block tree_d: " + std::to_string(leaves) + " leaves is not a power of two");
  BlockTree t;
  t.sha_ = true;
  t.shape_ = TreeShape{2, 0, 0};
  t.leaves_ = leaves;
  for (std::uint64_t n = leaves; n > 1; n /= 2) t.arity_.push_back(2);
  t.base_levels_ = static_cast<unsigned>(t.arity_.size());
  CUZK_RETURN_IF_ERROR(t.build(std::move(blocks), pool));
  return t;
}

Node BlockTree::hash(unsigned level, std::span<const Node> children) const {
  if (sha_) return tree_d_hash(children[0], children[1]);
  std::vector<Fr> pre;
  pre.reserve(children.size());
  for (const Node& c : children) pre.push_back(*fr_from_node(c));
  return node_from_fr(hash::poseidon_hash_merkle(*hash::poseidon_constants(arity_[level]), pre));
}

Status BlockTree::build(std::vector<Node> blocks, ThreadPool& pool) {
  const std::uint64_t b = blocks.size();
  if (b == 0 || (b & (b - 1)) || leaves_ % b)
    return Status(Errc::invalid_argument, "block tree: " + std::to_string(b) +
                                              " blocks do not split " + std::to_string(leaves_) +
                                              " leaves into equal power-of-two blocks");
  rows_.clear();
  rows_.push_back({std::move(blocks), leaves_ / b});
  for (unsigned l = 0; l < arity_.size(); ++l) {
    const unsigned a = arity_[l];
    Row row = rows_.back();  // a copy: rows_ grows below
    Row up;
    if (row.repeat % a == 0) {
      // Every group of a children is a run of one value.
      up.repeat = row.repeat / a;
      up.values.resize(row.values.size());
      pool.parallel_for(row.values.size(), [&](std::size_t i) {
        const std::vector<Node> kids(a, row.values[i]);
        up.values[i] = hash(l, kids);
      });
    } else {
      // Write the row out (repeat 1), then hash group by group.
      std::vector<Node> full;
      full.reserve(row.values.size() * row.repeat);
      for (const Node& v : row.values) full.insert(full.end(), row.repeat, v);
      up.repeat = 1;
      up.values.resize(full.size() / a);
      pool.parallel_for(up.values.size(), [&](std::size_t i) {
        up.values[i] = hash(l, std::span<const Node>(full).subspan(i * a, a));
      });
    }
    rows_.push_back(std::move(up));
  }
  return {};
}

MerkleProof BlockTree::proof(std::uint64_t leaf) const {
  return proof_from_nodes(
      sha_ ? MerkleProofKind::single : merkle_proof_kind(shape_), arity_, base_levels_, leaf,
      [this](unsigned l, std::uint64_t i) { return node(l, i); }, root());
}

}  // namespace cuzk::filecoin
