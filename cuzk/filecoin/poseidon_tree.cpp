#include "cuzk/filecoin/poseidon_tree.hpp"

#include <string>

#include "cuzk/hash/poseidon.hpp"

namespace cuzk::filecoin {
namespace {

bool has_constants(unsigned arity) { return arity == 2 || arity == 4 || arity == 8; }

// Returns true when |n| = arity^k with k ≥ 1.
bool is_power_of(std::uint64_t n, unsigned arity) {
  if (n < arity) return false;
  while (n % arity == 0) n /= arity;
  return n == 1;
}

// Parents of one row, |out|[i] = Poseidon_A(in[A·i .. A·i + A)), in parallel.
void hash_row(const hash::PoseidonConstants& c, std::span<const Fr> in, std::span<Fr> out,
              ThreadPool& pool) {
  const std::size_t a = c.arity;
  pool.parallel_for(
      out.size(),
      [&](std::size_t b, std::size_t e) {
        for (std::size_t i = b; i < e; ++i)
          out[i] = hash::poseidon_hash_merkle(c, in.subspan(a * i, a));
      },
      64);
}

}  // namespace

std::uint64_t merkle_tree_len(std::uint64_t leaves, unsigned arity) {
  std::uint64_t len = 0;
  for (std::uint64_t w = leaves; w >= 1; w /= arity) {
    len += w;
    if (w == 1) break;
  }
  return len;
}

unsigned merkle_tree_rows(std::uint64_t leaves, unsigned arity) {
  unsigned rows = 1;
  for (std::uint64_t w = leaves; w > 1; w /= arity) ++rows;
  return rows;
}

Result<PoseidonTree> PoseidonTree::build(std::vector<Fr> leaves, const TreeShape& shape,
                                         ThreadPool& pool) {
  if (!has_constants(shape.base) || (shape.sub && !has_constants(shape.sub)) ||
      (shape.top && !has_constants(shape.top)) || (shape.top && !shape.sub))
    return Status(Errc::invalid_argument, "tree shape " + shape.name() + " is not supported");
  const std::uint64_t count = shape.base_trees();
  if (leaves.empty() || leaves.size() % count != 0 ||
      !is_power_of(leaves.size() / count, shape.base))
    return Status(Errc::invalid_argument,
                  std::to_string(leaves.size()) + " leaves do not split into " +
                      std::to_string(count) + " base trees of a power of " +
                      std::to_string(shape.base) + " leaves (shape " + shape.name() + ")");

  PoseidonTree t;
  t.shape_ = shape;
  t.base_leaves_ = leaves.size() / count;
  for (std::uint64_t w = t.base_leaves_, at = 0;; at += w, w /= shape.base) {
    t.row_offsets_.push_back(at);
    if (w == 1) break;
  }
  const std::uint64_t len = merkle_tree_len(t.base_leaves_, shape.base);
  const auto& base_c = *hash::poseidon_constants(shape.base);

  t.base_.resize(count);
  for (std::uint64_t i = 0; i < count; ++i) {
    std::vector<Fr>& tree = t.base_[i];
    if (count == 1) {
      tree = std::move(leaves);
    } else {
      tree.assign(leaves.begin() + static_cast<std::ptrdiff_t>(i * t.base_leaves_),
                  leaves.begin() + static_cast<std::ptrdiff_t>((i + 1) * t.base_leaves_));
    }
    tree.resize(len);
    for (std::size_t r = 0; r + 1 < t.row_offsets_.size(); ++r) {
      const std::uint64_t w = t.row_offsets_[r + 1] - t.row_offsets_[r];
      hash_row(base_c, std::span<const Fr>(tree.data() + t.row_offsets_[r], w),
               std::span<Fr>(tree.data() + t.row_offsets_[r + 1], w / shape.base), pool);
    }
  }
  std::vector<Fr>().swap(leaves);  // the base trees hold their copies

  if (!shape.sub) {
    t.root_ = t.base_[0].back();
    return t;
  }
  const auto& sub_c = *hash::poseidon_constants(shape.sub);
  std::vector<Fr> roots(shape.sub);
  const unsigned subs = shape.top ? shape.top : 1;
  std::vector<Fr> sub_roots(subs);
  for (unsigned j = 0; j < subs; ++j) {
    for (unsigned k = 0; k < shape.sub; ++k) roots[k] = t.base_[j * shape.sub + k].back();
    sub_roots[j] = hash::poseidon_hash_merkle(sub_c, roots);
  }
  if (!shape.top) {
    t.root_ = sub_roots[0];
    return t;
  }
  t.root_ = hash::poseidon_hash_merkle(*hash::poseidon_constants(shape.top), sub_roots);
  t.sub_roots_ = std::move(sub_roots);
  return t;
}

std::span<const Fr> PoseidonTree::base_row(unsigned i, unsigned level) const {
  const std::uint64_t begin = row_offsets_[level];
  const std::uint64_t end =
      level + 1 < row_offsets_.size() ? row_offsets_[level + 1] : base_[i].size();
  return std::span<const Fr>(base_[i]).subspan(begin, end - begin);
}

}  // namespace cuzk::filecoin
