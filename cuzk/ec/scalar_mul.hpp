// Scalar multiplication on Jacobian points, generic over the curve (host only).
//   mul            fixed 4-bit windows over the canonical Fr value: 256 doublings and 64 additions
//                  whatever the scalar, table read by a full masked scan. The addition formula still
//                  branches on its special cases (identity, equal inputs), so this is "regular", not
//                  a hardened constant-time routine.
//   mul_vartime    width-5 wNAF (about 255 doublings + 43 additions); time depends on the scalar.
//   mul_limbs_vartime   the same for any non-negative integer (r, cofactors, h_eff).
//   mul_by_u64     double-and-add on a 64-bit public constant.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "cuzk/ec/jacobian.hpp"
#include "cuzk/ff/fr.hpp"
#include "cuzk/ff/limbs.hpp"

namespace cuzk {

namespace ec_detail {

/// dst ← src when |take|, by masking every 64-bit word (no branch on |take|).
template <class T>
inline void masked_assign(T& dst, const T& src, bool take) {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) % 8 == 0);
  constexpr std::size_t kWords = sizeof(T) / 8;
  std::array<std::uint64_t, kWords> d{}, s{};
  std::memcpy(d.data(), &dst, sizeof(T));
  std::memcpy(s.data(), &src, sizeof(T));
  const std::uint64_t mask = 0 - static_cast<std::uint64_t>(take);
  for (std::size_t i = 0; i < kWords; ++i) d[i] ^= (d[i] ^ s[i]) & mask;
  std::memcpy(static_cast<void*>(&dst), d.data(), sizeof(T));
}

/// Signed fixed-window digits of k, least significant first: |count| digits d_i ∈ [−2^(w−1),
/// 2^(w−1)] with k = Σ d_i·2^(w·i) (count·w must exceed the bit length of k by at least one).
/// No branch on k.
template <std::size_t M>
inline void signed_window_digits(const Limbs<M>& k, unsigned w, unsigned count, std::int8_t* out) {
  std::uint32_t carry = 0;
  for (unsigned i = 0; i < count; ++i) {
    std::uint32_t c = carry;
    for (unsigned b = 0; b < w; ++b) {
      const unsigned bit = w * i + b;
      if (bit < 64 * M) c += static_cast<std::uint32_t>((k[bit / 64] >> (bit % 64)) & 1) << b;
    }
    carry = (c + (1u << (w - 1)) - 1) >> w;  // c > 2^(w−1)
    out[i] = static_cast<std::int8_t>(static_cast<std::int32_t>(c) -
                                      static_cast<std::int32_t>(carry << w));
  }
}

/// table[|d|] negated when d < 0, by a masked scan of all entries (table[0] = identity,
/// table[j] = [j]p for j ≤ n − 1).
template <class C>
inline Jacobian<C> select_signed(const Jacobian<C>* table, unsigned n, int d) {
  const std::uint32_t s = static_cast<std::uint32_t>(d >> 31);  // all ones when d < 0
  const unsigned a = (static_cast<std::uint32_t>(d) ^ s) - s;
  Jacobian<C> t = table[0];
  for (unsigned i = 1; i < n; ++i) masked_assign(t, table[i], i == a);
  const auto neg_y = -t.Y;
  masked_assign(t.Y, neg_y, s != 0);
  return t;
}

/// The affine form of select_signed (table[0] = the affine identity).
template <class C>
inline Affine<C> select_signed(const Affine<C>* table, unsigned n, int d) {
  const std::uint32_t s = static_cast<std::uint32_t>(d >> 31);
  const unsigned a = (static_cast<std::uint32_t>(d) ^ s) - s;
  Affine<C> t = table[0];
  for (unsigned i = 1; i < n; ++i) masked_assign(t, table[i], i == a);
  const auto neg_y = -t.y;
  masked_assign(t.y, neg_y, s != 0);
  return t;
}

