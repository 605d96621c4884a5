// Shared helpers of the poly tests: a printed, replayable seed and random Fr elements.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "cuzk/ff/fr.hpp"
#include "tests/support/seed.hpp"

namespace cuzk::poly_test {
using cuzk::test::random_fr;

/// A fresh seed (or CUZK_TEST_SEED when set), printed so a failure can be replayed.
inline std::uint64_t test_seed(const char* what) {
  const char* env = std::getenv("CUZK_TEST_SEED");
  const std::uint64_t seed = env ? std::strtoull(env, nullptr, 10) : std::random_device{}();
  std::printf("%s seed=%llu\n", what, static_cast<unsigned long long>(seed));
  return seed;
}

/// Uniform-ish Fr: 255 random bits reduced mod r.
inline std::vector<Fr> random_vector(std::mt19937_64& rng, std::size_t n) {
  std::vector<Fr> v(n);
  for (auto& x : v) x = random_fr(rng);
  return v;
}

}  // namespace cuzk::poly_test
