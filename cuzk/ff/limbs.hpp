// Multi-precision helpers on little-endian arrays of 64-bit limbs: add with carry, subtract with
// borrow, multiply-accumulate, comparisons and shifts. All constexpr, so field constants can be
// derived from the modulus at compile time (STYLE.md rule 5).
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>

// Full unrolling of the short limb loops (N ≤ 8): GCC -O2 leaves them rolled otherwise.
#if defined(__clang__)
#define CUZK_UNROLL _Pragma("unroll")
#elif defined(__GNUC__) && !defined(__CUDACC__)
#define CUZK_UNROLL _Pragma("GCC unroll 8")
#else
#define CUZK_UNROLL
#endif

namespace cuzk {

template <std::size_t N>
using Limbs = std::array<std::uint64_t, N>;

using u128 = unsigned __int128;

/// a + b + carry; returns the low word and sets |carry| to the high bit.
constexpr std::uint64_t adc(std::uint64_t a, std::uint64_t b, std::uint64_t& carry) {
  u128 t = static_cast<u128>(a) + b + carry;
  carry = static_cast<std::uint64_t>(t >> 64);
  return static_cast<std::uint64_t>(t);
}

/// a - b - borrow; returns the low word and sets |borrow| to 1 on underflow.
constexpr std::uint64_t sbb(std::uint64_t a, std::uint64_t b, std::uint64_t& borrow) {
  u128 t = static_cast<u128>(a) - b - borrow;
  borrow = static_cast<std::uint64_t>(t >> 127);
  return static_cast<std::uint64_t>(t);
}

/// acc + a*b + carry; returns the low word and sets |carry| to the high word (never overflows).
constexpr std::uint64_t mac(std::uint64_t acc, std::uint64_t a, std::uint64_t b,
                            std::uint64_t& carry) {
  u128 t = static_cast<u128>(a) * b + acc + carry;
  carry = static_cast<std::uint64_t>(t >> 64);
  return static_cast<std::uint64_t>(t);
}

/// r = a + b; returns the carry out.
template <std::size_t N>
constexpr std::uint64_t limbs_add(Limbs<N>& r, const Limbs<N>& a, const Limbs<N>& b) {
  std::uint64_t c = 0;
  CUZK_UNROLL
  for (std::size_t i = 0; i < N; ++i) r[i] = adc(a[i], b[i], c);
  return c;
}

/// r = a - b; returns the borrow out.
template <std::size_t N>
constexpr std::uint64_t limbs_sub(Limbs<N>& r, const Limbs<N>& a, const Limbs<N>& b) {
  std::uint64_t br = 0;
  CUZK_UNROLL
  for (std::size_t i = 0; i < N; ++i) r[i] = sbb(a[i], b[i], br);
  return br;
}

/// -1, 0, 1 as a <, ==, > b.
template <std::size_t N>
constexpr int limbs_cmp(const Limbs<N>& a, const Limbs<N>& b) {
  for (std::size_t i = N; i-- > 0;) {
    if (a[i] < b[i]) return -1;
    if (a[i] > b[i]) return 1;
  }
  return 0;
}

template <std::size_t N>
constexpr bool limbs_is_zero(const Limbs<N>& a) {
  std::uint64_t acc = 0;
  for (auto w : a) acc |= w;
  return acc == 0;
}

/// a >> k for 0 <= k < 64.
template <std::size_t N>
constexpr Limbs<N> limbs_shr(const Limbs<N>& a, unsigned k) {
  Limbs<N> r{};
  if (k == 0) return a;
  CUZK_UNROLL
  for (std::size_t i = 0; i < N; ++i) {
    r[i] = a[i] >> k;
    if (i + 1 < N) r[i] |= a[i + 1] << (64 - k);
  }
  return r;
}

/// a >> k for any k < 64·N.
template <std::size_t N>
constexpr Limbs<N> limbs_shr_any(const Limbs<N>& a, unsigned k) {
  if (k < 64) return limbs_shr(a, k);
  Limbs<N> r{};
  const unsigned w = k / 64, b = k % 64;
  for (std::size_t i = 0; i + w < N; ++i) r[i] = a[i + w];
  return limbs_shr(r, b);
}

/// a << k (wrapping) for any k < 64·N.
template <std::size_t N>
constexpr Limbs<N> limbs_shl_any(const Limbs<N>& a, unsigned k) {
  Limbs<N> r{};
  if (k == 0) return a;
  if (k < 64) {  // the common case in the inversion loop
    for (std::size_t i = 1; i < N; ++i) r[i] = (a[i] << k) | (a[i - 1] >> (64 - k));
    r[0] = a[0] << k;
    return r;
  }
  const unsigned w = k / 64, b = k % 64;
  for (std::size_t i = N; i-- > w;) {
    r[i] = a[i - w] << b;
    if (b != 0 && i > w) r[i] |= a[i - w - 1] >> (64 - b);
  }
  return r;
}

/// Bit |i| of a.
template <std::size_t N>
constexpr bool limbs_bit(const Limbs<N>& a, unsigned i) {
  return (a[i / 64] >> (i % 64)) & 1;
}

/// Index of the highest set bit plus one (0 for a == 0).
template <std::size_t N>
constexpr unsigned limbs_bit_length(const Limbs<N>& a) {
  for (std::size_t i = N; i-- > 0;) {
    if (a[i] != 0) return static_cast<unsigned>(i * 64 + 64 - std::countl_zero(a[i]));
  }
  return 0;
}

/// Number of trailing zero bits (64·N for a == 0).
template <std::size_t N>
constexpr unsigned limbs_trailing_zeros(const Limbs<N>& a) {
  for (std::size_t i = 0; i < N; ++i) {
    if (a[i] != 0) return static_cast<unsigned>(i * 64 + std::countr_zero(a[i]));
  }
  return static_cast<unsigned>(64 * N);
}

/// a + small (wrapping).
template <std::size_t N>
constexpr Limbs<N> limbs_add_small(const Limbs<N>& a, std::uint64_t s) {
  Limbs<N> r{};
  std::uint64_t c = s;
  for (std::size_t i = 0; i < N; ++i) r[i] = adc(a[i], 0, c);
  return r;
}

/// a - small (wrapping).
template <std::size_t N>
constexpr Limbs<N> limbs_sub_small(const Limbs<N>& a, std::uint64_t s) {
  Limbs<N> r{};
  std::uint64_t br = 0;
  for (std::size_t i = 0; i < N; ++i) r[i] = sbb(a[i], i == 0 ? s : 0, br);
  return r;
}

/// a * m + add; returns the carry word out.
template <std::size_t N>
constexpr std::uint64_t limbs_mul_small(Limbs<N>& a, std::uint64_t m, std::uint64_t add) {
  std::uint64_t c = add;
  for (std::size_t i = 0; i < N; ++i) a[i] = mac(0, a[i], m, c);
  return c;
}

/// a / d in place for a one-word divisor; returns the remainder.
template <std::size_t N>
constexpr std::uint64_t limbs_div_small(Limbs<N>& a, std::uint64_t d) {
  u128 rem = 0;
  for (std::size_t i = N; i-- > 0;) {
    u128 cur = (rem << 64) | a[i];
    a[i] = static_cast<std::uint64_t>(cur / d);
    rem = cur % d;
  }
  return static_cast<std::uint64_t>(rem);
}

}  // namespace cuzk
