// Xyzz<C>: extended Jacobian (X, Y, ZZ, ZZZ) ↦ (X/ZZ, Y/ZZZ) with ZZ³ = ZZZ², on y² = x³ + b (a = 0).
// The identity has ZZ = ZZZ = 0. Bucket accumulators of Pippenger MSMs use it: mixed addition costs
// 8M + 2S against 7M + 4S in Jacobian, with no special handling of a zero accumulator beyond a test.
// Formulas from the EFD, g1p/shortw/xyzz (M = field mul, S = square):
//   add-2008-s     12M + 2S   general addition
//   madd-2008-s     8M + 2S   addition of an affine point
//   dbl-2008-s-1    6M + 3S   doubling (a = 0)
//   mdbl-2008-s-1   4M + 2S   doubling of an affine point (a = 0)
#pragma once

#include "cuzk/ec/affine.hpp"
#include "cuzk/ec/hd.hpp"
#include "cuzk/ec/jacobian.hpp"

namespace cuzk {

template <class C>
struct Xyzz {
  using Curve = C;
  using Field = typename C::Field;
  using AffinePoint = Affine<C>;
  using JacobianPoint = Jacobian<C>;

  Field X, Y, ZZ, ZZZ;

  /// (1, 1, 0, 0).
  CUZK_HD static constexpr Xyzz identity() {
    return {Field::one(), Field::one(), Field::zero(), Field::zero()};
  }
  CUZK_HD static constexpr Xyzz from_affine(const AffinePoint& a) {
    return a.infinity ? identity() : Xyzz{a.x, a.y, Field::one(), Field::one()};
  }
  /// (X, Y, Z², Z³) (1M + 1S).
  CUZK_HD static constexpr Xyzz from_jacobian(const JacobianPoint& p) {
    if (p.is_identity()) return identity();
    const Field zz = p.Z.square();
    return {p.X, p.Y, zz, zz * p.Z};
  }
  CUZK_HD constexpr bool is_identity() const { return ZZ.is_zero(); }

  /// Jacobian (X·ZZ², Y·ZZZ², ZZZ): with Z = ZZZ, Z² = ZZ³ (2M + 2S).
  CUZK_HD constexpr JacobianPoint to_jacobian() const {
    if (is_identity()) return JacobianPoint::identity();
    return {X * ZZ.square(), Y * ZZZ.square(), ZZZ};
  }
  /// Affine form: t = 1/(ZZ·ZZZ), x = X·ZZZ·t, y = Y·ZZ·t (1I + 5M), constant-time inversion.
  constexpr AffinePoint to_affine() const {
    if (is_identity()) return AffinePoint::identity();
    const Field t = (ZZ * ZZZ).inverse();
    return {X * ZZZ * t, Y * ZZ * t, false};
  }
  AffinePoint to_affine_vartime() const {
    if (is_identity()) return AffinePoint::identity();
    const Field t = (ZZ * ZZZ).inverse_vartime();
    return {X * ZZZ * t, Y * ZZ * t, false};
  }

  /// Equal as group elements: X1·ZZ2 = X2·ZZ1 and Y1·ZZZ2 = Y2·ZZZ1 (4M).
  CUZK_HD friend constexpr bool operator==(const Xyzz& p, const Xyzz& q) {
    const bool pi = p.is_identity(), qi = q.is_identity();
    if (pi || qi) return pi == qi;
    return p.X * q.ZZ == q.X * p.ZZ && p.Y * q.ZZZ == q.Y * p.ZZZ;
  }
  CUZK_HD constexpr Xyzz operator-() const { return {X, -Y, ZZ, ZZZ}; }
  CUZK_HD constexpr void negate() { Y = -Y; }

  /// a·b − c·d: one fused product where the field has one (the device Fp's mul_add: both
  /// products under one Montgomery reduction), else two products and a subtraction.
  CUZK_HD static constexpr Field mul_sub(const Field& a, const Field& b, const Field& c,
                                         const Field& d) {
    if constexpr (requires { Field::mul_add(a, b, c, d); })
      return Field::mul_add(a, b, -c, d);
    else
      return a * b - c * d;
  }

