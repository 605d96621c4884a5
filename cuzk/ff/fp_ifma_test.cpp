// fp_ifma.hpp: the 8-lane radix-2^52 Montgomery product against its scalar twin (word for word)
// and against Fp (a·b·2^-416 mod p), on random values, edge values (0, 1, p − 1, p, 2p − 1, all
// limbs at 2^52 − 1 below 2p) and long dependent chains; radix conversions round trip. The IFMA
// kernel runs only where the CPU has it; the twin runs everywhere. Seeds are printed.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "cuzk/ff/fp_ifma.hpp"
#include "tests/support/seed.hpp"

namespace cuzk {
namespace {
using cuzk::test::fresh_seed;

using ifma::Fp8;

Limbs<6> random_below_2p(std::mt19937_64& rng) {
  Limbs<6> x{};
  for (auto& w : x) w = rng();
  x[5] &= (std::uint64_t{1} << 62) - 1;  // < 2^382; reduce into [0, 2p)
  Limbs<6> twice_p{};
  limbs_add(twice_p, Fp::kModulus, Fp::kModulus);
  while (limbs_cmp(x, twice_p) >= 0) {
    Limbs<6> t{};
    limbs_sub(t, x, twice_p);
    x = t;
  }
  return x;
}

// The integer x (< 2p) as an Fp element (reduced mod p).
Fp as_fp(const Limbs<6>& x) { return Fp::from_limbs_reduce(x); }

// 2^-416 mod p.
Fp two_pow_minus_416() {
  const Fp half = Fp::from_u64(2).inverse();
  Fp s = Fp::one();
  for (int i = 0; i < 416; ++i) s *= half;
  return s;
}

std::vector<Limbs<6>> edge_values() {
  Limbs<6> p = Fp::kModulus, pm1 = Fp::kModulus, two_p{}, two_p_m1{};
  pm1[0] -= 1;
  limbs_add(two_p, p, p);
  two_p_m1 = two_p;
  two_p_m1[0] -= 1;
  // All low 52-bit limbs at 2^52 − 1, top limb small enough to stay below 2p.
  std::uint64_t r52[8];
  for (auto& v : r52) v = ifma::kMask52;
  r52[7] = 1;
  return {Limbs<6>{},
          Limbs<6>{1},
          pm1,
          p,
          two_p_m1,
          ifma::from_radix52(r52),
          Limbs<6>{0, 0, 0, 0, 0, 1}};
}

void load(Fp8& v, unsigned lane, const Limbs<6>& x) {
  std::uint64_t l[8];
  ifma::to_radix52(x, l);
  for (unsigned j = 0; j < 8; ++j) v.l[j][lane] = l[j];
}
Limbs<6> lane(const Fp8& v, unsigned k) {
  std::uint64_t l[8];
  for (unsigned j = 0; j < 8; ++j) l[j] = v.l[j][k];
  return ifma::from_radix52(l);
}

void expect_products(const Fp8& a, const Fp8& b, std::uint64_t seed) {
  static const Fp scale = two_pow_minus_416();
  Fp8 twin, got;
  ifma::mul8_portable(twin, a, b);
  ifma::mul8(got, a, b);
  Limbs<6> twice_p{};
  limbs_add(twice_p, Fp::kModulus, Fp::kModulus);
  for (unsigned k = 0; k < 8; ++k) {
    for (unsigned j = 0; j < 8; ++j) {
      ASSERT_EQ(got.l[j][k], twin.l[j][k]) << "lane " << k << " limb " << j << " seed=" << seed;
      if (j < 7) {
        ASSERT_LT(twin.l[j][k], std::uint64_t{1} << 52);
      }
    }
    const Limbs<6> r = lane(twin, k);
    ASSERT_LT(limbs_cmp(r, twice_p), 0) << "result not below 2p, lane " << k << " seed=" << seed;
    ASSERT_EQ(as_fp(r), as_fp(lane(a, k)) * as_fp(lane(b, k)) * scale)
        << "lane " << k << " seed=" << seed;
  }
}

TEST(FpIfma, RadixConversionRoundTrips) {
  const auto seed = fresh_seed();
  std::mt19937_64 rng(seed);
  for (int i = 0; i < 1000; ++i) {
    const Limbs<6> x = random_below_2p(rng);
    std::uint64_t l[8];
    ifma::to_radix52(x, l);
    for (unsigned j = 0; j < 7; ++j) ASSERT_LT(l[j], std::uint64_t{1} << 52);
    ASSERT_EQ(ifma::from_radix52(l), x) << "seed=" << seed;
  }
}

TEST(FpIfma, ProductsMatchTwinAndFp) {
  const auto seed = fresh_seed();
  std::printf("IFMA kernel %s\n", ifma::g_use_ifma ? "on" : "off (this CPU lacks it: twin only)");
  std::mt19937_64 rng(seed);
  const auto edges = edge_values();
  // Every pair of edge values, eight pairs per call.
  std::vector<std::pair<Limbs<6>, Limbs<6>>> pairs;
  for (const auto& x : edges)
    for (const auto& y : edges) pairs.push_back({x, y});
  for (std::size_t s = 0; s < pairs.size(); s += 8) {
    Fp8 a{}, b{};
    for (unsigned k = 0; k < 8; ++k) {
      const auto& [x, y] = pairs[(s + k) % pairs.size()];
      load(a, k, x);
      load(b, k, y);
    }
    expect_products(a, b, seed);
  }
  for (int i = 0; i < 2000; ++i) {
    Fp8 a{}, b{};
    for (unsigned k = 0; k < 8; ++k) {
      load(a, k, random_below_2p(rng));
      load(b, k, rng() % 4 == 0 ? edges[rng() % edges.size()] : random_below_2p(rng));
    }
    expect_products(a, b, seed);
  }
}

TEST(FpIfma, DependentChainsStayBelowTwoP) {
  const auto seed = fresh_seed();
  std::mt19937_64 rng(seed);
  Fp8 a{}, b{};
  for (unsigned k = 0; k < 8; ++k) {
    load(a, k, random_below_2p(rng));
    load(b, k, random_below_2p(rng));
  }
  Fp8 twin = a;
  for (int i = 0; i < 500; ++i) {
    ifma::mul8(a, a, b);  // output aliases an input
    ifma::mul8_portable(twin, twin, b);
  }
  for (unsigned k = 0; k < 8; ++k)
    for (unsigned j = 0; j < 8; ++j) ASSERT_EQ(a.l[j][k], twin.l[j][k]) << "seed=" << seed;
  // And the twin itself against Fp along the chain, on the IFMA path switched off.
  const bool prev = ifma::set_ifma_enabled(false);
  Fp8 c{};
  load(c, 0, Limbs<6>{5});
  Fp8 d{};
  for (unsigned k = 0; k < 8; ++k) load(d, k, random_below_2p(rng));
  Fp want = Fp::from_u64(5);
  const Fp scale = two_pow_minus_416();
  for (int i = 0; i < 50; ++i) {
    ifma::mul8(c, c, d);
    want = want * as_fp(lane(d, 0)) * scale;
  }
  EXPECT_EQ(as_fp(lane(c, 0)), want) << "seed=" << seed;
  ifma::set_ifma_enabled(prev);
}

}  // namespace
}  // namespace cuzk
