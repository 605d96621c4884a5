#include "cuzk/filecoin/tree_d.hpp"

#include <cassert>

#include "cuzk/hash/sha256.hpp"

namespace cuzk::filecoin {
namespace {

// Writes row r+1 (|in|.size()/2 nodes) from row r, in parallel chunks; one hasher per chunk.
void hash_row(std::span<const Node> in, std::span<Node> out, ThreadPool& pool) {
  pool.parallel_for(
      out.size(),
      [&](std::size_t b, std::size_t e) {
        hash::Sha256 h;
        for (std::size_t i = b; i < e; ++i) {
          out[i] = h.update(in[2 * i]).update(in[2 * i + 1]).finish();
          truncate_to_fr254(out[i]);
        }
      },
      1024);
}

}  // namespace

Node tree_d_hash(const Node& left, const Node& right) {
  hash::Sha256 h;
  Node out = h.update(left).update(right).finish();
  truncate_to_fr254(out);
  return out;
}

std::vector<Node> build_tree_d(std::span<const Node> leaves, ThreadPool& pool) {
  const std::size_t n = leaves.size();
  assert(n >= 1 && (n & (n - 1)) == 0);
  std::vector<Node> tree(2 * n - 1);
  std::copy(leaves.begin(), leaves.end(), tree.begin());
  std::size_t at = 0;
  for (std::size_t width = n; width > 1; width /= 2) {
    std::span<const Node> in(tree.data() + at, width);
    std::span<Node> out(tree.data() + at + width, width / 2);
    hash_row(in, out, pool);
    at += width;
  }
  return tree;
}

Node tree_d_root(std::span<const Node> leaves, ThreadPool& pool) {
  const std::size_t n = leaves.size();
  assert(n >= 1 && (n & (n - 1)) == 0);
  if (n == 1) return leaves[0];
  std::vector<Node> row(n / 2);
  hash_row(leaves, row, pool);
  for (std::size_t width = n / 2; width > 1; width /= 2) {
    std::vector<Node> next(width / 2);
    hash_row(row, next, pool);
    row.swap(next);
  }
  return row[0];
}

}  // namespace cuzk::filecoin
