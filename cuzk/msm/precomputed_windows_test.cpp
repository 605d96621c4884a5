// The precomputed-window plan (precomputed_windows.hpp) that the GPU's H MSM option runs:
//   * plans over a grid of widths and copy counts, each row worked out by hand from the rules the
//     header states (K = ⌈256/c⌉ from digits.hpp, K' = ⌈K/k⌉, S = c·K'), not from any output;
//   * every scalar window is dealt to exactly one (copy, bucket window), and the digits
//     reassemble the scalar: Σ_{j,w'} d_{jK'+w'}·2^(c·w' + j·S) = k (mod r) for random scalars
//     and 0, 1, 2, r − 1, r − 2, 2^254;
//   * an MSM taken the way the GPU takes it (copies 2^(j·S)·P by doublings, digits dealt to the
//     copies, one sum per bucket window, Horner over K' windows) equals Σ k_i·P_i by scalar
//     multiplication, with identity, duplicated and negated bases and scalars 0 / 1 / r − 1.
#include "cuzk/msm/precomputed_windows.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "cuzk/ec/g1.hpp"
#include "cuzk/ec/scalar_mul.hpp"
#include "cuzk/ec/test_util.hpp"
#include "cuzk/ff/fr.hpp"
#include "cuzk/msm/digits.hpp"

