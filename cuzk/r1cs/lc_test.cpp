// LinearCombination's merging paths (lc.hpp: add_merged, add_scaled, add/sub of LCs, scaled) against
// a slow twin that shares no logic with them: every term ever added kept in a std::map from the
// variable's order key to the sum of its coefficients, zero sums dropped at the end. Random
// operation sequences (seeded, printed; CUZK_SEED replays) over few variables, so repeats,
// cancellations to zero, zero coefficients and ±1 scales are frequent; LCs are built both
// normalized and not (an out-of-order add()), and also added to themselves.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "cuzk/r1cs/lc.hpp"
#include "tests/support/seed.hpp"

namespace cuzk {
namespace {

using test::fresh_seed;
using test::random_fr;

// The twin: order key → Σ coefficients.
using Twin = std::map<std::uint64_t, Fr>;

void twin_add(Twin& t, const Fr& c, Variable v) {
  auto [it, fresh] = t.try_emplace(v.order_key(), c);
  if (!fresh) it->second += c;
}
void twin_add_scaled(Twin& t, const Twin& o, const Fr& s) {
  const Twin copy = o;  // o may be t
  for (const auto& [k, c] : copy) {
    auto [it, fresh] = t.try_emplace(k, c * s);
    if (!fresh) it->second += c * s;
  }
}
// The normalized terms the twin stands for, as (order key, coefficient).
std::vector<std::pair<std::uint64_t, Fr>> twin_terms(const Twin& t) {
  std::vector<std::pair<std::uint64_t, Fr>> out;
  for (const auto& [k, c] : t)
    if (!c.is_zero()) out.emplace_back(k, c);
  return out;
}

std::string describe(const LC& lc) {
  std::string s;
  for (const Term& t : lc.terms())
    s += (t.var.is_input() ? " i" : " a") + std::to_string(t.var.index);
  return s;
}

// |lc| normalized equals the twin, term for term, coefficient bytes included; and when |lc|
// claims to be normalized, its raw terms already are (strictly sorted, non-zero).
void expect_equal(const LC& lc, const Twin& twin, const std::string& what) {
  if (lc.is_normalized()) {
    const auto t = lc.terms();
    for (std::size_t i = 0; i < t.size(); ++i) {
      EXPECT_FALSE(t[i].coeff.is_zero()) << what << ": zero term in a normalized LC";
      if (i > 0) {
        EXPECT_TRUE(t[i - 1].var < t[i].var) << what << ": unsorted" << describe(lc);
      }
    }
  }
  LC n = lc;
  n.normalize_unchecked();
  const auto want = twin_terms(twin);
  ASSERT_EQ(n.size(), want.size()) << what << ":" << describe(n);
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(n.terms()[i].var.order_key(), want[i].first) << what << " term " << i;
    EXPECT_TRUE(fr_eq(n.terms()[i].coeff, want[i].second)) << what << " term " << i;
  }
}

Variable random_var(std::mt19937_64& rng, unsigned vars) {
  const auto k = static_cast<std::uint32_t>(rng() % vars);
  return k < 3 ? Variable::input(k) : Variable::aux(k - 3);  // ONE and two inputs, then aux
}

Fr random_coeff(std::mt19937_64& rng, const std::vector<Fr>& pool) {
  switch (rng() % 6) {
    case 0:
      return Fr::one();
    case 1:
      return kFrMinusOne;
    case 2:
      return Fr::zero();
    case 3:
      return pool[rng() % pool.size()];  // repeated values, so sums cancel
    default:
      return random_fr(rng);
  }
}

TEST(LinearCombination, MergingPathsMatchTheTwin) {
  std::mt19937_64 rng(fresh_seed());
  for (int round = 0; round < 3000; ++round) {
    const unsigned vars = 4 + static_cast<unsigned>(rng() % 40);
    std::vector<Fr> pool;
    for (int i = 0; i < 3; ++i) {
      const Fr c = random_fr(rng);
      pool.push_back(c);
      pool.push_back(-c);
    }
    // A few LCs, each with its twin, grown by random operations on each other.
    constexpr int kLcs = 4;
    LC lcs[kLcs];
    Twin twins[kLcs];
    const int ops = 1 + static_cast<int>(rng() % 60);
    for (int op = 0; op < ops; ++op) {
      const int d = static_cast<int>(rng() % kLcs), s = static_cast<int>(rng() % kLcs);
      const Fr c = random_coeff(rng, pool);
      const Variable v = random_var(rng, vars);
      switch (rng() % 7) {
        case 0:  // plain append: normalized only while in order
          lcs[d].add(c, v);
          twin_add(twins[d], c, v);
          break;
        case 1:
        case 2:
          lcs[d].add_merged(c, v);
          twin_add(twins[d], c, v);
          break;
        case 3:
          lcs[d].add_scaled(lcs[s], c);  // s == d: added to itself
          twin_add_scaled(twins[d], twins[s], c);
          break;
        case 4:
          lcs[d].add(lcs[s]);
          twin_add_scaled(twins[d], twins[s], Fr::one());
          break;
        case 5:
          lcs[d].sub(lcs[s]);
          twin_add_scaled(twins[d], twins[s], kFrMinusOne);
          break;
        default: {
          lcs[d] = lcs[s].scaled(c);
          Twin t;
          twin_add_scaled(t, twins[s], c);
          twins[d] = std::move(t);
          break;
        }
      }
      if (rng() % 16 == 0) lcs[d].normalize();
      ASSERT_NO_FATAL_FAILURE(expect_equal(
          lcs[d], twins[d], "round " + std::to_string(round) + " op " + std::to_string(op)));
    }
  }
}

TEST(LinearCombination, NormalizedFlagFollowsTheTerms) {
  LC lc;
  EXPECT_TRUE(lc.is_normalized());
  lc.add(Fr::one(), Variable::aux(3));
  lc.add(Fr::one(), Variable::aux(5));
  EXPECT_TRUE(lc.is_normalized());
  lc.add(Fr::one(), Variable::aux(5));  // a repeat
  EXPECT_FALSE(lc.is_normalized());
  lc.normalize();
  EXPECT_TRUE(lc.is_normalized());
  ASSERT_EQ(lc.size(), 2u);
  EXPECT_TRUE(fr_eq(lc.terms()[1].coeff, Fr::one() + Fr::one()));
  LC z;
  z.add(Fr::zero(), Variable::aux(1));  // a zero coefficient is not normalized
  EXPECT_FALSE(z.is_normalized());
  LC m(Variable::aux(7));
  m.add_merged(Fr::one(), Variable::one());     // placed before aux 7
  m.add_merged(kFrMinusOne, Variable::aux(7));  // cancels aux 7
  EXPECT_TRUE(m.is_normalized());
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m.terms()[0].var, Variable::one());
}

}  // namespace
}  // namespace cuzk
