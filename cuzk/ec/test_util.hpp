// Helpers shared by the ec tests: seeded random field elements, scalars and points, in and out of
// the prime-order subgroup.
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <random>

#include "cuzk/ec/g1.hpp"
#include "cuzk/ec/g2.hpp"
#include "tests/support/seed.hpp"

namespace cuzk::ec_test {
using cuzk::test::fresh_seed;
using cuzk::test::random_fr;

/// A seed from the OS, printed now (and by the caller with every failure); CUZK_SEED overrides it.
inline Fp random_fp(std::mt19937_64& rng) {
  Limbs<6> c{};
  for (auto& w : c) w = rng();
  c[5] &= 0x1fffffffffffffffULL;  // below 2^381, then reduced
  return Fp::from_limbs_reduce(c);
}
inline Fp2 random_fp2(std::mt19937_64& rng) { return {random_fp(rng), random_fp(rng)}; }
template <class F>
F random_field(std::mt19937_64& rng);
template <>
inline Fp random_field<Fp>(std::mt19937_64& rng) {
  return random_fp(rng);
}
template <>
inline Fp2 random_field<Fp2>(std::mt19937_64& rng) {
  return random_fp2(rng);
}

/// A uniformly random point of the whole curve group E(F) minus the identity: random x until
/// x³ + b is a square. Outside the subgroup with overwhelming probability (cofactor > 2^120).
template <class C>
Affine<C> random_curve_point(std::mt19937_64& rng) {
  using F = typename C::Field;
  for (;;) {
    const F x = random_field<F>(rng);
    const auto y = (x.square() * x + C::kB).sqrt();
    if (!y) continue;
    return {x, (rng() & 1) ? *y : -*y, false};
  }
}

/// A random point of the subgroup: [k]G for a random scalar k.
template <class C>
Jacobian<C> random_subgroup_point(std::mt19937_64& rng) {
  return mul_vartime(Jacobian<C>::generator(), random_fr(rng));
}

/// The textbook affine group law (one inversion per operation): the slow twin of every projective
/// formula. λ = (y2 − y1)/(x2 − x1), or 3x1²/(2y1) when the points are equal.
template <class C>
Affine<C> affine_add_reference(const Affine<C>& p, const Affine<C>& q) {
  using F = typename C::Field;
  if (p.infinity) return q;
  if (q.infinity) return p;
  F lambda;
  if (p.x == q.x) {
    if (p.y == -q.y) return Affine<C>::identity();  // also covers y = 0
    const F x2 = p.x.square();
    lambda = (x2.dbl() + x2) * p.y.dbl().inverse_vartime();
  } else {
    lambda = (q.y - p.y) * (q.x - p.x).inverse_vartime();
  }
  const F x3 = lambda.square() - p.x - q.x;
  return {x3, lambda * (p.x - x3) - p.y, false};
}

}  // namespace cuzk::ec_test
