// NTT: every mode against the O(n²) definition for n = 1 … 512 and a few four-step sizes, round
// trips at random sizes up to 2^16, coset evaluation at g·ω^i, polynomial products against
// schoolbook, identical results on 1, 2 and 3 threads, the H step against its definition, and the
// bit reversal against its definition. Seeds are printed (CUZK_TEST_SEED replays).
#include "cuzk/poly/ntt.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cuzk/poly/test_util.hpp"

namespace cuzk {
namespace {

using poly_test::random_fr;
using poly_test::random_vector;
using poly_test::test_seed;

constexpr NttMode kModes[] = {
    {.direction = NttDirection::forward, .coset = false},
    {.direction = NttDirection::inverse, .coset = false},
    {.direction = NttDirection::forward, .coset = true},
    {.direction = NttDirection::inverse, .coset = true},
};

std::string mode_name(const NttMode& m) {
  return std::string(m.direction == NttDirection::forward ? "forward" : "inverse") +
         (m.coset ? "+coset" : "");
}

TEST(Ntt, MatchesNaiveDftSmallSizes) {
  const std::uint64_t seed = test_seed("Ntt.MatchesNaiveDftSmallSizes");
  std::mt19937_64 rng(seed);
  ThreadPool pool(2);
  for (RootFamily fam : {RootFamily::bellman, RootFamily::ffjs}) {
    for (unsigned k = 0; k <= 9; ++k) {
      auto d = Domain::from_log_size(
          k, {.roots = fam, .coset_shift = Fr::from_u64(fam == RootFamily::ffjs ? 25 : 7)});
      ASSERT_TRUE(d.ok());
      NttPlan plan(*d);
      for (const NttMode& mode : kModes) {
        auto v = random_vector(rng, d->size());
        auto want = v;
        ASSERT_TRUE(ntt_naive(want, *d, mode).ok());
        ASSERT_TRUE(ntt(v, plan, mode, pool).ok());
        ASSERT_EQ(v, want) << "k=" << k << " " << mode_name(mode) << " seed=" << seed;
      }
    }
  }
}

TEST(Ntt, NaiveDftIsTheDefinition) {
  // Forward at ω^j is plain polynomial evaluation, coset forward at g·ω^j; no transform involved.
  const std::uint64_t seed = test_seed("Ntt.NaiveDftIsTheDefinition");
  std::mt19937_64 rng(seed);
  auto d = Domain::from_log_size(4, {.coset_shift = Fr::from_u64(5)});
  auto c = random_vector(rng, 16);
  auto f = c, g = c;
  ASSERT_TRUE(ntt_naive(f, *d, {}).ok());
  ASSERT_TRUE(ntt_naive(g, *d, {.coset = true}).ok());
  for (std::uint64_t j = 0; j < 16; ++j) {
    EXPECT_EQ(f[j], evaluate_polynomial(c, d->element(j))) << "seed=" << seed;
    EXPECT_EQ(g[j], evaluate_polynomial(c, d->coset_shift() * d->element(j))) << "seed=" << seed;
  }
}

TEST(Ntt, FourStepSizesMatchNaive) {
  // Domains above 2^10 take the four-step path; check a few entries of each output against the
  // definition (a full O(n²) check is too slow for CI) and every entry through the round trip.
  const std::uint64_t seed = test_seed("Ntt.FourStepSizesMatchNaive");
  std::mt19937_64 rng(seed);
  ThreadPool pool(3);
  for (unsigned k : {11u, 12u, 13u}) {
    auto d = Domain::from_log_size(k, {.coset_shift = Fr::from_u64(3 + rng() % 1000)});
    ASSERT_TRUE(d.ok());
    NttPlan plan(*d);
    ASSERT_GT(plan.log_rows(), 0u) << "k=" << k;
    const std::uint64_t n = d->size();
    auto c = random_vector(rng, n);
    for (const NttMode& mode : kModes) {
      auto v = c;
      ASSERT_TRUE(ntt(v, plan, mode, pool).ok());
      for (int s = 0; s < 6; ++s) {
        const std::uint64_t j = (s == 0) ? 0 : (s == 1 ? n - 1 : rng() % n);
        Fr want;
        if (mode.direction == NttDirection::forward) {
          Fr x = d->element(j);
          if (mode.coset) x *= d->coset_shift();
          want = evaluate_polynomial(c, x);
        } else {
          // x_j = n^(-1)·Σ_i c_i·ω^(−ij), times g^(−j) on the coset.
          want = evaluate_polynomial(c, d->omega_inv().pow_u64(j)) * d->size_inv();
          if (mode.coset) want *= d->coset_shift_inv().pow_u64(j);
        }
        ASSERT_EQ(v[j], want) << "k=" << k << " j=" << j << " " << mode_name(mode)
                              << " seed=" << seed;
      }
    }
  }
}

TEST(Ntt, RoundTripRandomSizes) {
  const std::uint64_t seed = test_seed("Ntt.RoundTripRandomSizes");
  std::mt19937_64 rng(seed);
  ThreadPool pool(2);
  for (int rep = 0; rep < 8; ++rep) {
    const unsigned k = rep == 0 ? 16 : static_cast<unsigned>(rng() % 17);
    auto d =
        Domain::from_log_size(k, {.roots = (rng() & 1) ? RootFamily::ffjs : RootFamily::bellman,
                                  .coset_shift = Fr::from_u64(2 + rng() % 100)});
    ASSERT_TRUE(d.ok()) << d.status().to_string();
    NttPlan plan(*d);
    const auto orig = random_vector(rng, d->size());
    for (bool coset : {false, true}) {
      auto v = orig;
      ASSERT_TRUE(ntt(v, plan, {.direction = NttDirection::forward, .coset = coset}, pool).ok());
      if (d->size() > 1) {
        EXPECT_NE(v, orig) << "k=" << k;
      }
      ASSERT_TRUE(ntt(v, plan, {.direction = NttDirection::inverse, .coset = coset}, pool).ok());
      ASSERT_EQ(v, orig) << "k=" << k << " coset=" << coset << " seed=" << seed;
      ASSERT_TRUE(ntt(v, plan, {.direction = NttDirection::inverse, .coset = coset}, pool).ok());
      ASSERT_TRUE(ntt(v, plan, {.direction = NttDirection::forward, .coset = coset}, pool).ok());
      ASSERT_EQ(v, orig) << "k=" << k << " coset=" << coset << " seed=" << seed;
    }
  }
}

TEST(Ntt, SameResultOnOneTwoThreeThreads) {
  const std::uint64_t seed = test_seed("Ntt.SameResultOnOneTwoThreeThreads");
  std::mt19937_64 rng(seed);
  ThreadPool p1(1), p2(2), p3(3);
  for (unsigned k : {5u, 11u, 14u, 15u}) {
    auto d = Domain::from_log_size(k);
    NttPlan plan(*d);
    const auto orig = random_vector(rng, d->size());
    for (const NttMode& mode : kModes) {
      auto a = orig, b = orig, c = orig;
      ASSERT_TRUE(ntt(a, plan, mode, p1).ok());
      ASSERT_TRUE(ntt(b, plan, mode, p2).ok());
      ASSERT_TRUE(ntt(c, *d, mode, p3).ok());  // the Domain overload builds its own plan
      ASSERT_EQ(a, b) << "k=" << k << " " << mode_name(mode) << " seed=" << seed;
      ASSERT_EQ(a, c) << "k=" << k << " " << mode_name(mode) << " seed=" << seed;
    }
  }
}

/// Schoolbook product of two coefficient vectors.
std::vector<Fr> schoolbook(const std::vector<Fr>& a, const std::vector<Fr>& b) {
  std::vector<Fr> r(a.size() + b.size() - 1);
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t j = 0; j < b.size(); ++j) r[i + j] += a[i] * b[j];
  return r;
}

TEST(Ntt, PolynomialProductMatchesSchoolbook) {
  const std::uint64_t seed = test_seed("Ntt.PolynomialProductMatchesSchoolbook");
  std::mt19937_64 rng(seed);
  ThreadPool pool(3);
  for (int rep = 0; rep < 12; ++rep) {
    const std::size_t na = 1 + rng() % (rep < 6 ? 40 : 900), nb = 1 + rng() % (rep < 6 ? 40 : 700);
    const auto a = random_vector(rng, na), b = random_vector(rng, nb);
    const auto want = schoolbook(a, b);
    auto d = Domain::for_size(na + nb - 1);
    ASSERT_TRUE(d.ok());
    NttPlan plan(*d);
    const bool coset = rng() & 1;  // the product works on either evaluation set
    std::vector<Fr> fa(d->size()), fb(d->size());
    std::copy(a.begin(), a.end(), fa.begin());
    std::copy(b.begin(), b.end(), fb.begin());
    ASSERT_TRUE(ntt(fa, plan, {.coset = coset}, pool).ok());
    ASSERT_TRUE(ntt(fb, plan, {.coset = coset}, pool).ok());
    ASSERT_TRUE(pointwise_mul(fa, fb, pool).ok());
    ASSERT_TRUE(ntt(fa, plan, {.direction = NttDirection::inverse, .coset = coset}, pool).ok());
    for (std::size_t i = 0; i < fa.size(); ++i)
      ASSERT_EQ(fa[i], i < want.size() ? want[i] : Fr::zero())
          << "na=" << na << " nb=" << nb << " i=" << i << " coset=" << coset << " seed=" << seed;
  }
}

TEST(Ntt, ComputeHMatchesQuotient) {
  // Build A, B of degree < n with C = A·B mod Z, so A·B − C = H·Z exactly; compute_h must return H
  // from the evaluations of A, B, C on ⟨ω⟩. (A·B − C is divisible by Z = X^n − 1 by construction.)
  const std::uint64_t seed = test_seed("Ntt.ComputeHMatchesQuotient");
  std::mt19937_64 rng(seed);
  ThreadPool pool(2);
  for (unsigned k : {0u, 1u, 4u, 7u, 11u}) {
    auto d = Domain::from_log_size(k);
    const std::uint64_t n = d->size();
    NttPlan plan(*d);
    const auto a = random_vector(rng, n), b = random_vector(rng, n);
    const auto ab = schoolbook(a, b);  // degree ≤ 2n − 2
    // A·B = H·(X^n − 1) + C: C = ab[i] + ab[i+n], H = ab[i + n].
    std::vector<Fr> c(n), h(n);
    for (std::uint64_t i = 0; i < n; ++i) {
      const Fr hi = i + n < ab.size() ? ab[i + n] : Fr::zero();
      c[i] = ab[i] + hi;
      h[i] = hi;
    }
    std::vector<Fr> ea = a, eb = b, ec = c;
    ASSERT_TRUE(ntt_naive(ea, *d, {}).ok());
    ASSERT_TRUE(ntt_naive(eb, *d, {}).ok());
    ASSERT_TRUE(ntt_naive(ec, *d, {}).ok());
    ASSERT_TRUE(compute_h(ea, eb, ec, plan, pool).ok());
    EXPECT_EQ(ea, h) << "k=" << k << " seed=" << seed;
    EXPECT_TRUE(ea[n - 1].is_zero());
  }
}

// The 6-transform H step against bellperson's 7 (compute_h_c_on_coset) on arbitrary a, b, c: the
// identity behind the shortcut assumes nothing about the system being satisfied.
TEST(Ntt, ComputeHMatchesTheSevenTransformTwin) {
  const std::uint64_t seed = test_seed("Ntt.ComputeHMatchesTheSevenTransformTwin");
  std::mt19937_64 rng(seed);
  ThreadPool pool(3);
  for (unsigned k : {0u, 1u, 2u, 5u, 10u, 13u, 16u}) {
    auto d = Domain::from_log_size(k);
    const std::uint64_t n = d->size();
    NttPlan plan(*d);
    auto a = random_vector(rng, n), b = random_vector(rng, n), c = random_vector(rng, n);
    if (n > 2) a[n - 1] = b[n - 2] = c[1] = Fr::zero();
    auto a7 = a, b7 = b, c7 = c;
    ASSERT_TRUE(compute_h(a, b, c, plan, pool).ok());
    ASSERT_TRUE(compute_h_c_on_coset(a7, b7, c7, plan, pool).ok());
    EXPECT_EQ(a, a7) << "k=" << k << " seed=" << seed;
  }
  std::vector<Fr> a(8), b(8), c(4);
  NttPlan plan(*Domain::from_log_size(3));
  EXPECT_EQ(compute_h(a, b, c, plan, pool).code(), Errc::size_mismatch);
}

TEST(Ntt, HelpersAndErrors) {
  const std::uint64_t seed = test_seed("Ntt.HelpersAndErrors");
  std::mt19937_64 rng(seed);
  ThreadPool pool(2);
  auto d = Domain::from_log_size(6);
  NttPlan plan(*d);
  std::vector<Fr> v(63);
  EXPECT_EQ(ntt(v, plan, {}, pool).code(), Errc::size_mismatch);
  EXPECT_EQ(ntt_naive(v, *d, {}).code(), Errc::size_mismatch);
  EXPECT_EQ(bit_reverse_permute(v, pool).code(), Errc::invalid_argument);
  EXPECT_EQ(divide_by_vanishing_on_coset(v, *d, pool).code(), Errc::size_mismatch);
  std::vector<Fr> w(64);
  EXPECT_EQ(pointwise_mul(v, w, pool).code(), Errc::size_mismatch);
  EXPECT_EQ(ab_minus_c_over_z(w, w, v, *d, pool).code(), Errc::size_mismatch);

  auto x = random_vector(rng, 64), y = random_vector(rng, 64), z = random_vector(rng, 64);
  auto r = x;
  ASSERT_TRUE(divide_by_vanishing_on_coset(r, *d, pool).ok());
  for (int i = 0; i < 64; ++i) EXPECT_EQ(r[i] * d->vanishing_on_coset(), x[i]) << "seed=" << seed;
  r = x;
  ASSERT_TRUE(ab_minus_c_over_z(r, y, z, *d, pool).ok());
  for (int i = 0; i < 64; ++i)
    EXPECT_EQ(r[i] * d->vanishing_on_coset(), x[i] * y[i] - z[i]) << "seed=" << seed;

  const std::size_t np = 1 + rng() % 300;
  auto pts = random_vector(rng, np);
  std::vector<Fr> out(np);
  ASSERT_TRUE(evaluate_polynomial_many(x, pts, out, pool).ok());
  for (std::size_t i = 0; i < np; ++i)
    EXPECT_EQ(out[i], evaluate_polynomial(x, pts[i])) << "seed=" << seed;
  EXPECT_EQ(evaluate_polynomial_many(x, pts, std::span<Fr>(out).first(np - 1), pool).code(),
            Errc::size_mismatch);
  EXPECT_GT(plan.memory_bytes(), 0u);
}

TEST(Ntt, BitReverseMatchesDefinition) {
  ThreadPool pool(3);
  for (unsigned k : {0u, 1u, 2u, 7u, 9u, 10u, 11u, 13u, 16u}) {
    const std::uint64_t n = std::uint64_t{1} << k;
    std::vector<Fr> v(n);
    for (std::uint64_t i = 0; i < n; ++i) v[i] = Fr::from_u64(i);
    ASSERT_TRUE(bit_reverse_permute(v, pool).ok());
    for (std::uint64_t i = 0; i < n; ++i) {
      std::uint64_t r = 0;
      for (unsigned b = 0; b < k; ++b) r |= ((i >> b) & 1) << (k - 1 - b);
      ASSERT_EQ(v[r], Fr::from_u64(i)) << "k=" << k << " i=" << i;
    }
  }
}

}  // namespace
}  // namespace cuzk
