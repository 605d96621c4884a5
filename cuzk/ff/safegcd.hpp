// Variable-time modular inversion by Bernstein–Yang divsteps ("safegcd", eprint 2019/266), in the
// form of libsecp256k1's modinv64_var (Wuille's "hddivsteps" variant: batches of 62 divsteps on the
// low 64 bits giving a 2×2 transition matrix, runs of zeros skipped with count-trailing-zeros and
// up to 6 bits of g cancelled per step), generalised to any odd modulus of N 64-bit limbs.
//
// Numbers are kept in "signed62" form: L = bits/62 + 1 limbs of 62 bits, the top one signed.
// Invariants (see libsecp256k1 doc/safegcd_implementation.md): f, g ∈ (−p, p], d, e ∈ (−2p, p),
// d·x ≡ f, e·x ≡ g (mod p) up to the common factor 2^(−62·iterations) that update_de divides out.
// The loop stops at g = 0; then f = ±1 and d·sign(f) ≡ x^{−1}. Host only (uses __int128).
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>

#include "cuzk/ff/limbs.hpp"

namespace cuzk::safegcd {

using i128 = __int128;
using u128 = unsigned __int128;

template <std::size_t N>
struct Inverter {
  static constexpr std::size_t L = (64 * N) / 62 + 1;  // enough for bits + sign
  static constexpr std::uint64_t kM62 = ~std::uint64_t{0} >> 2;
  using Repr = std::array<std::uint64_t, N>;
  using S62 = std::array<std::int64_t, L>;

  S62 modulus{};
  std::uint64_t modulus_inv62 = 0;  // p^{−1} mod 2^62

  constexpr explicit Inverter(const Repr& p) {
    modulus = to_s62(p);
    std::uint64_t x = p[0];  // Newton: x = p^{−1} mod 2^64
    for (int i = 0; i < 6; ++i) x *= 2 - p[0] * x;
    modulus_inv62 = x & kM62;
  }

  static constexpr S62 to_s62(const Repr& a) {
    S62 r{};
    for (std::size_t i = 0; i < L; ++i) {
      const std::size_t bit = 62 * i, w = bit / 64, s = bit % 64;
      std::uint64_t v = w < N ? a[w] >> s : 0;
      if (s > 2 && w + 1 < N) v |= a[w + 1] << (64 - s);
      r[i] = static_cast<std::int64_t>(v & kM62);
    }
    return r;
  }
  /// |a| has limbs in [0, 2^62) and value in [0, 2^(64N)).
  static constexpr Repr from_s62(const S62& a) {
    Repr r{};
    for (std::size_t i = 0; i < L; ++i) {
      const auto v = static_cast<std::uint64_t>(a[i]);
      const std::size_t bit = 62 * i, w = bit / 64, s = bit % 64;
      if (w < N) r[w] |= v << s;
      if (s > 2 && w + 1 < N) r[w + 1] |= v >> (64 - s);
    }
    return r;
  }

  struct Trans {
    std::int64_t u, v, q, r;
  };

  /// 62 divsteps on the low bits of f and g; returns the new eta (= −delta).
  static std::int64_t divsteps_62_var(std::int64_t eta, std::uint64_t f0, std::uint64_t g0,
                                      Trans& t) {
    std::uint64_t u = 1, v = 0, q = 0, r = 1;
    std::uint64_t f = f0, g = g0, m;
    std::uint32_t w;
    int i = 62, limit, zeros;
    for (;;) {
      zeros = std::countr_zero(g | (~std::uint64_t{0} << i));  // sentinel: at most i
      g >>= zeros;
      u <<= zeros;
      v <<= zeros;
      eta -= zeros;
      i -= zeros;
      if (i == 0) break;
      if (eta < 0) {
        std::uint64_t tmp;
        eta = -eta;
        tmp = f, f = g, g = 0 - tmp;
        tmp = u, u = q, q = 0 - tmp;
        tmp = v, v = r, r = 0 - tmp;
        // Cancel up to 6 bits of g (no more than i, nor than eta + 1).
        limit = (static_cast<int>(eta) + 1) > i ? i : (static_cast<int>(eta) + 1);
        m = (~std::uint64_t{0} >> (64 - limit)) & 63U;
        w = static_cast<std::uint32_t>((f * g * (f * f - 2)) & m);
      } else {
        limit = (static_cast<int>(eta) + 1) > i ? i : (static_cast<int>(eta) + 1);
        m = (~std::uint64_t{0} >> (64 - limit)) & 15U;
        std::uint64_t ww = f + (((f + 1) & 4) << 1);
        w = static_cast<std::uint32_t>((0 - ww * g) & m);
      }
      g += f * w;
      q += u * w;
      r += v * w;
    }
    t = {static_cast<std::int64_t>(u), static_cast<std::int64_t>(v), static_cast<std::int64_t>(q),
         static_cast<std::int64_t>(r)};
    return eta;
  }

  /// [d, e] ← (t·[d, e] + p·[md, me]) / 2^62, md, me chosen to make the division exact.
  void update_de(S62& d, S62& e, const Trans& t) const {
    const std::int64_t u = t.u, v = t.v, q = t.q, r = t.r;
    const std::int64_t sd = d[L - 1] >> 63, se = e[L - 1] >> 63;
    std::int64_t md = (u & sd) + (v & se);
    std::int64_t me = (q & sd) + (r & se);
    i128 cd = i128(u) * d[0] + i128(v) * e[0];
    i128 ce = i128(q) * d[0] + i128(r) * e[0];
    md -= static_cast<std::int64_t>(
        (modulus_inv62 * static_cast<std::uint64_t>(cd) + static_cast<std::uint64_t>(md)) & kM62);
    me -= static_cast<std::int64_t>(
        (modulus_inv62 * static_cast<std::uint64_t>(ce) + static_cast<std::uint64_t>(me)) & kM62);
    cd += i128(modulus[0]) * md;
    ce += i128(modulus[0]) * me;
    cd >>= 62;
    ce >>= 62;
    for (std::size_t i = 1; i < L; ++i) {
      cd += i128(u) * d[i] + i128(v) * e[i] + i128(modulus[i]) * md;
      ce += i128(q) * d[i] + i128(r) * e[i] + i128(modulus[i]) * me;
      d[i - 1] = static_cast<std::int64_t>(static_cast<std::uint64_t>(cd) & kM62);
      e[i - 1] = static_cast<std::int64_t>(static_cast<std::uint64_t>(ce) & kM62);
      cd >>= 62;
      ce >>= 62;
    }
    d[L - 1] = static_cast<std::int64_t>(cd);
    e[L - 1] = static_cast<std::int64_t>(ce);
  }

