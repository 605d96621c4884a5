#include "cuzk/filecoin/sdr_labels.hpp"

#include <algorithm>
#include <cassert>
#include <cstring>

#include "cuzk/hash/sha256.hpp"

namespace cuzk::filecoin {
namespace {

constexpr unsigned kLabelParents = 37;                // parent labels hashed per node
constexpr std::size_t kChunk = std::size_t{1} << 13;  // nodes whose parents are drawn together

}  // namespace

std::array<std::uint8_t, 64> label_prefix(const Node& replica_id, unsigned layer,
                                          std::uint64_t node) {
  std::array<std::uint8_t, 64> p{};
  std::memcpy(p.data(), replica_id.data(), 32);
  for (int i = 0; i < 4; ++i) p[32 + i] = static_cast<std::uint8_t>(layer >> (24 - 8 * i));
  for (int i = 0; i < 8; ++i) p[36 + i] = static_cast<std::uint8_t>(node >> (56 - 8 * i));
  return p;
}

void sdr_label_layer(const SdrGraph& graph, const Node& replica_id, unsigned layer,
                     std::span<const Node> prev, std::span<Node> out, ThreadPool& pool) {
  constexpr unsigned kDeg = SdrGraph::kDegree, kBase = SdrGraph::kBaseDegree;
  const std::uint64_t n = graph.nodes();
  assert(out.size() == n && (layer == 1 || prev.size() == n));
  std::vector<std::uint32_t> parents(kChunk * kDeg);
  // prefix ‖ 37 parent labels, rewritten per node.
  std::array<std::uint8_t, 64 + kLabelParents * kNodeBytes> buf{};
  hash::Sha256 h;

  for (std::uint64_t start = 0; start < n; start += kChunk) {
    const std::size_t count = static_cast<std::size_t>(std::min<std::uint64_t>(kChunk, n - start));
    pool.parallel_for(
        count,
        [&](std::size_t b, std::size_t e) {
          if (layer == 1) {
            for (std::size_t i = b; i < e; ++i)
              graph.base_parents(start + i,
                                 std::span<std::uint32_t, kBase>(parents.data() + i * kDeg, kBase));
          } else {  // the expander's permutations in vector lanes
            graph.parents_range(
                start + b, std::span<std::uint32_t>(parents.data() + b * kDeg, (e - b) * kDeg));
          }
        },
        256);
    for (std::size_t i = 0; i < count; ++i) {
      const std::uint64_t v = start + i;
      const auto prefix = label_prefix(replica_id, layer, v);
      std::memcpy(buf.data(), prefix.data(), prefix.size());
      std::size_t len = 64;
      if (v > 0) {
        const std::uint32_t* p = parents.data() + i * kDeg;
        std::uint8_t* dst = buf.data() + 64;
        auto put = [&](unsigned k) {
          const Node& src = (layer == 1 || k < kBase) ? out[p[k]] : prev[p[k]];
          std::memcpy(dst, src.data(), kNodeBytes);
          dst += kNodeBytes;
        };
        if (layer == 1) {
          for (unsigned r = 0; r < 6; ++r)
            for (unsigned k = 0; k < kBase; ++k) put(k);
          put(0);
        } else {
          for (unsigned r = 0; r < 2; ++r)
            for (unsigned k = 0; k < kDeg; ++k) put(k);
          for (unsigned k = 0; k < 9; ++k) put(k);
        }
        len = static_cast<std::size_t>(dst - buf.data());
      }
      out[v] = h.update(std::span<const std::uint8_t>(buf.data(), len)).finish();
      truncate_to_fr254(out[v]);
    }
  }
}

std::vector<std::vector<Node>> sdr_labels(const SdrGraph& graph, const Node& replica_id,
                                          unsigned layers, ThreadPool& pool) {
  std::vector<std::vector<Node>> labels(layers);
  for (unsigned l = 1; l <= layers; ++l) {
    labels[l - 1].resize(graph.nodes());
    std::span<const Node> prev;
    if (l > 1) prev = labels[l - 2];
    sdr_label_layer(graph, replica_id, l, prev, labels[l - 1], pool);
  }
  return labels;
}

}  // namespace cuzk::filecoin
