// MontField<P>: a prime field element in Montgomery form (a·R mod p, R = 2^(64·N)) over N
// little-endian 64-bit limbs. Every constant is derived from P::modulus at compile time.
//
// Multiplication is CIOS with the "spare bit" shortcut (Koç–Acar–Kaliski 1996, CIOS; the no-carry
// variant of gnark-crypto, valid because the top limb of p is below 2^63 − 1): N² + N² + N
// word multiplies, no extra carry word. Values are always fully reduced (< p).
//
// Two arithmetics, one layout: constant evaluation, -O0 builds, CUZK_ASM=OFF and CPUs without
// BMI2/ADX use the portable C++ (mul_portable, add_portable, sub_portable); otherwise Fp (N = 6)
// and Fr (N = 4) run the x86-64 assembly of mont_x86.hpp (mulx/adcx/adox multiplication and
// squaring, adc/sbb/cmov addition and subtraction), chosen once at start-up by CPUID.
// ff_gmp_test.cpp checks both paths against GMP.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

#include "cuzk/base/status.hpp"
#include "cuzk/ff/limbs.hpp"
#include "cuzk/ff/mont_x86.hpp"

namespace cuzk {

namespace mont_detail {

/// -p^{-1} mod 2^64 by Newton iteration (each step doubles the correct low bits).
constexpr std::uint64_t neg_inv64(std::uint64_t p0) {
  std::uint64_t x = 1;
  for (int i = 0; i < 7; ++i) x *= 2 - p0 * x;
  return ~x + 1;
}

/// 2^k mod p, by k modular doublings of 1 (compile time only; k ≤ 64·N·3).
template <std::size_t N>
constexpr Limbs<N> pow2_mod(const Limbs<N>& p, unsigned k) {
  Limbs<N> r{};
  r[0] = 1;
  for (unsigned i = 0; i < k; ++i) {
    Limbs<N> d{};
    std::uint64_t c = limbs_add(d, r, r);
    Limbs<N> s{};
    std::uint64_t br = limbs_sub(s, d, p);
    r = (c || !br) ? s : d;
  }
  return r;
}

}  // namespace mont_detail

/// Parameters a field supplies: `static constexpr Limbs<N> modulus;`, `static constexpr unsigned
/// bits;`, `static constexpr std::uint64_t nonresidue;` (a small quadratic non-residue, for
/// Tonelli–Shanks), and `static constexpr const char* name;`.
template <class P>
class MontField {
 public:
  static constexpr std::size_t N = std::tuple_size_v<decltype(P::modulus)>;
  static constexpr std::size_t kBytes = (P::bits + 7) / 8;
  using Repr = Limbs<N>;

  static constexpr Repr kModulus = P::modulus;
  /// -p^{-1} mod 2^64.
  static constexpr std::uint64_t kInv = mont_detail::neg_inv64(P::modulus[0]);
  /// R mod p = 2^(64N) mod p, the Montgomery form of 1.
  static constexpr Repr kR = mont_detail::pow2_mod(P::modulus, 64 * N);
  /// R² mod p, converts canonical → Montgomery with one multiplication.
  static constexpr Repr kR2 = mont_detail::pow2_mod(P::modulus, 128 * N);
  /// R³ mod p, used by the variable-time inverse.
  static constexpr Repr kR3 = mont_detail::pow2_mod(P::modulus, 192 * N);
  /// p − 2, the Fermat inversion exponent.
  static constexpr Repr kPMinus2 = limbs_sub_small(P::modulus, 2);
  /// (p − 1)/2, the Euler criterion exponent; also the "lexicographically largest" threshold.
  static constexpr Repr kHalfPMinus1 = limbs_shr(limbs_sub_small(P::modulus, 1), 1);
  /// 2-adicity s of p − 1 and the odd part t = (p − 1)/2^s.
  static constexpr unsigned kTwoAdicity = limbs_trailing_zeros(limbs_sub_small(P::modulus, 1));
  static constexpr Repr kOddPart = limbs_shr_any(limbs_sub_small(P::modulus, 1), kTwoAdicity);
  /// (t − 1)/2, the Tonelli–Shanks starting exponent.
  static constexpr Repr kOddPartHalf = limbs_shr(limbs_sub_small(kOddPart, 1), 1);
  /// (p + 1)/4, the square-root exponent when p ≡ 3 mod 4.
  static constexpr Repr kSqrtExp = limbs_shr(limbs_add_small(P::modulus, 1), 2);