  /// [f, g] ← t·[f, g] / 2^62 over the low |len| limbs (the rest are sign extension).
  static void update_fg_var(std::size_t len, S62& f, S62& g, const Trans& t) {
    const std::int64_t u = t.u, v = t.v, q = t.q, r = t.r;
    i128 cf = i128(u) * f[0] + i128(v) * g[0];
    i128 cg = i128(q) * f[0] + i128(r) * g[0];
    cf >>= 62;
    cg >>= 62;
    for (std::size_t i = 1; i < len; ++i) {
      cf += i128(u) * f[i] + i128(v) * g[i];
      cg += i128(q) * f[i] + i128(r) * g[i];
      f[i - 1] = static_cast<std::int64_t>(static_cast<std::uint64_t>(cf) & kM62);
      g[i - 1] = static_cast<std::int64_t>(static_cast<std::uint64_t>(cg) & kM62);
      cf >>= 62;
      cg >>= 62;
    }
    f[len - 1] = static_cast<std::int64_t>(cf);
    g[len - 1] = static_cast<std::int64_t>(cg);
  }

  /// r ∈ (−2p, p) → (sign < 0 ? −r : r) mod p in [0, p), limbs in [0, 2^62).
  void normalize(S62& r, std::int64_t sign) const {
    auto carry = [&] {
      for (std::size_t i = 0; i + 1 < L; ++i) {
        r[i + 1] += r[i] >> 62;
        r[i] &= static_cast<std::int64_t>(kM62);
      }
    };
    auto add_p_if_negative = [&] {
      const std::int64_t c = r[L - 1] >> 63;
      for (std::size_t i = 0; i < L; ++i) r[i] += modulus[i] & c;
    };
    add_p_if_negative();  // (−2p, p) → (−p, p)
    const std::int64_t neg = sign >> 63;
    for (std::size_t i = 0; i < L; ++i) r[i] = (r[i] ^ neg) - neg;
    carry();
    add_p_if_negative();  // → [0, p)
    carry();
  }

