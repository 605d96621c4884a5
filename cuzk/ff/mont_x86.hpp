// x86-64 Montgomery multiplication with BMI2 mulx and ADX adcx/adox, for the 6-limb Fp and the
// 4-limb Fr. Two carry chains run side by side: low product words are added through OF (adox),
// high words through CF (adcx), so a row of N products needs no carry-flag save and restore.
//
// Schedule (CIOS, Koç–Acar–Kaliski 1996), for i = 0..N−1 with t held in N+1 registers:
//   t += a·b[i]            N mulx, 2N adds (row i = 0 is a plain product)
//   m = t[0]·(−p^{-1})     one imul
//   t = (t + m·p) / 2^64   N mulx, 2N adds; the register that held t[0] (now 0) becomes the
//                          top word of the next row, so no words move.
// Invariant: t < 2p at the end of a row, because t + a·b[i] + m·p ≤ 2^65·p − 2^64 < 2^(64(N+1))
// for p < 2^(64N−1); the final t < 2p is reduced by one conditional subtraction of p.
// Cost for N = 6: 72 mulx, 6 imul, about 150 adds, one conditional subtraction. Constant time
// (no branch on the data).
//
// Also here: a dedicated Fp squaring (sqr6, 57 mulx) and modular add/sub for both fields
// (adc/sbb + cmov, base x86-64). The instructions are inline assembly, so the compiler needs no
// -mbmi2/-madx flag; whether the CPU has them is checked once at start-up (cpu_has_mulx_adx).
// CUZK_NO_ASM (CMake CUZK_ASM=OFF) and unoptimised builds leave only the portable path.
// Slow twin: ff_gmp_test.cpp (GMP and word-for-word against MontField::mul_portable).
#pragma once

#include <cstdint>

#include "cuzk/ff/limbs.hpp"

// Unoptimised builds (-O0) take the portable path: with a frame pointer and every address in a
// register of its own, the compiler cannot find the 12–14 registers these blocks need.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(CUZK_NO_ASM) && \
    !defined(__CUDA_ARCH__) && defined(__OPTIMIZE__)
#define CUZK_FF_X86_ASM 1
#else
#define CUZK_FF_X86_ASM 0
#endif

#if CUZK_FF_X86_ASM
#include <cpuid.h>
#endif

