// Fast subgroup tests (σ for G1, ψ for G2) against the slow test [r]P = O, on points inside and
// outside the subgroup; cofactor clearing against multiplication by the effective cofactor; the
// endomorphism constants against their definitions.
#include <gtest/gtest.h>

#include "cuzk/ec/g1.hpp"
#include "cuzk/ec/g2.hpp"
#include "cuzk/ec/test_util.hpp"

namespace cuzk {
namespace {

using ec_test::fresh_seed;
using ec_test::random_curve_point;
using ec_test::random_fr;
using ec_test::random_subgroup_point;

template <class C>
class Subgroup : public ::testing::Test {};
using Curves = ::testing::Types<G1Curve, G2Curve>;
TYPED_TEST_SUITE(Subgroup, Curves);

TYPED_TEST(Subgroup, FastTestAgreesWithOrderTest) {
  using C = TypeParam;
  using J = Jacobian<C>;
  const std::uint64_t seed = fresh_seed();
  std::mt19937_64 rng(seed);
  int outside = 0;
  for (int i = 0; i < 16; ++i) {
    const Affine<C> a = random_curve_point<C>(rng);
    ASSERT_TRUE(a.is_on_curve()) << "seed=" << seed;
    const J p = J::from_affine(a);
    const bool slow = is_in_subgroup_by_order_vartime(p);
    ASSERT_EQ(is_in_subgroup(a), slow) << "seed=" << seed << " i=" << i;
    ASSERT_EQ(is_in_subgroup(p), slow) << "seed=" << seed << " i=" << i;
    outside += !slow;
    // the same point moved into the subgroup
    const J q = clear_cofactor(p);
    ASSERT_TRUE(is_in_subgroup_by_order_vartime(q)) << "seed=" << seed;
    ASSERT_TRUE(is_in_subgroup(q)) << "seed=" << seed;
    ASSERT_TRUE(is_in_subgroup(q.to_affine_vartime())) << "seed=" << seed;
    // subgroup point plus a non-subgroup point leaves the subgroup
    if (!slow) {
      ASSERT_FALSE(is_in_subgroup(q + p)) << "seed=" << seed;
    }
  }
  EXPECT_GE(outside, 15) << "random curve points should almost never be in the subgroup; seed="
                         << seed;
  for (int i = 0; i < 4; ++i) {
    const J p = random_subgroup_point<C>(rng);
    ASSERT_TRUE(is_in_subgroup(p)) << "seed=" << seed;
    ASSERT_TRUE(is_in_subgroup_by_order_vartime(p)) << "seed=" << seed;
  }
  EXPECT_TRUE(is_in_subgroup(Affine<C>::identity()));
  EXPECT_TRUE(is_in_subgroup(J::identity()));
  EXPECT_TRUE(is_in_subgroup(Affine<C>::generator()));
}

TEST(Subgroup, G1OrderThreePoint) {
  // (0, ±2) is on y² = x³ + 4 and has order 3.
  const G1Affine p{Fp::zero(), Fp::from_u64(2), false};
  ASSERT_TRUE(p.is_on_curve());
  EXPECT_TRUE(mul_by_u64(G1Jacobian::from_affine(p), 3).is_identity());
  EXPECT_FALSE(is_in_subgroup(p));
  EXPECT_FALSE(is_in_subgroup(-p));
  EXPECT_TRUE(clear_cofactor(G1Jacobian::from_affine(p)).is_identity());  // 3 | 1 − x
}

TEST(Subgroup, G1EndomorphismAndCofactor) {
  const std::uint64_t seed = fresh_seed();
  std::mt19937_64 rng(seed);
  // β is a primitive cube root of unity, and σ acts as [−x²] on G1.
  const Fp beta = G1Curve::kBeta;
  EXPECT_FALSE(beta.is_one());
  EXPECT_TRUE((beta.square() * beta).is_one());
  const Fr x = -Fr::from_u64(kBlsXAbs);
  const G1Jacobian p = random_subgroup_point<G1Curve>(rng);
  EXPECT_EQ(sigma(p), mul_vartime(p, -(x * x))) << "seed=" << seed;
  EXPECT_EQ(mul_by_x(p), mul_vartime(p, x)) << "seed=" << seed;
  EXPECT_EQ(sigma(p.to_affine_vartime()), sigma(p).to_affine_vartime()) << "seed=" << seed;
  // [1 − x]P on arbitrary curve points, against the generic multiplication by 1 + |x|
  for (int i = 0; i < 4; ++i) {
    const G1Jacobian q = G1Jacobian::from_affine(random_curve_point<G1Curve>(rng));
    const Limbs<2> h_eff = {kBlsXAbs + 1, 0};
    ASSERT_EQ(clear_cofactor(q), mul_limbs_vartime(q, h_eff)) << "seed=" << seed;
  }
}

TEST(Subgroup, G2EndomorphismAndCofactor) {
  const std::uint64_t seed = fresh_seed();
  std::mt19937_64 rng(seed);
  // ψ constants from their definitions: cx = 1/ξ^((p−1)/3), cy = 1/ξ^((p−1)/2), ξ = 1 + u.
  const Fp2 xi{Fp::one(), Fp::one()};
  const Limbs<6> third = [] {
    Limbs<6> e = limbs_sub_small(Fp::kModulus, 1);
    limbs_div_small(e, 3);
    return e;
  }();
  EXPECT_EQ(xi.pow_vartime(third).inverse(), (Fp2{Fp::zero(), G2Curve::kPsiXc1}));
  EXPECT_EQ(xi.pow_vartime(Fp::kHalfPMinus1).inverse(), G2Curve::kPsiY);
  const G2Jacobian p = random_subgroup_point<G2Curve>(rng);
  EXPECT_EQ(psi(p), mul_by_x(p)) << "seed=" << seed;
  EXPECT_EQ(psi2(p), psi(psi(p))) << "seed=" << seed;
  EXPECT_EQ(psi(p.to_affine_vartime()), psi(p).to_affine_vartime()) << "seed=" << seed;
  EXPECT_EQ(mul_by_x(p), mul_vartime(p, -Fr::from_u64(kBlsXAbs))) << "seed=" << seed;
  // Budroni–Pintore against [h_eff]P (RFC 9380 §8.8.2) on arbitrary curve points; ψ on them too
  constexpr Limbs<10> h_eff = {0xe8020005aaa95551ULL, 0x59894c0adebbf6b4ULL, 0xe954cbc06689f6a3ULL,
                               0x2ec0ec69d7477c1aULL, 0x6d82bf015d1212b0ULL, 0x329c2f178731db95ULL,
                               0x9986ff031508ffe1ULL, 0x88e2a8e9145ad768ULL, 0x584c6a0ea91b3528ULL,
                               0x0bc69f08f2ee75b3ULL};
  for (int i = 0; i < 3; ++i) {
    const G2Jacobian q = G2Jacobian::from_affine(random_curve_point<G2Curve>(rng));
    ASSERT_TRUE(psi(q).is_on_curve()) << "seed=" << seed;
    ASSERT_EQ(psi2(q), psi(psi(q))) << "seed=" << seed;
    ASSERT_EQ(clear_cofactor(q), mul_limbs_vartime(q, h_eff)) << "seed=" << seed;
  }
}

}  // namespace
}  // namespace cuzk
