// Helpers of the tests that compare a partition's MSM sums between backends
// (gpu/compact_prove_gpu_test.cpp, gpu/partition_overlap_test.cpp): key tables whose points repeat
// with a prime period, and the five sums compared one by one.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <random>
#include <vector>

#include "cuzk/backend/backend.hpp"
#include "cuzk/ec/affine.hpp"
#include "cuzk/ec/batch_affine.hpp"
#include "cuzk/ec/jacobian.hpp"
#include "cuzk/ec/scalar_mul.hpp"
#include "tests/support/seed.hpp"

namespace cuzk::test {

/// |n| points: min(n, period) distinct ones (P0 + i·Q for random P0, Q) repeated with |period|,
/// a prime, so an index off by less than the period changes a sum; cheap for large n.
template <class C>
std::vector<Affine<C>> periodic_points(std::mt19937_64& rng, std::size_t n, std::size_t period) {
  const std::size_t distinct = std::min(n, period);
  Jacobian<C> p = mul_vartime(Affine<C>::generator(), random_fr(rng));
  const Jacobian<C> q = mul_vartime(Affine<C>::generator(), random_fr(rng));
  std::vector<Jacobian<C>> jac(distinct);
  for (auto& j : jac) {
    j = p;
    p.add(q);
  }
  const std::vector<Affine<C>> pts = batch_to_affine_vartime<C>(jac);
  std::vector<Affine<C>> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = pts[i % distinct];
  return out;
}

/// The five sums of |got| equal |want|'s, each named in its failure.
inline void expect_same_sums(const PartitionSums& got, const PartitionSums& want) {
  EXPECT_EQ(got.a.to_affine(), want.a.to_affine()) << "A";
  EXPECT_EQ(got.b_g1.to_affine(), want.b_g1.to_affine()) << "B_G1";
  EXPECT_EQ(got.b_g2.to_affine(), want.b_g2.to_affine()) << "B_G2";
  EXPECT_EQ(got.l.to_affine(), want.l.to_affine()) << "L";
  EXPECT_EQ(got.h.to_affine(), want.h.to_affine()) << "H";
}

}  // namespace cuzk::test