  /// x^{−1} mod p for 0 < x < p (x = 0 gives 0). Variable time.
  Repr invert(const Repr& x) const {
    S62 d{}, e{}, f = modulus, g = to_s62(x);
    e[0] = 1;
    std::size_t len = L;
    std::int64_t eta = -1;
    for (;;) {
      Trans t;
      eta = divsteps_62_var(eta, static_cast<std::uint64_t>(f[0]), static_cast<std::uint64_t>(g[0]),
                            t);
      update_de(d, e, t);
      update_fg_var(len, f, g, t);
      if (g[0] == 0) {
        std::int64_t cond = 0;
        for (std::size_t j = 1; j < len; ++j) cond |= g[j];
        if (cond == 0) break;
      }
      const std::int64_t fn = f[len - 1], gn = g[len - 1];
      std::int64_t cond = (static_cast<std::int64_t>(len) - 2) >> 63;
      cond |= fn ^ (fn >> 63);
      cond |= gn ^ (gn >> 63);
      if (cond == 0) {  // top limbs are 0 or −1: drop one, folding its sign into the limb below
        f[len - 2] = static_cast<std::int64_t>(static_cast<std::uint64_t>(f[len - 2]) |
                                               (static_cast<std::uint64_t>(fn) << 62));
        g[len - 2] = static_cast<std::int64_t>(static_cast<std::uint64_t>(g[len - 2]) |
                                               (static_cast<std::uint64_t>(gn) << 62));
        --len;
      }
    }
    normalize(d, f[len - 1]);
    return from_s62(d);
  }
};

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(CUZK_NO_ASM) && \
    !defined(__CUDA_ARCH__) && defined(__OPTIMIZE__)
#define CUZK_SAFEGCD_X86 1
#else
#define CUZK_SAFEGCD_X86 0
#endif

#if CUZK_SAFEGCD_X86
/// x86-64 pieces of Pornin's updates (the portable twins are the __int128 loops of Pornin::lin_*).
namespace pornin_x86 {

/// s[0..6] = (a + b)·2^k for 6-word a, b (the sum has 7 words; needs a + b < 2^(448 − k)).
/// Base x86-64 (add/adc, shld).
template <unsigned k>
[[gnu::always_inline]] inline void sum_shl6(std::uint64_t* s, const std::uint64_t* a,
                                            const std::uint64_t* b) {
  std::uint64_t t[7];
  __asm__(
      "xorl %k[t6], %k[t6]\n\t"
      "movq 0(%[a]), %[t0]\n\t"
      "movq 8(%[a]), %[t1]\n\t"
      "movq 16(%[a]), %[t2]\n\t"
      "movq 24(%[a]), %[t3]\n\t"
      "movq 32(%[a]), %[t4]\n\t"
      "movq 40(%[a]), %[t5]\n\t"
      "addq 0(%[b]), %[t0]\n\t"
      "adcq 8(%[b]), %[t1]\n\t"
      "adcq 16(%[b]), %[t2]\n\t"
      "adcq 24(%[b]), %[t3]\n\t"
      "adcq 32(%[b]), %[t4]\n\t"
      "adcq 40(%[b]), %[t5]\n\t"
      "adcq $0, %[t6]\n\t"
      "shldq %[k], %[t5], %[t6]\n\t"
      "shldq %[k], %[t4], %[t5]\n\t"
      "shldq %[k], %[t3], %[t4]\n\t"
      "shldq %[k], %[t2], %[t3]\n\t"
      "shldq %[k], %[t1], %[t2]\n\t"
      "shldq %[k], %[t0], %[t1]\n\t"
      "shlq %[k], %[t0]\n\t"
      "movq %[t0], 0(%[s])\n\t"
      "movq %[t1], 8(%[s])\n\t"
      "movq %[t2], 16(%[s])\n\t"
      "movq %[t3], 24(%[s])\n\t"
      "movq %[t4], 32(%[s])\n\t"
      "movq %[t5], 40(%[s])\n\t"
      "movq %[t6], 48(%[s])\n\t"
      : [t0] "=&r"(t[0]), [t1] "=&r"(t[1]), [t2] "=&r"(t[2]), [t3] "=&r"(t[3]), [t4] "=&r"(t[4]),
        [t5] "=&r"(t[5]), [t6] "=&r"(t[6]), "=m"(*reinterpret_cast<std::uint64_t(*)[7]>(s))
      : [a] "r"(a), [b] "r"(b), "m"(*reinterpret_cast<const std::uint64_t(*)[6]>(a)),
        "m"(*reinterpret_cast<const std::uint64_t(*)[6]>(b)), [s] "r"(s), [k] "i"(k)
      : "cc");
}

/// out[0..6] = x·fa + y·ga − s mod 2^448 for 6-word x, y, unsigned fa, ga < 2^63 and a 7-word s:
/// with fa = f + 2^k, ga = g + 2^k and s = (x + y)·2^k (sum_shl6) this is f·x + g·y in two's
/// complement, without negating any input. mulx rows (adox/adcx for the second), then sub/sbb.
/// Needs BMI2 and ADX.
[[gnu::always_inline]] inline void mul2u_sub6(std::uint64_t* out, const std::uint64_t* x,
                                              std::uint64_t fa, const std::uint64_t* y,
                                              std::uint64_t ga, const std::uint64_t* s) {
  std::uint64_t lo, hi, rdx;
  __asm__(
      "movq %[fa], %%rdx\n\t"
      "mulxq 0(%[x]), %[o0], %[o1]\n\t"
      "mulxq 8(%[x]), %[lo], %[o2]\n\t"
      "addq %[lo], %[o1]\n\t"
      "mulxq 16(%[x]), %[lo], %[o3]\n\t"
      "adcq %[lo], %[o2]\n\t"
      "mulxq 24(%[x]), %[lo], %[o4]\n\t"
      "adcq %[lo], %[o3]\n\t"
      "mulxq 32(%[x]), %[lo], %[o5]\n\t"
      "adcq %[lo], %[o4]\n\t"
      "mulxq 40(%[x]), %[lo], %[o6]\n\t"
      "adcq %[lo], %[o5]\n\t"
      "adcq $0, %[o6]\n\t"
      "movq %[ga], %%rdx\n\t"
      "xorl %k[lo], %k[lo]\n\t"
      "mulxq 0(%[y]), %[lo], %[hi]\n\t"
      "adoxq %[lo], %[o0]\n\t"
      "adcxq %[hi], %[o1]\n\t"
      "mulxq 8(%[y]), %[lo], %[hi]\n\t"
      "adoxq %[lo], %[o1]\n\t"
      "adcxq %[hi], %[o2]\n\t"
      "mulxq 16(%[y]), %[lo], %[hi]\n\t"
      "adoxq %[lo], %[o2]\n\t"
      "adcxq %[hi], %[o3]\n\t"
      "mulxq 24(%[y]), %[lo], %[hi]\n\t"
      "adoxq %[lo], %[o3]\n\t"
      "adcxq %[hi], %[o4]\n\t"
      "mulxq 32(%[y]), %[lo], %[hi]\n\t"
      "adoxq %[lo], %[o4]\n\t"
      "adcxq %[hi], %[o5]\n\t"
      "mulxq 40(%[y]), %[lo], %[hi]\n\t"
      "adoxq %[lo], %[o5]\n\t"
      "adcxq %[hi], %[o6]\n\t"
      "movl $0, %k[lo]\n\t"
      "adoxq %[lo], %[o6]\n\t"
      "subq 0(%[s]), %[o0]\n\t"
      "sbbq 8(%[s]), %[o1]\n\t"
      "sbbq 16(%[s]), %[o2]\n\t"
      "sbbq 24(%[s]), %[o3]\n\t"
      "sbbq 32(%[s]), %[o4]\n\t"
      "sbbq 40(%[s]), %[o5]\n\t"
      "sbbq 48(%[s]), %[o6]\n\t"
      : [o0] "=&r"(out[0]), [o1] "=&r"(out[1]), [o2] "=&r"(out[2]), [o3] "=&r"(out[3]),
        [o4] "=&r"(out[4]), [o5] "=&r"(out[5]), [o6] "=&r"(out[6]), [lo] "=&r"(lo), [hi] "=&r"(hi),
        [rdx] "=&d"(rdx)
      : [x] "r"(x), [y] "r"(y), [s] "r"(s), [fa] "rm"(fa), [ga] "rm"(ga),
        "m"(*reinterpret_cast<const std::uint64_t(*)[6]>(x)),
        "m"(*reinterpret_cast<const std::uint64_t(*)[6]>(y)),
        "m"(*reinterpret_cast<const std::uint64_t(*)[7]>(s))
      : "cc");
}

/// s[0..7] = (u + v)·2^k + c·2^448 mod 2^512 for 7-word two's-complement u, v (the sum sign-
/// extended to 8 words). Base x86-64 (add/adc, shld).
template <unsigned k>
[[gnu::always_inline]] inline void sum_shl7s(std::uint64_t* s, const std::uint64_t* a,
                                             const std::uint64_t* b, std::uint64_t c) {
  std::uint64_t t[8], lo;
  __asm__(
      "movq 48(%[a]), %[t7]\n\t"
      "sarq $63, %[t7]\n\t"
      "movq 48(%[b]), %[lo]\n\t"
      "sarq $63, %[lo]\n\t"
      "addq %[lo], %[t7]\n\t"
      "movq 0(%[a]), %[t0]\n\t"
      "movq 8(%[a]), %[t1]\n\t"
      "movq 16(%[a]), %[t2]\n\t"
      "movq 24(%[a]), %[t3]\n\t"
      "movq 32(%[a]), %[t4]\n\t"
      "movq 40(%[a]), %[t5]\n\t"
      "movq 48(%[a]), %[t6]\n\t"
      "addq 0(%[b]), %[t0]\n\t"
      "adcq 8(%[b]), %[t1]\n\t"
      "adcq 16(%[b]), %[t2]\n\t"
      "adcq 24(%[b]), %[t3]\n\t"
      "adcq 32(%[b]), %[t4]\n\t"
      "adcq 40(%[b]), %[t5]\n\t"
      "adcq 48(%[b]), %[t6]\n\t"
      "adcq $0, %[t7]\n\t"
      "shldq %[k], %[t6], %[t7]\n\t"
      "shldq %[k], %[t5], %[t6]\n\t"
      "shldq %[k], %[t4], %[t5]\n\t"
      "shldq %[k], %[t3], %[t4]\n\t"
      "shldq %[k], %[t2], %[t3]\n\t"
      "shldq %[k], %[t1], %[t2]\n\t"
      "shldq %[k], %[t0], %[t1]\n\t"
      "shlq %[k], %[t0]\n\t"
      "addq %[c], %[t7]\n\t"
      "movq %[t0], 0(%[s])\n\t"
      "movq %[t1], 8(%[s])\n\t"
      "movq %[t2], 16(%[s])\n\t"
      "movq %[t3], 24(%[s])\n\t"
      "movq %[t4], 32(%[s])\n\t"
      "movq %[t5], 40(%[s])\n\t"
      "movq %[t6], 48(%[s])\n\t"
      "movq %[t7], 56(%[s])\n\t"
      : [t0] "=&r"(t[0]), [t1] "=&r"(t[1]), [t2] "=&r"(t[2]), [t3] "=&r"(t[3]), [t4] "=&r"(t[4]),
        [t5] "=&r"(t[5]), [t6] "=&r"(t[6]), [t7] "=&r"(t[7]), [lo] "=&r"(lo),
        "=m"(*reinterpret_cast<std::uint64_t(*)[8]>(s))
      : [a] "r"(a), [b] "r"(b), "m"(*reinterpret_cast<const std::uint64_t(*)[7]>(a)),
        "m"(*reinterpret_cast<const std::uint64_t(*)[7]>(b)), [s] "r"(s), [k] "i"(k), [c] "rm"(c)
      : "cc");
}

/// out[0..7] = x·fa + y·ga − s mod 2^512 for 7-word x, y read as unsigned, fa, ga < 2^63 and an
/// 8-word s. With fa = f + 2^k, ga = g + 2^k and s from sum_shl7s with c = (fa if x < 0) +
/// (ga if y < 0) this is f·x + g·y for two's-complement x, y. Needs BMI2 and ADX.
[[gnu::always_inline]] inline void mul2u_sub7(std::uint64_t* out, const std::uint64_t* x,
                                              std::uint64_t fa, const std::uint64_t* y,
                                              std::uint64_t ga, const std::uint64_t* s) {
  std::uint64_t lo, hi, rdx;
  __asm__(
      "movq %[fa], %%rdx\n\t"
      "mulxq 0(%[x]), %[o0], %[o1]\n\t"
      "mulxq 8(%[x]), %[lo], %[o2]\n\t"
      "addq %[lo], %[o1]\n\t"
      "mulxq 16(%[x]), %[lo], %[o3]\n\t"
      "adcq %[lo], %[o2]\n\t"
      "mulxq 24(%[x]), %[lo], %[o4]\n\t"
      "adcq %[lo], %[o3]\n\t"
      "mulxq 32(%[x]), %[lo], %[o5]\n\t"
      "adcq %[lo], %[o4]\n\t"
      "mulxq 40(%[x]), %[lo], %[o6]\n\t"
      "adcq %[lo], %[o5]\n\t"
      "mulxq 48(%[x]), %[lo], %[o7]\n\t"
      "adcq %[lo], %[o6]\n\t"
      "adcq $0, %[o7]\n\t"
      "movq %[ga], %%rdx\n\t"
      "xorl %k[lo], %k[lo]\n\t"
      "mulxq 0(%[y]), %[lo], %[hi]\n\t"
      "adoxq %[lo], %[o0]\n\t"
      "adcxq %[hi], %[o1]\n\t"
      "mulxq 8(%[y]), %[lo], %[hi]\n\t"
      "adoxq %[lo], %[o1]\n\t"
      "adcxq %[hi], %[o2]\n\t"
      "mulxq 16(%[y]), %[lo], %[hi]\n\t"
      "adoxq %[lo], %[o2]\n\t"
      "adcxq %[hi], %[o3]\n\t"
      "mulxq 24(%[y]), %[lo], %[hi]\n\t"
      "adoxq %[lo], %[o3]\n\t"
      "adcxq %[hi], %[o4]\n\t"
      "mulxq 32(%[y]), %[lo], %[hi]\n\t"
      "adoxq %[lo], %[o4]\n\t"
      "adcxq %[hi], %[o5]\n\t"
      "mulxq 40(%[y]), %[lo], %[hi]\n\t"
      "adoxq %[lo], %[o5]\n\t"
      "adcxq %[hi], %[o6]\n\t"
      "mulxq 48(%[y]), %[lo], %[hi]\n\t"
      "adoxq %[lo], %[o6]\n\t"
      "adcxq %[hi], %[o7]\n\t"
      "movl $0, %k[lo]\n\t"
      "adoxq %[lo], %[o7]\n\t"
      "subq 0(%[s]), %[o0]\n\t"
      "sbbq 8(%[s]), %[o1]\n\t"
      "sbbq 16(%[s]), %[o2]\n\t"
      "sbbq 24(%[s]), %[o3]\n\t"
      "sbbq 32(%[s]), %[o4]\n\t"
      "sbbq 40(%[s]), %[o5]\n\t"
      "sbbq 48(%[s]), %[o6]\n\t"
      "sbbq 56(%[s]), %[o7]\n\t"
      : [o0] "=&r"(out[0]), [o1] "=&r"(out[1]), [o2] "=&r"(out[2]), [o3] "=&r"(out[3]),
        [o4] "=&r"(out[4]), [o5] "=&r"(out[5]), [o6] "=&r"(out[6]), [o7] "=&r"(out[7]),
        [lo] "=&r"(lo), [hi] "=&r"(hi), [rdx] "=&d"(rdx)
      : [x] "r"(x), [y] "r"(y), [s] "r"(s), [fa] "rm"(fa), [ga] "rm"(ga),
        "m"(*reinterpret_cast<const std::uint64_t(*)[7]>(x)),
        "m"(*reinterpret_cast<const std::uint64_t(*)[7]>(y)),
        "m"(*reinterpret_cast<const std::uint64_t(*)[8]>(s))
      : "cc");
}

/// The two words at the top index i ≥ 1 where a[i] | b[i] ≠ 0 — (a[i], a[i−1]) and (b[i], b[i−1])
/// — or (a[0], 0) and (b[0], 0) when there is none, for 6-word a, b; returns a non-zero word when
/// there is one. cmov only (the loads are unconditional), no branch. Base x86-64.
[[gnu::always_inline]] inline std::uint64_t top2_6(const std::uint64_t* a, const std::uint64_t* b,
                                                   std::uint64_t& ahi, std::uint64_t& alo,
                                                   std::uint64_t& bhi, std::uint64_t& blo) {
  std::uint64_t t, z;
  __asm__(
      "movq 40(%[a]), %[ahi]\n\t"
      "movq 32(%[a]), %[alo]\n\t"
      "movq 40(%[b]), %[bhi]\n\t"
      "movq 32(%[b]), %[blo]\n\t"
      "movq %[ahi], %[t]\n\t"
      "orq %[bhi], %[t]\n\t"
      "cmovzq %[alo], %[ahi]\n\t"
      "cmovzq %[blo], %[bhi]\n\t"
      "cmovzq 24(%[a]), %[alo]\n\t"
      "cmovzq 24(%[b]), %[blo]\n\t"
      "movq %[ahi], %[t]\n\t"
      "orq %[bhi], %[t]\n\t"
      "cmovzq %[alo], %[ahi]\n\t"
      "cmovzq %[blo], %[bhi]\n\t"
      "cmovzq 16(%[a]), %[alo]\n\t"
      "cmovzq 16(%[b]), %[blo]\n\t"
      "movq %[ahi], %[t]\n\t"
      "orq %[bhi], %[t]\n\t"
      "cmovzq %[alo], %[ahi]\n\t"
      "cmovzq %[blo], %[bhi]\n\t"
      "cmovzq 8(%[a]), %[alo]\n\t"
      "cmovzq 8(%[b]), %[blo]\n\t"
      "movq %[ahi], %[t]\n\t"
      "orq %[bhi], %[t]\n\t"
      "cmovzq %[alo], %[ahi]\n\t"
      "cmovzq %[blo], %[bhi]\n\t"
      "cmovzq 0(%[a]), %[alo]\n\t"
      "cmovzq 0(%[b]), %[blo]\n\t"
      "xorl %k[z], %k[z]\n\t"
      "movq %[ahi], %[t]\n\t"
      "orq %[bhi], %[t]\n\t"
      "cmovzq %[alo], %[ahi]\n\t"
      "cmovzq %[blo], %[bhi]\n\t"
      "cmovzq %[z], %[alo]\n\t"
      "cmovzq %[z], %[blo]\n\t"
      : [ahi] "=&r"(ahi), [alo] "=&r"(alo), [bhi] "=&r"(bhi), [blo] "=&r"(blo), [t] "=&r"(t),
        [z] "=&r"(z)
      : [a] "r"(a), [b] "r"(b), "m"(*reinterpret_cast<const std::uint64_t(*)[6]>(a)),
        "m"(*reinterpret_cast<const std::uint64_t(*)[6]>(b))
      : "cc");
  return t;
}

/// a[0..5] = |t| / 2^k for a 7-word two's-complement t whose low k bits are zero (shrd, then the
/// conditional negation as (x ⊕ m) − m); returns m = −1 when t < 0, else 0; t is overwritten.
/// The words of t are register operands and a is stored by the asm: a compiler copy through the
/// stack reloaded 8-byte stores with 16-byte loads, whose store-forwarding stalls cost more than
/// the arithmetic. Base x86-64.
template <unsigned k>
[[gnu::always_inline]] inline std::uint64_t shift_abs6(std::uint64_t* a, std::uint64_t* t) {
  std::uint64_t m;
  __asm__(
      "movq %[t6], %[m]\n\t"
      "sarq $63, %[m]\n\t"
      "shrdq %[k], %[t1], %[t0]\n\t"
      "shrdq %[k], %[t2], %[t1]\n\t"
      "shrdq %[k], %[t3], %[t2]\n\t"
      "shrdq %[k], %[t4], %[t3]\n\t"
      "shrdq %[k], %[t5], %[t4]\n\t"
      "shrdq %[k], %[t6], %[t5]\n\t"
      "xorq %[m], %[t0]\n\t"
      "xorq %[m], %[t1]\n\t"
      "xorq %[m], %[t2]\n\t"
      "xorq %[m], %[t3]\n\t"
      "xorq %[m], %[t4]\n\t"
      "xorq %[m], %[t5]\n\t"
      "subq %[m], %[t0]\n\t"
      "sbbq %[m], %[t1]\n\t"
      "sbbq %[m], %[t2]\n\t"
      "sbbq %[m], %[t3]\n\t"
      "sbbq %[m], %[t4]\n\t"
      "sbbq %[m], %[t5]\n\t"
      "movq %[t0], 0(%[a])\n\t"
      "movq %[t1], 8(%[a])\n\t"
      "movq %[t2], 16(%[a])\n\t"
      "movq %[t3], 24(%[a])\n\t"
      "movq %[t4], 32(%[a])\n\t"
      "movq %[t5], 40(%[a])\n\t"
      : [t0] "+r"(t[0]), [t1] "+r"(t[1]), [t2] "+r"(t[2]), [t3] "+r"(t[3]), [t4] "+r"(t[4]),
        [t5] "+r"(t[5]), [t6] "+r"(t[6]), [m] "=&r"(m),
        "=m"(*reinterpret_cast<std::uint64_t(*)[6]>(a))
      : [k] "i"(k), [a] "r"(a)
      : "cc");
  return m;
}

/// out[0..6] = (t + q·m)/2^64 with q = t[0]·inv mod 2^64 (inv = −m^(−1) mod 2^64, so the low word
/// of t + q·m is 0): one Montgomery step on an 8-word two's-complement t (overwritten), 6-word m.
/// Needs BMI2 and ADX.
[[gnu::always_inline]] inline void mont_step6(std::uint64_t* out, std::uint64_t* t,
                                              const std::uint64_t* m, const std::uint64_t& inv) {
  std::uint64_t lo, hi, rdx;
  __asm__(
      "movq %[t0], %%rdx\n\t"
      "imulq %[inv], %%rdx\n\t"
      "xorl %k[lo], %k[lo]\n\t"
      "mulxq 0(%[m]), %[lo], %[hi]\n\t"
      "adoxq %[lo], %[t0]\n\t"
      "adcxq %[hi], %[t1]\n\t"
      "mulxq 8(%[m]), %[lo], %[hi]\n\t"
      "adoxq %[lo], %[t1]\n\t"
      "adcxq %[hi], %[t2]\n\t"
      "mulxq 16(%[m]), %[lo], %[hi]\n\t"
      "adoxq %[lo], %[t2]\n\t"
      "adcxq %[hi], %[t3]\n\t"
      "mulxq 24(%[m]), %[lo], %[hi]\n\t"
      "adoxq %[lo], %[t3]\n\t"
      "adcxq %[hi], %[t4]\n\t"
      "mulxq 32(%[m]), %[lo], %[hi]\n\t"
      "adoxq %[lo], %[t4]\n\t"
      "adcxq %[hi], %[t5]\n\t"
      "mulxq 40(%[m]), %[lo], %[hi]\n\t"
      "adoxq %[lo], %[t5]\n\t"
      "adcxq %[hi], %[t6]\n\t"
      "movl $0, %k[lo]\n\t"
      "adoxq %[lo], %[t6]\n\t"
      "adcxq %[lo], %[t7]\n\t"
      "adoxq %[lo], %[t7]\n\t"
      "movq %[t1], 0(%[out])\n\t"
      "movq %[t2], 8(%[out])\n\t"
      "movq %[t3], 16(%[out])\n\t"
      "movq %[t4], 24(%[out])\n\t"
      "movq %[t5], 32(%[out])\n\t"
      "movq %[t6], 40(%[out])\n\t"
      "movq %[t7], 48(%[out])\n\t"
      : [t0] "+r"(t[0]), [t1] "+r"(t[1]), [t2] "+r"(t[2]), [t3] "+r"(t[3]), [t4] "+r"(t[4]),
        [t5] "+r"(t[5]), [t6] "+r"(t[6]), [t7] "+r"(t[7]), [lo] "=&r"(lo), [hi] "=&r"(hi),
        [rdx] "=&d"(rdx), "=m"(*reinterpret_cast<std::uint64_t(*)[7]>(out))
      : [m] "r"(m),
        "m"(*reinterpret_cast<const std::uint64_t(*)[6]>(m)), [inv] "m"(inv), [out] "r"(out)
      : "cc");
}

}  // namespace pornin_x86
#endif

/// Constant-time inversion by Pornin's optimized binary GCD (eprint 2020/972, algorithm 2, the
/// method blst uses): binary GCD on (a, b) = (x, p) whose inner loop runs kSteps = 30 steps on
/// 62-bit approximations (the low 30 bits and the top 32 bits of the common length; exact while
/// both fit in 62 bits), then applies the 2×2 factors to the full a, b (a negative result is
/// negated with its factors); the factor matrices of two rounds are multiplied (entries ≤ 2^60)
/// and applied to the cofactors u, v at once, with one Montgomery step by 2^64 (u, v stay in
/// (−m, 2m): |F·u + G·v| < 2^61·m, so (F·u + G·v + q·m)/2^64 ∈ (−m/8, 1.125m); reduced once at the
/// end). At least 2·64N steps in all (≥ 2·len(m) − 1, the binary GCD's bound). The result is
/// x^{−1}·2^(−kScaleBits) mod m; the caller multiplies by a constant.
/// Checked against the variable-time inverse on random and edge inputs (ff_gmp_test, fp_test).
template <std::size_t N>
struct Pornin {
  using Repr = std::array<std::uint64_t, N>;
  static constexpr unsigned kSteps = 30;
  static constexpr unsigned kRounds = (2 * 64 * N + kSteps - 1) / kSteps;
  /// Cofactor updates: one per two rounds (each a Montgomery step by 2^64).
  static constexpr unsigned kModSteps = (kRounds + 1) / 2;
  static constexpr unsigned kScaleBits =
      64 * kModSteps - kSteps * kRounds;  // v = x^{−1}·2^(−kScaleBits)

