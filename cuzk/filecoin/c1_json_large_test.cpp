// A 32 GiB-shaped C1 (StackedDrg32GiBV1_1: 10 partitions × 18 challenges, 11 layers, 8-8-0 trees,
// 30-level tree_d paths, random bytes) written to JSON, read back and compared; prints the size
// and the write and read times (docs/filecoin/formats.md records them). Its own binary so the fast
// tests stay fast; the read must take under 2 s even on the shared 2-core dev VM.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>

#include "cuzk/filecoin/c1_json.hpp"
#include "cuzk/filecoin/curio_c1_request.hpp"
#include "cuzk/filecoin/vanilla_test_util.hpp"

namespace cuzk::filecoin {
namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

TEST(C1JsonLarge, ThirtyTwoGiBShapedRoundTrip) {
  const std::uint64_t seed = testing::fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed) + " (replay with CUZK_SEED)");
  std::mt19937_64 rng(seed);
  const SealCommitPhase1Output c1 =
      testing::random_c1(rng, *seal_proof("StackedDrg32GiBV1_1"), 10, 18);

  auto t0 = std::chrono::steady_clock::now();
  const std::string json = write_c1_json(c1);
  const double write_s = seconds_since(t0);

  t0 = std::chrono::steady_clock::now();
  auto back = read_c1_json(json);
  const double read_s = seconds_since(t0);
  ASSERT_TRUE(back.ok()) << back.status().to_string();

  std::string in_place;
  in_place.reserve(json.size() + 64);  // spare capacity for simdjson's padding: no copy
  in_place = json;
  t0 = std::chrono::steady_clock::now();
  auto back_in_place = read_c1_json_in_place(in_place);
  const double in_place_s = seconds_since(t0);
  ASSERT_TRUE(back_in_place.ok()) << back_in_place.status().to_string();

  CurioC1Request req{.sector_num = 1, .sector_size = 32ull << 30, .phase1_out = json};
  std::string env = write_curio_c1_request(req);
  t0 = std::chrono::steady_clock::now();
  auto via_env = read_curio_c1_in_place(env);
  const double env_s = seconds_since(t0);
  ASSERT_TRUE(via_env.ok()) << via_env.status().to_string();

  std::printf(
      "{\"op\":\"c1_json\",\"shape\":\"StackedDrg32GiBV1_1 10x18\",\"json_bytes\":%zu,"
      "\"write_s\":%.3f,\"read_s\":%.3f,\"read_MBps\":%.0f,\"read_in_place_s\":%.3f,"
      "\"envelope_bytes\":%zu,\"envelope_read_in_place_s\":%.3f}\n",
      json.size(), write_s, read_s, json.size() / read_s / 1e6, in_place_s, env.size(), env_s);
  EXPECT_TRUE(*back == c1);
  EXPECT_TRUE(*back_in_place == c1);
  EXPECT_TRUE(*via_env == c1);
  EXPECT_GT(json.size(), 30u << 20);
  EXPECT_LT(read_s, 2.0);
}

}  // namespace
}  // namespace cuzk::filecoin