namespace cuzk::mont_x86 {

#if CUZK_FF_X86_ASM

/// True when the CPU executes mulx (BMI2) and adcx/adox (ADX): CPUID leaf 7, sub-leaf 0, EBX bits 8
/// and 19 (Intel SDM vol. 2A, CPUID). Read directly: clang 14's __builtin_cpu_supports has no "adx".
inline bool cpu_has_mulx_adx() {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return false;
  return ((ebx >> 8) & 1) && ((ebx >> 19) & 1);
}

/// Whether MontField multiplies with the code below: the CPU check, made once at start-up.
/// Tests switch it off (set_asm_enabled) to run the portable path; nothing else writes it.
/// Read before its initialiser has run (from another static initialiser) it is false, which
/// selects the portable path: correct, only slower.
inline bool g_use_asm = cpu_has_mulx_adx();

/// Turns the assembly path on or off (it stays off on CPUs without mulx/adx); returns the previous
/// setting. For tests and benchmarks only, and not while other threads do field arithmetic.
inline bool set_asm_enabled(bool on) {
  const bool prev = g_use_asm;
  g_use_asm = on && cpu_has_mulx_adx();
  return prev;
}

// How the multiplications are emitted: a call (the default) keeps each field operation small;
// CUZK_FF_ASM_ALWAYS_INLINE pastes the body into every caller.
#if defined(CUZK_FF_ASM_ALWAYS_INLINE)
#define CUZK_X86_INLINE [[gnu::always_inline]] inline
#else
#define CUZK_X86_INLINE [[gnu::noinline]] inline
#endif

// Operand-name helper for the macros below.
#define CUZK_X86_R(x) "%[" #x "]"

// Row i = 0: t0..t6 = a·b[0].
#define CUZK_X86_MUL_FIRST6          \
  "movq 0(%[b]), %%rdx\n\t"          \
  "mulxq 0(%[a]), %[t0], %[t1]\n\t"  \
  "mulxq 8(%[a]), %[lo], %[t2]\n\t"  \
  "addq %[lo], %[t1]\n\t"            \
  "mulxq 16(%[a]), %[lo], %[t3]\n\t" \
  "adcq %[lo], %[t2]\n\t"            \
  "mulxq 24(%[a]), %[lo], %[t4]\n\t" \
  "adcq %[lo], %[t3]\n\t"            \
  "mulxq 32(%[a]), %[lo], %[t5]\n\t" \
  "adcq %[lo], %[t4]\n\t"            \
  "mulxq 40(%[a]), %[lo], %[t6]\n\t" \
  "adcq %[lo], %[t5]\n\t"            \
  "adcq $0, %[t6]\n\t"

// T0..T5 += a·b[off/8], with the high word in T6 (free on entry).
#define CUZK_X86_MAC6(off, T0, T1, T2, T3, T4, T5, T6) \
  "movq " #off "(%[b]), %%rdx\n\t"                                              \
  "xorl %k[lo], %k[lo]\n\t"                                                     \
  "mulxq 0(%[a]), %[lo], %[hi]\n\t"                                             \
  "adoxq %[lo], " CUZK_X86_R(T0) "\n\t"                                         \
  "adcxq %[hi], " CUZK_X86_R(T1) "\n\t"                                         \
  "mulxq 8(%[a]), %[lo], %[hi]\n\t"                                             \
  "adoxq %[lo], " CUZK_X86_R(T1) "\n\t"                                         \
  "adcxq %[hi], " CUZK_X86_R(T2) "\n\t"                                         \
  "mulxq 16(%[a]), %[lo], %[hi]\n\t"                                            \
  "adoxq %[lo], " CUZK_X86_R(T2) "\n\t"                                         \
  "adcxq %[hi], " CUZK_X86_R(T3) "\n\t"                                         \
  "mulxq 24(%[a]), %[lo], %[hi]\n\t"                                            \
  "adoxq %[lo], " CUZK_X86_R(T3) "\n\t"                                         \
  "adcxq %[hi], " CUZK_X86_R(T4) "\n\t"                                         \
  "mulxq 32(%[a]), %[lo], %[hi]\n\t"                                            \
  "adoxq %[lo], " CUZK_X86_R(T4) "\n\t"                                         \
  "adcxq %[hi], " CUZK_X86_R(T5) "\n\t"                                         \
  "mulxq 40(%[a]), %[lo], " CUZK_X86_R(T6) "\n\t"                               \
  "adoxq %[lo], " CUZK_X86_R(T5) "\n\t"                                         \
  "movl $0, %k[lo]\n\t"                                                         \
  "adcxq %[lo], " CUZK_X86_R(T6) "\n\t"                                         \
  "adoxq %[lo], " CUZK_X86_R(T6) "\n\t"

// m = T0·inv; T0..T6 += m·p, which zeroes T0 (the division by 2^64 is the register rotation).
#define CUZK_X86_RED6(T0, T1, T2, T3, T4, T5, T6) \
  "movq " CUZK_X86_R(T0) ", %%rdx\n\t"                                          \
  "imulq %[inv], %%rdx\n\t"                                                     \
  "xorl %k[lo], %k[lo]\n\t"                                                     \
  "mulxq %[p0], %[lo], %[hi]\n\t"                                               \
  "adoxq %[lo], " CUZK_X86_R(T0) "\n\t"                                         \
  "adcxq %[hi], " CUZK_X86_R(T1) "\n\t"                                         \
  "mulxq %[p1], %[lo], %[hi]\n\t"                                               \
  "adoxq %[lo], " CUZK_X86_R(T1) "\n\t"                                         \
  "adcxq %[hi], " CUZK_X86_R(T2) "\n\t"                                         \
  "mulxq %[p2], %[lo], %[hi]\n\t"                                               \
  "adoxq %[lo], " CUZK_X86_R(T2) "\n\t"                                         \
  "adcxq %[hi], " CUZK_X86_R(T3) "\n\t"                                         \
  "mulxq %[p3], %[lo], %[hi]\n\t"                                               \
  "adoxq %[lo], " CUZK_X86_R(T3) "\n\t"                                         \
  "adcxq %[hi], " CUZK_X86_R(T4) "\n\t"                                         \
  "mulxq %[p4], %[lo], %[hi]\n\t"                                               \
  "adoxq %[lo], " CUZK_X86_R(T4) "\n\t"                                         \
  "adcxq %[hi], " CUZK_X86_R(T5) "\n\t"                                         \
  "mulxq %[p5], %[lo], %[hi]\n\t"                                               \
  "adoxq %[lo], " CUZK_X86_R(T5) "\n\t"                                         \
  "adcxq %[hi], " CUZK_X86_R(T6) "\n\t"                                         \
  "movl $0, %k[lo]\n\t"                                                         \
  "adoxq %[lo], " CUZK_X86_R(T6) "\n\t"

// Final step for N = 6: the result < 2p is in T0..T5; subtract p into S0..S5 and keep the
// difference unless it borrowed (cmov, no branch).
#define CUZK_X86_FINAL6(T0, T1, T2, T3, T4, T5, S0, S1, S2, S3, S4, S5) \
  "movq " CUZK_X86_R(T0) ", " CUZK_X86_R(S0) "\n\t"                                 \
  "subq %[p0], " CUZK_X86_R(S0) "\n\t"                                              \
  "movq " CUZK_X86_R(T1) ", " CUZK_X86_R(S1) "\n\t"                                 \
  "sbbq %[p1], " CUZK_X86_R(S1) "\n\t"                                              \
  "movq " CUZK_X86_R(T2) ", " CUZK_X86_R(S2) "\n\t"                                 \
  "sbbq %[p2], " CUZK_X86_R(S2) "\n\t"                                              \
  "movq " CUZK_X86_R(T3) ", " CUZK_X86_R(S3) "\n\t"                                 \
  "sbbq %[p3], " CUZK_X86_R(S3) "\n\t"                                              \
  "movq " CUZK_X86_R(T4) ", " CUZK_X86_R(S4) "\n\t"                                 \
  "sbbq %[p4], " CUZK_X86_R(S4) "\n\t"                                              \
  "movq " CUZK_X86_R(T5) ", " CUZK_X86_R(S5) "\n\t"                                 \
  "sbbq %[p5], " CUZK_X86_R(S5) "\n\t"                                              \
  "cmovncq " CUZK_X86_R(S0) ", " CUZK_X86_R(T0) "\n\t"                              \
  "cmovncq " CUZK_X86_R(S1) ", " CUZK_X86_R(T1) "\n\t"                              \
  "cmovncq " CUZK_X86_R(S2) ", " CUZK_X86_R(T2) "\n\t"                              \
  "cmovncq " CUZK_X86_R(S3) ", " CUZK_X86_R(T3) "\n\t"                              \
  "cmovncq " CUZK_X86_R(S4) ", " CUZK_X86_R(T4) "\n\t"                              \
  "cmovncq " CUZK_X86_R(S5) ", " CUZK_X86_R(T5) "\n\t"

/// r = a·b·2^-384 mod p, fully reduced. Needs a, b < p, p < 2^383, inv = −p^{-1} mod 2^64.
/// |p| and |inv| are static constants, addressed RIP-relative, so they take no register.
template <const Limbs<6>& p, const std::uint64_t& inv>
CUZK_X86_INLINE void mul6(Limbs<6>& r, const Limbs<6>& a, const Limbs<6>& b) {
  std::uint64_t t0, t1, t2, t3, t4, t5, t6, lo, hi, rdx;
  const std::uint64_t* pa = a.data();
  const std::uint64_t* pb = b.data();
  __asm__(CUZK_X86_MUL_FIRST6 CUZK_X86_RED6(t0, t1, t2, t3, t4, t5, t6)
              CUZK_X86_MAC6(8, t1, t2, t3, t4, t5, t6, t0) CUZK_X86_RED6(t1, t2, t3, t4, t5, t6, t0)
                  CUZK_X86_MAC6(16, t2, t3, t4, t5, t6, t0, t1) CUZK_X86_RED6(
                      t2, t3, t4, t5, t6, t0, t1) CUZK_X86_MAC6(24, t3, t4, t5, t6, t0, t1, t2)
                      CUZK_X86_RED6(t3, t4, t5, t6, t0, t1, t2) CUZK_X86_MAC6(
                          32, t4, t5, t6, t0, t1, t2, t3) CUZK_X86_RED6(t4, t5, t6, t0, t1, t2, t3)
                          CUZK_X86_MAC6(40, t5, t6, t0, t1, t2, t3, t4)
                              CUZK_X86_RED6(t5, t6, t0, t1, t2, t3, t4)
                                  CUZK_X86_FINAL6(t6, t0, t1, t2, t3, t4, t5, lo, hi, rdx, a, b)
          : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
            [t5] "=&r"(t5), [t6] "=&r"(t6), [lo] "=&r"(lo), [hi] "=&r"(hi), [rdx] "=&d"(rdx),
            [a] "+&r"(pa), [b] "+&r"(pb)
          : "m"(a), "m"(b), [inv] "m"(inv), [p0] "m"(p[0]), [p1] "m"(p[1]), [p2] "m"(p[2]),
            [p3] "m"(p[3]), [p4] "m"(p[4]), [p5] "m"(p[5])
          : "cc");
  r = {t6, t0, t1, t2, t3, t4};
}

// Row i = 0 for N = 4: t0..t4 = a·b[0].
#define CUZK_X86_MUL_FIRST4          \
  "movq 0(%[b]), %%rdx\n\t"          \
  "mulxq 0(%[a]), %[t0], %[t1]\n\t"  \
  "mulxq 8(%[a]), %[lo], %[t2]\n\t"  \
  "addq %[lo], %[t1]\n\t"            \
  "mulxq 16(%[a]), %[lo], %[t3]\n\t" \
  "adcq %[lo], %[t2]\n\t"            \
  "mulxq 24(%[a]), %[lo], %[t4]\n\t" \
  "adcq %[lo], %[t3]\n\t"            \
  "adcq $0, %[t4]\n\t"

#define CUZK_X86_MAC4(off, T0, T1, T2, T3, T4) \
  "movq " #off "(%[b]), %%rdx\n\t"                                              \
  "xorl %k[lo], %k[lo]\n\t"                                                     \
  "mulxq 0(%[a]), %[lo], %[hi]\n\t"                                             \
  "adoxq %[lo], " CUZK_X86_R(T0) "\n\t"                                         \
  "adcxq %[hi], " CUZK_X86_R(T1) "\n\t"                                         \
  "mulxq 8(%[a]), %[lo], %[hi]\n\t"                                             \
  "adoxq %[lo], " CUZK_X86_R(T1) "\n\t"                                         \
  "adcxq %[hi], " CUZK_X86_R(T2) "\n\t"                                         \
  "mulxq 16(%[a]), %[lo], %[hi]\n\t"                                            \
  "adoxq %[lo], " CUZK_X86_R(T2) "\n\t"                                         \
  "adcxq %[hi], " CUZK_X86_R(T3) "\n\t"                                         \
  "mulxq 24(%[a]), %[lo], " CUZK_X86_R(T4) "\n\t"                               \
  "adoxq %[lo], " CUZK_X86_R(T3) "\n\t"                                         \
  "movl $0, %k[lo]\n\t"                                                         \
  "adcxq %[lo], " CUZK_X86_R(T4) "\n\t"                                         \
  "adoxq %[lo], " CUZK_X86_R(T4) "\n\t"

#define CUZK_X86_RED4(T0, T1, T2, T3, T4) \
  "movq " CUZK_X86_R(T0) ", %%rdx\n\t"                                          \
  "imulq %[inv], %%rdx\n\t"                                                     \
  "xorl %k[lo], %k[lo]\n\t"                                                     \
  "mulxq %[p0], %[lo], %[hi]\n\t"                                               \
  "adoxq %[lo], " CUZK_X86_R(T0) "\n\t"                                         \
  "adcxq %[hi], " CUZK_X86_R(T1) "\n\t"                                         \
  "mulxq %[p1], %[lo], %[hi]\n\t"                                               \
  "adoxq %[lo], " CUZK_X86_R(T1) "\n\t"                                         \
  "adcxq %[hi], " CUZK_X86_R(T2) "\n\t"                                         \
  "mulxq %[p2], %[lo], %[hi]\n\t"                                               \
  "adoxq %[lo], " CUZK_X86_R(T2) "\n\t"                                         \
  "adcxq %[hi], " CUZK_X86_R(T3) "\n\t"                                         \
  "mulxq %[p3], %[lo], %[hi]\n\t"                                               \
  "adoxq %[lo], " CUZK_X86_R(T3) "\n\t"                                         \
  "adcxq %[hi], " CUZK_X86_R(T4) "\n\t"                                         \
  "movl $0, %k[lo]\n\t"                                                         \
  "adoxq %[lo], " CUZK_X86_R(T4) "\n\t"

#define CUZK_X86_FINAL4(T0, T1, T2, T3, S0, S1, S2, S3) \
  "movq " CUZK_X86_R(T0) ", " CUZK_X86_R(S0) "\n\t"                                 \
  "subq %[p0], " CUZK_X86_R(S0) "\n\t"                                              \
  "movq " CUZK_X86_R(T1) ", " CUZK_X86_R(S1) "\n\t"                                 \
  "sbbq %[p1], " CUZK_X86_R(S1) "\n\t"                                              \
  "movq " CUZK_X86_R(T2) ", " CUZK_X86_R(S2) "\n\t"                                 \
  "sbbq %[p2], " CUZK_X86_R(S2) "\n\t"                                              \
  "movq " CUZK_X86_R(T3) ", " CUZK_X86_R(S3) "\n\t"                                 \
  "sbbq %[p3], " CUZK_X86_R(S3) "\n\t"                                              \
  "cmovncq " CUZK_X86_R(S0) ", " CUZK_X86_R(T0) "\n\t"                              \
  "cmovncq " CUZK_X86_R(S1) ", " CUZK_X86_R(T1) "\n\t"                              \
  "cmovncq " CUZK_X86_R(S2) ", " CUZK_X86_R(T2) "\n\t"                              \
  "cmovncq " CUZK_X86_R(S3) ", " CUZK_X86_R(T3) "\n\t"

/// r = a·b·2^-256 mod p, fully reduced. Needs a, b < p, p < 2^255, inv = −p^{-1} mod 2^64.
template <const Limbs<4>& p, const std::uint64_t& inv>
CUZK_X86_INLINE void mul4(Limbs<4>& r, const Limbs<4>& a, const Limbs<4>& b) {
  std::uint64_t t0, t1, t2, t3, t4, lo, hi, rdx;
  __asm__(CUZK_X86_MUL_FIRST4 CUZK_X86_RED4(t0, t1, t2, t3, t4) CUZK_X86_MAC4(8, t1, t2, t3, t4, t0)
              CUZK_X86_RED4(t1, t2, t3, t4, t0) CUZK_X86_MAC4(16, t2, t3, t4, t0, t1) CUZK_X86_RED4(
                  t2, t3, t4, t0, t1) CUZK_X86_MAC4(24, t3, t4, t0, t1, t2)
                  CUZK_X86_RED4(t3, t4, t0, t1, t2) CUZK_X86_FINAL4(t4, t0, t1, t2, t3, lo, hi, rdx)
          : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
            [lo] "=&r"(lo), [hi] "=&r"(hi), [rdx] "=&d"(rdx)
          : [a] "r"(a.data()), [b] "r"(b.data()), "m"(a),
            "m"(b), [inv] "m"(inv), [p0] "m"(p[0]), [p1] "m"(p[1]), [p2] "m"(p[2]), [p3] "m"(p[3])
          : "cc");
  r = {t4, t0, t1, t2};
}

// ---- Squaring, N = 6 ----
// a² = 2·Σ_{i<j} a_i·a_j·2^(64(i+j)) + Σ a_i²·2^(128i): 15 cross products and 6 squares instead of
// 36 products; then Montgomery reduction of the low half only, with the high half added after:
//   a²·R^{-1} ≡ (S_lo + M·p)/R + S_hi,  (S_lo + M·p)/R ≤ p and S_hi < p²/R < p/8,
// so the sum is < 2p and one conditional subtraction reduces it. 21 + 36 = 57 mulx (mul: 72).
// The 12-word square passes through a stack buffer |w|: cross products (words 1..10) are stored
// as soon as no later row adds to them, which keeps at most 12 registers live.

// T0..T5 += a_i·a_{i+1..} for row i (rdx = a_i), positions known at the call.
#define CUZK_X86_SQR6_CROSS                                                            \
  /* row 0: a0·a1..a5 → words 1..6 */                                               \
  "movq 0(%[a]), %%rdx\n\t"                                                            \
  "mulxq 8(%[a]), %[t1], %[t2]\n\t"                                                    \
  "mulxq 16(%[a]), %[lo], %[t3]\n\t"                                                   \
  "addq %[lo], %[t2]\n\t"                                                              \
  "mulxq 24(%[a]), %[lo], %[t4]\n\t"                                                   \
  "adcq %[lo], %[t3]\n\t"                                                              \
  "mulxq 32(%[a]), %[lo], %[t5]\n\t"                                                   \
  "adcq %[lo], %[t4]\n\t"                                                              \
  "mulxq 40(%[a]), %[lo], %[t6]\n\t"                                                   \
  "adcq %[lo], %[t5]\n\t"                                                              \
  "adcq $0, %[t6]\n\t"                                                                 \
  "movq %[t1], 8(%[w])\n\t"                                                            \
  "movq %[t2], 16(%[w])\n\t" /* row 1: a1·a2..a5 → words 3..7 (word 7 in t1) */     \
  "movq 8(%[a]), %%rdx\n\t"                                                            \
  "xorl %k[lo], %k[lo]\n\t"                                                            \
  "mulxq 16(%[a]), %[lo], %[hi]\n\t"                                                   \
  "adoxq %[lo], %[t3]\n\t"                                                             \
  "adcxq %[hi], %[t4]\n\t"                                                             \
  "mulxq 24(%[a]), %[lo], %[hi]\n\t"                                                   \
  "adoxq %[lo], %[t4]\n\t"                                                             \
  "adcxq %[hi], %[t5]\n\t"                                                             \
  "mulxq 32(%[a]), %[lo], %[hi]\n\t"                                                   \
  "adoxq %[lo], %[t5]\n\t"                                                             \
  "adcxq %[hi], %[t6]\n\t"                                                             \
  "mulxq 40(%[a]), %[lo], %[t1]\n\t"                                                   \
  "adoxq %[lo], %[t6]\n\t"                                                             \
  "movl $0, %k[lo]\n\t"                                                                \
  "adcxq %[lo], %[t1]\n\t"                                                             \
  "adoxq %[lo], %[t1]\n\t"                                                             \
  "movq %[t3], 24(%[w])\n\t"                                                           \
  "movq %[t4], 32(%[w])\n\t" /* row 2: a2·a3..a5 → words 5..8 (word 8 in t2) */     \
  "movq 16(%[a]), %%rdx\n\t"                                                           \
  "xorl %k[lo], %k[lo]\n\t"                                                            \
  "mulxq 24(%[a]), %[lo], %[hi]\n\t"                                                   \
  "adoxq %[lo], %[t5]\n\t"                                                             \
  "adcxq %[hi], %[t6]\n\t"                                                             \
  "mulxq 32(%[a]), %[lo], %[hi]\n\t"                                                   \
  "adoxq %[lo], %[t6]\n\t"                                                             \
  "adcxq %[hi], %[t1]\n\t"                                                             \
  "mulxq 40(%[a]), %[lo], %[t2]\n\t"                                                   \
  "adoxq %[lo], %[t1]\n\t"                                                             \
  "movl $0, %k[lo]\n\t"                                                                \
  "adcxq %[lo], %[t2]\n\t"                                                             \
  "adoxq %[lo], %[t2]\n\t"                                                             \
  "movq %[t5], 40(%[w])\n\t"                                                           \
  "movq %[t6], 48(%[w])\n\t" /* row 3: a3·a4, a3·a5 → words 7..9 (word 9 in t3) */ \
  "movq 24(%[a]), %%rdx\n\t"                                                           \
  "xorl %k[lo], %k[lo]\n\t"                                                            \
  "mulxq 32(%[a]), %[lo], %[hi]\n\t"                                                   \
  "adoxq %[lo], %[t1]\n\t"                                                             \
  "adcxq %[hi], %[t2]\n\t"                                                             \
  "mulxq 40(%[a]), %[lo], %[t3]\n\t"                                                   \
  "adoxq %[lo], %[t2]\n\t"                                                             \
  "movl $0, %k[lo]\n\t"                                                                \
  "adcxq %[lo], %[t3]\n\t"                                                             \
  "adoxq %[lo], %[t3]\n\t"                                                             \
  "movq %[t1], 56(%[w])\n\t"                                                           \
  "movq %[t2], 64(%[w])\n\t" /* row 4: a4·a5 → words 9..10 */                       \
  "movq 32(%[a]), %%rdx\n\t"                                                           \
  "mulxq 40(%[a]), %[lo], %[t4]\n\t"                                                   \
  "addq %[lo], %[t3]\n\t"                                                              \
  "adcq $0, %[t4]\n\t"                                                                 \
  "movq %[t3], 72(%[w])\n\t"                                                           \
  "movq %[t4], 80(%[w])\n\t"

// One word k of S = 2·W + D: the doubling runs on CF (adcx), the diagonal words on OF (adox).
#define CUZK_X86_SQR6_WORD(off, T, D) \
  "movq " #off "(%[w]), " CUZK_X86_R(T) "\n\t" \
  "adcxq " CUZK_X86_R(T) ", " CUZK_X86_R(T) "\n\t" \
  "adoxq %[" #D "], " CUZK_X86_R(T) "\n\t"

// S_0..S_5 into t0..t5, S_6..S_11 back into w[6..11].
#define CUZK_X86_SQR6_DIAG \
  "xorl %k[lo], %k[lo]\n\t"                                                     \
  "movq 0(%[a]), %%rdx\n\t"                                                     \
  "mulxq %%rdx, %[t0], %[hi]\n\t"                                               \
  CUZK_X86_SQR6_WORD(8, t1, hi)                                                 \
  "movq 8(%[a]), %%rdx\n\t"                                                     \
  "mulxq %%rdx, %[lo], %[hi]\n\t"                                               \
  CUZK_X86_SQR6_WORD(16, t2, lo)                                                \
  CUZK_X86_SQR6_WORD(24, t3, hi)                                                \
  "movq 16(%[a]), %%rdx\n\t"                                                    \
  "mulxq %%rdx, %[lo], %[hi]\n\t"                                               \
  CUZK_X86_SQR6_WORD(32, t4, lo)                                                \
  CUZK_X86_SQR6_WORD(40, t5, hi)                                                \
  "movq 24(%[a]), %%rdx\n\t"                                                    \
  "mulxq %%rdx, %[lo], %[hi]\n\t"                                               \
  CUZK_X86_SQR6_WORD(48, t6, lo)                                                \
  "movq %[t6], 48(%[w])\n\t"                                                    \
  CUZK_X86_SQR6_WORD(56, t6, hi)                                                \
  "movq %[t6], 56(%[w])\n\t"                                                    \
  "movq 32(%[a]), %%rdx\n\t"                                                    \
  "mulxq %%rdx, %[lo], %[hi]\n\t"                                               \
  CUZK_X86_SQR6_WORD(64, t6, lo)                                                \
  "movq %[t6], 64(%[w])\n\t"                                                    \
  CUZK_X86_SQR6_WORD(72, t6, hi)                                                \
  "movq %[t6], 72(%[w])\n\t"                                                    \
  "movq 40(%[a]), %%rdx\n\t"                                                    \
  "mulxq %%rdx, %[lo], %[hi]\n\t"                                               \
  CUZK_X86_SQR6_WORD(80, t6, lo)                                                \
  "movq %[t6], 80(%[w])\n\t"                                                    \
  "movl $0, %k[t6]\n\t"                                                         \
  "adcxq %[t6], %[t6]\n\t"                                                      \
  "adoxq %[hi], %[t6]\n\t"                                                      \
  "movq %[t6], 88(%[w])\n\t"

/// r = a²·2^-384 mod p, fully reduced. Needs a < p, p < 2^383 (so p²/R < p/2), inv = −p^{-1}.
template <const Limbs<6>& p, const std::uint64_t& inv>
CUZK_X86_INLINE void sqr6(Limbs<6>& r, const Limbs<6>& a) {
  std::uint64_t t0, t1, t2, t3, t4, t5, t6, lo, hi, rdx;
  std::uint64_t buf[12];
  std::uint64_t* w = buf;
  const std::uint64_t* pa = a.data();
  __asm__(CUZK_X86_SQR6_CROSS CUZK_X86_SQR6_DIAG "xorl %k[t6], %k[t6]\n\t" CUZK_X86_RED6(
              t0, t1, t2, t3, t4, t5, t6) CUZK_X86_RED6(t1, t2, t3, t4, t5, t6, t0)
              CUZK_X86_RED6(t2, t3, t4, t5, t6, t0, t1) CUZK_X86_RED6(t3, t4, t5, t6, t0, t1, t2)
                  CUZK_X86_RED6(t4, t5, t6, t0, t1, t2, t3)
                      CUZK_X86_RED6(t5, t6, t0, t1, t2, t3, t4)
          // + S_hi (no carry out: the sum is < 2p)
          "addq 48(%[w]), %[t6]\n\t"
          "adcq 56(%[w]), %[t0]\n\t"
          "adcq 64(%[w]), %[t1]\n\t"
          "adcq 72(%[w]), %[t2]\n\t"
          "adcq 80(%[w]), %[t3]\n\t"
          "adcq 88(%[w]), %[t4]\n\t" CUZK_X86_FINAL6(t6, t0, t1, t2, t3, t4, t5, lo, hi, rdx, a, w)
          : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
            [t5] "=&r"(t5), [t6] "=&r"(t6), [lo] "=&r"(lo), [hi] "=&r"(hi), [rdx] "=&d"(rdx),
            [a] "+&r"(pa), [w] "+&r"(w), "=m"(buf)
          : "m"(a), [inv] "m"(inv), [p0] "m"(p[0]), [p1] "m"(p[1]), [p2] "m"(p[2]), [p3] "m"(p[3]),
            [p4] "m"(p[4]), [p5] "m"(p[5])
          : "cc");
  r = {t6, t0, t1, t2, t3, t4};
}

// ---- n squarings in one loop, N = 6 (Fp square chains: square roots, exponentiations) ----
// The body of sqr6 without its final conditional subtraction, n times over, the value written back
// to |a| at the end of each turn. For a < 2p (p < 2^381, so 4p/R < 1/2): S < 4p², the reduced low
// half (S_lo + M·p)/R < p + 1 and S_hi < 4p²/R < p/2, so each result is < 1.5p + 1 < 2p and the
// next turn may take it unreduced; the caller reduces once at the end (sqr_n6) or multiplies
// (mul6 takes a < 2p as well: a·b/R + p < 1.25p for b < p, reduced by its one subtraction).
// Saves per squaring the 6-word subtraction and cmov chain, the call and the copy out.

/// a ← a^(2^n)·R^(1−2^n) mod p, only partly reduced: needs a < 2p and n ≥ 1, leaves a < 2p.
template <const Limbs<6>& p, const std::uint64_t& inv>
CUZK_X86_INLINE void sqr_n6_nonred(Limbs<6>& a, unsigned n) {
  std::uint64_t t0, t1, t2, t3, t4, t5, t6, lo, hi, rdx;
  std::uint64_t buf[12];
  std::uint64_t* w = buf;
  std::uint64_t* pa = a.data();
  std::uint64_t cnt = n;
  __asm__("1:\n\t"
          CUZK_X86_SQR6_CROSS
          CUZK_X86_SQR6_DIAG
          "xorl %k[t6], %k[t6]\n\t"
          CUZK_X86_RED6(t0, t1, t2, t3, t4, t5, t6)
          CUZK_X86_RED6(t1, t2, t3, t4, t5, t6, t0)
          CUZK_X86_RED6(t2, t3, t4, t5, t6, t0, t1)
          CUZK_X86_RED6(t3, t4, t5, t6, t0, t1, t2)
          CUZK_X86_RED6(t4, t5, t6, t0, t1, t2, t3)
          CUZK_X86_RED6(t5, t6, t0, t1, t2, t3, t4)
          "addq 48(%[w]), %[t6]\n\t"
          "adcq 56(%[w]), %[t0]\n\t"
          "adcq 64(%[w]), %[t1]\n\t"
          "adcq 72(%[w]), %[t2]\n\t"
          "adcq 80(%[w]), %[t3]\n\t"
          "adcq 88(%[w]), %[t4]\n\t"
          "movq %[t6], 0(%[a])\n\t"
          "movq %[t0], 8(%[a])\n\t"
          "movq %[t1], 16(%[a])\n\t"
          "movq %[t2], 24(%[a])\n\t"
          "movq %[t3], 32(%[a])\n\t"
          "movq %[t4], 40(%[a])\n\t"
          "decq %[cnt]\n\t"
          "jnz 1b\n\t"
          : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
            [t5] "=&r"(t5), [t6] "=&r"(t6), [lo] "=&r"(lo), [hi] "=&r"(hi), [rdx] "=&d"(rdx),
            [cnt] "+&r"(cnt), "=m"(buf), "+m"(a)
          : [a] "r"(pa), [w] "r"(w), [inv] "m"(inv), [p0] "m"(p[0]), [p1] "m"(p[1]),
            [p2] "m"(p[2]), [p3] "m"(p[3]), [p4] "m"(p[4]), [p5] "m"(p[5])
          : "cc");
}

// ---- Modular addition and subtraction (base x86-64: add/adc, sub/sbb, cmov) ----
// a + b < 2p < 2^(64N) never carries out of N words (p has a spare top bit), so one trial
// subtraction of p and a cmov on its borrow give the reduced sum; a − b adds p back, selected by
// cmov on the borrow. About 20 (N = 4) or 30 (N = 6) instructions, no branch.

/// r = a + b mod p for a, b < p < 2^383.
template <const Limbs<6>& p>
[[gnu::always_inline]] inline void add6(Limbs<6>& r, const Limbs<6>& a, const Limbs<6>& b) {
  std::uint64_t r0 = a[0], r1 = a[1], r2 = a[2], r3 = a[3], r4 = a[4], r5 = a[5];
  std::uint64_t s0, s1, s2, s3, s4, s5;
  __asm__(
      "addq 0(%[b]), %[r0]\n\t"
      "adcq 8(%[b]), %[r1]\n\t"
      "adcq 16(%[b]), %[r2]\n\t"
      "adcq 24(%[b]), %[r3]\n\t"
      "adcq 32(%[b]), %[r4]\n\t"
      "adcq 40(%[b]), %[r5]\n\t"
      "movq %[r0], %[s0]\n\t"
      "subq %[p0], %[s0]\n\t"
      "movq %[r1], %[s1]\n\t"
      "sbbq %[p1], %[s1]\n\t"
      "movq %[r2], %[s2]\n\t"
      "sbbq %[p2], %[s2]\n\t"
      "movq %[r3], %[s3]\n\t"
      "sbbq %[p3], %[s3]\n\t"
      "movq %[r4], %[s4]\n\t"
      "sbbq %[p4], %[s4]\n\t"
      "movq %[r5], %[s5]\n\t"
      "sbbq %[p5], %[s5]\n\t"
      "cmovncq %[s0], %[r0]\n\t"
      "cmovncq %[s1], %[r1]\n\t"
      "cmovncq %[s2], %[r2]\n\t"
      "cmovncq %[s3], %[r3]\n\t"
      "cmovncq %[s4], %[r4]\n\t"
      "cmovncq %[s5], %[r5]\n\t"
      : [r0] "+&r"(r0), [r1] "+&r"(r1), [r2] "+&r"(r2), [r3] "+&r"(r3), [r4] "+&r"(r4),
        [r5] "+&r"(r5), [s0] "=&r"(s0), [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3),
        [s4] "=&r"(s4), [s5] "=&r"(s5)
      : [b] "r"(b.data()), "m"(b), [p0] "m"(p[0]), [p1] "m"(p[1]), [p2] "m"(p[2]), [p3] "m"(p[3]),
        [p4] "m"(p[4]), [p5] "m"(p[5])
      : "cc");
  r = {r0, r1, r2, r3, r4, r5};
}

/// r = a − b mod p for a, b < p.
template <const Limbs<6>& p>
[[gnu::always_inline]] inline void sub6(Limbs<6>& r, const Limbs<6>& a, const Limbs<6>& b) {
  std::uint64_t r0 = a[0], r1 = a[1], r2 = a[2], r3 = a[3], r4 = a[4], r5 = a[5];
  std::uint64_t s0, s1, s2, s3, s4, s5;
  __asm__(
      "xorl %k[s0], %k[s0]\n\t"
      "xorl %k[s1], %k[s1]\n\t"
      "xorl %k[s2], %k[s2]\n\t"
      "xorl %k[s3], %k[s3]\n\t"
      "xorl %k[s4], %k[s4]\n\t"
      "xorl %k[s5], %k[s5]\n\t"
      "subq 0(%[b]), %[r0]\n\t"
      "sbbq 8(%[b]), %[r1]\n\t"
      "sbbq 16(%[b]), %[r2]\n\t"
      "sbbq 24(%[b]), %[r3]\n\t"
      "sbbq 32(%[b]), %[r4]\n\t"
      "sbbq 40(%[b]), %[r5]\n\t"
      "cmovcq %[p0], %[s0]\n\t"
      "cmovcq %[p1], %[s1]\n\t"
      "cmovcq %[p2], %[s2]\n\t"
      "cmovcq %[p3], %[s3]\n\t"
      "cmovcq %[p4], %[s4]\n\t"
      "cmovcq %[p5], %[s5]\n\t"
      "addq %[s0], %[r0]\n\t"
      "adcq %[s1], %[r1]\n\t"
      "adcq %[s2], %[r2]\n\t"
      "adcq %[s3], %[r3]\n\t"
      "adcq %[s4], %[r4]\n\t"
      "adcq %[s5], %[r5]\n\t"
      : [r0] "+&r"(r0), [r1] "+&r"(r1), [r2] "+&r"(r2), [r3] "+&r"(r3), [r4] "+&r"(r4),
        [r5] "+&r"(r5), [s0] "=&r"(s0), [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3),
        [s4] "=&r"(s4), [s5] "=&r"(s5)
      : [b] "r"(b.data()), "m"(b), [p0] "m"(p[0]), [p1] "m"(p[1]), [p2] "m"(p[2]), [p3] "m"(p[3]),
        [p4] "m"(p[4]), [p5] "m"(p[5])
      : "cc");
  r = {r0, r1, r2, r3, r4, r5};
}

/// r = a + b mod p for a, b < p < 2^255.
template <const Limbs<4>& p>
[[gnu::always_inline]] inline void add4(Limbs<4>& r, const Limbs<4>& a, const Limbs<4>& b) {
  std::uint64_t r0 = a[0], r1 = a[1], r2 = a[2], r3 = a[3];
  std::uint64_t s0, s1, s2, s3;
  __asm__(
      "addq 0(%[b]), %[r0]\n\t"
      "adcq 8(%[b]), %[r1]\n\t"
      "adcq 16(%[b]), %[r2]\n\t"
      "adcq 24(%[b]), %[r3]\n\t"
      "movq %[r0], %[s0]\n\t"
      "subq %[p0], %[s0]\n\t"
      "movq %[r1], %[s1]\n\t"
      "sbbq %[p1], %[s1]\n\t"
      "movq %[r2], %[s2]\n\t"
      "sbbq %[p2], %[s2]\n\t"
      "movq %[r3], %[s3]\n\t"
      "sbbq %[p3], %[s3]\n\t"
      "cmovncq %[s0], %[r0]\n\t"
      "cmovncq %[s1], %[r1]\n\t"
      "cmovncq %[s2], %[r2]\n\t"
      "cmovncq %[s3], %[r3]\n\t"
      : [r0] "+&r"(r0), [r1] "+&r"(r1), [r2] "+&r"(r2), [r3] "+&r"(r3), [s0] "=&r"(s0),
        [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3)
      : [b] "r"(b.data()), "m"(b), [p0] "m"(p[0]), [p1] "m"(p[1]), [p2] "m"(p[2]), [p3] "m"(p[3])
      : "cc");
  r = {r0, r1, r2, r3};
}

/// r = a − b mod p for a, b < p.
template <const Limbs<4>& p>
[[gnu::always_inline]] inline void sub4(Limbs<4>& r, const Limbs<4>& a, const Limbs<4>& b) {
  std::uint64_t r0 = a[0], r1 = a[1], r2 = a[2], r3 = a[3];
  std::uint64_t s0, s1, s2, s3;
  __asm__(
      "xorl %k[s0], %k[s0]\n\t"
      "xorl %k[s1], %k[s1]\n\t"
      "xorl %k[s2], %k[s2]\n\t"
      "xorl %k[s3], %k[s3]\n\t"
      "subq 0(%[b]), %[r0]\n\t"
      "sbbq 8(%[b]), %[r1]\n\t"
      "sbbq 16(%[b]), %[r2]\n\t"
      "sbbq 24(%[b]), %[r3]\n\t"
      "cmovcq %[p0], %[s0]\n\t"
      "cmovcq %[p1], %[s1]\n\t"
      "cmovcq %[p2], %[s2]\n\t"
      "cmovcq %[p3], %[s3]\n\t"
      "addq %[s0], %[r0]\n\t"
      "adcq %[s1], %[r1]\n\t"
      "adcq %[s2], %[r2]\n\t"
      "adcq %[s3], %[r3]\n\t"
      : [r0] "+&r"(r0), [r1] "+&r"(r1), [r2] "+&r"(r2), [r3] "+&r"(r3), [s0] "=&r"(s0),
        [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3)
      : [b] "r"(b.data()), "m"(b), [p0] "m"(p[0]), [p1] "m"(p[1]), [p2] "m"(p[2]), [p3] "m"(p[3])
      : "cc");
  r = {r0, r1, r2, r3};
}

// ---- Fp2 = Fp[u]/(u² + 1) with lazy reduction, N = 6 ----
// Karatsuba on unreduced products: with T0 = a0·b0, T1 = a1·b1, T2 = (a0 + a1)·(b0 + b1) as full
// 768-bit integers (sums not reduced: a0 + a1 < 2p < 2^382),
//   c0 = REDC(T0 − T1 + p²)     (0 < T0 − T1 + p² < 2p² < p·R),
//   c1 = REDC(T2 − T0 − T1)     (= a0·b1 + a1·b0 exactly, < 2p² < p·R),
// and REDC(T) < 2p for T < p·R (low half reduced by six rows, high half < p added after), so one
// conditional subtraction finishes each coefficient. 3 × 36 + 2 × 36 = 180 mulx against 216 for
// three Montgomery products, and no modular add/sub (blst's mul_mont_384x does the same).
// The slow twin is the plain formula (Fp2::mul_plain).

// Row i = 0 of a plain product into t0..t6, then rows 1..5, one word stored per row.
#define CUZK_X86_WIDE6_STORE(T, off) "movq " CUZK_X86_R(T) ", " #off "(%[w])\n\t"

/// w[0..11] = a·b for a, b < 2^384 (36 mulx).
[[gnu::always_inline]] inline void mul_wide6(std::uint64_t* w, const std::uint64_t* pa,
                                             const std::uint64_t* pb) {
  std::uint64_t t0, t1, t2, t3, t4, t5, t6, lo, hi, rdx;
  // volatile: the results leave through memory only (a non-volatile asm whose register outputs
  // are unused is deleted, "memory" clobber or not).
  __asm__ volatile(
      CUZK_X86_MUL_FIRST6 CUZK_X86_WIDE6_STORE(t0, 0) CUZK_X86_MAC6(8, t1, t2, t3, t4, t5, t6, t0)
          CUZK_X86_WIDE6_STORE(t1, 8) CUZK_X86_MAC6(16, t2, t3, t4, t5, t6, t0, t1)
              CUZK_X86_WIDE6_STORE(t2, 16) CUZK_X86_MAC6(24, t3, t4, t5, t6, t0, t1, t2)
                  CUZK_X86_WIDE6_STORE(t3, 24) CUZK_X86_MAC6(32, t4, t5, t6, t0, t1, t2, t3)
                      CUZK_X86_WIDE6_STORE(t4, 32) CUZK_X86_MAC6(40, t5, t6, t0, t1, t2, t3, t4)
                          CUZK_X86_WIDE6_STORE(t5, 40) CUZK_X86_WIDE6_STORE(t6, 48)
                              CUZK_X86_WIDE6_STORE(t0, 56) CUZK_X86_WIDE6_STORE(t1, 64)
                                  CUZK_X86_WIDE6_STORE(t2, 72) CUZK_X86_WIDE6_STORE(t3, 80)
                                      CUZK_X86_WIDE6_STORE(t4, 88)
      : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
        [t5] "=&r"(t5), [t6] "=&r"(t6), [lo] "=&r"(lo), [hi] "=&r"(hi), [rdx] "=&d"(rdx)
      : [a] "r"(pa), [b] "r"(pb), [w] "r"(w)
      : "cc", "memory");
}

/// s = a + b without reduction (a, b < p < 2^383: no carry out of six words).
[[gnu::always_inline]] inline void add6_nored(std::uint64_t* s, const std::uint64_t* a,
                                              const std::uint64_t* b) {
  std::uint64_t r0 = a[0], r1 = a[1], r2 = a[2], r3 = a[3], r4 = a[4], r5 = a[5];
  __asm__(
      "addq 0(%[b]), %[r0]\n\t"
      "adcq 8(%[b]), %[r1]\n\t"
      "adcq 16(%[b]), %[r2]\n\t"
      "adcq 24(%[b]), %[r3]\n\t"
      "adcq 32(%[b]), %[r4]\n\t"
      "adcq 40(%[b]), %[r5]\n\t"
      :
      [r0] "+&r"(r0), [r1] "+&r"(r1), [r2] "+&r"(r2), [r3] "+&r"(r3), [r4] "+&r"(r4), [r5] "+&r"(r5)
      : [b] "r"(b), "m"(*reinterpret_cast<const std::uint64_t(*)[6]>(b))
      : "cc");
  s[0] = r0, s[1] = r1, s[2] = r2, s[3] = r3, s[4] = r4, s[5] = r5;
}

// r = REDC(W) for W = x − y + z (kAddZ) or x − y − z, 12-word operands, where the caller
// guarantees 0 ≤ W < p·R as an integer. The low half W_lo = (x_lo − y_lo ± z_lo) mod R is formed
// in the registers with its net carry kept in |bw| (−2..1); the six reduction rows follow; then
// W_hi = x_hi − y_hi ± z_hi + bw is added to the reduced low half by chains on memory operands
// (mod 2^384: the true sum (W_lo + M·p)/R + W_hi is < 2p), and one conditional subtraction.
#define CUZK_X86_HCHAIN(op, opc, ptr)                                                            \
#op " 48(%[" #ptr "]), %[t6]\n\t" #opc " 56(%[" #ptr "]), %[t0]\n\t" #opc " 64(%[" #ptr        \
      "]), %[t1]\n\t" #opc " 72(%[" #ptr "]), %[t2]\n\t" #opc " 80(%[" #ptr "]), %[t3]\n\t" #opc \
      " 88(%[" #ptr "]), %[t4]\n\t"
#define CUZK_X86_ZLOW(op, opc, bwop)                                                       \
#op " 0(%[z]), %[t0]\n\t" #opc " 8(%[z]), %[t1]\n\t" #opc " 16(%[z]), %[t2]\n\t" #opc    \
      " 24(%[z]), %[t3]\n\t" #opc " 32(%[z]), %[t4]\n\t" #opc " 40(%[z]), %[t5]\n\t" #bwop \
      " $0, %[bw]\n\t"
#define CUZK_X86_REDC_XYZ_ASM(ZLOW, ZHIGH)                                                        \
  __asm__(                                                                                        \
      "movq 0(%[x]), %[t0]\n\t"                                                                   \
      "movq 8(%[x]), %[t1]\n\t"                                                                   \
      "movq 16(%[x]), %[t2]\n\t"                                                                  \
      "movq 24(%[x]), %[t3]\n\t"                                                                  \
      "movq 32(%[x]), %[t4]\n\t"                                                                  \
      "movq 40(%[x]), %[t5]\n\t"                                                                  \
      "subq 0(%[y]), %[t0]\n\t"                                                                   \
      "sbbq 8(%[y]), %[t1]\n\t"                                                                   \
      "sbbq 16(%[y]), %[t2]\n\t"                                                                  \
      "sbbq 24(%[y]), %[t3]\n\t"                                                                  \
      "sbbq 32(%[y]), %[t4]\n\t"                                                                  \
      "sbbq 40(%[y]), %[t5]\n\t"                                                                  \
      "sbbq %[bw], %[bw]\n\t" ZLOW "xorl %k[t6], %k[t6]\n\t" CUZK_X86_RED6(                       \
          t0, t1, t2, t3, t4, t5, t6) CUZK_X86_RED6(t1, t2, t3, t4, t5, t6, t0)                   \
          CUZK_X86_RED6(t2, t3, t4, t5, t6, t0, t1) CUZK_X86_RED6(t3, t4, t5, t6, t0, t1, t2)     \
              CUZK_X86_RED6(t4, t5, t6, t0, t1, t2, t3) CUZK_X86_RED6(t5, t6, t0, t1, t2, t3, t4) \
                  CUZK_X86_HCHAIN(addq, adcq, x) CUZK_X86_HCHAIN(subq, sbbq, y) ZHIGH             \
      "movq %[bw], %[lo]\n\t"                                                                     \
      "sarq $63, %[lo]\n\t"                                                                       \
      "addq %[bw], %[t6]\n\t"                                                                     \
      "adcq %[lo], %[t0]\n\t"                                                                     \
      "adcq %[lo], %[t1]\n\t"                                                                     \
      "adcq %[lo], %[t2]\n\t"                                                                     \
      "adcq %[lo], %[t3]\n\t"                                                                     \
      "adcq %[lo], %[t4]\n\t" CUZK_X86_FINAL6(t6, t0, t1, t2, t3, t4, t5, lo, hi, rdx, x, y)      \
      : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),           \
        [t5] "=&r"(t5), [t6] "=&r"(t6), [lo] "=&r"(lo), [hi] "=&r"(hi), [rdx] "=&d"(rdx),         \
        [bw] "=&r"(bw), [x] "+&r"(px), [y] "+&r"(py)                                              \
      : [z] "r"(z), [inv] "m"(inv), [p0] "m"(p[0]), [p1] "m"(p[1]), [p2] "m"(p[2]),               \
        [p3] "m"(p[3]), [p4] "m"(p[4]), [p5] "m"(p[5])                                            \
      : "cc", "memory");
