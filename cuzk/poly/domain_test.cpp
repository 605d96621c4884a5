// Domain: roots of both families against tests/data and FORMATS.md §1.1, root orders,
// for_size, coset vanishing constant, Lagrange evaluation against the definition.
#include "cuzk/poly/domain.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "cuzk/poly/test_util.hpp"

#ifndef CUZK_TEST_DATA_DIR
#error "CUZK_TEST_DATA_DIR must name the test data directory (tests/data)"
#endif

namespace cuzk {
namespace {

using poly_test::random_fr;
using poly_test::test_seed;

Fr parse(const std::string& s) {
  auto r = Fr::from_string(s);
  EXPECT_TRUE(r.ok()) << s << ": " << r.status().to_string();
  return r.ok() ? *r : Fr::zero();
}

nlohmann::json fr_vectors() {
  const std::string path = std::string(CUZK_TEST_DATA_DIR) + "/bls12_381_vectors.json";
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << "cannot open " << path;
  if (!in.good()) return nlohmann::json::object();
  return nlohmann::json::parse(in)["fields"]["Fr"];
}

TEST(Domain, BellmanRootMatchesFormats) {
  // FORMATS.md §1.1: ROOT_OF_UNITY = 7^((r−1)/2^32).
  EXPECT_EQ(kFrOmega32Bellman,
            parse("0x16a2a19edfe81f20d09b681922c813b4b63683508c2280b93829971f439f0d2b"));
  EXPECT_EQ(kFrOmega32Bellman, Fr::from_u64(7).pow_vartime(Fr::kOddPart));
}

TEST(Domain, FfjsRootsMatchVectors) {
  const auto v = fr_vectors();
  ASSERT_TRUE(v.contains("root_of_unity"));
  EXPECT_EQ(v["ffjs_nqr"].get<std::string>(), "5");
  EXPECT_EQ(Fr::from_u64(kFfjsCosetShift), parse(v["ffjs_shift_nqr_squared"].get<std::string>()));
  const auto& roots = v["root_of_unity"];
  int checked = 0;
  for (unsigned k = 0; k <= 32; ++k) {
    const std::string key = std::to_string(k);
    ASSERT_TRUE(roots.contains(key)) << key;
    auto d = Domain::from_log_size(
        k, {.roots = RootFamily::ffjs, .coset_shift = Fr::from_u64(kFfjsCosetShift)});
    ASSERT_TRUE(d.ok()) << d.status().to_string();
    EXPECT_EQ(d->omega(), parse(roots[key].get<std::string>())) << "k=" << k;
    ++checked;
  }
  EXPECT_EQ(checked, 33);
}

TEST(Domain, RootOrdersBothFamilies) {
  for (RootFamily f : {RootFamily::bellman, RootFamily::ffjs}) {
    for (unsigned k = 0; k <= 32; ++k) {
      auto d = Domain::from_log_size(k, {.roots = f});
      ASSERT_TRUE(d.ok()) << d.status().to_string();
      EXPECT_EQ(d->log_size(), k);
      EXPECT_EQ(d->size(), std::uint64_t{1} << k);
      // ω^(2^k) = 1 and, for k ≥ 1, ω^(2^(k−1)) = −1: ω has order exactly 2^k.
      Fr w = d->omega();
      for (unsigned i = 1; i < k; ++i) w = w.square();
      if (k >= 1) {
        EXPECT_EQ(w, -Fr::one()) << "k=" << k;
      }
      EXPECT_TRUE((k >= 1 ? w.square() : w).is_one()) << "k=" << k;
      EXPECT_TRUE((d->omega() * d->omega_inv()).is_one());
      EXPECT_TRUE((d->size_inv() * Fr::from_u64(d->size())).is_one());
      EXPECT_TRUE((d->coset_shift() * d->coset_shift_inv()).is_one());
      EXPECT_EQ(d->coset_shift(), Fr::from_u64(7));
      // g^n − 1 by plain powering.
      EXPECT_EQ(d->vanishing_on_coset(), d->coset_shift().pow_u64(d->size()) - Fr::one())
          << "k=" << k;
      EXPECT_TRUE((d->vanishing_on_coset() * d->vanishing_on_coset_inv()).is_one());
    }
  }
  // The two families differ.
  EXPECT_NE(Domain::from_log_size(20, {.roots = RootFamily::bellman})->omega(),
            Domain::from_log_size(20, {.roots = RootFamily::ffjs})->omega());
}

TEST(Domain, ForSizeAndErrors) {
  const std::pair<std::uint64_t, unsigned> cases[] = {
      {0, 0},          {1, 0},     {2, 1},     {3, 2},     {4, 2},
      {5, 3},          {1000, 10}, {1024, 10}, {1025, 11}, {(1ull << 27) - 5, 27},
      {1ull << 32, 32}};
  for (auto [m, k] : cases) {
    auto d = Domain::for_size(m);
    ASSERT_TRUE(d.ok()) << m;
    EXPECT_EQ(d->log_size(), k) << m;
  }
  EXPECT_EQ(Domain::for_size((1ull << 32) + 1).status().code(), Errc::out_of_range);
  EXPECT_EQ(Domain::for_size(~0ull).status().code(), Errc::out_of_range);
  EXPECT_EQ(Domain::from_log_size(33).status().code(), Errc::invalid_argument);
  EXPECT_EQ(Domain::from_log_size(4, {.coset_shift = Fr::zero()}).status().code(),
            Errc::invalid_argument);
  // A shift inside ⟨ω⟩ makes Z vanish on the "coset".
  auto d = Domain::from_log_size(5);
  EXPECT_EQ(Domain::from_log_size(5, {.coset_shift = d->omega().pow_u64(3)}).status().code(),
            Errc::invalid_argument);
  EXPECT_EQ(Domain::from_log_size(5, {.coset_shift = Fr::one()}).status().code(),
            Errc::invalid_argument);
}

TEST(Domain, ElementAndVanishing) {
  const std::uint64_t seed = test_seed("Domain.ElementAndVanishing");
  std::mt19937_64 rng(seed);
  auto d = Domain::from_log_size(9, {.coset_shift = Fr::from_u64(11)});
  ASSERT_TRUE(d.ok());
  Fr w = Fr::one();
  for (std::uint64_t i = 0; i < 600; ++i) {
    EXPECT_EQ(d->element(i), w) << i;
    EXPECT_TRUE(d->evaluate_vanishing(w).is_zero());
    // Z is the constant g^n − 1 on the coset.
    EXPECT_EQ(d->evaluate_vanishing(d->coset_shift() * w), d->vanishing_on_coset());
    w *= d->omega();
  }
  const Fr x = random_fr(rng);
  EXPECT_EQ(d->evaluate_vanishing(x), x.pow_u64(512) - Fr::one()) << "seed=" << seed;
}

TEST(Domain, LagrangeAtMatchesDefinition) {
  const std::uint64_t seed = test_seed("Domain.LagrangeAt");
  std::mt19937_64 rng(seed);
  for (unsigned k : {0u, 1u, 3u, 6u}) {
    auto d = Domain::from_log_size(k);
    const std::uint64_t n = d->size();
    const Fr tau = random_fr(rng);
    std::vector<Fr> l(n);
    ASSERT_TRUE(d->lagrange_at(tau, l).ok());
    // L_i(τ) = Π_{j≠i} (τ − ω^j)/(ω^i − ω^j).
    for (std::uint64_t i = 0; i < n; ++i) {
      Fr num = Fr::one(), den = Fr::one();
      for (std::uint64_t j = 0; j < n; ++j) {
        if (j == i) continue;
        num *= tau - d->element(j);
        den *= d->element(i) - d->element(j);
      }
      EXPECT_EQ(l[i], num * den.inverse()) << "k=" << k << " i=" << i << " seed=" << seed;
    }
    // At a domain point the basis is an indicator.
    const std::uint64_t j = rng() % n;
    ASSERT_TRUE(d->lagrange_at(d->element(j), l).ok());
    for (std::uint64_t i = 0; i < n; ++i) EXPECT_EQ(l[i], i == j ? Fr::one() : Fr::zero());
  }
  // The parallel form (chunks of ≥ 4096 points) agrees with the serial one on 1, 2 and 3 threads.
  for (unsigned k : {9u, 14u}) {
    auto dk = Domain::from_log_size(k);
    const Fr tau = random_fr(rng);
    std::vector<Fr> s1(dk->size()), s2(dk->size()), s3(dk->size());
    ThreadPool p2(2), p3(3);
    ASSERT_TRUE(dk->lagrange_at(tau, s1).ok());
    ASSERT_TRUE(dk->lagrange_at(tau, s2, p2).ok());
    ASSERT_TRUE(dk->lagrange_at(tau, s3, p3).ok());
    EXPECT_EQ(s1, s2) << "k=" << k << " seed=" << seed;
    EXPECT_EQ(s1, s3) << "k=" << k << " seed=" << seed;
    // Σ_i L_i(τ) = 1 and Σ_i L_i(τ)·ω^i = τ (interpolation of 1 and X).
    Fr sum = Fr::zero(), sum_x = Fr::zero(), w = Fr::one();
    for (const Fr& l : s3) {
      sum += l;
      sum_x += l * w;
      w *= dk->omega();
    }
    EXPECT_TRUE(sum.is_one()) << "k=" << k << " seed=" << seed;
    EXPECT_EQ(sum_x, tau) << "k=" << k << " seed=" << seed;
    const std::uint64_t j = rng() % dk->size();
    ASSERT_TRUE(dk->lagrange_at(dk->element(j), s3, p3).ok());
    for (std::uint64_t i = 0; i < dk->size(); ++i)
      ASSERT_EQ(s3[i], i == j ? Fr::one() : Fr::zero()) << i;
  }
  auto d = Domain::from_log_size(3);
  std::vector<Fr> wrong(7);
  EXPECT_EQ(d->lagrange_at(Fr::one(), wrong).code(), Errc::size_mismatch);
}

TEST(Domain, HornerAndPowers) {
  const std::uint64_t seed = test_seed("Domain.HornerAndPowers");
  std::mt19937_64 rng(seed);
  const std::size_t n = 1 + rng() % 50;
  auto c = poly_test::random_vector(rng, n);
  const Fr x = random_fr(rng);
  std::vector<Fr> p(n);
  fill_powers(p, x);
  Fr sum = Fr::zero();
  for (std::size_t i = 0; i < n; ++i) sum += c[i] * p[i];
  EXPECT_EQ(evaluate_polynomial(c, x), sum) << "seed=" << seed;
  EXPECT_TRUE(evaluate_polynomial({}, x).is_zero());
  fill_powers(p, x, Fr::from_u64(3));
  EXPECT_EQ(p[0], Fr::from_u64(3));
  if (n > 2) {
    EXPECT_EQ(p[2], Fr::from_u64(3) * x * x);
  }
}

}  // namespace
}  // namespace cuzk
