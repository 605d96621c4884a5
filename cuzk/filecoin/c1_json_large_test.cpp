// A 32 GiB-shaped C1 (StackedDrg32GiBV1_1: 11 layers, 8-8-0 trees, 30-level tree_d paths, random
// bytes; 2 partitions × 4 challenges here, the full 10 × 18 in bench/filecoin_bench.cpp, which
// times it) written to JSON and read back three ways: copying, in place, and through Curio's
// envelope; each must equal the original.
#include <gtest/gtest.h>

#include "cuzk/filecoin/c1_json.hpp"
#include "cuzk/filecoin/curio_c1_request.hpp"
#include "cuzk/filecoin/vanilla_test_util.hpp"

namespace cuzk::filecoin {
namespace {

TEST(C1JsonLarge, ThirtyTwoGiBShapedRoundTrip) {
  const std::uint64_t seed = testing::fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed) + " (replay with CUZK_SEED)");
  std::mt19937_64 rng(seed);
  const SealCommitPhase1Output c1 =
      testing::random_c1(rng, *seal_proof("StackedDrg32GiBV1_1"), 2, 4);
  const std::string json = write_c1_json(c1);

  auto back = read_c1_json(json);
  ASSERT_TRUE(back.ok()) << back.status().to_string();
  EXPECT_TRUE(*back == c1);

  std::string in_place;
  in_place.reserve(json.size() + 64);  // spare capacity for simdjson's padding: no copy
  in_place = json;
  auto back_in_place = read_c1_json_in_place(in_place);
  ASSERT_TRUE(back_in_place.ok()) << back_in_place.status().to_string();
  EXPECT_TRUE(*back_in_place == c1);

  CurioC1Request req{.sector_num = 1, .sector_size = 32ull << 30, .phase1_out = json};
  std::string env = write_curio_c1_request(req);
  auto via_env = read_curio_c1_in_place(env);
  ASSERT_TRUE(via_env.ok()) << via_env.status().to_string();
  EXPECT_TRUE(*via_env == c1);
}

}  // namespace
}  // namespace cuzk::filecoin
