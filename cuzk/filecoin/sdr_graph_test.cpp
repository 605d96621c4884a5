// The SDR graph: seeds against Python's hashlib, the properties upstream's drgraph.rs and graph.rs
// tests assert (nodes 0 and 1, no self reference, the predecessor slot per API version, the V1_0
// truncation "pathology", the expander's high parent bits and histogram), and every parent of
// sampled nodes against the naive twin (sdr_graph_naive.hpp) at every sector size.
#include "cuzk/filecoin/sdr_graph.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>

#include "cuzk/filecoin/sdr_graph_naive.hpp"

namespace cuzk::filecoin {
namespace {

using Parents = std::array<std::uint32_t, SdrGraph::kDegree>;

// A random seed, or CUZK_TEST_SEED's; printed so that a failure can be replayed.
std::uint64_t test_seed() {
  std::uint64_t s = std::random_device{}();
  if (const char* env = std::getenv("CUZK_TEST_SEED")) s = std::strtoull(env, nullptr, 10);
  std::printf("CUZK_TEST_SEED=%llu\n", static_cast<unsigned long long>(s));
  return s;
}

Parents parents_of(const SdrGraph& g, std::uint64_t node) {
  Parents p;
  g.parents(node, p);
  return p;
}

TEST(SdrGraph, SeedsFromPorepId) {
  // python3: hashlib.sha256(b"Filecoin_DRSample" + porep_id).digest()[:28] and the four LE u64 of
  // hashlib.sha256(b"Filecoin_Feistel" + porep_id), porep_id = u64le(id) ‖ 24 zero bytes.
  SdrGraph g0(64, porep_id_of(0), ApiVersion::v1_0_0);
  const std::uint8_t drg0[8] = {0x62, 0x3f, 0x03, 0xef, 0xd4, 0xcb, 0xc4, 0xf0};
  EXPECT_TRUE(std::equal(drg0, drg0 + 8, g0.drg_seed().begin()));
  EXPECT_EQ(g0.drg_seed()[27], 0xa0);
  EXPECT_EQ(g0.feistel_keys(),
            (std::array<std::uint64_t, 4>{0x8fb5fa185a23bce6, 0xd567abafe374f26e,
                                          0xa2f3f4da23359acc, 0xcbf4931c8d02e1a5}));
  SdrGraph g5(64, porep_id_of(5), ApiVersion::v1_1_0);
  EXPECT_EQ(g5.drg_seed()[0], 0x3b);
  EXPECT_EQ(g5.drg_seed()[27], 0x7d);
  EXPECT_EQ(g5.feistel_keys(),
            (std::array<std::uint64_t, 4>{0x90b15b1c4509e47a, 0xdc5378c03df3f21b,
                                          0xfa76fc24deb9d7ac, 0xcdec5e11f7b30a54}));
}

TEST(SdrGraph, NodesZeroAndOneHaveZeroBaseParents) {
  for (ApiVersion api : {ApiVersion::v1_0_0, ApiVersion::v1_1_0, ApiVersion::v1_2_0}) {
    SdrGraph g(64, porep_id_of(0), api);
    for (std::uint64_t node : {0u, 1u}) {
      std::array<std::uint32_t, 6> base;
      g.base_parents(node, base);
      EXPECT_EQ(base, (std::array<std::uint32_t, 6>{})) << "node " << node;
      const Parents p = parents_of(g, node);
      for (unsigned i = 6; i < 14; ++i) EXPECT_LT(p[i], 64u);
    }
  }
}

// drgraph.rs graph_bucket_aux at every node of 2 KiB and 8 MiB-sized graphs: no self reference,
// base parents before the node, the predecessor in slot 5 (V1_0) or 0 (V1_1+); expander parents
// in range.
TEST(SdrGraph, BaseParentsPrecedeTheNodeAndThePredecessorSlot) {
  for (std::uint64_t nodes : {64ull, 1ull << 18}) {
    for (ApiVersion api : {ApiVersion::v1_0_0, ApiVersion::v1_1_0}) {
      SdrGraph g(nodes, porep_id_of(api == ApiVersion::v1_0_0 ? 1 : 6), api);
      const unsigned slot = api == ApiVersion::v1_0_0 ? 5 : 0;
      const std::uint64_t step = nodes > 4096 ? 97 : 1;
      for (std::uint64_t node = 2; node < nodes; node += step) {
        const Parents p = parents_of(g, node);
        ASSERT_EQ(p[slot], node - 1) << "node " << node;
        for (unsigned i = 0; i < 6; ++i) ASSERT_LT(p[i], node) << "node " << node << " slot " << i;
        for (unsigned i = 6; i < 14; ++i) ASSERT_LT(p[i], nodes) << "node " << node;
      }
    }
  }
}

// The RNG depends on porep_id and the node only: V1_0 and V1_1 draw the same five parents, V1_0
// into slots 0..4 and V1_1 into slots 1..5. Below 2^29 nodes the expander parents agree too.
TEST(SdrGraph, ApiVersionMovesOnlyThePredecessor) {
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  for (std::uint64_t nodes : {64ull, 1ull << 18, 1ull << 24, 1ull << 30, 1ull << 31}) {
    const PorepId id = porep_id_of(rng() % 20);
    SdrGraph v10(nodes, id, ApiVersion::v1_0_0), v11(nodes, id, ApiVersion::v1_1_0),
        v12(nodes, id, ApiVersion::v1_2_0);
    for (int i = 0; i < 20; ++i) {
      const std::uint64_t node = 2 + rng() % (nodes - 2);
      const Parents a = parents_of(v10, node), b = parents_of(v11, node);
      ASSERT_EQ(parents_of(v12, node), b) << "V1_2 and V1_1 must agree; seed=" << seed;
      for (unsigned k = 0; k < 5; ++k) ASSERT_EQ(a[k], b[k + 1]) << "node " << node;
      ASSERT_EQ(a[5], node - 1);
      ASSERT_EQ(b[0], node - 1);
      if (nodes * 8 <= (1ull << 32)) {
        for (unsigned k = 6; k < 14; ++k) ASSERT_EQ(a[k], b[k]) << "node " << node;
      }
    }
  }
}

// graph.rs test_graph_distribution_pathology: under V1_0 at 32/64 GiB no expander parent of the
// first 1000 nodes reaches the second half of the sector; under V1_1/V1_2 one does.
TEST(SdrGraph, LegacyExpanderTruncation) {
  struct Case {
    std::uint64_t porep, nodes;
    ApiVersion api;
  };
  const Case cases[] = {{3, 1ull << 30, ApiVersion::v1_0_0}, {4, 1ull << 31, ApiVersion::v1_0_0},
                        {8, 1ull << 30, ApiVersion::v1_1_0}, {9, 1ull << 31, ApiVersion::v1_1_0},
                        {8, 1ull << 30, ApiVersion::v1_2_0}, {9, 1ull << 31, ApiVersion::v1_2_0}};
  for (const Case& c : cases) {
    PorepId id{};
    id[0] = static_cast<std::uint8_t>(c.porep);  // upstream's porep_id(u8)
    SdrGraph g(c.nodes, id, c.api);
    bool large = false;
    for (std::uint64_t node = 0; node < 1000 && !large; ++node) {
      std::array<std::uint32_t, 8> exp;
      g.expansion_parents(node, exp);
      for (std::uint32_t p : exp) large |= p >= c.nodes / 2;
    }
    EXPECT_EQ(large, c.api != ApiVersion::v1_0_0) << "porep " << c.porep << " nodes " << c.nodes;
  }
}

// graph.rs test_high_parent_bits and test_exp_parent_histogram (64 GiB, porep_id 5, V1_2).
TEST(SdrGraph, ExpanderReachesHighBitsAndSpreadsEvenly) {
  constexpr std::uint64_t kNodes = 1ull << 31;
  SdrGraph g(kNodes, porep_id_of(5), ApiVersion::v1_2_0);
  bool high = false;
  for (std::uint64_t v = 0; v < 3 && !high; ++v) {
    std::array<std::uint32_t, 8> exp;
    g.expansion_parents(v, exp);
    for (std::uint32_t p : exp) high |= p >= (1u << 29);
  }
  EXPECT_TRUE(high);

  constexpr unsigned kSamples = 10000, kBins = 32;
  constexpr unsigned kUniform = kSamples * 8 / kBins;  // 2500
  std::array<unsigned, kBins> hist{};
  for (std::uint64_t s = 0; s < kSamples; ++s) {
    std::array<std::uint32_t, 8> exp;
    g.expansion_parents(s * kNodes / kSamples, exp);
    for (std::uint32_t p : exp) ++hist[p / (kNodes / kBins)];
  }
  for (unsigned b = 0; b < kBins; ++b) {
    EXPECT_GE(hist[b], static_cast<unsigned>(0.6 * kUniform) + 1) << "bin " << b;
    EXPECT_LE(hist[b], static_cast<unsigned>(1.4 * kUniform) - 1) << "bin " << b;
  }
}

// nb = bit_width(5n − 1) against upstream's f64 ceil(log2(5n)) at every n < 2^20 and around
// every power of two up to 5·2^31.
TEST(SdrGraph, BucketCountMatchesFloatLog2) {
  auto f64 = [](std::uint64_t m) {
    return static_cast<std::uint64_t>(std::ceil(std::log2(static_cast<double>(m))));
  };
  for (std::uint64_t n = 2; n < (1u << 20); ++n)
    ASSERT_EQ(std::bit_width(5 * n - 1), f64(5 * n)) << n;
  for (unsigned k = 3; k <= 34; ++k)
    for (std::int64_t d = -12; d <= 12; ++d) {
      const std::uint64_t m = (std::uint64_t{1} << k) + d;
      if (m % 5 == 0 && m / 5 >= 2 && m / 5 < (1ull << 31)) {
        ASSERT_EQ(std::bit_width(m - 1), f64(m)) << m;
      }
    }
}

TEST(SdrGraph, ParentsMatchNaiveAtEverySize) {
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  for (SectorSize size : kSectorSizes) {
    const std::uint64_t nodes = sector_nodes(size);
    for (ApiVersion api : {ApiVersion::v1_0_0, ApiVersion::v1_1_0, ApiVersion::v1_2_0}) {
      PorepId id;
      for (auto& b : id) b = static_cast<std::uint8_t>(rng());
      SdrGraph g(nodes, id, api);
      std::vector<std::uint64_t> sample = {0, 1, 2, 3, nodes - 1};
      for (int i = 0; i < 12; ++i) sample.push_back(rng() % nodes);
      for (std::uint64_t node : sample)
        ASSERT_EQ(parents_of(g, node), naive::parents(nodes, id, api, node))
            << sector_size_name(size) << " api " << api_version_name(api) << " node " << node
            << " seed=" << seed;
    }
  }
}

// parents_range (the expander in vector lanes) against parents() node by node.
TEST(SdrGraph, ParentsRangeMatchesParents) {
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  for (FeistelLanes lanes : {FeistelLanes::scalar, FeistelLanes::avx2, FeistelLanes::avx512}) {
    if (!feistel_lanes_supported(lanes)) continue;
    for (SectorSize size : kSectorSizes) {
      const std::uint64_t nodes = sector_nodes(size);
      const ApiVersion api = rng() % 2 ? ApiVersion::v1_0_0 : ApiVersion::v1_1_0;
      const SdrGraph g(nodes, porep_id_of(rng() % 20), api);
      const std::uint64_t count = 1 + rng() % std::min<std::uint64_t>(nodes, 200);
      const std::uint64_t first = rng() % 3 == 0 ? 0 : rng() % (nodes - count + 1);
      std::vector<std::uint32_t> out(count * SdrGraph::kDegree);
      g.parents_range(first, out, lanes);
      for (std::uint64_t i = 0; i < count; ++i) {
        const Parents want = parents_of(g, first + i);
        ASSERT_TRUE(std::equal(want.begin(), want.end(), out.begin() + i * SdrGraph::kDegree))
            << sector_size_name(size) << " node " << first + i << " lanes "
            << static_cast<int>(lanes) << " seed=" << seed;
      }
    }
  }
}

}  // namespace
}  // namespace cuzk::filecoin