  Repr m{};
  std::uint64_t m_inv_neg = 0;  // −m^{−1} mod 2^64

  constexpr explicit Pornin(const Repr& p) : m(p) {
    std::uint64_t x = p[0];
    for (int i = 0; i < 6; ++i) x *= 2 - p[0] * x;
    m_inv_neg = 0 - x;
  }

  static std::uint64_t select(std::uint64_t mask, std::uint64_t a, std::uint64_t b) {
    return (a & mask) | (b & ~mask);
  }

  /// Words for u, v: signed values in (−m, 2m) (see lin_mod).
  static constexpr std::size_t W = N + 1;
  using Wide = std::array<std::uint64_t, W>;

  /// kSteps binary-GCD steps on the approximations, factors packed f + 2^32·g per row: odd ā:
  /// ā ← |ā − b̄|/2, b̄ ← min(ā, b̄) (rows alike); even ā: ā ← ā/2; row 1 doubles. Every step is
  /// selections (cmov on x86-64), no branch on the data.
  /// kPortable selects the mask-based C++ loop (what other targets run; tested against the asm).
  template <bool kPortable>
  static void inner_steps(std::uint64_t& abar, std::uint64_t& bbar, std::uint64_t& p0,
                          std::uint64_t& p1) {
#if defined(__x86_64__) && !defined(__CUDA_ARCH__)
    if constexpr (!kPortable) {
      std::uint64_t n, d, dp, np, amin, pmin, cnt = kSteps;
      __asm__ volatile(
          "1:\n\t"
          "mov %[b], %[n]\n\t"
          "sub %[a], %[n]\n\t"  // n = b − a
          "mov %[p0], %[dp]\n\t"
          "sub %[p1], %[dp]\n\t"  // dp = p0 − p1
          "mov %[p1], %[np]\n\t"
          "sub %[p0], %[np]\n\t"  // np = p1 − p0
          "mov %[b], %[amin]\n\t"
          "mov %[p1], %[pmin]\n\t"
          "mov %[a], %[d]\n\t"
          "sub %[b], %[d]\n\t"  // d = a − b, CF = a < b
          "cmovc %[a], %[amin]\n\t"
          "cmovc %[p0], %[pmin]\n\t"
          "cmovc %[n], %[d]\n\t"
          "cmovc %[np], %[dp]\n\t"
          "test $1, %[a]\n\t"
          "cmovnz %[amin], %[b]\n\t"
          "cmovnz %[pmin], %[p1]\n\t"
          "cmovnz %[d], %[a]\n\t"
          "cmovnz %[dp], %[p0]\n\t"
          "shr $1, %[a]\n\t"
          "add %[p1], %[p1]\n\t"
          "dec %[cnt]\n\t"
          "jnz 1b\n\t"
          : [a] "+r"(abar), [b] "+r"(bbar), [p0] "+r"(p0), [p1] "+r"(p1), [cnt] "+r"(cnt),
            [n] "=&r"(n), [d] "=&r"(d), [dp] "=&r"(dp), [np] "=&r"(np), [amin] "=&r"(amin),
            [pmin] "=&r"(pmin)
          :
          : "cc");
      return;
    }
#endif
    for (unsigned j = 0; j < kSteps; ++j) {
      const std::uint64_t odd = 0 - (abar & 1);
      const std::uint64_t sw =
          odd & static_cast<std::uint64_t>(static_cast<std::int64_t>(abar - bbar) >> 63);
      std::uint64_t t = (abar ^ bbar) & sw;
      abar ^= t;
      bbar ^= t;
      t = (p0 ^ p1) & sw;
      p0 ^= t;
      p1 ^= t;
      abar -= bbar & odd;
      p0 -= p1 & odd;
      abar >>= 1;
      p1 <<= 1;
    }
  }

