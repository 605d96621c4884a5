// The 512 MiB parent caches (2^24 nodes, 896 MiB each, streamed) against upstream's
// parent_cache.json (pinned in parent_cache_known.hpp): porep ids 2 (API 1.0.0) and 7 (1.1.0).
// About a minute per cache on a 2-core machine: labelled slow.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>

#include "cuzk/filecoin/hex_bytes.hpp"
#include "cuzk/filecoin/parent_cache.hpp"
#include "cuzk/filecoin/parent_cache_known.hpp"

namespace cuzk::filecoin {
namespace {

void check_digest(std::uint64_t porep) {
  const known::ManifestGraph m = known::manifest_graph(porep);
  const SdrGraph g(sector_nodes(m.size), porep_id_of(m.porep), m.api);
  const known::ManifestEntry* e = known::manifest_entry(parent_cache_id(g));
  ASSERT_NE(e, nullptr) << parent_cache_id(g);
  ThreadPool pool;
  const auto t0 = std::chrono::steady_clock::now();
  const std::string digest = to_hex(parent_cache_digest(g, pool));
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("512 MiB porep %llu: %.1f s on %zu threads\n", static_cast<unsigned long long>(porep),
              s, pool.size());
  EXPECT_EQ(digest, e->digest) << e->id;
}

TEST(ParentCacheSlow, Digest512MiBV1) { check_digest(2); }
TEST(ParentCacheSlow, Digest512MiBV1_1) { check_digest(7); }

}  // namespace
}  // namespace cuzk::filecoin
