// Affine<C>: a point (x, y) of y² = x³ + b over the field C::Field, or the identity (infinity flag).
// Storage is exactly the two field elements and a flag, so a device copy is byte-identical.
//
// A curve parameter struct C supplies: `using Field`, `static constexpr Field kB` (the curve
// constant), `kGenX`, `kGenY` (the generator) and `static constexpr const char* name`. The field
// needs zero(), one(), +, −, unary −, *, square(), dbl(), is_zero(), ==.
#pragma once

#include "cuzk/ec/hd.hpp"

namespace cuzk {

template <class C>
struct Affine {
  using Curve = C;
  using Field = typename C::Field;

  Field x, y;
  bool infinity = false;

  /// The identity; coordinates are zero and are ignored by every operation.
  CUZK_HD static constexpr Affine identity() { return {Field::zero(), Field::zero(), true}; }
  /// The standard generator of the prime-order subgroup.
  CUZK_HD static constexpr Affine generator() { return {C::kGenX, C::kGenY, false}; }
  CUZK_HD constexpr bool is_identity() const { return infinity; }

  /// Equal as group elements (identities compare equal whatever their coordinates).
  CUZK_HD friend constexpr bool operator==(const Affine& a, const Affine& b) {
    if (a.infinity || b.infinity) return a.infinity == b.infinity;
    return a.x == b.x && a.y == b.y;
  }
  /// −(x, y) = (x, −y).
  CUZK_HD constexpr Affine operator-() const { return {x, -y, infinity}; }
  /// y² = x³ + b (the identity is on the curve).
  CUZK_HD constexpr bool is_on_curve() const {
    if (infinity) return true;
    return y.square() == x.square() * x + C::kB;
  }
};

}  // namespace cuzk
