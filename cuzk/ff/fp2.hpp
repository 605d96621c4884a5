// Fp2 = Fp[u]/(u² + 1), element c0 + c1·u. Costs (M, S = Fp mul, square): mul 3M (Karatsuba),
// square 2M, inverse 1 Fp inverse + 2M + 2S. Frobenius (x ↦ x^p) is conjugation, since u^p = −u
// for p ≡ 3 mod 4. Serialization order c1 then c0 (FORMATS.md §1.1).
#pragma once

#include <cstddef>
#include <optional>
#include <type_traits>

#include "cuzk/ff/fp.hpp"

namespace cuzk {

namespace fp2_detail {
/// p² as 12 words (the lazy-reduction Karatsuba adds it to keep T0 − T1 positive; mont_x86.hpp).
constexpr Limbs<12> square_wide(const Limbs<6>& a) {
  Limbs<12> w{};
  for (std::size_t i = 0; i < 6; ++i) {
    u128 carry = 0;
    for (std::size_t j = 0; j < 6; ++j) {
      const u128 t = static_cast<u128>(a[i]) * a[j] + w[i + j] + carry;
      w[i + j] = static_cast<std::uint64_t>(t);
      carry = t >> 64;
    }
    w[i + 6] = static_cast<std::uint64_t>(carry);
  }
  return w;
}
inline constexpr Limbs<12> kP2 = square_wide(Fp::kModulus);
/// The lazy-reduction path on or off (Fp2::set_lazy_enabled; benchmarks and tests only).
inline bool g_lazy = true;
}  // namespace fp2_detail

struct Fp2 {
  Fp c0, c1;

  static constexpr Fp2 zero() { return {}; }
  static constexpr Fp2 one() { return {Fp::one(), Fp::zero()}; }
  constexpr bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  constexpr bool is_one() const { return c0.is_one() && c1.is_zero(); }
  friend constexpr bool operator==(const Fp2& a, const Fp2& b) = default;

  // Inlined like Fp's (an out-of-line Fp2 subtraction was ≈ 3 % of a G2 MSM in perf).
  [[gnu::always_inline]] friend constexpr Fp2 operator+(const Fp2& a, const Fp2& b) {
    return {a.c0 + b.c0, a.c1 + b.c1};
  }
  [[gnu::always_inline]] friend constexpr Fp2 operator-(const Fp2& a, const Fp2& b) {
    return {a.c0 - b.c0, a.c1 - b.c1};
  }
  [[gnu::always_inline]] constexpr Fp2 operator-() const { return {-c0, -c1}; }
  [[gnu::always_inline]] constexpr Fp2 dbl() const { return {c0.dbl(), c1.dbl()}; }
  /// (a0 + a1u)(b0 + b1u) = (a0b0 − a1b1) + ((a0 + a1)(b0 + b1) − a0b0 − a1b1)u; 3M. On the Fp
  /// assembly path with lazy reduction (mont_x86::fp2_mul6: three 768-bit products, two
  /// reductions); mul_plain is the formula with reduced Fp operations, its slow twin.
  friend constexpr Fp2 operator*(const Fp2& a, const Fp2& b) {
    if (!std::is_constant_evaluated() && lazy_asm()) {
      Fp2 r;
      mul_lazy(r, a, b);
      return r;
    }
    return mul_plain(a, b);
  }
  static constexpr Fp2 mul_plain(const Fp2& a, const Fp2& b) {
    Fp t0 = a.c0 * b.c0, t1 = a.c1 * b.c1;
    return {t0 - t1, (a.c0 + a.c1) * (b.c0 + b.c1) - t0 - t1};
  }
  constexpr Fp2& operator+=(const Fp2& b) { return *this = *this + b; }
  constexpr Fp2& operator-=(const Fp2& b) { return *this = *this - b; }
  constexpr Fp2& operator*=(const Fp2& b) {
    if (!std::is_constant_evaluated() && lazy_asm()) {
      mul_lazy(*this, *this, b);
      return *this;
    }
    return *this = mul_plain(*this, b);
  }
  /// (a0 + a1u)² = (a0 + a1)(a0 − a1) + 2a0a1·u; 2M. (A lazy form with unreduced operands,
  /// mont_x86 style, measured no faster: docs/perf/msm.md Version 3.)
  constexpr Fp2 square() const {
    Fp t = c0 * c1;
    return {(c0 + c1) * (c0 - c1), t.dbl()};
  }
  /// Whether multiplication takes the lazy-reduction assembly (Fp's mulx/adx path is on).
  static bool lazy_asm() {
#if CUZK_FF_X86_ASM
    return mont_x86::g_use_asm && fp2_detail::g_lazy;
#else
    return false;
#endif
  }
  /// Turns the lazy-reduction path off (the plain formula, on whatever Fp path is on) or back on;
  /// returns the previous setting. For A/B benchmarks and tests, not while other threads compute.
  static bool set_lazy_enabled(bool on) {
    const bool prev = fp2_detail::g_lazy;
    fp2_detail::g_lazy = on;
    return prev;
  }
  /// Multiplication by an Fp scalar; 2M.
  constexpr Fp2 mul_fp(const Fp& s) const { return {c0 * s, c1 * s}; }
  /// Multiplication by the sextic non-residue ξ = u + 1: (c0 − c1) + (c0 + c1)u; 0M.
  constexpr Fp2 mul_by_nonresidue() const { return {c0 - c1, c0 + c1}; }
  /// Conjugate c0 − c1·u, which is also the Frobenius map x ↦ x^p.
  constexpr Fp2 conjugate() const { return {c0, -c1}; }
  constexpr Fp2 frobenius_map(unsigned power) const { return (power & 1) ? conjugate() : *this; }
  /// Norm c0² + c1² in Fp.
  constexpr Fp norm() const { return c0.square() + c1.square(); }
  /// 1/x = conj(x)/norm(x); the inverse of 0 is 0. Constant time.
  constexpr Fp2 inverse() const { return conjugate().mul_fp(norm().inverse()); }
  Fp2 inverse_vartime() const { return conjugate().mul_fp(norm().inverse_vartime()); }
  /// x is a square in Fp2 iff its norm is a square in Fp.
  int legendre() const { return norm().legendre(); }

