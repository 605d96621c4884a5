// Group laws for G1 and G2 on random points (Jacobian, mixed, XYZZ), scalar multiplication against
// repeated addition and against each other, batch affine conversion.
#include <gtest/gtest.h>

#include <vector>

#include "cuzk/ec/batch_affine.hpp"
#include "cuzk/ec/fixed_base.hpp"
#include "cuzk/ec/g1.hpp"
#include "cuzk/ec/g2.hpp"
#include "cuzk/ec/test_util.hpp"

namespace cuzk {
namespace {

using ec_test::fresh_seed;
using ec_test::random_fr;
using ec_test::random_subgroup_point;

template <class C>
Affine<C> affine_add_reference_twice(const Affine<C>& p) {
  return ec_test::affine_add_reference(p, p);
}

template <class C>
class GroupLaws : public ::testing::Test {};
using Curves = ::testing::Types<G1Curve, G2Curve>;
TYPED_TEST_SUITE(GroupLaws, Curves);

TYPED_TEST(GroupLaws, GeneratorOnCurve) {
  using A = Affine<TypeParam>;
  EXPECT_TRUE(A::generator().is_on_curve());
  EXPECT_TRUE(A::identity().is_on_curve());
  EXPECT_FALSE(
      (A{A::generator().x, A::generator().y + TypeParam::Field::one(), false}).is_on_curve());
}

TYPED_TEST(GroupLaws, AdditionLaws) {
  using C = TypeParam;
  using J = Jacobian<C>;
  using X = Xyzz<C>;
  const std::uint64_t seed = fresh_seed();
  std::mt19937_64 rng(seed);
  const J o = J::identity();
  for (int it = 0; it < 12; ++it) {
    const J p = random_subgroup_point<C>(rng), q = random_subgroup_point<C>(rng),
            s = random_subgroup_point<C>(rng);
    ASSERT_TRUE(p.is_on_curve()) << "seed=" << seed;
    ASSERT_EQ((p + q) + s, p + (q + s)) << "seed=" << seed;
    ASSERT_EQ(p + q, q + p) << "seed=" << seed;
    ASSERT_EQ(p + o, p) << "seed=" << seed;
    ASSERT_EQ(o + p, p) << "seed=" << seed;
    ASSERT_TRUE((p - p).is_identity()) << "seed=" << seed;
    ASSERT_TRUE((p + -p).is_identity()) << "seed=" << seed;
    ASSERT_EQ(p + p, p.doubled()) << "seed=" << seed;
    ASSERT_TRUE(o.doubled().is_identity()) << "seed=" << seed;
    ASSERT_TRUE((p + q).is_on_curve()) << "seed=" << seed;
    ASSERT_TRUE(p.doubled().is_on_curve()) << "seed=" << seed;

    // mixed addition, including the doubling and inverse special cases
    const auto qa = q.to_affine_vartime(), pa = p.to_affine_vartime();
    ASSERT_EQ(pa, p.to_affine()) << "seed=" << seed;
    ASSERT_TRUE(qa.is_on_curve()) << "seed=" << seed;
    ASSERT_EQ(p + qa, p + q) << "seed=" << seed;
    ASSERT_EQ(p + pa, p.doubled()) << "seed=" << seed;
    ASSERT_TRUE((p + -pa).is_identity()) << "seed=" << seed;
    ASSERT_EQ(o + qa, q) << "seed=" << seed;
    ASSERT_EQ(p + Affine<C>::identity(), p) << "seed=" << seed;

    // XYZZ agrees with Jacobian
    X xp = X::from_jacobian(p);
    ASSERT_EQ(xp.to_jacobian(), p) << "seed=" << seed;
    X t = xp;
    t.add_mixed(qa);
    ASSERT_EQ(t.to_jacobian(), p + q) << "seed=" << seed;
    t = xp;
    t.add(X::from_jacobian(q));
    ASSERT_EQ(t.to_jacobian(), p + q) << "seed=" << seed;
    ASSERT_EQ(t.to_affine_vartime(), (p + q).to_affine_vartime()) << "seed=" << seed;
    ASSERT_EQ(t.to_affine(), (p + q).to_affine()) << "seed=" << seed;
    t = xp;
    t.dbl();
    ASSERT_EQ(t.to_jacobian(), p.doubled()) << "seed=" << seed;
    t = X::from_affine(pa);
    t.add_mixed(pa);  // equal inputs: mdbl
    ASSERT_EQ(t.to_jacobian(), p.doubled()) << "seed=" << seed;
    t = xp;
    t.add(xp);  // equal inputs: dbl
    ASSERT_EQ(t.to_jacobian(), p.doubled()) << "seed=" << seed;
    t = xp;
    t.sub_mixed(pa);
    ASSERT_TRUE(t.is_identity()) << "seed=" << seed;
    t = X::identity();
    t.add_mixed(qa);
    ASSERT_EQ(t, X::from_jacobian(q)) << "seed=" << seed;
    t.add(X::identity());
    ASSERT_EQ(t.to_jacobian(), q) << "seed=" << seed;
    t = X::identity();
    t.dbl();
    ASSERT_TRUE(t.is_identity()) << "seed=" << seed;
  }
}

// Bucket-style random walks: add / subtract points drawn from a small pool (so duplicates, inverses
// and the identity recur) in Jacobian, mixed Jacobian, XYZZ and mixed XYZZ form, against the affine
// reference law. Points are taken from the whole curve, not only the subgroup.
TYPED_TEST(GroupLaws, RandomWalkAgainstAffineReference) {
  using C = TypeParam;
  using A = Affine<C>;
  using J = Jacobian<C>;
  using X = Xyzz<C>;
  const std::uint64_t seed = fresh_seed();
  std::mt19937_64 rng(seed);
  std::vector<A> pool = {A::identity()};
  for (int i = 0; i < 3; ++i) pool.push_back(ec_test::random_curve_point<C>(rng));
  pool.push_back(-pool[1]);
  const int steps = 150 + static_cast<int>(rng() % 57);
  A ref = A::identity();
  J jac = J::identity(), jmix = J::identity();
  X xyzz = X::identity(), xmix = X::identity();
  for (int s = 0; s < steps; ++s) {
    const unsigned op = rng() % 8;
    A q = pool[rng() % pool.size()];
    if (op == 0) q = ref;                    // doubling through the addition
    if (op == 1 && !ref.infinity) q = -ref;  // cancellation to the identity
    if (op == 7) {                           // explicit doubling
      ref = affine_add_reference_twice(ref);
      jac.dbl(), jmix.dbl(), xyzz.dbl(), xmix.dbl();
    } else {
      if (rng() & 1) q = -q;
      ref = ec_test::affine_add_reference(ref, q);
      jac.add(J::from_affine(q));
      jmix.add_mixed(q);
      xyzz.add(X::from_affine(q));
      xmix.add_mixed(q);
    }
    ASSERT_EQ(jac.to_affine_vartime(), ref) << "step " << s << " seed=" << seed;
    ASSERT_EQ(jmix.to_affine_vartime(), ref) << "step " << s << " seed=" << seed;
    ASSERT_EQ(xyzz.to_affine_vartime(), ref) << "step " << s << " seed=" << seed;
    ASSERT_EQ(xmix.to_affine_vartime(), ref) << "step " << s << " seed=" << seed;
    ASSERT_TRUE(jac.is_on_curve()) << "step " << s << " seed=" << seed;
    if (rng() % 16 == 0) pool.push_back(ref);  // later steps may add the accumulator's own value
  }
}

TYPED_TEST(GroupLaws, ScalarMultiplication) {
  using C = TypeParam;
  using J = Jacobian<C>;
  const std::uint64_t seed = fresh_seed();
  std::mt19937_64 rng(seed);
  const J g = J::generator();
  // small scalars against repeated addition
  J acc = J::identity();
  for (std::uint64_t k = 0; k < 40; ++k) {
    ASSERT_EQ(mul(g, Fr::from_u64(k)), acc) << "k=" << k;
    ASSERT_EQ(mul_vartime(g, Fr::from_u64(k)), acc) << "k=" << k;
    ASSERT_EQ(mul_by_u64(g, k), acc) << "k=" << k;
    acc += g;
  }
  for (int it = 0; it < 6; ++it) {
    const J p = random_subgroup_point<C>(rng);
    const Fr a = random_fr(rng), b = random_fr(rng);
    const J pa = mul(p, a);
    ASSERT_EQ(pa, mul_vartime(p, a)) << "seed=" << seed;
    ASSERT_EQ(mul(p, a + b), pa + mul(p, b)) << "seed=" << seed;  // distributive
    ASSERT_EQ(mul(pa, b), mul(p, a * b)) << "seed=" << seed;      // [a][b] = [ab]
    ASSERT_EQ(mul(p, -a), -pa) << "seed=" << seed;                // [−a] = −[a]
    ASSERT_TRUE(mul(p, Fr::zero()).is_identity()) << "seed=" << seed;
    const std::uint64_t k = rng();
    ASSERT_EQ(mul_by_u64(p, k), mul_vartime(p, Fr::from_u64(k))) << "seed=" << seed;
    if constexpr (std::is_same_v<C, G1Curve>) {
      ASSERT_EQ(mul_glv_vartime(p, a), pa) << "seed=" << seed;
      ASSERT_EQ(mul_glv(p, a), pa) << "seed=" << seed;
    } else {
      ASSERT_EQ(mul_gls_vartime(p, a), pa) << "seed=" << seed;
      ASSERT_EQ(mul_gls(p, a), pa) << "seed=" << seed;
    }
  }
  // [r − 1]G = −G
  ASSERT_EQ(mul(g, -Fr::one()), -g);
  if constexpr (std::is_same_v<C, G1Curve>) {
    ASSERT_EQ(mul_glv_vartime(g, -Fr::one()), -g);
    ASSERT_TRUE(mul_glv_vartime(g, Fr::zero()).is_identity());
    ASSERT_EQ(mul_glv(g, -Fr::one()), -g);
    ASSERT_TRUE(mul_glv(g, Fr::zero()).is_identity());
  } else {
    ASSERT_EQ(mul_gls_vartime(g, -Fr::one()), -g);
    ASSERT_TRUE(mul_gls_vartime(g, Fr::zero()).is_identity());
    ASSERT_EQ(mul_gls_vartime(g, Fr::from_u64(kBlsXAbs)), -psi(g));
    ASSERT_EQ(mul_gls(g, -Fr::one()), -g);
    ASSERT_TRUE(mul_gls(g, Fr::zero()).is_identity());
    ASSERT_EQ(mul_gls(g, Fr::from_u64(kBlsXAbs)), -psi(g));
  }
}

TYPED_TEST(GroupLaws, BatchToAffine) {
  using C = TypeParam;
  using J = Jacobian<C>;
  const std::uint64_t seed = fresh_seed();
  std::mt19937_64 rng(seed);
  const std::size_t n = 1 + rng() % 23;  // random size, identities sprinkled in
  std::vector<J> pts(n);
  for (auto& p : pts)
    p = (rng() % 4 == 0) ? J::identity() : random_subgroup_point<C>(rng) + J::generator();
  const auto aff = batch_to_affine_vartime<C>(pts);
  ASSERT_EQ(aff.size(), n);
  for (std::size_t i = 0; i < n; ++i)
    ASSERT_EQ(aff[i], pts[i].to_affine_vartime()) << "i=" << i << " seed=" << seed;
  EXPECT_TRUE(batch_to_affine_vartime<C>(std::span<const J>{}).empty());
}

TYPED_TEST(GroupLaws, FixedBaseTable) {
  using C = TypeParam;
  using J = Jacobian<C>;
  const std::uint64_t seed = fresh_seed();
  std::mt19937_64 rng(seed);
  const Affine<C> base = random_subgroup_point<C>(rng).to_affine_vartime();
  for (unsigned w : {3u, 5u, 8u}) {
    const auto table = FixedBaseTable<C>::build(base, w);
    std::vector<Fr> ks = {Fr::zero(), Fr::one(), -Fr::one(), -Fr::from_u64(2),
                          Fr::from_u64(1u << (w - 1))};
    const std::size_t n = 3 + rng() % 9;
    for (std::size_t i = 0; i < n; ++i) ks.push_back(random_fr(rng));
    const auto batch = table.mul_batch(ks);
    ASSERT_EQ(batch.size(), ks.size());
    for (std::size_t i = 0; i < ks.size(); ++i) {
      const J want = mul_vartime(base, ks[i]);
      ASSERT_EQ(table.mul(ks[i]), want) << "w=" << w << " i=" << i << " seed=" << seed;
      ASSERT_EQ(batch[i], want.to_affine_vartime()) << "w=" << w << " i=" << i << " seed=" << seed;
    }
  }
}

}  // namespace
}  // namespace cuzk
