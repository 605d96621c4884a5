// Fp12 = Fp6[w]/(w² − v), element c0 + c1·w; equivalently Fp2[w]/(w⁶ − ξ), ξ = u + 1.
// Costs in Fp2 operations (m = 3 Fp mul, s = 2 Fp mul): mul 18m (Karatsuba over Fp6), square 12m
// (complex squaring), sparse line product mul_by_014 13m, cyclotomic square 9s (Granger–Scott
// 2010), Frobenius 10m, inverse 1 Fp6 inverse + 2 Fp6 square + 6m.
#pragma once

#include "cuzk/ff/fp6.hpp"

namespace cuzk {

struct Fp12 {
  Fp6 c0, c1;

  /// |x| of the BLS parameter x = −0xd201000000010000 (FORMATS.md §1.1, vectors `curve.x_param`).
  static constexpr std::uint64_t kBlsX = 0xd201000000010000ULL;

  static constexpr Fp12 zero() { return {}; }
  static constexpr Fp12 one() { return {Fp6::one(), Fp6::zero()}; }
  constexpr bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  constexpr bool is_one() const { return c0.is_one() && c1.is_zero(); }
  friend constexpr bool operator==(const Fp12& a, const Fp12& b) = default;

  friend constexpr Fp12 operator+(const Fp12& a, const Fp12& b) {
    return {a.c0 + b.c0, a.c1 + b.c1};
  }
  friend constexpr Fp12 operator-(const Fp12& a, const Fp12& b) {
    return {a.c0 - b.c0, a.c1 - b.c1};
  }
  constexpr Fp12 operator-() const { return {-c0, -c1}; }

  /// aa = a0b0, bb = a1b1; c0 = aa + v·bb, c1 = (a0 + a1)(b0 + b1) − aa − bb; 3 Fp6 mul = 18m.
  friend constexpr Fp12 operator*(const Fp12& a, const Fp12& b) {
    const Fp6 aa = a.c0 * b.c0, bb = a.c1 * b.c1;
    return {aa + bb.mul_by_nonresidue(), (a.c0 + a.c1) * (b.c0 + b.c1) - aa - bb};
  }
  constexpr Fp12& operator*=(const Fp12& b) { return *this = *this * b; }
  constexpr Fp12& operator+=(const Fp12& b) { return *this = *this + b; }
  constexpr Fp12& operator-=(const Fp12& b) { return *this = *this - b; }

  /// Complex squaring: ab = a0a1; c0 = (a0 + a1)(a0 + v·a1) − ab − v·ab, c1 = 2ab; 2 Fp6 mul = 12m.
  constexpr Fp12 square() const {
    const Fp6 ab = c0 * c1;
    const Fp6 t = (c0 + c1) * (c0 + c1.mul_by_nonresidue());
    return {t - ab - ab.mul_by_nonresidue(), ab.dbl()};
  }

  /// Conjugate c0 − c1·w = x^(p⁶); the inverse for elements of the cyclotomic subgroup.
  constexpr Fp12 conjugate() const { return {c0, -c1}; }

  /// 1/a = (c0 − c1·w)/(c0² − v·c1²). The inverse of 0 is 0. Constant time.
  constexpr Fp12 inverse() const {
    const Fp6 t = (c0.square() - c1.square().mul_by_nonresidue()).inverse();
    return {c0 * t, -(c1 * t)};
  }

  /// Product with the sparse line value l0 + l1·v + l4·v·w (coefficients 0, 1, 4 in the basis
  /// 1, v, v², w, vw, v²w): aa = a0·(l0 + l1v) [5m], bb = a1·l4v [3m],
  /// c1 = (a0 + a1)(l0 + (l1 + l4)v) − aa − bb [5m], c0 = aa + v·bb; 13m.
  constexpr Fp12 mul_by_014(const Fp2& l0, const Fp2& l1, const Fp2& l4) const {
    const Fp6 aa = c0.mul_by_01(l0, l1);
    const Fp6 bb = c1.mul_by_1(l4);
    const Fp6 t = (c0 + c1).mul_by_01(l0, l1 + l4);
    return {aa + bb.mul_by_nonresidue(), t - aa - bb};
  }