  /// Both rows of lin_shift at once, in place: (a, b) ← ((f0·a + g0·b), (f1·a + g1·b)) / 2^kSteps,
  /// absolute values, the factors of a negative row negated. kPortable: the __int128 loop (other
  /// targets, and the twin the x86-64 path is tested against).
  template <bool kPortable>
  static void lin_shift2(Repr& a, Repr& b, std::int64_t& f0, std::int64_t& g0, std::int64_t& f1,
                         std::int64_t& g1) {
    std::uint64_t ta[N + 1], tb[N + 1];
#if CUZK_SAFEGCD_X86
    if constexpr (!kPortable && N == 6) {
      // f·a + g·b = (f + 2^31)·a + (g + 2^31)·b − 2^31·(a + b): unsigned products, |f|, |g| ≤ 2^30.
      constexpr std::int64_t kBias = std::int64_t{1} << 31;
      static_assert(kSteps <= 30);
      std::uint64_t sab[7];
      pornin_x86::sum_shl6<31>(sab, a.data(), b.data());
      pornin_x86::mul2u_sub6(ta, a.data(), static_cast<std::uint64_t>(f0 + kBias), b.data(),
                             static_cast<std::uint64_t>(g0 + kBias), sab);
      pornin_x86::mul2u_sub6(tb, a.data(), static_cast<std::uint64_t>(f1 + kBias), b.data(),
                             static_cast<std::uint64_t>(g1 + kBias), sab);
      const std::int64_t nega =
          static_cast<std::int64_t>(pornin_x86::shift_abs6<kSteps>(a.data(), ta));
      const std::int64_t negb =
          static_cast<std::int64_t>(pornin_x86::shift_abs6<kSteps>(b.data(), tb));
      f0 = (f0 ^ nega) - nega;
      g0 = (g0 ^ nega) - nega;
      f1 = (f1 ^ negb) - negb;
      g1 = (g1 ^ negb) - negb;
      return;
    } else
#endif
    {
      i128 acca = 0, accb = 0;
      for (std::size_t i = 0; i < N; ++i) {
        const i128 ai = i128(a[i]), bi = i128(b[i]);
        acca += i128(f0) * ai + i128(g0) * bi;
        accb += i128(f1) * ai + i128(g1) * bi;
        ta[i] = static_cast<std::uint64_t>(acca);
        tb[i] = static_cast<std::uint64_t>(accb);
        acca >>= 64;
        accb >>= 64;
      }
      ta[N] = static_cast<std::uint64_t>(acca);
      tb[N] = static_cast<std::uint64_t>(accb);
    }
    const std::uint64_t nega = 0 - (ta[N] >> 63), negb = 0 - (tb[N] >> 63);
    std::uint64_t ca = nega & 1, cb = negb & 1;
    for (std::size_t i = 0; i < N; ++i) {
      const u128 va = u128(((ta[i] >> kSteps) | (ta[i + 1] << (64 - kSteps))) ^ nega) + ca;
      const u128 vb = u128(((tb[i] >> kSteps) | (tb[i + 1] << (64 - kSteps))) ^ negb) + cb;
      a[i] = static_cast<std::uint64_t>(va);
      b[i] = static_cast<std::uint64_t>(vb);
      ca = static_cast<std::uint64_t>(va >> 64);
      cb = static_cast<std::uint64_t>(vb >> 64);
    }
    f0 = (f0 ^ static_cast<std::int64_t>(nega)) - static_cast<std::int64_t>(nega);
    g0 = (g0 ^ static_cast<std::int64_t>(nega)) - static_cast<std::int64_t>(nega);
    f1 = (f1 ^ static_cast<std::int64_t>(negb)) - static_cast<std::int64_t>(negb);
    g1 = (g1 ^ static_cast<std::int64_t>(negb)) - static_cast<std::int64_t>(negb);
  }

