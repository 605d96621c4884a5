// The parent cache against upstream's parent_cache.json (pinned in parent_cache_known.hpp, and
// read from $CUZK_FILECOIN_DATA when set): file ids for all ten graphs, whole-file SHA-256 for
// 2 KiB and 8 MiB (512 MiB in parent_cache_slow_test). The parallel chunked generation against
// the naive twin and against SdrGraph::parents node by node; a written file read back.
#include "cuzk/filecoin/parent_cache.hpp"

#include <gtest/gtest.h>

#include <unistd.h>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <set>

#include "cuzk/filecoin/hex_bytes.hpp"
#include "cuzk/filecoin/parent_cache_known.hpp"
#include "cuzk/filecoin/sdr_graph_naive.hpp"

namespace cuzk::filecoin {
namespace {

std::uint64_t test_seed() {
  std::uint64_t s = std::random_device{}();
  if (const char* env = std::getenv("CUZK_TEST_SEED")) s = std::strtoull(env, nullptr, 10);
  std::printf("CUZK_TEST_SEED=%llu\n", static_cast<unsigned long long>(s));
  return s;
}

SdrGraph manifest_sdr_graph(std::uint64_t porep) {
  const known::ManifestGraph m = known::manifest_graph(porep);
  return SdrGraph(sector_nodes(m.size), porep_id_of(m.porep), m.api);
}

TEST(ParentCache, GraphIdentifier) {
  // graph.rs StackedGraph::new's id around drgraph.rs BucketGraph::identifier().
  SdrGraph g(64, porep_id_of(0), ApiVersion::v1_0_0);
  EXPECT_EQ(parent_cache_graph_identifier(g),
            "stacked_graph::StackedGraph{expansion_degree: 8 base_graph: "
            "drgraph::BucketGraph{size: 64; degree: 6; hasher: poseidon_hasher} }");
}

TEST(ParentCache, FileIdsMatchTheManifest) {
  std::set<std::string> ids;
  for (std::uint64_t porep = 0; porep < 10; ++porep) {
    const SdrGraph g = manifest_sdr_graph(porep);
    const std::string id = parent_cache_id(g);
    const known::ManifestEntry* e = known::manifest_entry(id);
    ASSERT_NE(e, nullptr) << "porep " << porep << ": " << id << " is not in the manifest";
    EXPECT_EQ(e->sector_size, g.nodes() * 32) << id;
    EXPECT_EQ(parent_cache_file_name(g), id + ".cache");
    ids.insert(id);
  }
  EXPECT_EQ(ids.size(), known::kParentCacheManifest.size());
}

std::string digest_hex(std::uint64_t porep, std::uint64_t chunk_nodes, std::size_t threads) {
  ThreadPool pool(threads);
  return to_hex(parent_cache_digest(manifest_sdr_graph(porep), pool, {.chunk_nodes = chunk_nodes}));
}

std::string manifest_digest(std::uint64_t porep) {
  const known::ManifestEntry* e = known::manifest_entry(parent_cache_id(manifest_sdr_graph(porep)));
  return e ? std::string(e->digest) : "(no entry)";
}

TEST(ParentCache, Digest2KiB) {
  for (std::uint64_t porep : {0u, 5u}) {
    EXPECT_EQ(digest_hex(porep, 1 << 20, 2), manifest_digest(porep)) << "porep " << porep;
    // Chunks that do not divide the node count, down to one node, and one thread.
    for (std::uint64_t chunk : {1u, 7u, 63u, 64u})
      EXPECT_EQ(digest_hex(porep, chunk, 1 + chunk % 3), manifest_digest(porep))
          << "porep " << porep << " chunk " << chunk;
  }
  // FORMATS.md §7 quotes the digests' ends: porep 0 …750d, porep 5 …5b97.
  EXPECT_EQ(manifest_digest(0).substr(56), "b531750d");
  EXPECT_EQ(manifest_digest(5).substr(56), "75c25b97");
}

TEST(ParentCache, Digest8MiB) {
  EXPECT_EQ(digest_hex(1, 1 << 20, 2), manifest_digest(1));
  EXPECT_EQ(digest_hex(6, 10007, 3), manifest_digest(6));
}

// The written file: the v28 name, 56 bytes per node, its SHA-256 the returned digest, and every
// entry read back equal to SdrGraph::parents.
TEST(ParentCache, WriteAndReadBack) {
  const SdrGraph g = manifest_sdr_graph(5);
  const auto path = std::filesystem::temp_directory_path() /
                    ("cuzk-parent-cache-test-" + std::to_string(::getpid())) /
                    parent_cache_file_name(g);
  std::filesystem::create_directories(path.parent_path());
  ThreadPool pool(2);
  auto digest = write_parent_cache(g, path, pool, {.chunk_nodes = 10});
  ASSERT_TRUE(digest.ok()) << digest.status().to_string();
  EXPECT_EQ(to_hex(*digest), manifest_digest(5));
  std::ifstream in(path, std::ios::binary);
  const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                        std::istreambuf_iterator<char>());
  ASSERT_EQ(bytes.size(), g.nodes() * kParentCacheEntryBytes);
  EXPECT_EQ(hash::sha256(bytes), *digest);
  EXPECT_FALSE(std::filesystem::exists(path.string() + ".tmp"));
  for (std::uint64_t node = 0; node < g.nodes(); ++node) {
    std::array<std::uint32_t, 14> want, got;
    g.parents(node, want);
    for (unsigned i = 0; i < 14; ++i) {
      const std::uint8_t* p = &bytes[node * kParentCacheEntryBytes + 4 * i];
      got[i] = std::uint32_t{p[0]} | std::uint32_t{p[1]} << 8 | std::uint32_t{p[2]} << 16 |
               std::uint32_t{p[3]} << 24;
    }
    ASSERT_EQ(got, want) << "node " << node;
  }
  std::filesystem::remove_all(path.parent_path());
}

TEST(ParentCache, WriteToAMissingDirectoryNamesTheFile) {
  const SdrGraph g = manifest_sdr_graph(0);
  ThreadPool pool(1);
  auto r = write_parent_cache(g, "/nonexistent-cuzk-dir/x.cache", pool);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Errc::io_error);
  EXPECT_NE(r.status().message().find("/nonexistent-cuzk-dir/x.cache.tmp"), std::string::npos);
}