  static_assert(P::modulus[N - 1] < (~std::uint64_t{0} >> 1) - 1,
                "the no-carry CIOS multiplication needs a spare top bit");
  static_assert(P::modulus[0] * (~kInv + 1) == 1, "kInv must be -p^{-1} mod 2^64");

  /// True when this field has the x86-64 assembly (mont_x86.hpp: mulx/adx multiplication, add/sub);
  /// N = 4 or 6, built with CUZK_ASM.
  static constexpr bool kHasAsmPath = CUZK_FF_X86_ASM && (N == 4 || N == 6);

  /// Montgomery-form limbs; always < p.
  Repr l{};

  constexpr MontField() = default;
  static constexpr MontField zero() { return {}; }
  static constexpr MontField one() { return from_mont_unchecked(kR); }
  /// Wraps limbs already in Montgomery form; the caller guarantees they are < p.
  static constexpr MontField from_mont_unchecked(const Repr& m) {
    MontField r;
    r.l = m;
    return r;
  }
  static constexpr MontField from_u64(std::uint64_t v) {
    Repr c{};
    c[0] = v;
    return from_canonical_unchecked(c);
  }
  /// Canonical integer → field element; the caller guarantees c < p.
  static constexpr MontField from_canonical_unchecked(const Repr& c) {
    return from_mont_unchecked(c) * from_mont_unchecked(kR2);
  }
  /// Canonical integer → field element; nullopt when c ≥ p.
  static constexpr std::optional<MontField> from_canonical(const Repr& c) {
    if (limbs_cmp(c, kModulus) >= 0) return std::nullopt;
    return from_canonical_unchecked(c);
  }
  /// Reduces any N-limb integer mod p (for hashing to a scalar, random sampling).
  static constexpr MontField from_limbs_reduce(Repr c) {
    while (limbs_cmp(c, kModulus) >= 0) {
      Repr t{};
      limbs_sub(t, c, kModulus);
      c = t;
    }
    return from_canonical_unchecked(c);
  }
  /// The canonical integer (leaves Montgomery form: one multiplication by 1).
  constexpr Repr to_canonical() const {
    Repr one_c{};
    one_c[0] = 1;
    return (*this * from_mont_unchecked(one_c)).l;
  }

  constexpr bool is_zero() const { return limbs_is_zero(l); }
  constexpr bool is_one() const { return l == kR; }
  friend constexpr bool operator==(const MontField& a, const MontField& b) { return a.l == b.l; }

