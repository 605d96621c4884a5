// Eight Fp multiplications at once with AVX-512 IFMA (vpmadd52luq / vpmadd52huq): the building block
// for vectorised bucket additions (docs/perf/msm.md Version 3). Elements are held in radix 2^52,
// eight limbs (416 bits), limb-major over the eight lanes; Montgomery form with R' = 2^416, so one
// product is a·b·2^-416 mod p (not Fp's 2^-384: values move between the two forms by a
// multiplication with a constant).
//
// Algorithm (operand scanning, per lane): for i = 0..7, t += a·b_i (low 52 bits of each partial
// product into limb j, high 52 bits into limb j + 1), m = t_0·(−p^-1) mod 2^52, t += m·p, then
// t_0 ≡ 0 mod 2^52 is shifted out with its carry. Each 64-bit limb takes at most 4 additions of
// < 2^52 per turn over 8 turns (< 2^57), so no carry moves until the end; a final pass leaves
// limbs 0..6 below 2^52. For a, b < 2p (p < 2^381, 4p < R'): the result is < 2p.
//
// mul8 dispatches at run time: the IFMA kernel where the CPU and OS have it (cpu_has_ifma), else
// mul8_portable, the same algorithm in scalar 128-bit arithmetic (the slow twin). Host x86-64 only;
// elsewhere (or with CUZK_NO_IFMA defined, to compile-test that case) only the portable path exists.
#pragma once

#include <cstdint>

#include "cuzk/ff/fp.hpp"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(__CUDA_ARCH__) && \
    !defined(CUZK_NO_IFMA)
#define CUZK_FF_IFMA 1
#include <cpuid.h>
#include <immintrin.h>
#else
#define CUZK_FF_IFMA 0
#endif

namespace cuzk::ifma {

inline constexpr unsigned kLanes = 8, kLimbs = 8;
inline constexpr std::uint64_t kMask52 = (std::uint64_t{1} << 52) - 1;

/// Eight Fp elements, limb-major: l[j][k] is limb j (bits 52j..52j+51) of lane k.
struct alignas(64) Fp8 {
  std::uint64_t l[kLimbs][kLanes];
};

/// x (< 2^384, six 64-bit words) in eight 52-bit limbs.
constexpr void to_radix52(const Limbs<6>& x, std::uint64_t* out) {
  for (unsigned j = 0; j < kLimbs; ++j) {
    const unsigned bit = 52 * j, w = bit / 64, s = bit % 64;
    u128 v = x[w];
    if (w + 1 < 6) v |= static_cast<u128>(x[w + 1]) << 64;
    out[j] = static_cast<std::uint64_t>(v >> s) & kMask52;
  }
}
/// The inverse of to_radix52 for limbs 0..6 below 2^52 and a value below 2^384.
constexpr Limbs<6> from_radix52(const std::uint64_t* in) {
  Limbs<6> x{};
  u128 acc = 0;
  unsigned bits = 0, w = 0;
  for (unsigned j = 0; j < kLimbs; ++j) {
    acc |= static_cast<u128>(in[j]) << bits;
    bits += 52;
    while (bits >= 64 && w < 6) {
      x[w++] = static_cast<std::uint64_t>(acc);
      acc >>= 64;
      bits -= 64;
    }
  }
  if (w < 6) x[w] = static_cast<std::uint64_t>(acc);
  return x;
}

namespace detail {
struct Consts {
  std::uint64_t p[kLimbs];
  std::uint64_t inv;  // −p^-1 mod 2^52
};
constexpr Consts make_consts() {
  Consts c{};
  to_radix52(Fp::kModulus, c.p);
  std::uint64_t x = 1;  // Newton: x = p^-1 mod 2^64
  for (int i = 0; i < 6; ++i) x *= 2 - Fp::kModulus[0] * x;
  c.inv = (0 - x) & kMask52;
  return c;
}
inline constexpr Consts kConsts = make_consts();
static_assert(((kConsts.inv * kConsts.p[0]) & kMask52) == kMask52, "inv must be −p^-1 mod 2^52");
}  // namespace detail

/// r = a·b·2^-416 mod p per lane (result < 2p for a, b < 2p), the scalar twin. r may alias a or b.
inline void mul8_portable(Fp8& r, const Fp8& a, const Fp8& b) {
  const auto& c = detail::kConsts;
  for (unsigned k = 0; k < kLanes; ++k) {
    std::uint64_t t[kLimbs + 1] = {};
    for (unsigned i = 0; i < kLimbs; ++i) {
      const std::uint64_t bi = b.l[i][k];
      for (unsigned j = 0; j < kLimbs; ++j) {
        const u128 prod = static_cast<u128>(a.l[j][k]) * bi;
        t[j] += static_cast<std::uint64_t>(prod) & kMask52;
        t[j + 1] += static_cast<std::uint64_t>(prod >> 52);
      }
      const std::uint64_t m = ((t[0] & kMask52) * c.inv) & kMask52;
      for (unsigned j = 0; j < kLimbs; ++j) {
        const u128 prod = static_cast<u128>(c.p[j]) * m;
        t[j] += static_cast<std::uint64_t>(prod) & kMask52;
        t[j + 1] += static_cast<std::uint64_t>(prod >> 52);
      }
      const std::uint64_t carry = t[0] >> 52;
      for (unsigned j = 0; j < kLimbs; ++j) t[j] = t[j + 1];
      t[0] += carry;
      t[kLimbs] = 0;
    }
    for (unsigned j = 0; j + 1 < kLimbs; ++j) {
      t[j + 1] += t[j] >> 52;
      t[j] &= kMask52;
    }
    for (unsigned j = 0; j < kLimbs; ++j) r.l[j][k] = t[j];
  }
}

#if CUZK_FF_IFMA

/// AVX-512F and IFMA executed by the CPU (CPUID leaf 7: EBX bits 16 and 21) with the zmm state
/// enabled by the OS (XCR0 bits 1, 2, 5, 6, 7).
inline bool cpu_has_ifma() {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx) || !((ecx >> 27) & 1)) return false;  // OSXSAVE
  if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return false;
  if (!((ebx >> 16) & 1) || !((ebx >> 21) & 1)) return false;
  std::uint32_t lo = 0, hi = 0;
  __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return (lo & 0xe6) == 0xe6;
}
/// Whether mul8 takes the IFMA kernel: the CPU check, made once; tests switch it off.
inline bool g_use_ifma = cpu_has_ifma();
inline bool set_ifma_enabled(bool on) {
  const bool prev = g_use_ifma;
  g_use_ifma = on && cpu_has_ifma();
  return prev;
}