// The parallel fill of random ranges against SdrGraph::parents one node at a time, and sampled
// nodes against the naive twin, for random porep ids, API versions and sector sizes.
TEST(ParentCache, ParallelFillMatchesSingleNodeTwins) {
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  ThreadPool pool(3);
  const ApiVersion apis[] = {ApiVersion::v1_0_0, ApiVersion::v1_1_0, ApiVersion::v1_2_0};
  for (int round = 0; round < 10; ++round) {
    const SectorSize size = kSectorSizes[rng() % kSectorSizes.size()];
    const std::uint64_t nodes = sector_nodes(size);
    PorepId id;
    for (auto& b : id) b = static_cast<std::uint8_t>(rng());
    const ApiVersion api = apis[rng() % 3];
    const SdrGraph g(nodes, id, api);
    const std::uint64_t count = 1 + rng() % std::min<std::uint64_t>(nodes, 3000);
    const std::uint64_t first = round == 0 ? 0 : rng() % (nodes - count + 1);
    std::vector<std::uint8_t> out(count * kParentCacheEntryBytes);
    fill_parent_cache(g, first, out, pool);
    auto entry = [&](std::uint64_t i) {
      std::array<std::uint32_t, 14> got;
      for (unsigned k = 0; k < 14; ++k) {
        const std::uint8_t* p = &out[i * kParentCacheEntryBytes + 4 * k];
        got[k] = std::uint32_t{p[0]} | std::uint32_t{p[1]} << 8 | std::uint32_t{p[2]} << 16 |
                 std::uint32_t{p[3]} << 24;
      }
      return got;
    };
    for (std::uint64_t i = 0; i < count; ++i) {
      std::array<std::uint32_t, 14> want;
      g.parents(first + i, want);
      ASSERT_EQ(entry(i), want) << sector_size_name(size) << " node " << first + i
                                << " seed=" << seed;
    }
    for (int s = 0; s < 8; ++s) {
      const std::uint64_t i = rng() % count;
      ASSERT_EQ(entry(i), naive::parents(nodes, id, api, first + i))
          << sector_size_name(size) << " node " << first + i << " seed=" << seed;
    }
  }
}

// With the real manifest: every key is the id of one of the ten graphs with its sector size, and
// the 2 KiB and 8 MiB digests are the ones generated here.
TEST(ParentCache, RealManifest) {
  const char* dir = std::getenv("CUZK_FILECOIN_DATA");
  if (!dir) GTEST_SKIP() << "CUZK_FILECOIN_DATA is unset: the real parent_cache.json is not read";
  const auto path = std::filesystem::path(dir) / "parent_cache.json";
  std::ifstream in(path);
  ASSERT_TRUE(in) << "cannot open " << path;
  const nlohmann::json manifest = nlohmann::json::parse(in);
  std::map<std::string, std::uint64_t> computed;  // id → porep
  for (std::uint64_t porep = 0; porep < 10; ++porep)
    computed[parent_cache_id(manifest_sdr_graph(porep))] = porep;
  ASSERT_EQ(manifest.size(), computed.size());
  for (const auto& [id, entry] : manifest.items()) {
    auto it = computed.find(id);
    ASSERT_NE(it, computed.end()) << id << " is none of the ten graphs' ids";
    const known::ManifestGraph m = known::manifest_graph(it->second);
    EXPECT_EQ(entry.at("sector_size").get<std::uint64_t>(), sector_bytes(m.size)) << id;
    if (m.size == SectorSize::s2KiB || m.size == SectorSize::s8MiB) {
      EXPECT_EQ(digest_hex(it->second, 1 << 16, 2), entry.at("digest").get<std::string>()) << id;
    }
  }
}

}  // namespace
}  // namespace cuzk::filecoin