  // Addition and subtraction are inlined with only the asm body (the portable fallback is an
  // out-of-line call): as out-of-line functions holding both paths they cost a call, six register
  // saves and a zeroed result each, ≈ 9 % of a G1 or G2 MSM in perf (docs/perf/msm.md Version 3).
  [[gnu::always_inline]] friend constexpr MontField operator+(const MontField& a,
                                                              const MontField& b) {
    MontField r;
    if constexpr (kHasAsmPath) {
      if (!std::is_constant_evaluated()) {
        if (mont_x86::g_use_asm) [[likely]] {
          add_asm(r.l, a.l, b.l);
        } else {
          add_portable_outlined(r.l, a.l, b.l);
        }
        return r;
      }
    }
    add_portable(r.l, a.l, b.l);
    return r;
  }
  [[gnu::always_inline]] friend constexpr MontField operator-(const MontField& a,
                                                              const MontField& b) {
    MontField r;
    if constexpr (kHasAsmPath) {
      if (!std::is_constant_evaluated()) {
        if (mont_x86::g_use_asm) [[likely]] {
          sub_asm(r.l, a.l, b.l);
        } else {
          sub_portable_outlined(r.l, a.l, b.l);
        }
        return r;
      }
    }
    sub_portable(r.l, a.l, b.l);
    return r;
  }
  constexpr MontField operator-() const { return zero() - *this; }
  constexpr MontField dbl() const { return *this + *this; }
  friend constexpr MontField operator*(const MontField& a, const MontField& b) {
    MontField r;
    if (std::is_constant_evaluated()) {
      mul_portable(r.l, a.l, b.l);
    } else {
      mul_runtime(r.l, a.l, b.l);
    }
    return r;
  }
  constexpr MontField& operator+=(const MontField& b) {
    if constexpr (kHasAsmPath) {
      if (!std::is_constant_evaluated() && mont_x86::g_use_asm) {
        add_asm(l, l, b.l);
        return *this;
      }
    }
    return *this = *this + b;
  }
  constexpr MontField& operator-=(const MontField& b) {
    if constexpr (kHasAsmPath) {
      if (!std::is_constant_evaluated() && mont_x86::g_use_asm) {
        sub_asm(l, l, b.l);
        return *this;
      }
    }
    return *this = *this - b;
  }
  /// In place: the product is written straight into this element (no temporary to copy, which
  /// matters in dependent chains: a 48-byte copy reloads just-stored words with wider loads).
  constexpr MontField& operator*=(const MontField& b) {
    if (std::is_constant_evaluated()) {
      mul_portable(l, l, b.l);
    } else {
      mul_runtime(l, l, b.l);
    }
    return *this;
  }
  /// a²; a dedicated squaring on the Fp assembly path.
  constexpr MontField square() const {
    MontField r = *this;
    r.square_inplace();
    return r;
  }
  /// this = this² in place (see operator*=).
  constexpr MontField& square_inplace() {
    if constexpr (kHasAsmPath) {
      if (!std::is_constant_evaluated() && mont_x86::g_use_asm) {
        sqr_asm_unchecked(l, l);
        return *this;
      }
    }
    return *this *= *this;
  }

  /// this = this^(2^n): n squarings (n = 0 leaves it). On the Fp assembly path one loop that keeps
  /// the value below 2p between squarings and reduces once (mont_x86::sqr_n6_nonred); elsewhere
  /// n calls of square_inplace (the portable twin).
  constexpr MontField& square_n_inplace(unsigned n) {
    if constexpr (kHasAsmPath && N == 6) {
      if (!std::is_constant_evaluated() && mont_x86::g_use_asm) {
        if (n != 0) sqr_n_asm_unchecked(l, n);
        return *this;
      }
    }
    for (unsigned i = 0; i < n; ++i) square_inplace();
    return *this;
  }
  /// this = this^(2^n)·b (n ≥ 0): the squaring loop above, then one multiplication that also makes
  /// the final reduction.
  constexpr MontField& square_n_mul_inplace(unsigned n, const MontField& b) {
    if constexpr (kHasAsmPath && N == 6) {
      if (!std::is_constant_evaluated() && mont_x86::g_use_asm) {
        if (n != 0) {
          sqr_n_mul_asm_unchecked(l, n, b.l);
        } else {
          mul_asm_unchecked(l, l, b.l);
        }
        return *this;
      }
    }
    for (unsigned i = 0; i < n; ++i) square_inplace();
    return *this *= b;
  }