template <const Limbs<6>& p, const std::uint64_t& inv, bool kAddZ>
[[gnu::always_inline]] inline void redc12_xyz(std::uint64_t* r, const std::uint64_t* x,
                                              const std::uint64_t* y, const std::uint64_t* z) {
  std::uint64_t t0, t1, t2, t3, t4, t5, t6, lo, hi, rdx, bw;
  const std::uint64_t *px = x, *py = y;
  if constexpr (kAddZ) {
    CUZK_X86_REDC_XYZ_ASM(CUZK_X86_ZLOW(addq, adcq, adcq), CUZK_X86_HCHAIN(addq, adcq, z));
  } else {
    CUZK_X86_REDC_XYZ_ASM(CUZK_X86_ZLOW(subq, sbbq, sbbq), CUZK_X86_HCHAIN(subq, sbbq, z));
  }
  r[0] = t6;
  r[1] = t0;
  r[2] = t1;
  r[3] = t2;
  r[4] = t3;
  r[5] = t4;
}
#undef CUZK_X86_ZLOW
#undef CUZK_X86_REDC_XYZ_ASM
#undef CUZK_X86_HCHAIN

/// (r0 + r1·u) = (a0 + a1·u)(b0 + b1·u) mod p; r0..r1 = r[0..5], r[6..11], likewise a, b (an Fp2
/// as two Limbs<6>). a, b < p per coefficient; r may alias a or b. |p2| = p² as 12 words.
template <const Limbs<6>& p, const std::uint64_t& inv, const Limbs<12>& p2>
CUZK_X86_INLINE void fp2_mul6(std::uint64_t* r, const std::uint64_t* a, const std::uint64_t* b) {
  alignas(64) std::uint64_t t0[12], t1[12], t2[12], sa[6], sb[6];
  add6_nored(sa, a, a + 6);
  add6_nored(sb, b, b + 6);
  mul_wide6(t0, a, b);
  mul_wide6(t1, a + 6, b + 6);
  // c0's reduction (a latency chain of six rows) overlaps the third product out of order.
  // (a and b are not read after this point, so r may alias them.)
  redc12_xyz<p, inv, true>(r, t0, t1, p2.data());  // T0 − T1 + p²
  mul_wide6(t2, sa, sb);
  redc12_xyz<p, inv, false>(r + 6, t2, t0, t1);  // T2 − T0 − T1
}

#undef CUZK_X86_WIDE6_STORE

#undef CUZK_X86_MUL_FIRST6
#undef CUZK_X86_SQR6_CROSS
#undef CUZK_X86_SQR6_WORD
#undef CUZK_X86_SQR6_DIAG
#undef CUZK_X86_MAC6
#undef CUZK_X86_RED6
#undef CUZK_X86_MUL_FIRST4
#undef CUZK_X86_MAC4
#undef CUZK_X86_RED4
#undef CUZK_X86_FINAL6
#undef CUZK_X86_FINAL4
#undef CUZK_X86_R
#undef CUZK_X86_INLINE

#else

inline bool cpu_has_mulx_adx() { return false; }
inline constexpr bool g_use_asm = false;
inline bool set_asm_enabled(bool) { return false; }

#endif

}  // namespace cuzk::mont_x86
