// Fp6 = Fp2[v]/(v³ − ξ), ξ = u + 1, element c0 + c1·v + c2·v² (FORMATS/vectors `encodings_note.fp12`).
// Costs in Fp2 operations (m, s = Fp2 mul, square; one m = 3 Fp mul, one s = 2 Fp mul):
// mul 6m (Karatsuba, Devegili–Ó hÉigeartaigh–Scott–Dahab 2006), square 2m + 3s (Chung–Hasan CH-SQR2),
// inverse 9m + 3s + 1 Fp2 inverse, Frobenius 2m.
#pragma once

#include "cuzk/ff/fp2.hpp"
#include "cuzk/ff/frobenius_consts.hpp"

namespace cuzk {

struct Fp6 {
  Fp2 c0, c1, c2;

  static constexpr Fp6 zero() { return {}; }
  static constexpr Fp6 one() { return {Fp2::one(), Fp2::zero(), Fp2::zero()}; }
  constexpr bool is_zero() const { return c0.is_zero() && c1.is_zero() && c2.is_zero(); }
  constexpr bool is_one() const { return c0.is_one() && c1.is_zero() && c2.is_zero(); }
  friend constexpr bool operator==(const Fp6& a, const Fp6& b) = default;

  friend constexpr Fp6 operator+(const Fp6& a, const Fp6& b) {
    return {a.c0 + b.c0, a.c1 + b.c1, a.c2 + b.c2};
  }
  friend constexpr Fp6 operator-(const Fp6& a, const Fp6& b) {
    return {a.c0 - b.c0, a.c1 - b.c1, a.c2 - b.c2};
  }
  constexpr Fp6 operator-() const { return {-c0, -c1, -c2}; }
  constexpr Fp6 dbl() const { return {c0.dbl(), c1.dbl(), c2.dbl()}; }

  /// v0 = a0b0, v1 = a1b1, v2 = a2b2;
  /// c0 = v0 + ξ((a1 + a2)(b1 + b2) − v1 − v2), c1 = (a0 + a1)(b0 + b1) − v0 − v1 + ξv2,
  /// c2 = (a0 + a2)(b0 + b2) − v0 − v2 + v1; 6m.
  friend constexpr Fp6 operator*(const Fp6& a, const Fp6& b) {
    const Fp2 v0 = a.c0 * b.c0, v1 = a.c1 * b.c1, v2 = a.c2 * b.c2;
    const Fp2 t0 = ((a.c1 + a.c2) * (b.c1 + b.c2) - v1 - v2).mul_by_nonresidue() + v0;
    const Fp2 t1 = (a.c0 + a.c1) * (b.c0 + b.c1) - v0 - v1 + v2.mul_by_nonresidue();
    const Fp2 t2 = (a.c0 + a.c2) * (b.c0 + b.c2) - v0 - v2 + v1;
    return {t0, t1, t2};
  }
  constexpr Fp6& operator+=(const Fp6& b) { return *this = *this + b; }
  constexpr Fp6& operator-=(const Fp6& b) { return *this = *this - b; }
  constexpr Fp6& operator*=(const Fp6& b) { return *this = *this * b; }

  /// CH-SQR2: s0 = a0², s1 = 2a0a1, s2 = (a0 − a1 + a2)², s3 = 2a1a2, s4 = a2²;
  /// c0 = s0 + ξs3, c1 = s1 + ξs4, c2 = s1 + s2 + s3 − s0 − s4; 2m + 3s.
  constexpr Fp6 square() const {
    const Fp2 s0 = c0.square(), s1 = (c0 * c1).dbl(), s2 = (c0 - c1 + c2).square();
    const Fp2 s3 = (c1 * c2).dbl(), s4 = c2.square();
    return {s0 + s3.mul_by_nonresidue(), s1 + s4.mul_by_nonresidue(), s1 + s2 + s3 - s0 - s4};
  }

  /// Multiplication by v: (c0 + c1v + c2v²)·v = ξc2 + c0v + c1v²; 0m.
  constexpr Fp6 mul_by_nonresidue() const { return {c2.mul_by_nonresidue(), c0, c1}; }
  /// Multiplication by an Fp2 scalar; 3m.
  constexpr Fp6 mul_fp2(const Fp2& s) const { return {c0 * s, c1 * s, c2 * s}; }

  /// Sparse product by b0 + b1·v: c0 = a0b0 + ξa2b1, c1 = (a0 + a1)(b0 + b1) − a0b0 − a1b1,
  /// c2 = a1b1 + a2b0; 5m.
  constexpr Fp6 mul_by_01(const Fp2& b0, const Fp2& b1) const {
    const Fp2 v0 = c0 * b0, v1 = c1 * b1;
    return {(c2 * b1).mul_by_nonresidue() + v0, (c0 + c1) * (b0 + b1) - v0 - v1, v1 + c2 * b0};
  }
  /// Sparse product by b1·v: ξa2b1 + a0b1·v + a1b1·v²; 3m.
  constexpr Fp6 mul_by_1(const Fp2& b1) const {
    return {(c2 * b1).mul_by_nonresidue(), c0 * b1, c1 * b1};
  }

  /// 1/a by the adjugate: t0 = a0² − ξa1a2, t1 = ξa2² − a0a1, t2 = a1² − a0a2,
  /// d = a0t0 + ξ(a2t1 + a1t2), 1/a = (t0, t1, t2)/d. The inverse of 0 is 0. Constant time.
  constexpr Fp6 inverse() const {
    const Fp2 t0 = c0.square() - (c1 * c2).mul_by_nonresidue();
    const Fp2 t1 = c2.square().mul_by_nonresidue() - c0 * c1;
    const Fp2 t2 = c1.square() - c0 * c2;
    const Fp2 d = c0 * t0 + (c2 * t1 + c1 * t2).mul_by_nonresidue();
    return mul_fp2_inv(t0, t1, t2, d.inverse());
  }

  /// x ↦ x^(p^k) for k = 1, 2, 3: coefficient-wise Fp2 Frobenius, then v^i gets
  /// ξ^(i(p^k−1)/3) = kFrobGamma[k−1][2i−1]; 2m.
  constexpr Fp6 frobenius_map_1to3(unsigned k) const {
    const Fp2* g = kFrobGamma[k - 1];
    return {c0.frobenius_map(k), c1.frobenius_map(k) * g[1], c2.frobenius_map(k) * g[3]};
  }
  /// x ↦ x^(p^k) for any k (period 6), as steps of at most 3.
  constexpr Fp6 frobenius_map(unsigned k) const {
    Fp6 r = *this;
    for (unsigned m = k % 6; m > 0;) {
      const unsigned step = m < 3 ? m : 3;
      r = r.frobenius_map_1to3(step);
      m -= step;
    }
    return r;
  }

  /// a^e for a little-endian exponent, variable time in e (tests and constants only).
  template <std::size_t M>
  constexpr Fp6 pow_vartime(const Limbs<M>& e) const {
    Fp6 r = one();
    for (unsigned i = limbs_bit_length(e); i-- > 0;) {
      r = r.square();
      if (limbs_bit(e, i)) r *= *this;
    }
    return r;
  }

 private:
  static constexpr Fp6 mul_fp2_inv(const Fp2& t0, const Fp2& t1, const Fp2& t2, const Fp2& dinv) {
    return {t0 * dinv, t1 * dinv, t2 * dinv};
  }
};

}  // namespace cuzk