  /// a^e for an exponent given as little-endian limbs; time depends only on the exponent length.
  template <std::size_t M>
  constexpr MontField pow(const Limbs<M>& e) const {
    MontField r = one();
    for (std::size_t i = M * 64; i-- > 0;) {
      r.square_inplace();
      MontField t = r * *this;
      // select without a data-dependent branch on the base
      const std::uint64_t mask = 0 - static_cast<std::uint64_t>((e[i / 64] >> (i % 64)) & 1);
      for (std::size_t k = 0; k < N; ++k) r.l[k] = (t.l[k] & mask) | (r.l[k] & ~mask);
    }
    return r;
  }
  /// a^e; the sequence of operations depends on e only (never on a), so this is constant time in
  /// the base for a public exponent. Exponents over 32 bits use sliding windows of up to 5 bits
  /// over a table of the 16 odd powers: for a b-bit e, b squarings + ~b/6 + 16 multiplications
  /// (4-bit fixed windows: b/4 + 14; plain square-and-multiply: b/2).
  template <std::size_t M>
  constexpr MontField pow_vartime(const Limbs<M>& e) const {
    const unsigned nbits = limbs_bit_length(e);
    MontField r = one();
    if (nbits <= 32) {
      for (unsigned i = nbits; i-- > 0;) {
        r.square_inplace();
        if (limbs_bit(e, i)) r *= *this;
      }
      return r;
    }
    // Squarings are counted and run in one square_n_mul_inplace per window (runs of zero bits
    // included), so the Fp assembly path squares in one loop.
    constexpr unsigned kW = 5;
    MontField odd[1u << (kW - 1)];  // odd[j] = a^(2j+1)
    odd[0] = *this;
    const MontField a2 = square();
    for (unsigned j = 1; j < (1u << (kW - 1)); ++j) odd[j] = odd[j - 1] * a2;
    bool started = false;
    unsigned pending = 0;  // squarings owed to r
    for (int i = static_cast<int>(nbits) - 1; i >= 0;) {
      if (!limbs_bit(e, static_cast<unsigned>(i))) {
        ++pending;
        --i;
        continue;
      }
      // The longest window e[i..j] of at most kW bits that ends in a set bit.
      int j = i - static_cast<int>(kW) + 1;
      if (j < 0) j = 0;
      while (!limbs_bit(e, static_cast<unsigned>(j))) ++j;
      unsigned d = 0;
      for (int b = i; b >= j; --b)
        d = (d << 1) | (limbs_bit(e, static_cast<unsigned>(b)) ? 1u : 0u);
      if (started) {
        r.square_n_mul_inplace(pending + static_cast<unsigned>(i - j + 1), odd[d >> 1]);
      } else {
        r = odd[d >> 1];  // the top bit is set: nothing is pending
        started = true;
      }
      pending = 0;
      i = j - 1;
    }
    r.square_n_inplace(pending);
    return r;
  }
  constexpr MontField pow_u64(std::uint64_t e) const { return pow_vartime(Limbs<1>{e}); }

  /// a^{-1} in constant time: Pornin's binary GCD on approximations (safegcd.hpp) at run time,
  /// Fermat (a^{p−2}, steps fixed by the public p − 2) in constant evaluation and device code; the
  /// inverse of 0 is 0.
  constexpr MontField inverse() const {
#if defined(__CUDA_ARCH__)
    return pow_vartime(kPMinus2);
#else
    if (std::is_constant_evaluated()) return pow_vartime(kPMinus2);
    return inverse_ct();
#endif
  }
  /// The run-time constant-time inverse behind inverse().
  MontField inverse_ct() const;
  /// a^{-1} by Bernstein–Yang divsteps in batches of 62 (safegcd.hpp) and one Montgomery product;
  /// faster than inverse() (fewer divsteps, shortened limbs), time depends on the value. The
  /// inverse of 0 is 0.
  MontField inverse_vartime() const;

  /// Legendre symbol: 1 for a non-zero square, −1 for a non-square, 0 for zero.
  constexpr int legendre() const {
    MontField t = pow_vartime(kHalfPMinus1);
    if (t.is_zero()) return 0;
    return t.is_one() ? 1 : -1;
  }
  /// A square root (either one), or nullopt when none exists. p ≡ 3 mod 4: a^((p+1)/4);
  /// otherwise Tonelli–Shanks with the non-residue P::nonresidue.
  std::optional<MontField> sqrt() const;

