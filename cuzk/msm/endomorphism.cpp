#include "cuzk/msm/endomorphism.hpp"

#include "cuzk/ec/g1.hpp"

namespace cuzk {

namespace {

using U128 = unsigned __int128;

constexpr U128 kLambda = (static_cast<U128>(kGlvLambda[1]) << 64) | kGlvLambda[0];
/// ⌊2^382 / λ⌋ (< 2^255), the Barrett constant of k / λ (tools: Python `(1 << 382) // λ`).
constexpr std::uint64_t kBarrett[4] = {0xf69793e3625b1cb7ULL, 0x0e27d269c9a2fde8ULL,
                                       0x58fdb948bdb3fb8cULL, 0x5f1afb3c7807eab7ULL};

// (hi·2^64 + lo) / d with hi < d; the remainder in |rem|.
inline std::uint64_t div_128_by_64(std::uint64_t hi, std::uint64_t lo, std::uint64_t d,
                                   std::uint64_t& rem) {
#if defined(__x86_64__)
  std::uint64_t q, r;
  __asm__("divq %4" : "=a"(q), "=d"(r) : "a"(lo), "d"(hi), "rm"(d) : "cc");
  rem = r;
  return q;
#else
  const U128 n = (static_cast<U128>(hi) << 64) | lo;
  rem = static_cast<std::uint64_t>(n % d);
  return static_cast<std::uint64_t>(n / d);
#endif
}

}  // namespace

GlvHalves glv_split_g1(const Limbs<4>& k) {
  // q ≈ ⌊k·m / 2^382⌋ ≤ ⌊k/λ⌋, at most 2 below it (k·m/2^382 > k/λ − 1).
  std::uint64_t prod[8] = {};
  for (int i = 0; i < 4; ++i) {
    U128 carry = 0;
    for (int j = 0; j < 4; ++j) {
      const U128 t = static_cast<U128>(k[i]) * kBarrett[j] + prod[i + j] + carry;
      prod[i + j] = static_cast<std::uint64_t>(t);
      carry = t >> 64;
    }
    prod[i + 4] = static_cast<std::uint64_t>(carry);
  }
  U128 q = (static_cast<U128>((prod[6] >> 62) | (prod[7] << 2)) << 64) |
           ((prod[5] >> 62) | (prod[6] << 2));
  // k1 = k − q·λ (4 limbs, non-negative since q ≤ ⌊k/λ⌋), then corrected below λ.
  const std::uint64_t ql = static_cast<std::uint64_t>(q), qh = static_cast<std::uint64_t>(q >> 64);
  std::uint64_t ql_lam[4] = {};
  for (int i = 0; i < 2; ++i) {
    const std::uint64_t qi = i == 0 ? ql : qh;
    U128 carry = 0;
    for (int j = 0; j < 2; ++j) {
      const U128 t = static_cast<U128>(qi) * kGlvLambda[j] + ql_lam[i + j] + carry;
      ql_lam[i + j] = static_cast<std::uint64_t>(t);
      carry = t >> 64;
    }
    ql_lam[i + 2] = static_cast<std::uint64_t>(carry);
  }
  std::uint64_t rem[4];
  std::uint64_t borrow = 0;
  for (int i = 0; i < 4; ++i) rem[i] = sbb(k[i], ql_lam[i], borrow);
  // rem < 3λ < 2^130: limbs 2..3 hold at most two bits.
  U128 hi = (static_cast<U128>(rem[3]) << 64) | rem[2];
  U128 k1 = (static_cast<U128>(rem[1]) << 64) | rem[0];
  while (hi != 0 || k1 >= kLambda) {
    const U128 before = k1;
    k1 -= kLambda;
    if (k1 > before) --hi;  // borrow
    ++q;
  }
  // Balance: k = k1 + q·λ with k1 < λ, q ≤ λ + 1.
  const U128 half = kLambda >> 1;
  GlvHalves out{};
  U128 m1 = k1;
  if (k1 > half) {
    m1 = kLambda - k1;
    out.neg1 = true;
    ++q;
  }
  U128 m2 = q;
  if (q > half) {  // q·λ ≡ (q − λ − 1)·λ − 1
    m2 = kLambda + 1 - q;
    out.neg2 = true;
    if (out.neg1) {
      ++m1;
    } else if (m1 == 0) {
      m1 = 1;
      out.neg1 = true;
    } else {
      --m1;
    }
  }
  out.m1[0] = static_cast<std::uint64_t>(m1);
  out.m1[1] = static_cast<std::uint64_t>(m1 >> 64);
  out.m2[0] = static_cast<std::uint64_t>(m2);
  out.m2[1] = static_cast<std::uint64_t>(m2 >> 64);
  return out;
}

void gls_split_g2(const Limbs<4>& k, std::uint64_t a[4]) {
  std::uint64_t e[4] = {k[0], k[1], k[2], k[3]};
  unsigned top = 4;  // limbs of e that may be non-zero
  for (int t = 0; t < 4; ++t) {
    while (top > 0 && e[top - 1] == 0) --top;
    std::uint64_t r = 0;
    for (unsigned i = top; i-- > 0;) e[i] = div_128_by_64(r, e[i], kBlsXAbs, r);
    a[t] = r;
  }
}

}  // namespace cuzk