  /// x^e for a little-endian exponent, variable time in e (never in x). Exponents over 32 bits
  /// use 4-bit fixed windows: b squarings + ~b/4 + 14 multiplications for a b-bit e.
  template <std::size_t M>
  constexpr Fp2 pow_vartime(const Limbs<M>& e) const {
    const unsigned nbits = limbs_bit_length(e);
    Fp2 r = one();
    if (nbits <= 32) {
      for (unsigned i = nbits; i-- > 0;) {
        r = r.square();
        if (limbs_bit(e, i)) r *= *this;
      }
      return r;
    }
    Fp2 table[16];  // table[d] = x^d
    table[0] = one();
    table[1] = *this;
    for (unsigned d = 2; d < 16; ++d) table[d] = table[d - 1] * *this;
    const unsigned windows = (nbits + 3) / 4;
    for (unsigned w = windows; w-- > 0;) {
      const unsigned bit = 4 * w;
      const unsigned d = static_cast<unsigned>((e[bit / 64] >> (bit % 64)) & 0xf);
      if (w + 1 == windows) {
        r = table[d];
        continue;
      }
      r = r.square().square().square().square();
      if (d != 0) r *= table[d];
    }
    return r;
  }

  /// A square root, or nullopt. Adj–Rodríguez-Henríquez 2012, Alg. 9 (p ≡ 3 mod 4):
  /// a1 = x^((p−3)/4), α = a1²·x, x0 = a1·x; α = −1 → u·x0; else (1 + α)^((p−1)/2)·x0.
  std::optional<Fp2> sqrt() const {
    if (is_zero()) return zero();
    static constexpr Limbs<6> kP34 = limbs_shr(limbs_sub_small(Fp::kModulus, 3), 2);
    static constexpr Limbs<6> kP12 = Fp::kHalfPMinus1;
    Fp2 a1 = pow_vartime(kP34);
    Fp2 alpha = a1.square() * *this;
    Fp2 x0 = a1 * *this;
    Fp2 r;
    if (alpha == -one()) {
      r = {-x0.c1, x0.c0};  // u·x0
    } else {
      r = (alpha + one()).pow_vartime(kP12) * x0;
    }
    if (r.square() != *this) return std::nullopt;
    return r;
  }

  /// ZCash rule: compare c1 when it is non-zero, else c0.
  bool is_lexicographically_largest() const {
    return c1.is_zero() ? c0.is_lexicographically_largest() : c1.is_lexicographically_largest();
  }

 private:
  static void mul_lazy(Fp2& r, const Fp2& a, const Fp2& b) {
#if CUZK_FF_X86_ASM
    mont_x86::fp2_mul6<Fp::kModulus, Fp::kInv, fp2_detail::kP2>(r.c0.l.data(), a.c0.l.data(),
                                                                b.c0.l.data());
#else
    r = mul_plain(a, b);
#endif
  }
};
// The lazy paths read c0 and c1 as 12 consecutive words.
static_assert(sizeof(Fp2) == 96 && offsetof(Fp2, c1) == 48);

}  // namespace cuzk
