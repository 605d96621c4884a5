// Seeds and random field elements for randomized tests, one copy for the whole tree.
// fresh_seed(): CUZK_SEED when set (decimal, or hex with 0x), else 64 bits from the OS; printed
// with the running test's name, so any failure replays with CUZK_SEED=<seed>.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>

#include "cuzk/ff/fr.hpp"

namespace cuzk::test {

/// A seed for a randomized test (see the file comment); printed now.
inline std::uint64_t fresh_seed() {
  std::uint64_t s = (std::uint64_t{std::random_device{}()} << 32) ^ std::random_device{}();
  if (const char* env = std::getenv("CUZK_SEED")) s = std::strtoull(env, nullptr, 0);
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::printf("[ seed     ] %s.%s seed=%llu (replay: CUZK_SEED=%llu)\n",
              info ? info->test_suite_name() : "?", info ? info->name() : "?",
              static_cast<unsigned long long>(s), static_cast<unsigned long long>(s));
  return s;
}

/// A random Fr: 255 random bits reduced mod r (the bias is irrelevant for tests).
inline Fr random_fr(std::mt19937_64& rng) {
  Limbs<4> c{};
  for (auto& w : c) w = rng();
  c[3] &= 0x7fffffffffffffffULL;
  return Fr::from_limbs_reduce(c);
}

}  // namespace cuzk::test