  /// True when the canonical value exceeds (p − 1)/2 (the ZCash "lexicographically largest" test).
  constexpr bool is_lexicographically_largest() const {
    return limbs_cmp(to_canonical(), kHalfPMinus1) > 0;
  }

  /// Canonical value as kBytes bytes, big-endian (ZCash encodings) or little-endian (Fr repr).
  void to_bytes_be(std::span<std::uint8_t, kBytes> out) const;
  void to_bytes_le(std::span<std::uint8_t, kBytes> out) const;
  /// Parses kBytes canonical bytes; out_of_range when the value is ≥ p.
  static Result<MontField> from_bytes_be(std::span<const std::uint8_t, kBytes> in);
  static Result<MontField> from_bytes_le(std::span<const std::uint8_t, kBytes> in);

  /// "0x"-prefixed lowercase hex of the canonical value, without leading zeros ("0x0" for zero).
  std::string to_hex() const;
  /// Decimal string of the canonical value.
  std::string to_dec() const;
  /// Parses hex with or without "0x" (bad_encoding on other characters, out_of_range when ≥ p).
  static Result<MontField> from_hex(std::string_view s);
  /// Parses a decimal string (bad_encoding on other characters, out_of_range when ≥ p).
  static Result<MontField> from_dec(std::string_view s);
  /// Parses "0x…" as hex and anything else as decimal.
  static Result<MontField> from_string(std::string_view s);

  /// Portable r = a + b mod p (inputs < p, output < p); no carry out since 2p < 2^(64N).
  static constexpr void add_portable(Repr& r, const Repr& a, const Repr& b) {
    limbs_add(r, a, b);
    reduce_once_limbs(r);
  }
  /// Portable r = a − b mod p: adds p back when a < b, masked so the timing does not depend on
  /// the values.
  static constexpr void sub_portable(Repr& r, const Repr& a, const Repr& b) {
    std::uint64_t br = limbs_sub(r, a, b);
    const std::uint64_t mask = 0 - br;
    std::uint64_t c = 0;
    CUZK_UNROLL
    for (std::size_t i = 0; i < N; ++i) r[i] = adc(r[i], kModulus[i] & mask, c);
  }

  /// Portable CIOS multiplication r = a·b·R^{-1} mod p (inputs < p, output < p).
  static constexpr void mul_portable(Repr& r, const Repr& a, const Repr& b) {
    Repr t{};
    CUZK_UNROLL
    for (std::size_t i = 0; i < N; ++i) {
      std::uint64_t A = 0;
      t[0] = mac(t[0], a[0], b[i], A);
      const std::uint64_t m = t[0] * kInv;
      std::uint64_t C = 0;
      (void)mac(t[0], m, kModulus[0], C);
      CUZK_UNROLL
      for (std::size_t j = 1; j < N; ++j) {
        t[j] = mac(t[j], a[j], b[i], A);
        t[j - 1] = mac(t[j], m, kModulus[j], C);
      }
      t[N - 1] = C + A;
    }
    r = t;
    reduce_once_limbs(r);
  }

  /// r = a·b·R^{-1} mod p with the mulx/adx code (mont_x86.hpp); the caller guarantees the CPU has
  /// BMI2 and ADX (mont_x86::cpu_has_mulx_adx()). Only for fields with kHasAsmPath.
  static void mul_asm_unchecked(Repr& r, const Repr& a, const Repr& b) requires kHasAsmPath {
#if CUZK_FF_X86_ASM
    if constexpr (N == 6) {
      mont_x86::mul6<kModulus, kInv>(r, a, b);
    } else {
      mont_x86::mul4<kModulus, kInv>(r, a, b);
    }
#endif
  }