/// Width-w NAF digits of k, least significant first; returns the digit count (≤ 64·M + 1).
/// Every non-zero digit is odd with |d| < 2^(w−1), and any two non-zero digits are ≥ w apart.
template <std::size_t M>
inline unsigned wnaf_digits(const Limbs<M>& k, unsigned w, std::int8_t* out) {
  Limbs<M + 1> v{};
  for (std::size_t i = 0; i < M; ++i) v[i] = k[i];
  const std::uint64_t full = std::uint64_t{1} << w, half = full >> 1;
  unsigned n = 0;
  while (!limbs_is_zero(v)) {
    std::int64_t d = 0;
    if (v[0] & 1) {
      const std::uint64_t m = v[0] & (full - 1);
      if (m >= half) {
        d = static_cast<std::int64_t>(m) - static_cast<std::int64_t>(full);
        v = limbs_add_small(v, static_cast<std::uint64_t>(-d));
      } else {
        d = static_cast<std::int64_t>(m);
        v = limbs_sub_small(v, m);
      }
    }
    out[n++] = static_cast<std::int8_t>(d);
    v = limbs_shr(v, 1);
  }
  return n;
}

}  // namespace ec_detail

/// [k]p for a 64-bit k, double-and-add (time depends on k).
template <class C>
Jacobian<C> mul_by_u64(const Jacobian<C>& p, std::uint64_t k) {
  Jacobian<C> acc = Jacobian<C>::identity();
  for (int i = 63; i >= 0; --i) {
    acc.dbl();
    if ((k >> i) & 1) acc.add(p);
  }
  return acc;
}

/// [k]p for any non-negative integer k, width-5 wNAF over a Jacobian table of p, 3p, …, 15p.
template <class C, std::size_t M>
Jacobian<C> mul_limbs_vartime(const Jacobian<C>& p, const Limbs<M>& k) {
  constexpr unsigned kW = 5;
  std::int8_t digits[64 * M + 2];
  const unsigned n = ec_detail::wnaf_digits(k, kW, digits);
  Jacobian<C> table[1u << (kW - 2)];  // odd multiples (2i + 1)p
  table[0] = p;
  const Jacobian<C> p2 = p.doubled();
  for (unsigned i = 1; i < (1u << (kW - 2)); ++i) table[i] = table[i - 1] + p2;
  Jacobian<C> acc = Jacobian<C>::identity();
  for (unsigned i = n; i-- > 0;) {
    acc.dbl();
    const int d = digits[i];
    if (d > 0)
      acc.add(table[(d - 1) / 2]);
    else if (d < 0)
      acc.add(-table[(-d - 1) / 2]);
  }
  return acc;
}

/// [k]p, k read as its canonical integer; variable time (wNAF).
template <class C>
Jacobian<C> mul_vartime(const Jacobian<C>& p, const Fr& k) {
  return mul_limbs_vartime(p, k.to_canonical());
}

/// [k]p, k read as its canonical integer; fixed 4-bit windows with a masked table scan.
template <class C>
Jacobian<C> mul(const Jacobian<C>& p, const Fr& k) {
  const Limbs<4> e = k.to_canonical();
  Jacobian<C> table[16];
  table[0] = Jacobian<C>::identity();
  table[1] = p;
  for (unsigned i = 2; i < 16; ++i) table[i] = (i & 1) ? table[i - 1] + p : table[i / 2].doubled();
  Jacobian<C> acc = Jacobian<C>::identity();
  for (int w = 63; w >= 0; --w) {
    for (int j = 0; j < 4; ++j) acc.dbl();
    const unsigned d = static_cast<unsigned>(e[w / 16] >> (4 * (w % 16))) & 15;
    Jacobian<C> t = table[0];
    for (unsigned i = 1; i < 16; ++i) ec_detail::masked_assign(t, table[i], i == d);
    acc.add(t);
  }
  return acc;
}

/// Affine overloads.
template <class C>
Jacobian<C> mul(const Affine<C>& p, const Fr& k) {
  return mul(Jacobian<C>::from_affine(p), k);
}
template <class C>
Jacobian<C> mul_vartime(const Affine<C>& p, const Fr& k) {
  return mul_vartime(Jacobian<C>::from_affine(p), k);
}

/// The slow subgroup test: [r]p = O (r = the order of G1 and G2). The reference for the fast tests.
template <class C>
bool is_in_subgroup_by_order_vartime(const Jacobian<C>& p) {
  return mul_limbs_vartime(p, Fr::kModulus).is_identity();
}

}  // namespace cuzk
