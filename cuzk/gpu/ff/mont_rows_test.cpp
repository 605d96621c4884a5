// mont_rows.cuh (the device's Montgomery rows with alternating accumulators) run on the CPU through
// HostOps, against the host fields: Fp and Fr products with the alternating rows unrolled (the
// first row fresh) and as the rolled loops run them (every row general, from zeroed
// accumulators), and with the folding rows; Fp's fused a·b + c·d, Fp's squares by the square rows,
// and Fp's lazy inputs in [0, 2p). Besides the value, each unreduced result is
// checked against the bound its users rely on (< 2p; < 1.5p for a lazy product). Needs no GPU:
// built with or without CUDA (host_tests.cmake).
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <random>
#include <vector>

#include "cuzk/ff/fp.hpp"
#include "cuzk/ff/fr.hpp"
#include "cuzk/gpu/ff/mont_rows.cuh"
#include "tests/support/seed.hpp"

namespace cuzk::gpu {
namespace {

template <class F>
constexpr int kLimbs = 2 * static_cast<int>(F::N);

template <class F>
using L32 = std::array<std::uint32_t, kLimbs<F>>;

template <class F>
L32<F> to32(const typename F::Repr& r) {
  L32<F> o{};
  for (int i = 0; i < kLimbs<F>; ++i) o[i] = static_cast<std::uint32_t>(r[i / 2] >> (32 * (i % 2)));
  return o;
}

template <class F>
L32<F> modulus32() {
  return to32<F>(F::kModulus);
}

/// a + b·k (k = 0, 1, 2 multiples of b), limb for limb; the callers keep it below 2^(32N).
template <class F>
L32<F> add_mult(const L32<F>& a, const L32<F>& b, unsigned k) {
  L32<F> o{};
  std::uint64_t carry = 0;
  for (int i = 0; i < kLimbs<F>; ++i) {
    const std::uint64_t t = std::uint64_t{a[i]} + std::uint64_t{b[i]} * k + carry;
    o[i] = static_cast<std::uint32_t>(t);
    carry = t >> 32;
  }
  EXPECT_EQ(carry, 0u);
  return o;
}

/// Whether a < b as integers.
template <class F>
bool less(const L32<F>& a, const L32<F>& b) {
  for (int i = kLimbs<F> - 1; i >= 0; --i)
    if (a[i] != b[i]) return a[i] < b[i];
  return false;
}

/// a mod p for a < 2p.
template <class F>
L32<F> reduce(const L32<F>& a) {
  const L32<F> p = modulus32<F>();
  if (less<F>(a, p)) return a;
  L32<F> o{};
  std::int64_t borrow = 0;
  for (int i = 0; i < kLimbs<F>; ++i) {
    const std::int64_t t = std::int64_t{a[i]} - std::int64_t{p[i]} - borrow;
    o[i] = static_cast<std::uint32_t>(t);
    borrow = t < 0 ? 1 : 0;
  }
  return o;
}

/// ⌊1.5p⌋, the bound of a lazy product.
template <class F>
L32<F> one_and_half_p() {
  const L32<F> p = modulus32<F>();
  L32<F> h{};
  for (int i = 0; i < kLimbs<F>; ++i)
    h[i] = (p[i] >> 1) | (i + 1 < kLimbs<F> ? p[i + 1] << 31 : 0u);
  return add_mult<F>(p, h, 1);
}

enum class Rows { unrolled, rolled, folding };

/// (a·b (+ c·d when |kPair|))·R^{-1}, unreduced, by the rows in the form |rows|.
template <class F, bool kPair>
L32<F> rows_product(Rows rows, const L32<F>& a, const L32<F>& b, const L32<F>& c, const L32<F>& d) {
  constexpr int N = kLimbs<F>;
  const L32<F> p = modulus32<F>();
  const auto plimb = [&p](int j) { return p[j]; };
  const auto inv = static_cast<std::uint32_t>(F::kInv);
  HostOps ops;
  L32<F> r{};
  if (rows == Rows::unrolled) {
    mont_rows::product<N, kPair>(
        ops, r.data(), a.data(), b.data(), c.data(), [&d](int k, std::uint32_t) { return d[k]; },
        plimb, inv);
    return r;
  }
  if (rows == Rows::folding) {
    std::uint32_t e[N + 1] = {}, o[N + 1];
    for (int k = 0; k < N; ++k)
      mont_rows::folding_row<N, kPair>(ops, e, o, a.data(), b[k], c.data(), d[k], plimb, inv);
    for (int k = 0; k < N; ++k) r[k] = e[k];
    return r;
  }
  std::uint32_t u[N] = {}, v[N] = {};
  for (int k = 0; k < N; k += 2) {
    mont_rows::row<N, false, kPair>(ops, u, v, a.data(), b[k], c.data(), d[k], plimb, inv);
    mont_rows::row<N, false, kPair>(ops, v, u, a.data(), b[k + 1], c.data(), d[k + 1], plimb, inv);
  }
  mont_rows::fold<N>(ops, r.data(), v, u);
  return r;
}

/// Elements whose Montgomery limbs are edge cases (0, 1, p − 1, R mod p, a low limb 0 or all ones)
/// and random ones.
template <class F>
std::vector<F> inputs(std::mt19937_64& rng, int random_count) {
  std::vector<F> v = {F::zero(), F::one(), -F::one(), F::from_u64(2), -F::from_u64(2)};
  for (std::uint64_t lo : {0ULL, 0xffffffffULL, 0xffffffff00000000ULL, ~0ULL}) {
    typename F::Repr l{};
    for (auto& w : l) w = rng();
    l[0] = lo;
    l[F::N - 1] >>= 4;
    v.push_back(F::from_mont_unchecked(l));
  }
  typename F::Repr one_mont{};
  one_mont[0] = 1;  // the integer 1 as Montgomery limbs (R^{-1})
  v.push_back(F::from_mont_unchecked(one_mont));
  for (int i = 0; i < random_count; ++i) {
    typename F::Repr l{};
    for (auto& w : l) w = rng();
    v.push_back(F::from_limbs_reduce(l));
  }
  return v;
}

/// Every pair of |xs| (the edges against each other and the random ones in a chain), products in
/// both row forms; |lazy|: inputs lifted by p in turn (values in [0, 2p)); |pair|: a·b + b·a'
/// with a' the next element.
template <class F, bool kPair>
void check_products(const std::vector<F>& xs, bool lazy, std::uint64_t seed) {
  const L32<F> p = modulus32<F>();
  const L32<F> p2 = add_mult<F>(p, p, 1);
  const L32<F> p15 = one_and_half_p<F>();
  std::size_t count = 0;
  const auto check = [&](const F& a, const F& b, const F& c, unsigned lift) {
    const L32<F> la = add_mult<F>(to32<F>(a.l), p, lift & 1u),
                 lb = add_mult<F>(to32<F>(b.l), p, (lift >> 1) & 1u),
                 lc = add_mult<F>(to32<F>(c.l), p, (lift >> 2) & 1u);
    const F want = kPair ? a * b + c * a : a * b;
    for (const Rows rows : {Rows::unrolled, Rows::rolled, Rows::folding}) {
      const L32<F> got = rows_product<F, kPair>(rows, la, lb, lc, la);
      ASSERT_TRUE(less<F>(got, p2)) << "the result is not below 2p; seed=" << seed;
      if (lazy && !kPair) {
        ASSERT_TRUE(less<F>(got, p15)) << "a lazy product ≥ 1.5p; seed=" << seed;
      }
      ASSERT_EQ(reduce<F>(got), to32<F>(want.l))
          << static_cast<int>(rows) << " (unrolled, rolled, folding) lift=" << lift
          << " count=" << count << " seed=" << seed;
    }
    ++count;
  };
  const std::size_t edges = 10;
  const unsigned lifts = lazy ? 8u : 1u;
  for (std::size_t i = 0; i < edges; ++i)
    for (std::size_t j = 0; j < edges; ++j)
      for (unsigned lift = 0; lift < lifts; ++lift) check(xs[i], xs[j], xs[(i + j) % edges], lift);
  for (std::size_t i = edges; i + 2 < xs.size(); ++i)
    check(xs[i], xs[i + 1], xs[i + 2], static_cast<unsigned>(i % lifts));
}

/// a²·R^{-1} by the square rows (mont_rows::square_product) for every element of |xs|, and each
/// lifted by p when |lazy| (inputs in [0, 2p)): the host's square after one reduction, below 1.5p.
void check_squares(const std::vector<Fp>& xs, bool lazy, std::uint64_t seed) {
  constexpr int N = kLimbs<Fp>;
  const L32<Fp> p = modulus32<Fp>();
  const L32<Fp> p15 = one_and_half_p<Fp>();
  const auto plimb = [&p](int j) { return p[j]; };
  HostOps ops;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    for (unsigned lift = 0; lift < (lazy ? 2u : 1u); ++lift) {
      const L32<Fp> a = add_mult<Fp>(to32<Fp>(xs[i].l), p, lift);
      L32<Fp> got{};
      mont_rows::square_product<N>(ops, got.data(), a.data(), plimb,
                                   static_cast<std::uint32_t>(Fp::kInv));
      ASSERT_TRUE(less<Fp>(got, p15)) << "a square ≥ 1.5p; i=" << i << " seed=" << seed;
      ASSERT_EQ(reduce<Fp>(got), to32<Fp>(xs[i].square().l))
          << "i=" << i << " lift=" << lift << " seed=" << seed;
    }
  }
}

TEST(MontRows, FpSquaresMatchHost) {
  const std::uint64_t seed = test::fresh_seed();
  std::mt19937_64 rng(seed);
  std::vector<Fp> xs = inputs<Fp>(rng, 20000);
  // Limbs with the top bit set in every position below the top (the doubled limbs' carries), and
  // the largest element.
  typename Fp::Repr ones{};
  for (auto& w : ones) w = 0x8000000080000000ULL;
  ones[Fp::N - 1] = 0x0000000080000000ULL;
  xs.push_back(Fp::from_mont_unchecked(ones));
  typename Fp::Repr top = Fp::kModulus;
  top[0] -= 1;  // p − 1 (p is odd)
  xs.push_back(Fp::from_mont_unchecked(top));
  check_squares(xs, false, seed);
  check_squares(xs, true, seed);
}

TEST(MontRows, FpProductsMatchHost) {
  const std::uint64_t seed = test::fresh_seed();
  std::mt19937_64 rng(seed);
  const auto xs = inputs<Fp>(rng, 20000);
  check_products<Fp, false>(xs, false, seed);
  check_products<Fp, true>(xs, false, seed);
}

TEST(MontRows, LazyFpProductsMatchHost) {
  const std::uint64_t seed = test::fresh_seed();
  std::mt19937_64 rng(seed);
  const auto xs = inputs<Fp>(rng, 20000);
  check_products<Fp, false>(xs, true, seed);
  check_products<Fp, true>(xs, true, seed);
}

TEST(MontRows, FrProductsMatchHost) {
  const std::uint64_t seed = test::fresh_seed();
  std::mt19937_64 rng(seed);
  check_products<Fr, false>(inputs<Fr>(rng, 20000), false, seed);
}

}  // namespace
}  // namespace cuzk::gpu