  /// r = a + b mod p and r = a − b mod p with add/adc, sub/sbb and cmov (base x86-64, no CPU check
  /// needed). Only for fields with kHasAsmPath; inputs < p.
  static void add_asm(Repr& r, const Repr& a, const Repr& b) requires kHasAsmPath {
#if CUZK_FF_X86_ASM
    if constexpr (N == 6) {
      mont_x86::add6<kModulus>(r, a, b);
    } else {
      mont_x86::add4<kModulus>(r, a, b);
    }
#endif
  }
  static void sub_asm(Repr& r, const Repr& a, const Repr& b) requires kHasAsmPath {
#if CUZK_FF_X86_ASM
    if constexpr (N == 6) {
      mont_x86::sub6<kModulus>(r, a, b);
    } else {
      mont_x86::sub4<kModulus>(r, a, b);
    }
#endif
  }

  /// r = a²·R^{-1} mod p with the mulx/adx code: a dedicated squaring for N = 6 (57 word products
  /// instead of 72), the multiplication for N = 4. Same precondition as mul_asm_unchecked.
  static void sqr_asm_unchecked(Repr& r, const Repr& a) requires kHasAsmPath {
#if CUZK_FF_X86_ASM
    if constexpr (N == 6) {
      mont_x86::sqr6<kModulus, kInv>(r, a);
    } else {
      mont_x86::mul4<kModulus, kInv>(r, a, a);
    }
#endif
  }

  /// a ← a^(2^n) (Montgomery squarings) for n ≥ 1 with the squaring loop of mont_x86.hpp, partly
  /// reduced: needs a < 2p, leaves a < 2p (not a field element: for tests of the kernel).
  static void sqr_n_nonred_asm_unchecked(Repr& a, unsigned n) requires(kHasAsmPath&& N == 6) {
#if CUZK_FF_X86_ASM
    mont_x86::sqr_n6_nonred<kModulus, kInv>(a, n);
#endif
  }
  /// a ← a^(2^n) for n ≥ 1, fully reduced (the loop above and one conditional subtraction).
  static void sqr_n_asm_unchecked(Repr& a, unsigned n) requires(kHasAsmPath&& N == 6) {
    sqr_n_nonred_asm_unchecked(a, n);
    reduce_once_limbs(a);
  }
  /// a ← a^(2^n)·b for n ≥ 1, b < p: the loop, then mul6 (which takes its first operand < 2p).
  static void sqr_n_mul_asm_unchecked(Repr& a, unsigned n,
                                      const Repr& b) requires(kHasAsmPath&& N == 6) {
    sqr_n_nonred_asm_unchecked(a, n);
    mul_asm_unchecked(a, a, b);
  }

  /// Run-time multiplication: mulx/adx when the CPU has it and tests have not switched it off
  /// (mont_x86::set_asm_enabled), else the portable CIOS.
  static void mul_runtime(Repr& r, const Repr& a, const Repr& b) {
    if constexpr (kHasAsmPath) {
      if (mont_x86::g_use_asm) [[likely]] {
        mul_asm_unchecked(r, a, b);
      } else {
        mul_portable_outlined(r, a, b);
      }
    } else {
      mul_portable(r, a, b);
    }
  }

 private:
  // The fallback kept out of line, so every inlined multiplication carries only the asm body.
  [[gnu::noinline]] static void mul_portable_outlined(Repr& r, const Repr& a, const Repr& b) {
    mul_portable(r, a, b);
  }
  [[gnu::noinline]] static void add_portable_outlined(Repr& r, const Repr& a, const Repr& b) {
    add_portable(r, a, b);
  }
  [[gnu::noinline]] static void sub_portable_outlined(Repr& r, const Repr& a, const Repr& b) {
    sub_portable(r, a, b);
  }
  static constexpr void reduce_once_limbs(Repr& v) {
    Repr s{};
    std::uint64_t br = limbs_sub(s, v, kModulus);
    const std::uint64_t mask = 0 - br;  // all ones when v < p: keep v
    CUZK_UNROLL
    for (std::size_t i = 0; i < N; ++i) v[i] = (v[i] & mask) | (s[i] & ~mask);
  }
  constexpr void reduce_once() { reduce_once_limbs(l); }
};

}  // namespace cuzk

#include "cuzk/ff/mont_impl.hpp"
