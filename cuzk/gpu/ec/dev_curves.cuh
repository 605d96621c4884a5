// Device curve parameter structs for the shared point formulas of ec/ (Affine, Xyzz, Jacobian
// templated over C::Field, marked CUZK_HD): the same formulas run on the host with Fp/Fp2 and here
// with DevFp/DevFp2. Only the addition laws are used on the device, so no curve constants are needed.
//
// Resident bases use a compact affine layout, DevAffine<F> = (x, y), with the identity stored as
// (0, 0): that pair is on neither curve (0 ≠ 4 and 0 ≠ 4(1 + u)), and it saves the flag and padding
// of the host Affine (96 instead of 104 bytes per G1 point, read K times per MSM).
#pragma once

#include "cuzk/ec/affine.hpp"
#include "cuzk/ec/jacobian.hpp"
#include "cuzk/ec/xyzz.hpp"
#include "cuzk/gpu/ff/dev_fields.cuh"

namespace cuzk::gpu {

struct DevG1Curve {
  using Field = DevFp;
  static constexpr const char* name = "G1 (device)";
};
/// G1 whose field products are rolled loops of |kRows| rows a step (DevFpRolled): the same points
/// and bytes as DevG1Curve, for the accumulation kernel's GpuMsmConfig::accumulate_rows_per_step;
/// |kLazy|: coordinates in [0, 2p) (GpuMsmConfig::accumulate_lazy; canonical() before they leave);
/// |kSquareRows|: the addition's two squares by the square rows (GpuMsmConfig::
/// accumulate_square_rows).
template <int kRows, bool kLazy = false, bool kSquareRows = false>
struct DevG1RolledCurve {
  using Field = DevFpRolled<kRows, kLazy, kSquareRows>;
  static constexpr const char* name = "G1 (device, rolled products)";
};
struct DevG2Curve {
  using Field = DevFp2;
  static constexpr const char* name = "G2 (device)";
};

/// A resident base point; (0, 0) is the identity.
template <class F>
struct DevAffine {
  F x, y;
};

using DevG1Xyzz = Xyzz<DevG1Curve>;
using DevG2Xyzz = Xyzz<DevG2Curve>;

/// The shared Affine formula type of a compact base (infinity read from the (0, 0) marker).
template <class C>
CUZK_DEV Affine<C> unpack(const DevAffine<typename C::Field>& p) {
  Affine<C> a;
  a.x = p.x;
  a.y = p.y;
  a.infinity = p.x.is_zero() && p.y.is_zero();
  return a;
}

static_assert(sizeof(DevG1Xyzz) == 192 && sizeof(DevG2Xyzz) == 384);
static_assert(sizeof(Xyzz<DevG1RolledCurve<3, true>>) == sizeof(DevG1Xyzz));
static_assert(sizeof(Xyzz<DevG1RolledCurve<3>>) == sizeof(DevG1Xyzz) &&
              sizeof(DevAffine<DevFpRolled<3>>) == sizeof(DevAffine<DevFp>));
static_assert(sizeof(DevAffine<DevFp>) == 96 && sizeof(DevAffine<DevFp2>) == 192);

}  // namespace cuzk::gpu