/// The IFMA Montgomery product on registers: r = a·b·2^-416 mod p per lane, limbs normalized
/// (a·b < p·2^416 gives r < 2p); r may alias a or b. Fully unrolled: 256 vpmadd52 and about 60
/// other vector operations for eight products. Inlined into mul8_ifma and into the MSM's IFMA
/// bucket kernels (msm/ifma_buckets.hpp), which keep their operands in registers.
[[gnu::target("avx512f,avx512ifma"), gnu::always_inline]] inline void mont_mul_lanes(
    __m512i* r, const __m512i* a, const __m512i* b) {
  const auto& c = detail::kConsts;
  const __m512i mask = _mm512_set1_epi64(static_cast<long long>(kMask52));
  const __m512i inv = _mm512_set1_epi64(static_cast<long long>(c.inv));
  const __m512i zero = _mm512_setzero_si512();
  __m512i av[kLimbs], bv[kLimbs], t[kLimbs + 1];
#pragma GCC unroll 8
  for (unsigned j = 0; j < kLimbs; ++j) {
    av[j] = a[j];
    bv[j] = b[j];
    t[j] = zero;
  }
  t[kLimbs] = zero;
#pragma GCC unroll 8
  for (unsigned i = 0; i < kLimbs; ++i) {
    const __m512i bi = bv[i];
#pragma GCC unroll 8
    for (unsigned j = 0; j < kLimbs; ++j) {
      t[j] = _mm512_madd52lo_epu64(t[j], av[j], bi);
      t[j + 1] = _mm512_madd52hi_epu64(t[j + 1], av[j], bi);
    }
    const __m512i m = _mm512_madd52lo_epu64(zero, _mm512_and_si512(t[0], mask), inv);
#pragma GCC unroll 8
    for (unsigned j = 0; j < kLimbs; ++j) {
      const __m512i pj = _mm512_set1_epi64(static_cast<long long>(c.p[j]));
      t[j] = _mm512_madd52lo_epu64(t[j], pj, m);
      t[j + 1] = _mm512_madd52hi_epu64(t[j + 1], pj, m);
    }
    const __m512i carry = _mm512_maskz_srli_epi64(0xff, t[0], 52);
#pragma GCC unroll 8
    for (unsigned j = 0; j < kLimbs; ++j) t[j] = t[j + 1];
    t[0] = _mm512_add_epi64(t[0], carry);
    t[kLimbs] = zero;
  }
#pragma GCC unroll 8
  for (unsigned j = 0; j + 1 < kLimbs; ++j) {
    t[j + 1] = _mm512_add_epi64(t[j + 1], _mm512_maskz_srli_epi64(0xff, t[j], 52));
    t[j] = _mm512_and_si512(t[j], mask);
  }
#pragma GCC unroll 8
  for (unsigned j = 0; j < kLimbs; ++j) r[j] = t[j];
}

/// The IFMA kernel of mul8 (callers check cpu_has_ifma()): mont_mul_lanes from memory to memory.
[[gnu::target("avx512f,avx512ifma"), gnu::noinline]] inline void mul8_ifma(Fp8& r, const Fp8& a,
                                                                           const Fp8& b) {
  __m512i av[kLimbs], bv[kLimbs];
#pragma GCC unroll 8
  for (unsigned j = 0; j < kLimbs; ++j) {
    av[j] = _mm512_load_si512(a.l[j]);
    bv[j] = _mm512_load_si512(b.l[j]);
  }
  mont_mul_lanes(av, av, bv);
#pragma GCC unroll 8
  for (unsigned j = 0; j < kLimbs; ++j) _mm512_store_si512(r.l[j], av[j]);
}

/// r = a·b·2^-416 mod p in each of the eight lanes (result < 2p for a, b < 2p); r may alias a or b.
inline void mul8(Fp8& r, const Fp8& a, const Fp8& b) {
  if (g_use_ifma) {
    mul8_ifma(r, a, b);
  } else {
    mul8_portable(r, a, b);
  }
}

#else

inline bool cpu_has_ifma() { return false; }
inline constexpr bool g_use_ifma = false;
inline bool set_ifma_enabled(bool) { return false; }
inline void mul8(Fp8& r, const Fp8& a, const Fp8& b) { mul8_portable(r, a, b); }

#endif

}  // namespace cuzk::ifma