  /// this ← 2·this, dbl-2008-s-1 (a = 0, 6M + 3S): U = 2Y, V = U², W = U·V, S = X·V, M = 3X²,
  /// X3 = M² − 2S, Y3 = M(S − X3) − W·Y, ZZ3 = V·ZZ, ZZZ3 = W·ZZZ.
  CUZK_HD constexpr void dbl() {
    const Field u = Y.dbl();
    const Field v = u.square();
    const Field w = u * v;
    const Field s = X * v;
    const Field x2 = X.square();
    const Field m = x2.dbl() + x2;
    const Field x3 = m.square() - s.dbl();
    Y = mul_sub(m, s - x3, w, Y);
    X = x3;
    ZZ = v * ZZ;
    ZZZ = w * ZZZ;
  }

  /// this ← 2·q for an affine q, mdbl-2008-s-1 (4M + 2S).
  CUZK_HD constexpr void set_double_affine(const AffinePoint& q) {
    if (q.infinity) {
      *this = identity();
      return;
    }
    const Field u = q.y.dbl();
    const Field v = u.square();
    const Field w = u * v;
    const Field s = q.x * v;
    const Field x2 = q.x.square();
    const Field m = x2.dbl() + x2;
    X = m.square() - s.dbl();
    Y = mul_sub(m, s - X, w, q.y);
    ZZ = v;
    ZZZ = w;
  }

  /// this ← this + q for an affine q, madd-2008-s (8M + 2S): P = X2·ZZ1 − X1, R = Y2·ZZZ1 − Y1,
  /// PP = P², PPP = P·PP, Q = X1·PP, X3 = R² − PPP − 2Q, Y3 = R(Q − X3) − Y1·PPP,
  /// ZZ3 = ZZ1·PP, ZZZ3 = ZZZ1·PPP (ZZ3 before X3 and Y3, so PP is dead across them). Equal inputs
  /// take the doubling formula.
  CUZK_HD constexpr void add_mixed(const AffinePoint& q) {
    if (q.infinity) return;
    if (is_identity()) {
      *this = from_affine(q);
      return;
    }
    const Field p = q.x * ZZ - X;
    const Field r = q.y * ZZZ - Y;
    if (p.is_zero()) {
      if (r.is_zero())
        set_double_affine(q);
      else
        *this = identity();
      return;
    }
    const Field pp = p.square();
    const Field ppp = p * pp;
    const Field qq = X * pp;
    ZZ = ZZ * pp;
    ZZZ = ZZZ * ppp;
    const Field x3 = r.square() - ppp - qq.dbl();
    Y = mul_sub(r, qq - x3, Y, ppp);
    X = x3;
  }
  /// this ← this − q (affine), the signed-digit bucket update.
  CUZK_HD constexpr void sub_mixed(const AffinePoint& q) { add_mixed(-q); }

  /// this ← this + q, add-2008-s (12M + 2S): U1 = X1·ZZ2, U2 = X2·ZZ1, S1 = Y1·ZZZ2, S2 = Y2·ZZZ1,
  /// P = U2 − U1, R = S2 − S1, then as madd with ZZ3 = ZZ1·ZZ2·PP, ZZZ3 = ZZZ1·ZZZ2·PPP.
  CUZK_HD constexpr void add(const Xyzz& q) {
    if (q.is_identity()) return;
    if (is_identity()) {
      *this = q;
      return;
    }
    const Field u1 = X * q.ZZ;
    const Field u2 = q.X * ZZ;
    const Field s1 = Y * q.ZZZ;
    const Field s2 = q.Y * ZZZ;
    const Field p = u2 - u1;
    const Field r = s2 - s1;
    if (p.is_zero()) {
      if (r.is_zero())
        dbl();
      else
        *this = identity();
      return;
    }
    const Field pp = p.square();
    const Field ppp = p * pp;
    const Field qq = u1 * pp;
    const Field x3 = r.square() - ppp - qq.dbl();
    Y = mul_sub(r, qq - x3, s1, ppp);
    X = x3;
    ZZ = ZZ * q.ZZ * pp;
    ZZZ = ZZZ * q.ZZZ * ppp;
  }

  CUZK_HD friend constexpr Xyzz operator+(Xyzz p, const Xyzz& q) {
    p.add(q);
    return p;
  }
  CUZK_HD friend constexpr Xyzz operator+(Xyzz p, const AffinePoint& q) {
    p.add_mixed(q);
    return p;
  }
};

}  // namespace cuzk