  /// Both rows of lin_mod at once, in place (kPortable as for lin_shift2).
  template <bool kPortable>
  void lin_mod2(Wide& u, Wide& v, std::int64_t f0, std::int64_t g0, std::int64_t f1,
                std::int64_t g1) const {
    std::uint64_t tu[W + 1], tv[W + 1];
#if CUZK_SAFEGCD_X86
    if constexpr (!kPortable && N == 6) {
      // f·u + g·v = (f + 2^61)·u + (g + 2^61)·v − 2^61·(u + v), |f|, |g| ≤ 2^60; u, v read as
      // unsigned 7-word numbers, a negative one corrected by its factor times 2^448.
      constexpr std::int64_t kBias = std::int64_t{1} << 61;
      static_assert(2 * kSteps <= 60);
      const std::uint64_t su =
          static_cast<std::uint64_t>(static_cast<std::int64_t>(u[W - 1]) >> 63);
      const std::uint64_t sv =
          static_cast<std::uint64_t>(static_cast<std::int64_t>(v[W - 1]) >> 63);
      const std::uint64_t F0 = static_cast<std::uint64_t>(f0 + kBias),
                          G0 = static_cast<std::uint64_t>(g0 + kBias);
      const std::uint64_t F1 = static_cast<std::uint64_t>(f1 + kBias),
                          G1 = static_cast<std::uint64_t>(g1 + kBias);
      std::uint64_t s0[8], s1[8];
      pornin_x86::sum_shl7s<61>(s0, u.data(), v.data(), (F0 & su) + (G0 & sv));
      pornin_x86::sum_shl7s<61>(s1, u.data(), v.data(), (F1 & su) + (G1 & sv));
      pornin_x86::mul2u_sub7(tu, u.data(), F0, v.data(), G0, s0);
      pornin_x86::mul2u_sub7(tv, u.data(), F1, v.data(), G1, s1);
      pornin_x86::mont_step6(u.data(), tu, m.data(), m_inv_neg);
      pornin_x86::mont_step6(v.data(), tv, m.data(), m_inv_neg);
      return;
    } else
#endif
    {
      i128 accu = 0, accv = 0;
      for (std::size_t i = 0; i + 1 < W; ++i) {
        const i128 ui = i128(u[i]), vi = i128(v[i]);
        accu += i128(f0) * ui + i128(g0) * vi;
        accv += i128(f1) * ui + i128(g1) * vi;
        tu[i] = static_cast<std::uint64_t>(accu);
        tv[i] = static_cast<std::uint64_t>(accv);
        accu >>= 64;
        accv >>= 64;
      }
      {
        const i128 ui = i128(static_cast<std::int64_t>(u[W - 1])),
                   vi = i128(static_cast<std::int64_t>(v[W - 1]));
        accu += i128(f0) * ui + i128(g0) * vi;
        accv += i128(f1) * ui + i128(g1) * vi;
        tu[W - 1] = static_cast<std::uint64_t>(accu);
        tv[W - 1] = static_cast<std::uint64_t>(accv);
        tu[W] = static_cast<std::uint64_t>(accu >> 64);
        tv[W] = static_cast<std::uint64_t>(accv >> 64);
      }
    }
    const std::uint64_t qu = tu[0] * m_inv_neg, qv = tv[0] * m_inv_neg;
    u128 cu = 0, cv = 0;
    for (std::size_t i = 0; i < N; ++i) {
      cu += u128(qu) * m[i] + tu[i];
      cv += u128(qv) * m[i] + tv[i];
      if (i > 0) {
        u[i - 1] = static_cast<std::uint64_t>(cu);
        v[i - 1] = static_cast<std::uint64_t>(cv);
      }
      cu >>= 64;
      cv >>= 64;
    }
    for (std::size_t i = N; i <= W; ++i) {
      cu += tu[i];
      cv += tv[i];
      u[i - 1] = static_cast<std::uint64_t>(cu);
      v[i - 1] = static_cast<std::uint64_t>(cv);
      cu >>= 64;
      cv >>= 64;
    }
  }

