// The matrix cache: round trip, and every kind of damage (flipped bytes anywhere, truncation at
// any length, trailing bytes, wrong magic, stale key, missing file) is detected and named;
// load_or_build_r1cs then rebuilds and rewrites.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <random>

#include "cuzk/r1cs/bench_circuit.hpp"
#include "cuzk/r1cs/checksum.hpp"
#include "cuzk/r1cs/pce_cache.hpp"

namespace cuzk {
namespace {

std::vector<char> read_all(const std::string& p) {
  std::ifstream f(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), {}};
}
void write_all(const std::string& p, const std::vector<char>& d) {
  std::ofstream f(p, std::ios::binary | std::ios::trunc);
  f.write(d.data(), static_cast<std::streamsize>(d.size()));
}

class R1csCache : public ::testing::Test {
 protected:
  void SetUp() override {
    seed_ = std::random_device{}();
    path_ = ::testing::TempDir() + "r1cs_cache_test_" + std::to_string(seed_) + ".bin";
    auto r = generate_bench_r1cs({.rows = 700 + seed_ % 500, .seed = seed_});
    ASSERT_TRUE(r.ok());
    m_ = std::move(r->matrices);
    ASSERT_TRUE(save_r1cs_cache(path_, m_, kKey).ok());
  }
  void TearDown() override { std::remove(path_.c_str()); }

  static constexpr std::uint64_t kKey = 0xc0ffee;
  std::uint64_t seed_ = 0;
  std::string path_;
  R1csMatrices m_;
};

TEST_F(R1csCache, RoundTrip) {
  auto got = load_r1cs_cache(path_, kKey);
  ASSERT_TRUE(got.ok()) << got.status().to_string();
  EXPECT_EQ(*got, m_) << "seed=" << seed_;
}

TEST_F(R1csCache, DetectsFlippedBytes) {
  const std::vector<char> good = read_all(path_);
  std::mt19937_64 rng(seed_);
  std::vector<std::size_t> positions = {0, 9, 16, 40, 119, 120, good.size() - 1};
  for (int i = 0; i < 60; ++i) positions.push_back(rng() % good.size());
  for (std::size_t pos : positions) {
    std::vector<char> bad = good;
    bad[pos] = static_cast<char>(bad[pos] ^ (1 + rng() % 255));
    write_all(path_, bad);
    auto got = load_r1cs_cache(path_, kKey);
    ASSERT_FALSE(got.ok()) << "flip at " << pos << " not detected, seed=" << seed_;
    EXPECT_NE(got.status().message().find(path_), std::string::npos);
  }
}

TEST_F(R1csCache, DetectsTruncationAndTrailingBytes) {
  const std::vector<char> good = read_all(path_);
  std::mt19937_64 rng(seed_);
  std::vector<std::size_t> lengths = {0, 4, 8, 100, 119, 120, 121, good.size() - 1};
  for (int i = 0; i < 20; ++i) lengths.push_back(rng() % good.size());
  for (std::size_t len : lengths) {
    write_all(path_, std::vector<char>(good.begin(), good.begin() + static_cast<long>(len)));
    auto got = load_r1cs_cache(path_, kKey);
    ASSERT_FALSE(got.ok()) << "truncation to " << len << " not detected";
    EXPECT_EQ(got.status().code(), Errc::truncated) << got.status().to_string();
  }
  std::vector<char> longer = good;
  longer.push_back(0);
  write_all(path_, longer);
  auto got = load_r1cs_cache(path_, kKey);
  ASSERT_FALSE(got.ok());
  EXPECT_NE(got.status().message().find("trailing"), std::string::npos) << got.status().to_string();
}

TEST_F(R1csCache, NamesStaleMagicAndMissing) {
  auto stale = load_r1cs_cache(path_, kKey + 1);
  ASSERT_FALSE(stale.ok());
  EXPECT_NE(stale.status().message().find("stale"), std::string::npos)
      << stale.status().to_string();

  std::vector<char> d = read_all(path_);
  d[0] = 'X';
  write_all(path_, d);
  auto magic = load_r1cs_cache(path_, kKey);
  EXPECT_NE(magic.status().message().find("magic"), std::string::npos)
      << magic.status().to_string();

  auto missing = load_r1cs_cache(path_ + ".none", kKey);
  EXPECT_EQ(missing.status().code(), Errc::not_found);
}

TEST_F(R1csCache, LoadOrBuildRebuildsDamagedCache) {
  int builds = 0;
  auto build = [&]() -> Result<R1csMatrices> {
    ++builds;
    return m_;
  };
  auto first = load_or_build_r1cs(path_, kKey, build);
  ASSERT_TRUE(first.ok());
  EXPECT_TRUE(first->from_cache);
  EXPECT_EQ(builds, 0);

  std::vector<char> d = read_all(path_);
  d[d.size() / 2] ^= 0x10;
  write_all(path_, d);
  auto second = load_or_build_r1cs(path_, kKey, build);
  ASSERT_TRUE(second.ok());
  EXPECT_FALSE(second->from_cache);
  EXPECT_FALSE(second->load_error.ok());
  EXPECT_TRUE(second->save_error.ok());
  EXPECT_EQ(builds, 1);
  EXPECT_EQ(second->matrices, m_);

  auto third = load_or_build_r1cs(path_, kKey, build);  // rewritten: loads again
  ASSERT_TRUE(third.ok());
  EXPECT_TRUE(third->from_cache);
  EXPECT_EQ(third->matrices, m_);
}

TEST(R1csCacheKey, DependsOnTheCircuitId) {
  EXPECT_EQ(r1cs_topology_key("porep-32g"), r1cs_topology_key("porep-32g"));
  EXPECT_NE(r1cs_topology_key("porep-32g"), r1cs_topology_key("porep-64g"));
}

TEST(Checksum, SensitiveToEveryByteAndLength) {
  std::vector<unsigned char> d(1000);
  std::mt19937_64 rng(7);
  for (auto& b : d) b = static_cast<unsigned char>(rng());
  const std::uint64_t h = checksum64(d.data(), d.size());
  for (std::size_t i = 0; i < d.size(); ++i) {
    d[i] ^= 1;
    EXPECT_NE(checksum64(d.data(), d.size()), h) << i;
    d[i] ^= 1;
  }
  EXPECT_NE(checksum64(d.data(), d.size() - 1), h);
  EXPECT_NE(checksum64(d.data(), d.size(), 1), h);
}

}  // namespace
}  // namespace cuzk
