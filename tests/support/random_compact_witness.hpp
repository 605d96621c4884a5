// Random witnesses in stretches (random bits, zeros, ones, field values) for the compact-witness
// tests, with their compact form, and random density bitmaps. One copy for the CPU tests and the
// GPU ones (r1cs/compact_witness_test.cpp, backend/compact_msm_split_test.cpp,
// gpu/msm/compact_classify_test.cu).
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "cuzk/base/thread_pool.hpp"
#include "cuzk/ff/fr.hpp"
#include "cuzk/r1cs/compact_witness.hpp"
#include "tests/support/seed.hpp"

namespace cuzk::test {

struct StretchyOptions {
  std::size_t size = 1000;
  std::size_t max_stretch = 40;
  bool field_values = true;   ///< false: no runs at all
  bool run_at_start = false;  ///< variable 1 onwards a field value (variable 0 is ONE)
  bool run_at_end = false;    ///< the last variables field values
};

/// z = (ONE, ...) in stretches of 1..max_stretch values of one kind: random bits, zeros, ones, or
/// (with field_values) random field values.
inline std::vector<Fr> stretchy_z(std::mt19937_64& rng, const StretchyOptions& o) {
  std::vector<Fr> z;
  z.reserve(o.size);
  if (o.size > 0) z.push_back(Fr::one());
  const unsigned kinds = o.field_values ? 4 : 3;
  while (z.size() < o.size) {
    const bool first = z.size() == 1;
    const unsigned kind = first && o.run_at_start && o.field_values ? 3 : rng() % kinds;
    const std::size_t len = std::min(o.size - z.size(), 1 + rng() % o.max_stretch);
    for (std::size_t i = 0; i < len; ++i) {
      switch (kind) {
        case 0:
          z.push_back(rng() & 1 ? Fr::one() : Fr::zero());
          break;
        case 1:
          z.push_back(Fr::zero());
          break;
        case 2:
          z.push_back(Fr::one());
          break;
        default:
          z.push_back(random_fr(rng));
          break;
      }
    }
  }
  if (o.run_at_end && o.field_values)
    for (std::size_t i = z.size() > 3 ? z.size() - 3 : 1; i < z.size(); ++i) z[i] = random_fr(rng);
  return z;
}

/// A density bitmap over |n| scalars with each bit set with probability |percent|/100, and stray
/// bits set past n in the last word (a rule that reads them is wrong).
inline std::vector<std::uint64_t> random_density(std::mt19937_64& rng, std::size_t n,
                                                 unsigned percent) {
  std::vector<std::uint64_t> bits((n + 63) / 64);
  for (std::size_t i = 0; i < n; ++i)
    if (rng() % 100 < percent) bits[i / 64] |= std::uint64_t{1} << (i % 64);
  if (n % 64 != 0) bits.back() |= ~std::uint64_t{0} << (n % 64);
  return bits;
}

}  // namespace cuzk::test
