// Fp2 multiplication with lazy reduction (mont_x86::fp2_mul6) against the plain formula on random
// and edge inputs, on both Fp paths.
// Fp6/Fp12 tower: field laws on random elements, sparse products against full products,
// Frobenius against x^(p^k) and the constant table against ξ^(j(p^k−1)/6), cyclotomic squaring
// and exponentiation against the generic ones on cyclotomic elements. Seeds are printed.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "cuzk/ff/fp12.hpp"
#include "cuzk/ff/fp2.hpp"
#include "cuzk/ff/fp6.hpp"
#include "tests/support/seed.hpp"

namespace cuzk {
namespace {
using cuzk::test::fresh_seed;

Fp random_fp(std::mt19937_64& rng) {
  Limbs<6> c{};
  for (auto& w : c) w = rng();
  c[5] &= (std::uint64_t{1} << 61) - 1;  // < 2^381, then reduce (at most one subtraction)
  return Fp::from_limbs_reduce(c);
}
Fp2 random_fp2(std::mt19937_64& rng) { return {random_fp(rng), random_fp(rng)}; }
Fp6 random_fp6(std::mt19937_64& rng) { return {random_fp2(rng), random_fp2(rng), random_fp2(rng)}; }
Fp12 random_fp12(std::mt19937_64& rng) { return {random_fp6(rng), random_fp6(rng)}; }

template <class F>
F random_of(std::mt19937_64& rng) {
  if constexpr (std::is_same_v<F, Fp6>)
    return random_fp6(rng);
  else
    return random_fp12(rng);
}

// Coefficients where the lazy bounds are tight: 0, 1, 2, p − 1, p − 2, (p ± 1)/2, and values with
// all-ones or all-zero low words (carries through every word of the 768-bit products).
std::vector<Fp> fp_edges() {
  std::vector<Fp> e{Fp::zero(), Fp::one(), Fp::from_u64(2), -Fp::one(), -Fp::from_u64(2)};
  const Fp half = Fp::from_u64(2).inverse();
  e.push_back(half);
  e.push_back(half + Fp::one());
  e.push_back(-half);
  Limbs<6> c{};
  for (std::size_t i = 0; i < 5; ++i) c[i] = ~std::uint64_t{0};
  c[5] = Fp::kModulus[5] - 1;
  e.push_back(Fp::from_mont_unchecked(c));  // Montgomery limbs just below p, all-ones low words
  Limbs<6> m = Fp::kModulus;
  m[0] -= 1;
  e.push_back(Fp::from_mont_unchecked(m));  // limbs p − 1
  Limbs<6> t{};
  t[5] = Fp::kModulus[5] >> 1;
  e.push_back(Fp::from_mont_unchecked(t));  // one high word, zero low words
  return e;
}

void check_fp2_lazy(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const auto edges = fp_edges();
  std::vector<Fp2> vals;
  for (const Fp& x : edges)
    for (const Fp& y : edges) vals.push_back({x, y});
  for (int i = 0; i < 40; ++i) vals.push_back(random_fp2(rng));
  for (const Fp2& a : vals) {
    for (const Fp2& b : vals) {
      const Fp2 want = Fp2::mul_plain(a, b);
      ASSERT_EQ(a * b, want) << "seed=" << seed;
      Fp2 in_place = a;
      in_place *= b;
      ASSERT_EQ(in_place, want) << "seed=" << seed;
    }
    Fp2 self = a;
    self *= self;  // the output aliases both operands
    ASSERT_EQ(self, Fp2::mul_plain(a, a)) << "seed=" << seed;
  }
  for (int i = 0; i < 20000; ++i) {
    const Fp2 a = random_fp2(rng), b = random_fp2(rng);
    ASSERT_EQ(a * b, Fp2::mul_plain(a, b)) << "i=" << i << " seed=" << seed;
  }
  // The plain formula itself: (a·b)·c = a·(b·c) and a·(b + c) = a·b + a·c on the result values.
  const Fp2 a = random_fp2(rng), b = random_fp2(rng), c = random_fp2(rng);
  EXPECT_EQ((a * b) * c, a * (b * c)) << "seed=" << seed;
  EXPECT_EQ(a * (b + c), a * b + a * c) << "seed=" << seed;
}

TEST(Fp2, LazyMultiplicationMatchesPlainFormula) {
  const auto seed = fresh_seed();
  check_fp2_lazy(seed);
  // With Fp's portable path the lazy path is off and the plain formula runs on portable Fp: the
  // same products.
  const bool prev = mont_x86::set_asm_enabled(false);
  check_fp2_lazy(seed);
  mont_x86::set_asm_enabled(prev);
  const bool lazy = Fp2::set_lazy_enabled(false);
  check_fp2_lazy(seed);
  Fp2::set_lazy_enabled(lazy);
}

/// Schoolbook product of little-endian limb vectors (exponents only).
template <std::size_t A, std::size_t B>
Limbs<A + B> big_mul(const Limbs<A>& a, const Limbs<B>& b) {
  Limbs<A + B> r{};
  for (std::size_t i = 0; i < A; ++i) {
    std::uint64_t c = 0;
    for (std::size_t j = 0; j < B; ++j) r[i + j] = mac(r[i + j], a[i], b[j], c);
    r[i + B] = c;
  }
  return r;
}

/// p^k as 18 limbs, k = 1..3.
Limbs<18> p_power(unsigned k) {
  Limbs<18> r{};
  Limbs<6> p = Fp::kModulus;
  if (k == 1) {
    for (int i = 0; i < 6; ++i) r[i] = p[i];
  } else {
    Limbs<12> p2 = big_mul(p, p);
    if (k == 2) {
      for (int i = 0; i < 12; ++i) r[i] = p2[i];
    } else {
      r = big_mul(p2, p);
    }
  }
  return r;
}

template <class F>
class TowerLaws : public ::testing::Test {};
using TowerFields = ::testing::Types<Fp6, Fp12>;
TYPED_TEST_SUITE(TowerLaws, TowerFields);

TYPED_TEST(TowerLaws, RingAndInverseLaws) {
  using F = TypeParam;
  const std::uint64_t seed = fresh_seed();
  std::mt19937_64 rng(seed);
  for (int i = 0; i < 37; ++i) {
    const F a = random_of<F>(rng), b = random_of<F>(rng), c = random_of<F>(rng);
    ASSERT_EQ(a * b, b * a) << "seed=" << seed;
    ASSERT_EQ((a * b) * c, a * (b * c)) << "seed=" << seed;
    ASSERT_EQ(a * (b + c), a * b + a * c) << "seed=" << seed;
    ASSERT_EQ((a - b) + b, a) << "seed=" << seed;
    ASSERT_EQ(a + (-a), F::zero()) << "seed=" << seed;
    ASSERT_EQ(a * F::one(), a) << "seed=" << seed;
    ASSERT_EQ(a.square(), a * a) << "seed=" << seed;
    ASSERT_TRUE((a * a.inverse()).is_one()) << "seed=" << seed;
  }
  EXPECT_TRUE(F::zero().inverse().is_zero());
}

TEST(Fp6, SparseProductsAndNonresidue) {
  const std::uint64_t seed = fresh_seed();
  std::mt19937_64 rng(seed);
  for (int i = 0; i < 23; ++i) {
    const Fp6 a = random_fp6(rng);
    const Fp2 b0 = random_fp2(rng), b1 = random_fp2(rng);
    ASSERT_EQ(a.mul_by_01(b0, b1), a * Fp6({b0, b1, Fp2::zero()})) << "seed=" << seed;
    ASSERT_EQ(a.mul_by_1(b1), a * Fp6({Fp2::zero(), b1, Fp2::zero()})) << "seed=" << seed;
    ASSERT_EQ(a.mul_by_nonresidue(), a * Fp6({Fp2::zero(), Fp2::one(), Fp2::zero()}))
        << "seed=" << seed;
    ASSERT_EQ(a.mul_fp2(b0), a * Fp6({b0, Fp2::zero(), Fp2::zero()})) << "seed=" << seed;
  }
  // v³ = ξ
  const Fp6 v{Fp2::zero(), Fp2::one(), Fp2::zero()};
  EXPECT_EQ(v * v * v, (Fp6{Fp2::one().mul_by_nonresidue(), Fp2::zero(), Fp2::zero()}));
}

TEST(Fp12, SparseLineProductAndW) {
  const std::uint64_t seed = fresh_seed();
  std::mt19937_64 rng(seed);
  for (int i = 0; i < 23; ++i) {
    const Fp12 f = random_fp12(rng);
    const Fp2 l0 = random_fp2(rng), l1 = random_fp2(rng), l4 = random_fp2(rng);
    const Fp12 line{{l0, l1, Fp2::zero()}, {Fp2::zero(), l4, Fp2::zero()}};
    ASSERT_EQ(f.mul_by_014(l0, l1, l4), f * line) << "seed=" << seed;
  }
  // w² = v
  const Fp12 w{Fp6::zero(), Fp6::one()};
  EXPECT_EQ(w.square(), (Fp12{{Fp2::zero(), Fp2::one(), Fp2::zero()}, Fp6::zero()}));
}

TEST(Frobenius, ConstantsAreXiPowers) {
  const Fp2 xi = Fp2::one().mul_by_nonresidue();
  for (unsigned k = 1; k <= 3; ++k) {
    Limbs<18> e = limbs_sub_small(p_power(k), 1);
    ASSERT_EQ(limbs_div_small(e, 6), 0u);
    for (unsigned j = 1; j <= 5; ++j) {
      Limbs<18> ej = e;
      ASSERT_EQ(limbs_mul_small(ej, j, 0), 0u);
      EXPECT_EQ(xi.pow_vartime(ej), kFrobGamma[k - 1][j - 1]) << "k=" << k << " j=" << j;
    }
  }
}

TEST(Frobenius, EqualsPowerOfP) {
  const std::uint64_t seed = fresh_seed();
  std::mt19937_64 rng(seed);
  const Fp6 a = random_fp6(rng);
  const Fp12 f = random_fp12(rng);
  for (unsigned k = 1; k <= 3; ++k) {
    const Limbs<18> pk = p_power(k);
    EXPECT_EQ(a.frobenius_map(k), a.pow_vartime(pk)) << "k=" << k << " seed=" << seed;
    EXPECT_EQ(f.frobenius_map(k), f.pow_vartime(pk)) << "k=" << k << " seed=" << seed;
  }
  // Larger powers compose; the periods are 6 and 12.
  Fp6 a_it = a;
  Fp12 f_it = f;
  for (unsigned k = 1; k <= 13; ++k) {
    a_it = a_it.frobenius_map(1);
    f_it = f_it.frobenius_map(1);
    EXPECT_EQ(a.frobenius_map(k), a_it) << "k=" << k << " seed=" << seed;
    EXPECT_EQ(f.frobenius_map(k), f_it) << "k=" << k << " seed=" << seed;
  }
  EXPECT_EQ(a.frobenius_map(6), a);
  EXPECT_EQ(f.frobenius_map(12), f);
  EXPECT_EQ(f.frobenius_map(6), f.conjugate());
}

TEST(Cyclotomic, SquareAndPowMatchGeneric) {
  const std::uint64_t seed = fresh_seed();
  std::mt19937_64 rng(seed);
  for (int i = 0; i < 5; ++i) {
    const Fp12 f = random_fp12(rng);
    // g = f^((p⁶ − 1)(p² + 1)) lies in the cyclotomic subgroup.
    Fp12 g = f.conjugate() * f.inverse();
    g = g.frobenius_map(2) * g;
    ASSERT_TRUE((g * g.conjugate()).is_one()) << "seed=" << seed;
    ASSERT_EQ(g.cyclotomic_square(), g.square()) << "seed=" << seed;
    ASSERT_EQ(g.cyclotomic_square().cyclotomic_square(), g.square().square()) << "seed=" << seed;
    ASSERT_EQ(g.cyclotomic_pow_abs_x(), g.pow_vartime(Limbs<1>{Fp12::kBlsX})) << "seed=" << seed;
    ASSERT_EQ(g.cyclotomic_pow_x() * g.pow_vartime(Limbs<1>{Fp12::kBlsX}), Fp12::one())
        << "seed=" << seed;
    // A non-cyclotomic element: the shortcut does not apply (guards the test itself).
    ASSERT_NE(f.cyclotomic_square(), f.square()) << "seed=" << seed;
  }
}

}  // namespace
}  // namespace cuzk
