// The Feistel permutation: the native BLAKE2b round function against OpenSSL and Python's hashlib,
// encode/decode inverses, permute a bijection with cycle walking (the domains of upstream's
// feistel.rs tests and of small SDR graphs), and permute against the naive twin.
#include "cuzk/filecoin/feistel.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "cuzk/filecoin/sdr_graph_naive.hpp"
#include "cuzk/hash/blake2b.hpp"

namespace cuzk::filecoin {
namespace {

// A random seed, or CUZK_TEST_SEED's; printed so that a failure can be replayed.
std::uint64_t test_seed() {
  std::uint64_t s = std::random_device{}();
  if (const char* env = std::getenv("CUZK_TEST_SEED")) s = std::strtoull(env, nullptr, 10);
  std::printf("CUZK_TEST_SEED=%llu\n", static_cast<unsigned long long>(s));
  return s;
}

TEST(Feistel, RoundFunctionKnownAnswer) {
  // python3: hashlib.blake2b(struct.pack('>QQ', 0x0123456789abcdef, 0xfedcba9876543210),
  //          digest_size=64).digest()[:8] read big-endian.
  EXPECT_EQ(feistel_round(0x0123456789abcdef, 0xfedcba9876543210), 0xf6bbc0b2e706ad75u);
}

TEST(Feistel, RoundFunctionMatchesOpenSsl) {
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  std::vector<std::pair<std::uint64_t, std::uint64_t>> cases = {
      {0, 0}, {~0ull, ~0ull}, {1, 0}, {0, 1}, {0x8000000000000000ull, 0x7fffffffffffffffull}};
  for (int i = 0; i < 2000; ++i) cases.emplace_back(rng(), rng() >> (rng() % 64));
  for (auto [right, key] : cases)
    ASSERT_EQ(feistel_round(right, key), naive::feistel_f(right, key, ~0ull))
        << "right=" << right << " key=" << key << " seed=" << seed;
}

TEST(Feistel, HalfBits) {
  const std::array<std::uint64_t, 4> keys = {1, 2, 3, 4};
  // feistel.rs precompute: log4 starts at 1 and grows while 4^log4 < n.
  EXPECT_EQ(FeistelPermutation(1, keys).half_bits(), 1u);
  EXPECT_EQ(FeistelPermutation(4, keys).half_bits(), 1u);
  EXPECT_EQ(FeistelPermutation(5, keys).half_bits(), 2u);
  EXPECT_EQ(FeistelPermutation(512, keys).half_bits(), 5u);          // 2 KiB: 64 · 8
  EXPECT_EQ(FeistelPermutation(1ull << 33, keys).half_bits(), 17u);  // 32 GiB: 2^30 · 8
  EXPECT_EQ(FeistelPermutation(1ull << 34, keys).half_bits(), 17u);  // 64 GiB: 2^31 · 8
  EXPECT_EQ(FeistelPermutation((1ull << 34) + 1, keys).half_bits(), 18u);
}

TEST(Feistel, EncodeDecodeInverse) {
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  const std::array<std::uint64_t, 4> keys = {rng(), rng(), rng(), rng()};
  for (std::uint64_t domain : {16ull, 1000ull, 1ull << 21, 1ull << 33}) {
    FeistelPermutation f(domain, keys);
    const std::uint64_t space = std::uint64_t{1} << (2 * f.half_bits());
    for (int i = 0; i < 500; ++i) {
      const std::uint64_t x = rng() % space;
      const std::uint64_t y = f.encode(x);
      ASSERT_LT(y, space);
      ASSERT_EQ(f.decode(y), x) << "domain=" << domain << " seed=" << seed;
    }
  }
}

// Upstream's test_feistel_on_arbitrary_set and test_shuffle: every domain maps onto itself.
TEST(Feistel, PermuteIsABijection) {
  const std::array<std::uint64_t, 4> keys = {1, 2, 3, 4};
  for (std::uint64_t domain : {5ull, 6ull, 8ull, 12ull, 17ull, 64ull, 512ull, 2048ull, 8192ull}) {
    FeistelPermutation f(domain, keys);
    std::vector<bool> seen(domain);
    for (std::uint64_t i = 0; i < domain; ++i) {
      const std::uint64_t p = f.permute(i);
      ASSERT_LT(p, domain);
      ASSERT_FALSE(seen[p]) << "domain " << domain << ": " << p << " reached twice";
      seen[p] = true;
      ASSERT_EQ(f.invert(p), i);
    }
  }
}

TEST(Feistel, PermuteMatchesNaive) {
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  for (int round = 0; round < 20; ++round) {
    const std::array<std::uint64_t, 4> keys = {rng(), rng(), rng(), rng()};
    const std::uint64_t domain = 8ull << (6 + rng() % 26);  // 2 KiB .. 64 GiB graphs
    FeistelPermutation f(domain, keys);
    for (int i = 0; i < 20; ++i) {
      const std::uint64_t x = rng() % domain;
      ASSERT_EQ(f.permute(x), naive::feistel_permute(domain, x, keys.data()))
          << "domain=" << domain << " x=" << x << " seed=" << seed;
    }
  }
}

// The lane-batched permute_range against permute one index at a time, in every lane width this
// CPU runs (the scalar lane included), over random domains, ranges and keys.
TEST(Feistel, PermuteRangeMatchesPermuteInEveryLaneWidth) {
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  std::printf("best lanes: %d\n", static_cast<int>(feistel_lanes_best()));
  for (FeistelLanes lanes :
       {FeistelLanes::scalar, FeistelLanes::avx2, FeistelLanes::avx512, FeistelLanes::best}) {
    if (!feistel_lanes_supported(lanes)) {
      std::printf("lanes %d: not supported here\n", static_cast<int>(lanes));
      continue;
    }
    for (int round = 0; round < 30; ++round) {
      const std::array<std::uint64_t, 4> keys = {rng(), rng(), rng(), rng()};
      const std::uint64_t domain =
          round < 5 ? 1 + rng() % 40 : (rng() % 2 ? 8ull << (6 + rng() % 26) : 1 + rng() % 100000);
      FeistelPermutation f(domain, keys);
      const std::uint64_t count = 1 + rng() % std::min<std::uint64_t>(domain, 700);
      const std::uint64_t first = rng() % (domain - count + 1);
      std::vector<std::uint64_t> out(count);
      f.permute_range(first, out, lanes);
      for (std::uint64_t k = 0; k < count; ++k)
        ASSERT_EQ(out[k], f.permute(first + k))
            << "lanes " << static_cast<int>(lanes) << " domain " << domain << " index " << first + k
            << " seed=" << seed;
    }
  }
}

}  // namespace
}  // namespace cuzk::filecoin
