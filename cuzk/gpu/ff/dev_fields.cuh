// Device field types: DevFp (12 × 32-bit limbs), DevFr (8 × 32-bit limbs), DevFp2 = DevFp[u]/(u²+1).
// Byte-identical to the host Fp, Fr, Fp2 (static_asserts below), so buffers cross PCIe raw.
#pragma once

#include "cuzk/ff/fp.hpp"
#include "cuzk/ff/fp2.hpp"
#include "cuzk/ff/fr.hpp"
#include "cuzk/gpu/ff/dev_mont.cuh"

namespace cuzk::gpu {

/// Fp with square() by the square rows (DevMont's kSquareRows: 444 multiply-adds against a
/// product's 576; 34.4 against 27.2 G/s on the H100, docs/perf/gpu.md "Square rows").
using DevFp = DevMont<FpParams, 0, false, MontRows::alternating, true>;
using DevFr = DevMont<FrParams>;
/// Fp with the rolled product (DevMont::mul_mont rolled, |kRows| rows a loop step) by the folding
/// rows (13 limbs live between rows: the register-capped G1 accumulation's), |kLazy|: values in
/// [0, 2p) (DevMont's lazy form), |kSquareRows|: squares by the square rows (unrolled) or by the
/// rolled product: the G1 accumulation's options.
template <int kRows, bool kLazy = false, bool kSquareRows = false>
using DevFpRolled = DevMont<FpParams, kRows, kLazy, MontRows::folding, kSquareRows>;
/// DevFp with square() by the product: the square rows' slow twin (the field test and benchmark).
using DevFpProductSquares = DevMont<FpParams>;
/// Whether |F| is a lazy form (DevMont's kLazy; false for every other field type).
template <class F>
inline constexpr bool is_lazy_field = requires {
  requires F::kIsLazy;
};

/// c0 + c1·u with u² = −1; mul 3M (Karatsuba), square 2M, as the host Fp2.
struct DevFp2 {
  DevFp c0, c1;

  CUZK_DEV static DevFp2 zero() { return {DevFp::zero(), DevFp::zero()}; }
  CUZK_DEV static DevFp2 one() { return {DevFp::one(), DevFp::zero()}; }
  CUZK_DEV bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  CUZK_DEV friend bool operator==(const DevFp2& a, const DevFp2& b) {
    return a.c0 == b.c0 && a.c1 == b.c1;
  }
  CUZK_DEV friend bool operator!=(const DevFp2& a, const DevFp2& b) { return !(a == b); }
  CUZK_DEV friend DevFp2 operator+(const DevFp2& a, const DevFp2& b) {
    return {a.c0 + b.c0, a.c1 + b.c1};
  }
  CUZK_DEV friend DevFp2 operator-(const DevFp2& a, const DevFp2& b) {
    return {a.c0 - b.c0, a.c1 - b.c1};
  }
  CUZK_DEV DevFp2 operator-() const { return {-c0, -c1}; }
  CUZK_DEV DevFp2 dbl() const { return {c0.dbl(), c1.dbl()}; }
  /// (a0b0 − a1b1) + ((a0 + a1)(b0 + b1) − a0b0 − a1b1)u.
  CUZK_DEV friend DevFp2 operator*(const DevFp2& a, const DevFp2& b) {
    DevFp t0 = a.c0 * b.c0, t1 = a.c1 * b.c1;
    DevFp t2 = (a.c0 + a.c1) * (b.c0 + b.c1);
    return {t0 - t1, t2 - t0 - t1};
  }
  /// (a0 + a1)(a0 − a1) + 2a0a1·u.
  CUZK_DEV DevFp2 square() const {
    DevFp t = c0 * c1;
    return {(c0 + c1) * (c0 - c1), t.dbl()};
  }
  /// (a0 − a1u)/(a0² + a1²).
  CUZK_DEV DevFp2 inverse() const {
    DevFp t = (c0.square() + c1.square()).inverse();
    return {c0 * t, -(c1 * t)};
  }
  CUZK_DEV DevFp2& operator+=(const DevFp2& b) { return *this = *this + b; }
  CUZK_DEV DevFp2& operator-=(const DevFp2& b) { return *this = *this - b; }
  CUZK_DEV DevFp2& operator*=(const DevFp2& b) { return *this = *this * b; }
};

static_assert(sizeof(DevFp) == sizeof(Fp) && alignof(DevFp) <= alignof(Fp));
static_assert(sizeof(DevFpRolled<3>) == sizeof(DevFp) && alignof(DevFpRolled<3>) == alignof(DevFp));
static_assert(sizeof(DevFpRolled<3, true>) == sizeof(DevFp) &&
              is_lazy_field<DevFpRolled<3, true>> && !is_lazy_field<DevFp> &&
              !is_lazy_field<DevFp2>);
static_assert(sizeof(DevFr) == sizeof(Fr) && alignof(DevFr) <= alignof(Fr));
static_assert(sizeof(DevFp2) == sizeof(Fp2) && alignof(DevFp2) <= alignof(Fp2));
static_assert(DevFp::kInv32 == 0xfffcfffdu && DevFr::kInv32 == 0xffffffffu);

}  // namespace cuzk::gpu
