#include "cuzk/filecoin/sdr_graph.hpp"

#include <algorithm>
#include <bit>
#include <string_view>

#include "cuzk/hash/chacha8.hpp"
#include "cuzk/hash/sha256.hpp"

namespace cuzk::filecoin {
namespace {

// storage-proofs-core crypto/mod.rs: derive_porep_domain_seed(tag, porep_id) =
// SHA-256(tag ‖ porep_id), with the tags DRSAMPLE_DST and FEISTEL_DST.
hash::Digest32 domain_seed(std::string_view tag, const PorepId& porep_id) {
  hash::Sha256 h;
  h.update(tag);
  h.update(porep_id);
  return h.finish();
}

std::array<std::uint8_t, 28> derive_drg_seed(const PorepId& porep_id) {
  const hash::Digest32 d = domain_seed("Filecoin_DRSample", porep_id);
  std::array<std::uint8_t, 28> seed;
  std::copy_n(d.begin(), seed.size(), seed.begin());
  return seed;
}

std::array<std::uint64_t, 4> derive_feistel_keys(const PorepId& porep_id) {
  const hash::Digest32 d = domain_seed("Filecoin_Feistel", porep_id);
  std::array<std::uint64_t, 4> keys{};
  for (unsigned i = 0; i < 4; ++i)
    for (unsigned b = 0; b < 8; ++b) keys[i] |= std::uint64_t{d[8 * i + b]} << (8 * b);
  return keys;
}

}  // namespace

SdrGraph::SdrGraph(std::uint64_t nodes, const PorepId& porep_id, ApiVersion api)
    : nodes_(nodes),
      api_(api),
      porep_id_(porep_id),
      drg_seed_(derive_drg_seed(porep_id)),
      feistel_keys_(derive_feistel_keys(porep_id)),
      feistel_(nodes * kExpansionDegree, feistel_keys_) {}

void SdrGraph::base_parents(std::uint64_t node, std::span<std::uint32_t, kBaseDegree> out) const {
  // Nodes 0 and 1 have no earlier node to sample from: all six parents are 0.
  if (node < 2) {
    std::fill(out.begin(), out.end(), 0u);
    return;
  }
  const auto n = static_cast<std::uint32_t>(node);
  std::array<std::uint8_t, 32> seed;
  std::copy(drg_seed_.begin(), drg_seed_.end(), seed.begin());
  for (unsigned b = 0; b < 4; ++b) seed[28 + b] = static_cast<std::uint8_t>(n >> (8 * b));
  hash::ChaCha8Rng rng(seed);

  // Bucket sampling on the metagraph of m' = 5 copies of each node: node n is metanode 5n; a
  // draw picks a bucket b uniformly in [1, nb], nb = ceil(log2(5n)), then a distance uniformly in
  // [max(2, hi/2), hi], hi = min(5n, 2^b), and maps metanode 5n − distance back to its node.
  // nb = bit_width(5n − 1) = ceil(log2(5n)) on integers; upstream's f64 ceil(log2) agrees: for
  // m ≤ 5·2^31 < 2^34, log2(m) is either an exact integer or ≥ 2^−35 from one, far above the
  // rounding error (sdr_graph_test checks both forms on every node of 8 MiB and sampled nodes).
  constexpr unsigned kDrawn = kBaseDegree - 1;  // m' = 5
  const std::uint64_t meta = std::uint64_t{n} * kDrawn;
  const std::uint64_t buckets = std::bit_width(meta - 1);
  // V1_0 puts the predecessor last (slot 5) and the draws in slots 0..4; V1_1 and later put it
  // first (slot 0) and the draws in slots 1..5.
  const unsigned first = api_ == ApiVersion::v1_0_0 ? 0 : 1;
  const unsigned predecessor = api_ == ApiVersion::v1_0_0 ? kDrawn : 0;
  for (unsigned k = 0; k < kDrawn; ++k) {
    const std::uint64_t bucket = rng.next_u64() % buckets + 1;
    const std::uint64_t hi = std::min(meta, std::uint64_t{1} << bucket);
    const std::uint64_t lo = std::max<std::uint64_t>(2, hi >> 1);
    const std::uint64_t distance = lo + rng.next_u64() % (hi - lo + 1);
    const auto parent = static_cast<std::uint32_t>((meta - distance) / kDrawn);
    out[first + k] = parent == n ? n - 1 : parent;
  }
  out[predecessor] = n - 1;
}

void SdrGraph::expansion_parents(std::uint64_t node,
                                 std::span<std::uint32_t, kExpansionDegree> out) const {
  // Chung's construction: the node's 8 cells node·8 + i of the [nodes × 8] matrix are permuted
  // and each image collapsed to its row.
  for (unsigned i = 0; i < kExpansionDegree; ++i) {
    const std::uint64_t image = feistel_.permute(node * kExpansionDegree + i);
    out[i] = api_ == ApiVersion::v1_0_0
                 ? static_cast<std::uint32_t>(image) / kExpansionDegree  // `as u32 / 8`
                 : static_cast<std::uint32_t>(image / kExpansionDegree);
  }
}

void SdrGraph::parents(std::uint64_t node, std::span<std::uint32_t, kDegree> out) const {
  base_parents(node, out.first<kBaseDegree>());
  expansion_parents(node, out.last<kExpansionDegree>());
}

void SdrGraph::parents_range(std::uint64_t first, std::span<std::uint32_t> out,
                             FeistelLanes lanes) const {
  // Blocks of 64 nodes: 512 images on the stack (4 KiB), enough to keep 8 lanes busy.
  constexpr std::size_t kBlock = 64;
  std::array<std::uint64_t, kBlock * kExpansionDegree> images;
  const std::size_t count = out.size() / kDegree;
  for (std::size_t b = 0; b < count; b += kBlock) {
    const std::size_t n = std::min(kBlock, count - b);
    feistel_.permute_range((first + b) * kExpansionDegree,
                           std::span(images.data(), n * kExpansionDegree), lanes);
    for (std::size_t i = 0; i < n; ++i) {
      std::uint32_t* p = out.data() + (b + i) * kDegree;
      base_parents(first + b + i, std::span<std::uint32_t, kBaseDegree>(p, kBaseDegree));
      for (unsigned k = 0; k < kExpansionDegree; ++k) {
        const std::uint64_t image = images[i * kExpansionDegree + k];
        p[kBaseDegree + k] = api_ == ApiVersion::v1_0_0
                                 ? static_cast<std::uint32_t>(image) / kExpansionDegree
                                 : static_cast<std::uint32_t>(image / kExpansionDegree);
      }
    }
  }
}

}  // namespace cuzk::filecoin