  /// r ∈ (−m, 2m) → r mod m in [0, m).
  Repr normalize(Wide r) const {
    const std::uint64_t neg = 0 - (r[W - 1] >> 63);
    std::uint64_t cc = 0;
    for (std::size_t i = 0; i < W; ++i) {
      const u128 s = u128(r[i]) + ((i < N ? m[i] : 0) & neg) + cc;
      r[i] = static_cast<std::uint64_t>(s);
      cc = static_cast<std::uint64_t>(s >> 64);
    }
    std::uint64_t d[W];
    std::uint64_t br = 0;
    for (std::size_t i = 0; i < W; ++i) {
      const u128 s = u128(r[i]) - (i < N ? m[i] : 0) - br;
      d[i] = static_cast<std::uint64_t>(s);
      br = static_cast<std::uint64_t>(s >> 64) & 1;
    }
    const std::uint64_t keep = 0 - br;
    Repr out{};
    for (std::size_t i = 0; i < N; ++i) out[i] = select(keep, r[i], d[i]);
    return out;
  }

  /// v with v ≡ x^{−1}·2^(−kScaleBits) (mod m) for 0 ≤ x < m (x = 0 gives 0). No branch or memory
  /// index depends on x.
  template <bool kPortable = false>
  Repr invert_scaled(const Repr& x) const {
    Repr a = x, b = m;
    Wide u{}, v{};
    u[0] = 1;
    // One round: kSteps steps on the approximations of a, b, then a, b updated; gives the factors.
    auto round = [&](std::int64_t& f0, std::int64_t& g0, std::int64_t& f1, std::int64_t& g1) {
      // The two words at the top non-zero index of a | b (index ≥ 1), or exact values.
      std::uint64_t ahi, alo, bhi, blo, found;
#if CUZK_SAFEGCD_X86
      if constexpr (!kPortable && N == 6) {
        found = 0 - static_cast<std::uint64_t>(
                        pornin_x86::top2_6(a.data(), b.data(), ahi, alo, bhi, blo) != 0);
      } else
#endif
      {
        ahi = a[0], alo = 0, bhi = b[0], blo = 0, found = 0;
        for (std::size_t i = N; i-- > 1;) {
          const std::uint64_t nz = 0 - static_cast<std::uint64_t>((a[i] | b[i]) != 0);
          const std::uint64_t take = nz & ~found;
          ahi = select(take, a[i], ahi);
          alo = select(take, a[i - 1], alo);
          bhi = select(take, b[i], bhi);
          blo = select(take, b[i - 1], blo);
          found |= nz;
        }
      }
      const unsigned sh = static_cast<unsigned>(std::countl_zero(ahi | bhi | 1));
      const std::uint64_t atop = (ahi << sh) | ((alo >> 1) >> (63 - sh));
      const std::uint64_t btop = (bhi << sh) | ((blo >> 1) >> (63 - sh));
      constexpr std::uint64_t kLow = (std::uint64_t{1} << kSteps) - 1;
      // top kSteps + 2 bits of the common length, then the low kSteps bits: 2·kSteps + 2 bits
      const std::uint64_t approx = found | (0 - ((a[0] | b[0]) >> 62 != 0));  // common length > 62
      std::uint64_t abar =
          select(approx, ((atop >> (62 - 2 * kSteps)) & ~kLow) | (a[0] & kLow), a[0]);
      std::uint64_t bbar =
          select(approx, ((btop >> (62 - 2 * kSteps)) & ~kLow) | (b[0] & kLow), b[0]);
      std::uint64_t p0 = 1, p1 = std::uint64_t{1} << 32;  // f + 2^32·g, row 0 and row 1
      inner_steps<kPortable>(abar, bbar, p0, p1);
      f0 = static_cast<std::int32_t>(p0);
      f1 = static_cast<std::int32_t>(p1);
      g0 = static_cast<std::int64_t>(p0 - static_cast<std::uint64_t>(f0)) >> 32;
      g1 = static_cast<std::int64_t>(p1 - static_cast<std::uint64_t>(f1)) >> 32;
      lin_shift2<kPortable>(a, b, f0, g0, f1, g1);
    };
    // Rounds in pairs: the two factor matrices multiplied (entries ≤ 2^(2·kSteps), rows of
    // L1 norm ≤ 2^(2·kSteps)) and applied to u, v at once, so one update of the cofactors per
    // 2·kSteps steps; an odd last round alone.
    for (unsigned r = 0; r < kRounds; r += 2) {
      std::int64_t f0, g0, f1, g1;
      round(f0, g0, f1, g1);
      if (r + 1 < kRounds) {
        std::int64_t h0, k0, h1, k1;
        round(h0, k0, h1, k1);
        const std::int64_t F0 = h0 * f0 + k0 * f1, G0 = h0 * g0 + k0 * g1;
        const std::int64_t F1 = h1 * f0 + k1 * f1, G1 = h1 * g0 + k1 * g1;
        f0 = F0, g0 = G0, f1 = F1, g1 = G1;
      }
      lin_mod2<kPortable>(u, v, f0, g0, f1, g1);
    }
    return normalize(v);
  }
};

}  // namespace cuzk::safegcd
