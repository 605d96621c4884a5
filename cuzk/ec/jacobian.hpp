// Jacobian<C>: (X : Y : Z) ↦ (X/Z², Y/Z³) on y² = x³ + b (a = 0); the identity has Z = 0.
// Formulas from the Explicit-Formulas Database (EFD, g1p/shortw/jacobian-0), M = field mul, S = square:
//   add-2007-bl   11M + 5S   general addition
//   madd-2007-bl   7M + 4S   addition of an affine point (Z2 = 1)
//   dbl-2009-l     2M + 5S   doubling
// The special cases (identity inputs, P = ±Q) are branches on field equality: the formulas are correct
// for every input, but their timing depends on the special cases.
#pragma once

#include "cuzk/ec/affine.hpp"
#include "cuzk/ec/hd.hpp"

namespace cuzk {

template <class C>
struct Jacobian {
  using Curve = C;
  using Field = typename C::Field;
  using AffinePoint = Affine<C>;

  Field X, Y, Z;

  /// (1 : 1 : 0).
  CUZK_HD static constexpr Jacobian identity() {
    return {Field::one(), Field::one(), Field::zero()};
  }
  CUZK_HD static constexpr Jacobian generator() { return from_affine(AffinePoint::generator()); }
  /// (x : y : 1), or the identity.
  CUZK_HD static constexpr Jacobian from_affine(const AffinePoint& a) {
    return a.infinity ? identity() : Jacobian{a.x, a.y, Field::one()};
  }
  CUZK_HD constexpr bool is_identity() const { return Z.is_zero(); }

  /// Affine form with a constant-time inversion of Z (1I + 3M + 1S).
  constexpr AffinePoint to_affine() const {
    if (is_identity()) return AffinePoint::identity();
    return with_z_inverse(Z.inverse());
  }
  /// Affine form with a variable-time inversion (much faster; for public points).
  AffinePoint to_affine_vartime() const {
    if (is_identity()) return AffinePoint::identity();
    return with_z_inverse(Z.inverse_vartime());
  }
  /// (X·zi², Y·zi³) for |zi| = 1/Z (used by the batch conversion).
  CUZK_HD constexpr AffinePoint with_z_inverse(const Field& zi) const {
    const Field zi2 = zi.square();
    return {X * zi2, Y * zi2 * zi, false};
  }

  /// Y² = X³ + b·Z⁶ (the identity counts as on the curve).
  CUZK_HD constexpr bool is_on_curve() const {
    if (is_identity()) return true;
    const Field z2 = Z.square();
    const Field z6 = z2.square() * z2;
    return Y.square() == X.square() * X + C::kB * z6;
  }

  /// Equal as group elements: X1·Z2² = X2·Z1² and Y1·Z2³ = Y2·Z1³ (4M + 2S).
  CUZK_HD friend constexpr bool operator==(const Jacobian& p, const Jacobian& q) {
    const bool pi = p.is_identity(), qi = q.is_identity();
    if (pi || qi) return pi == qi;
    const Field z1z1 = p.Z.square(), z2z2 = q.Z.square();
    if (!(p.X * z2z2 == q.X * z1z1)) return false;
    return p.Y * z2z2 * q.Z == q.Y * z1z1 * p.Z;
  }

  /// −(X : Y : Z) = (X : −Y : Z).
  CUZK_HD constexpr Jacobian operator-() const { return {X, -Y, Z}; }
  CUZK_HD constexpr void negate() { Y = -Y; }

  /// this ← 2·this, dbl-2009-l (2M + 5S): A = X², B = Y², C = B², D = 2((X+B)² − A − C), E = 3A,
  /// X3 = E² − 2D, Y3 = E(D − X3) − 8C, Z3 = 2YZ. The identity (and a 2-torsion point) maps to Z3 = 0.
  CUZK_HD constexpr void dbl() {
    const Field a = X.square();
    const Field b = Y.square();
    const Field c = b.square();
    const Field d = ((X + b).square() - a - c).dbl();
    const Field e = a.dbl() + a;
    const Field f = e.square();
    const Field z3 = (Y * Z).dbl();
    X = f - d.dbl();
    Y = e * (d - X) - c.dbl().dbl().dbl();
    Z = z3;
  }

  /// this ← this + q, add-2007-bl (11M + 5S); falls back to dbl() when the inputs are equal.
  CUZK_HD constexpr void add(const Jacobian& q) {
    if (q.is_identity()) return;
    if (is_identity()) {
      *this = q;
      return;
    }
    const Field z1z1 = Z.square();
    const Field z2z2 = q.Z.square();
    const Field u1 = X * z2z2;
    const Field u2 = q.X * z1z1;
    const Field s1 = Y * q.Z * z2z2;
    const Field s2 = q.Y * Z * z1z1;
    const Field h = u2 - u1;
    const Field r = (s2 - s1).dbl();
    if (h.is_zero()) {
      if (r.is_zero())
        dbl();
      else
        *this = identity();
      return;
    }
    const Field i = h.dbl().square();
    const Field j = h * i;
    const Field v = u1 * i;
    const Field x3 = r.square() - j - v.dbl();
    const Field y3 = r * (v - x3) - (s1 * j).dbl();
    Z = ((Z + q.Z).square() - z1z1 - z2z2) * h;
    X = x3;
    Y = y3;
  }

  /// this ← this + q for an affine q, madd-2007-bl (7M + 4S); falls back to dbl() on equal inputs.
  CUZK_HD constexpr void add_mixed(const AffinePoint& q) {
    if (q.infinity) return;
    if (is_identity()) {
      *this = from_affine(q);
      return;
    }
    const Field z1z1 = Z.square();
    const Field u2 = q.x * z1z1;
    const Field s2 = q.y * Z * z1z1;
    const Field h = u2 - X;
    const Field r = (s2 - Y).dbl();
    if (h.is_zero()) {
      if (r.is_zero())
        dbl();
      else
        *this = identity();
      return;
    }
    const Field hh = h.square();
    const Field i = hh.dbl().dbl();
    const Field j = h * i;
    const Field v = X * i;
    const Field x3 = r.square() - j - v.dbl();
    const Field y3 = r * (v - x3) - (Y * j).dbl();
    Z = (Z + h).square() - z1z1 - hh;
    X = x3;
    Y = y3;
  }

  /// this ← this − q (affine).
  CUZK_HD constexpr void sub_mixed(const AffinePoint& q) { add_mixed(-q); }

  CUZK_HD friend constexpr Jacobian operator+(Jacobian p, const Jacobian& q) {
    p.add(q);
    return p;
  }
  CUZK_HD friend constexpr Jacobian operator-(Jacobian p, const Jacobian& q) {
    p.add(-q);
    return p;
  }
  CUZK_HD friend constexpr Jacobian operator+(Jacobian p, const AffinePoint& q) {
    p.add_mixed(q);
    return p;
  }
  CUZK_HD constexpr Jacobian& operator+=(const Jacobian& q) {
    add(q);
    return *this;
  }
  CUZK_HD constexpr Jacobian& operator+=(const AffinePoint& q) {
    add_mixed(q);
    return *this;
  }
  CUZK_HD constexpr Jacobian& operator-=(const Jacobian& q) {
    add(-q);
    return *this;
  }
  /// 2·this as a new value.
  CUZK_HD constexpr Jacobian doubled() const {
    Jacobian r = *this;
    r.dbl();
    return r;
  }
};

}  // namespace cuzk
