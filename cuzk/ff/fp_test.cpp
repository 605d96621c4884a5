// Basic laws and known values for Fp and Fr (the GMP cross-check lives in ff_gmp_test.cpp).
#include <gtest/gtest.h>

#include <random>

#include "cuzk/ff/fp.hpp"
#include "cuzk/ff/fp2.hpp"
#include "cuzk/ff/fr.hpp"

namespace cuzk {
namespace {

template <class F>
F random_element(std::mt19937_64& rng) {
  typename F::Repr c{};
  for (auto& w : c) w = rng();
  c[F::N - 1] >>= 1;  // below 2^(64N − 1); from_limbs_reduce subtracts p a few times
  return F::from_limbs_reduce(c);
}

template <class F>
class FieldLaws : public ::testing::Test {};
using Fields = ::testing::Types<Fp, Fr>;
TYPED_TEST_SUITE(FieldLaws, Fields);

// The constant-time inverse's inner loop (inline asm on x86-64) against its portable twin, on
// random values, short values, values near p, 0 and 1.
TYPED_TEST(FieldLaws, PorninInnerLoopMatchesPortable) {
  using F = TypeParam;
  static constexpr safegcd::Pornin<F::N> kPornin{F::kModulus};
#if CUZK_SAFEGCD_X86
  // the x86-64 updates of invert_scaled<false> use mulx/adx
  if (!mont_x86::cpu_has_mulx_adx()) GTEST_SKIP() << "no mulx/adx on this CPU";
#endif
  const std::uint64_t seed = std::random_device{}();
  std::mt19937_64 rng(seed);
  for (int i = 0; i < 300; ++i) {
    typename F::Repr x{};
    switch (i % 4) {
      case 0:
        x = random_element<F>(rng).l;
        break;
      case 1:
        x[0] = rng() >> (rng() % 64);
        break;
      case 2:
        x = (F::zero() - F::from_u64(rng() % 1000 + 1)).l;
        break;
      default:
        x[0] = i / 4;
        break;  // 0, 1, 2, ...
    }
    ASSERT_EQ(kPornin.template invert_scaled<true>(x), kPornin.template invert_scaled<false>(x))
        << "i=" << i << " seed=" << seed;
  }
}

TYPED_TEST(FieldLaws, RingAndInverseLaws) {
  using F = TypeParam;
  const std::uint64_t seed = std::random_device{}();
  std::mt19937_64 rng(seed);
  for (int i = 0; i < 200; ++i) {
    F a = random_element<F>(rng), b = random_element<F>(rng), c = random_element<F>(rng);
    ASSERT_EQ(a * (b + c), a * b + a * c) << "seed=" << seed;
    ASSERT_EQ((a - b) + b, a) << "seed=" << seed;
    ASSERT_EQ(a.square(), a * a) << "seed=" << seed;
    if (!a.is_zero()) {
      ASSERT_TRUE((a * a.inverse()).is_one()) << "seed=" << seed;
      ASSERT_EQ(a.inverse(), a.inverse_vartime()) << "seed=" << seed;
    }
    auto s = a.square().sqrt();
    ASSERT_TRUE(s.has_value()) << "seed=" << seed;
    ASSERT_TRUE(*s == a || *s == -a) << "seed=" << seed;
    ASSERT_EQ(F::from_hex(a.to_hex()).value(), a);
    ASSERT_EQ(F::from_dec(a.to_dec()).value(), a);
  }
}

TEST(Fr, RootOfUnityHasOrder2To32) {
  Fr w = Fr::from_canonical(kFrRootOfUnity32).value();
  Fr t = w;
  for (int i = 0; i < 31; ++i) t = t.square();
  EXPECT_FALSE(t.is_one());
  EXPECT_TRUE(t.square().is_one());
  EXPECT_EQ(Fr::from_u64(kFrGenerator).pow_vartime(Fr::kOddPart), w);
}

TEST(Fp2, SqrtAndInverse) {
  Fp2 a{Fp::from_u64(5), Fp::from_u64(9)};
  auto s = a.square().sqrt();
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->square(), a.square());
  EXPECT_TRUE((a * a.inverse()).is_one());
  EXPECT_FALSE((Fp2{Fp::one(), Fp::one()}).sqrt().has_value());  // ξ = 1 + u is a non-residue
}

// Fp2::pow_vartime (windowed) against plain square-and-multiply, exponents of random lengths;
// sqrt of random squares and non-squares against the norm's Legendre symbol.
TEST(Fp2, PowAndSqrtRandom) {
  const std::uint64_t seed = std::random_device{}();
  std::mt19937_64 rng(seed);
  for (int i = 0; i < 40; ++i) {
    Fp2 a{random_element<Fp>(rng), random_element<Fp>(rng)};
    Limbs<6> e{};
    for (auto& w : e) w = rng();
    const unsigned len = 1 + static_cast<unsigned>(rng() % 384);
    for (unsigned b = len; b < 384; ++b) e[b / 64] &= ~(std::uint64_t{1} << (b % 64));
    Fp2 want = Fp2::one();
    for (unsigned b = len; b-- > 0;) {
      want = want * want;
      if ((e[b / 64] >> (b % 64)) & 1) want = want * a;
    }
    ASSERT_EQ(a.pow_vartime(e), want) << "len=" << len << " seed=" << seed;
    auto s = a.square().sqrt();
    ASSERT_TRUE(s.has_value()) << "seed=" << seed;
    ASSERT_EQ(s->square(), a.square()) << "seed=" << seed;
    ASSERT_EQ(a.sqrt().has_value(), a.legendre() >= 0) << "seed=" << seed;
  }
}

}  // namespace
}  // namespace cuzk