  /// x ↦ x^(p^k) for k = 1, 2, 3: c0 as in Fp6; c1's coefficient of v^i·w gets ξ^((2i+1)(p^k−1)/6).
  constexpr Fp12 frobenius_map_1to3(unsigned k) const {
    const Fp2* g = kFrobGamma[k - 1];
    const Fp6 a = c0.frobenius_map_1to3(k);
    const Fp6 b{c1.c0.frobenius_map(k) * g[0], c1.c1.frobenius_map(k) * g[2],
                c1.c2.frobenius_map(k) * g[4]};
    return {a, b};
  }
  /// x ↦ x^(p^k) for any k (period 12), as steps of at most 3.
  constexpr Fp12 frobenius_map(unsigned k) const {
    Fp12 r = *this;
    for (unsigned m = k % 12; m > 0;) {
      const unsigned step = m < 3 ? m : 3;
      r = r.frobenius_map_1to3(step);
      m -= step;
    }
    return r;
  }

  /// Squaring in the cyclotomic subgroup G_Φ6(p²) (elements with x^(p⁶+1) = 1 and x^(p⁴−p²+1)
  /// structure after the easy part), Granger–Scott 2010 §3.2. View x = A + B·w + C·w² over
  /// Fp4 = Fp2[s]/(s² − ξ), s = w³: A = c0.c0 + c1.c1·s, B = c1.c0 + c0.c2·s, C = c0.c1 + c1.c2·s.
  /// Then x² = (3A² − 2Ā) + (3sC² + 2B̄)w + (3B² − 2C̄)w², Ā the Fp4 conjugate; 3 Fp4 squares = 9s.
  /// Only valid on the cyclotomic subgroup (the test checks it against square()).
  constexpr Fp12 cyclotomic_square() const {
    Fp2 a0, a1, b0, b1, c0s, c1s;
    fp4_square(a0, a1, c0.c0, c1.c1);    // A²
    fp4_square(b0, b1, c1.c0, c0.c2);    // B²
    fp4_square(c0s, c1s, c0.c1, c1.c2);  // C²
    Fp12 r;
    // A' = 3A² − 2Ā: (3a0 − 2·A.0, 3a1 + 2·A.1)
    r.c0.c0 = (a0 - c0.c0).dbl() + a0;
    r.c1.c1 = (a1 + c1.c1).dbl() + a1;
    // B' = 3sC² + 2B̄, sC² = ξ·c1s + c0s·s: (3ξc1s + 2·B.0, 3c0s − 2·B.1)
    const Fp2 xc = c1s.mul_by_nonresidue();
    r.c1.c0 = (xc + c1.c0).dbl() + xc;
    r.c0.c2 = (c0s - c0.c2).dbl() + c0s;
    // C' = 3B² − 2C̄: (3b0 − 2·C.0, 3b1 + 2·C.1)
    r.c0.c1 = (b0 - c0.c1).dbl() + b0;
    r.c1.c2 = (b1 + c1.c2).dbl() + b1;
    return r;
  }

  /// x^|x_BLS| by square-and-multiply over the 64-bit constant, cyclotomic squares (63 squares,
  /// 5 mul); only valid on the cyclotomic subgroup. Variable time in the public constant only.
  constexpr Fp12 cyclotomic_pow_abs_x() const {
    Fp12 r = *this;
    for (int i = 62; i >= 0; --i) {
      r = r.cyclotomic_square();
      if ((kBlsX >> i) & 1) r *= *this;
    }
    return r;
  }
  /// x^x_BLS for the negative BLS parameter: the conjugate of x^|x_BLS| (cyclotomic subgroup only).
  constexpr Fp12 cyclotomic_pow_x() const { return cyclotomic_pow_abs_x().conjugate(); }

  /// a^e for a little-endian exponent, generic squaring, variable time in e.
  template <std::size_t M>
  constexpr Fp12 pow_vartime(const Limbs<M>& e) const {
    Fp12 r = one();
    for (unsigned i = limbs_bit_length(e); i-- > 0;) {
      r = r.square();
      if (limbs_bit(e, i)) r *= *this;
    }
    return r;
  }

 private:
  /// (a + b·s)² in Fp4 = Fp2[s]/(s² − ξ): (a² + ξb², (a + b)² − a² − b²); 3s.
  static constexpr void fp4_square(Fp2& r0, Fp2& r1, const Fp2& a, const Fp2& b) {
    const Fp2 t0 = a.square(), t1 = b.square();
    r0 = t1.mul_by_nonresidue() + t0;
    r1 = (a + b).square() - t0 - t1;
  }
};

}  // namespace cuzk
