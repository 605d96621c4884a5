// G1 of BLS12-381: y² = x³ + 4 over Fp; the prime-order subgroup has order r (Fr's modulus) and
// cofactor h1 = 0x396c8c005555e1568c00aaab0000aaab. Point types share the generic formulas of
// affine/jacobian/xyzz.hpp; this file adds the curve constants, the endomorphism σ, the subgroup
// test and cofactor clearing. Constants: FORMATS.md §1.2, vectors file `G1_generator`,
// tools/params/derive_ec.py (β).
#pragma once

#include <cstdint>

#include "cuzk/ec/affine.hpp"
#include "cuzk/ec/const_hex.hpp"
#include "cuzk/ec/jacobian.hpp"
#include "cuzk/ec/scalar_mul.hpp"
#include "cuzk/ec/xyzz.hpp"
#include "cuzk/ff/fp.hpp"
#include "cuzk/ff/fr.hpp"

namespace cuzk {

/// |x| for the BLS parameter x = −0xd201000000010000 (Hamming weight 6).
inline constexpr std::uint64_t kBlsXAbs = 0xd201000000010000ULL;
/// The BLS parameter is negative.
inline constexpr bool kBlsXIsNegative = true;

struct G1Curve {
  using Field = Fp;
  static constexpr const char* name = "G1";
  static constexpr Fp kB = Fp::from_u64(4);
  static constexpr Fp kGenX = ec_detail::fp_hex(
      "0x17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb"
      "22c6bb");
  static constexpr Fp kGenY = ec_detail::fp_hex(
      "0x08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946"
      "c5e7e1");
  /// β, a primitive cube root of unity in Fp with σ(x, y) = (βx, y) = [−x²]P on G1 (derive_ec.py).
  static constexpr Fp kBeta = ec_detail::fp_hex(
      "0x5f19672fdf76ce51ba69c6076a0f77eaddb3a93be6f89688de17d813620a00022e01fffffffefffe");
};

using G1Affine = Affine<G1Curve>;
using G1Jacobian = Jacobian<G1Curve>;
using G1Xyzz = Xyzz<G1Curve>;

// The constants satisfy their definitions (checked by the compiler): the generator is on the curve,
// β is a non-trivial cube root of unity.
static_assert(G1Affine::generator().is_on_curve());
static_assert((G1Curve::kBeta.square() * G1Curve::kBeta).is_one() && !G1Curve::kBeta.is_one());
static_assert(sizeof(G1Affine) == 104 && sizeof(G1Jacobian) == 144 && sizeof(G1Xyzz) == 192);

/// σ(x, y) = (βx, y); on G1 it equals multiplication by −x² (mod r). 1M.
constexpr G1Affine sigma(const G1Affine& p) { return {p.x * G1Curve::kBeta, p.y, p.infinity}; }
/// σ on Jacobian coordinates: (βX : Y : Z). 1M.
constexpr G1Jacobian sigma(const G1Jacobian& p) { return {p.X * G1Curve::kBeta, p.Y, p.Z}; }

/// [x]p for the (negative) BLS parameter: 63 doublings and 5 additions.
G1Jacobian mul_by_x(const G1Jacobian& p);
/// Subgroup test of Scott 2021 ("A note on group membership tests for G1, G2 and GT"):
/// p ∈ G1 ⇔ σ(p) = [−x²]p, for p on the curve. Costs two [x] multiplications (≈ 126 dbl + 10 add).
bool is_in_subgroup(const G1Affine& p);
bool is_in_subgroup(const G1Jacobian& p);
/// Maps any curve point into G1: [1 − x]p (the effective cofactor of hash-to-curve for G1).
G1Jacobian clear_cofactor(const G1Jacobian& p);
/// [k]p with GLV: k = k1 + k2·λ, λ = x² − 1 (the eigenvalue of σ²), two 128-bit halves in one
/// interleaved wNAF pass (≈ 128 doublings). Only for p in G1; variable time.
G1Jacobian mul_glv_vartime(const G1Jacobian& p, const Fr& k);
/// [k]p with the same GLV split on a regular schedule: 26 signed 5-bit windows (digits in
/// [−16, 16]) over both halves, 130 doublings + 52 mixed additions, each addend taken by a masked
/// scan of a 17-entry affine table and a masked negation. Only for p in G1.
G1Jacobian mul_glv(const G1Jacobian& p, const Fr& k);

}  // namespace cuzk
