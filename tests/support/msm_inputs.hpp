// Inputs of the MSM conformance tests (tests/conformance, gpu/streamed_test.cpp): scalar mixes as
// the provers' queries have them, and density bitmaps as bellperson's trackers make them.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "cuzk/ff/fr.hpp"
#include "tests/support/seed.hpp"

namespace cuzk::test {

/// A scalar of mix |mode|: 0 uniform; 1 40 % zero, 40 % one; 2 the PoRep mix (35 % zero, 35 %
/// one, 30 % random); 3 all zero; 4 zeros and ones only; 5 a witness's repeats (30 % zero, 30 %
/// one, 20 % of 2..4, 20 % of −1..−3: a few buckets per window hold most points, so buckets cross
/// the GPU's accumulation segments).
inline Fr mixed_scalar(int mode, std::mt19937_64& rng) {
  const unsigned r = rng() % 20;
  switch (mode) {
    case 0:
      return random_fr(rng);
    case 1:
      return r < 8 ? Fr::zero() : r < 16 ? Fr::one() : random_fr(rng);
    case 2:
      return r < 7 ? Fr::zero() : r < 14 ? Fr::one() : random_fr(rng);
    case 3:
      return Fr::zero();
    case 5:
      return r < 6    ? Fr::zero()
             : r < 12 ? Fr::one()
             : r < 16 ? Fr::from_u64(2 + rng() % 3)
                      : Fr::zero() - Fr::from_u64(1 + rng() % 3);
    default:
      return r < 10 ? Fr::zero() : Fr::one();
  }
}

/// A density bitmap over |n| scalars and a base offset, for a table of |bases| points: each
/// scalar is selected with probability 3/4 while fewer than |bases| are, the bitmap is one word
/// longer than needed (as bellperson's trackers may be), and the offset keeps the selected bases
/// inside the table.
struct RandomDensity {
  std::vector<std::uint64_t> bits;
  std::size_t offset = 0;
};
inline RandomDensity random_density(std::size_t n, std::size_t bases, std::mt19937_64& rng) {
  RandomDensity d;
  d.bits.assign((n + 63) / 64 + 1, 0);
  std::size_t used = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (used < bases && rng() % 4 != 0) d.bits[i / 64] |= std::uint64_t{1} << (i % 64), ++used;
  d.offset = rng() % (bases - used + 1);
  return d;
}

}  // namespace cuzk::test