namespace cuzk {
namespace {

using ec_test::fresh_seed;
using ec_test::random_fr;

struct PlanRow {
  unsigned c, copies;
  unsigned windows, bucket_windows, shift_bits;
};

// By hand: K = ⌈256/c⌉, K' = ⌈K/k⌉, S = c·K'.
// clang-format off
constexpr PlanRow kPlans[] = {
    {16, 1, 16, 16, 256},  // no copies: the plain MSM's windows
    {16, 2, 16, 8, 128},
    {16, 4, 16, 4, 64},
    {20, 1, 13, 13, 260},
    {20, 2, 13, 7, 140},   // 2 does not divide 13: copy 1's last bucket window is empty
    {20, 3, 13, 5, 100},
    {22, 2, 12, 6, 132},
    {22, 3, 12, 4, 88},
    {23, 2, 12, 6, 138},
    {24, 1, 11, 11, 264},
    {24, 2, 11, 6, 144},
    {24, 3, 11, 4, 96},
    {26, 2, 10, 5, 130},
    {5, 8, 52, 7, 35},
    {31, 8, 9, 2, 62},
};
// clang-format on

Fr pow2(unsigned e) {
  Fr v = Fr::one();
  for (unsigned i = 0; i < e; ++i) v = v + v;
  return v;
}

TEST(PrecomputedWindows, PlansFollowTheRules) {
  for (const PlanRow& row : kPlans) {
    const auto p = PrecomputedWindowPlan::make(row.c, row.copies);
    ASSERT_FALSE(p.invalid()) << "c=" << row.c << " k=" << row.copies;
    EXPECT_EQ(p.windows, row.windows) << "c=" << row.c << " k=" << row.copies;
    EXPECT_EQ(p.bucket_windows, row.bucket_windows) << "c=" << row.c << " k=" << row.copies;
    EXPECT_EQ(p.shift_bits, row.shift_bits) << "c=" << row.c << " k=" << row.copies;
    EXPECT_EQ(p.windows, SignedWindowPlan::make(row.c).windows);
    EXPECT_EQ(p.reduced_buckets(), std::size_t{row.bucket_windows} << (row.c - 1));
    EXPECT_EQ(p.additions(1000), std::size_t{1000} * row.windows);
  }
  // Out of range: no plan.
  EXPECT_TRUE(PrecomputedWindowPlan::make(0, 1).invalid());
  EXPECT_TRUE(PrecomputedWindowPlan::make(32, 1).invalid());
  EXPECT_TRUE(PrecomputedWindowPlan::make(20, 0).invalid());
  EXPECT_TRUE(PrecomputedWindowPlan::make(20, kMaxPrecomputedCopies + 1).invalid());
  EXPECT_EQ(precomputed_copies_bytes(std::size_t{1} << 27, 2, 96), std::size_t{96} << 27);
  EXPECT_EQ(precomputed_copies_bytes(100, 1, 96), 0u);
}

TEST(PrecomputedWindows, EveryWindowOnceAndTheScalarReassembles) {
  const auto seed = fresh_seed();
  std::mt19937_64 rng(seed);
  std::vector<Fr> ks = {Fr::zero(),       Fr::one(), Fr::from_u64(2),      -Fr::one(),
                        -Fr::from_u64(2), pow2(254), pow2(254) - Fr::one()};
  for (int i = 0; i < 20; ++i) ks.push_back(random_fr(rng));
  for (unsigned c : {5u, 16u, 20u, 22u, 23u, 24u, 26u, 31u}) {
    const SignedWindowPlan digits = SignedWindowPlan::make(c);
    for (unsigned copies = 1; copies <= kMaxPrecomputedCopies; ++copies) {
      const auto p = PrecomputedWindowPlan::make(c, copies);
      ASSERT_FALSE(p.invalid());
      std::vector<int> seen(p.windows, 0);
      for (unsigned j = 0; j < copies; ++j)
        for (unsigned w = 0; w < p.bucket_windows; ++w) {
          const int src = p.source_window(j, w);
          if (src >= 0) {
            ASSERT_LT(src, static_cast<int>(p.windows));
            ++seen[src];
          }
        }
      for (unsigned w = 0; w < p.windows; ++w)
        EXPECT_EQ(seen[w], 1) << "c=" << c << " k=" << copies << " window " << w;
      for (const Fr& k : ks) {
        const auto kc = k.to_canonical();
        std::uint64_t kr[4];
        msm_recode(digits, kc.data(), kr);
        Fr acc = Fr::zero();
        for (unsigned j = 0; j < copies; ++j)
          for (unsigned w = 0; w < p.bucket_windows; ++w) {
            const int src = p.source_window(j, w);
            if (src < 0) continue;
            const std::int32_t d = msm_signed_digit(digits, kr, static_cast<unsigned>(src));
            const Fr mag = Fr::from_u64(static_cast<std::uint64_t>(d < 0 ? -std::int64_t{d} : d));
            acc += (d < 0 ? -mag : mag) * pow2(c * w + j * p.shift_bits);
          }
        EXPECT_EQ(acc, k) << "c=" << c << " k=" << copies << " scalar " << k.to_hex()
                          << " seed=" << seed;
      }
    }
  }
}

/// The MSM as the GPU takes it over copies, with host arithmetic.
G1Jacobian msm_through_copies(const std::vector<G1Affine>& bases, const std::vector<Fr>& ks,
                              const PrecomputedWindowPlan& p) {
  const SignedWindowPlan digits = SignedWindowPlan::make(p.c);
  // copies[j][i] = 2^(j·S)·P_i, copy j from copy j − 1 by S doublings.
  std::vector<std::vector<G1Jacobian>> copies(p.copies);
  for (const auto& b : bases) copies[0].push_back(G1Jacobian::from_affine(b));
  for (unsigned j = 1; j < p.copies; ++j)
    for (G1Jacobian q : copies[j - 1]) {
      for (unsigned s = 0; s < p.shift_bits; ++s) q.dbl();
      copies[j].push_back(q);
    }
  std::vector<G1Jacobian> window_sums(p.bucket_windows, G1Jacobian::identity());
  for (std::size_t i = 0; i < ks.size(); ++i) {
    const auto kc = ks[i].to_canonical();
    std::uint64_t kr[4];
    msm_recode(digits, kc.data(), kr);
    for (unsigned w = 0; w < p.bucket_windows; ++w)
      for (unsigned j = 0; j < p.copies; ++j) {
        const int src = p.source_window(j, w);
        if (src < 0) continue;
        const std::int32_t d = msm_signed_digit(digits, kr, static_cast<unsigned>(src));
        if (d == 0) continue;
        G1Jacobian term = mul_vartime(
            copies[j][i], Fr::from_u64(static_cast<std::uint64_t>(d < 0 ? -std::int64_t{d} : d)));
        if (d < 0) term.negate();
        window_sums[w].add(term);
      }
  }
  G1Jacobian acc = G1Jacobian::identity();
  for (unsigned w = p.bucket_windows; w-- > 0;) {
    for (unsigned s = 0; s < p.c; ++s) acc.dbl();
    acc.add(window_sums[w]);
  }
  return acc;
}

TEST(PrecomputedWindows, MsmThroughCopiesMatchesScalarMultiplication) {
  const auto seed = fresh_seed();
  std::mt19937_64 rng(seed);
  const std::size_t n = 23 + rng() % 20;
  std::vector<G1Jacobian> jac;
  for (std::size_t i = 0; i < n; ++i)
    jac.push_back(mul_vartime(G1Jacobian::generator(), random_fr(rng)));
  jac[1] = G1Jacobian::identity();  // identity base
  jac[2] = jac[3];                  // duplicated base
  jac[4] = -jac[5];                 // negated base
  std::vector<G1Affine> bases;
  for (const auto& q : jac) bases.push_back(q.to_affine_vartime());
  std::vector<Fr> ks(n);
  for (auto& k : ks) k = random_fr(rng);
  ks[0] = Fr::zero();
  ks[3] = Fr::one();
  ks[5] = ks[4];  // P4 = −P5 with equal scalars: they cancel
  ks[6] = -Fr::one();
  G1Jacobian want = G1Jacobian::identity();
  for (std::size_t i = 0; i < n; ++i) want.add(mul_vartime(jac[i], ks[i]));
  for (const auto& [c, copies] :
       std::vector<std::pair<unsigned, unsigned>>{{5, 1}, {5, 3}, {7, 8}, {13, 2}, {20, 2}}) {
    const auto p = PrecomputedWindowPlan::make(c, copies);
    ASSERT_FALSE(p.invalid());
    const G1Jacobian got = msm_through_copies(bases, ks, p);
    EXPECT_EQ(got.to_affine_vartime(), want.to_affine_vartime())
        << "c=" << c << " k=" << copies << " n=" << n << " seed=" << seed;
  }
}

}  // namespace
}  // namespace cuzk
