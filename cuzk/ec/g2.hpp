// G2 of BLS12-381: y² = x³ + 4(u + 1) over Fp2 (the M-type sextic twist); subgroup order r.
// ψ = twist⁻¹ ∘ Frobenius ∘ twist: ψ(x, y) = (conj(x)·cx, conj(y)·cy), cx = 1/(u+1)^((p−1)/3),
// cy = 1/(u+1)^((p−1)/2); on G2 it acts as [x]. Constants: FORMATS.md §1.2, vectors file
// `G2_generator`, tools/params/derive_ec.py (ψ constants, checked there and in g2 tests).
#pragma once

#include <cstdint>

#include "cuzk/ec/affine.hpp"
#include "cuzk/ec/const_hex.hpp"
#include "cuzk/ec/g1.hpp"
#include "cuzk/ec/jacobian.hpp"
#include "cuzk/ec/scalar_mul.hpp"
#include "cuzk/ec/xyzz.hpp"
#include "cuzk/ff/fp2.hpp"
#include "cuzk/ff/fr.hpp"

namespace cuzk {

struct G2Curve {
  using Field = Fp2;
  static constexpr const char* name = "G2";
  static constexpr Fp2 kB = Fp2{Fp::from_u64(4), Fp::from_u64(4)};
  static constexpr Fp2 kGenX = ec_detail::fp2_hex(
      "0x024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c1"
      "21bdb8",
      "0x13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d"
      "042b7e");
  static constexpr Fp2 kGenY = ec_detail::fp2_hex(
      "0x0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608"
      "b82801",
      "0x0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff0"
      "5f79be");
  /// cx = 1/(u+1)^((p−1)/3) = c1·u (c0 = 0).
  static constexpr Fp kPsiXc1 = ec_detail::fp_hex(
      "0x1a0111ea397fe699ec02408663d4de85aa0d857d89759ad4897d29650fb85f9b409427eb4f49fffd8bfd000000"
      "00aaad");
  /// cy = 1/(u+1)^((p−1)/2).
  static constexpr Fp2 kPsiY = ec_detail::fp2_hex(
      "0x135203e60180a68ee2e9c448d77a2cd91c3dedd930b1cf60ef396489f61eb45e304466cf3e67fa0af1ee7b0412"
      "1bdea2",
      "0x06af0e0437ff400b6831e36d6bd17ffe48395dabc2d3435e77f76e17009241c5ee67992f72ec05f4c81084fbed"
      "e3cc09");
  /// ψ²(x, y) = (x·ω, −y) with ω = cx·conj(cx) ∈ Fp, a primitive cube root of unity.
  static constexpr Fp kPsi2X = ec_detail::fp_hex(
      "0x1a0111ea397fe699ec02408663d4de85aa0d857d89759ad4897d29650fb85f9b409427eb4f49fffd8bfd000000"
      "00aaac");
};

using G2Affine = Affine<G2Curve>;
using G2Jacobian = Jacobian<G2Curve>;
using G2Xyzz = Xyzz<G2Curve>;

// The constants satisfy their definitions (checked by the compiler): the generator is on the curve;
// cy² = cx³ = ξ^−(p−1); ω = cx·conj(cx) is a non-trivial cube root of unity. (The exponent
// definitions themselves are checked in subgroup_test.cpp and by tools/params/derive_ec.py.)
static_assert(G2Affine::generator().is_on_curve());
static_assert(G2Curve::kPsiY.square() ==
              Fp2{Fp::zero(), G2Curve::kPsiXc1}.square() * Fp2{Fp::zero(), G2Curve::kPsiXc1});
static_assert(Fp2{G2Curve::kPsi2X, Fp::zero()} ==
              Fp2{Fp::zero(), G2Curve::kPsiXc1} * Fp2{Fp::zero(), G2Curve::kPsiXc1}.conjugate());
static_assert((G2Curve::kPsi2X.square() * G2Curve::kPsi2X).is_one() && !G2Curve::kPsi2X.is_one());
static_assert(sizeof(G2Affine) == 200 && sizeof(G2Jacobian) == 288 && sizeof(G2Xyzz) == 384);

/// ψ on Jacobian coordinates: (conj(X)·cx : conj(Y)·cy : conj(Z)); 2M + 3M (Fp).
constexpr G2Jacobian psi(const G2Jacobian& p) {
  const Fp2 x = p.X.conjugate(), y = p.Y.conjugate();
  // (a + bu)·(c·u) = −b·c + a·c·u
  const Fp2 xc{-(x.c1 * G2Curve::kPsiXc1), x.c0 * G2Curve::kPsiXc1};
  return {xc, y * G2Curve::kPsiY, p.Z.conjugate()};
}
constexpr G2Affine psi(const G2Affine& p) {
  if (p.infinity) return p;
  const G2Jacobian j = psi(G2Jacobian::from_affine(p));
  return {j.X, j.Y, false};
}
/// ψ² = (X·ω : −Y : Z); 2M (Fp).
constexpr G2Jacobian psi2(const G2Jacobian& p) { return {p.X.mul_fp(G2Curve::kPsi2X), -p.Y, p.Z}; }

/// [x]p for the (negative) BLS parameter: 63 doublings and 5 additions.
G2Jacobian mul_by_x(const G2Jacobian& p);
/// Subgroup test (Bowe 2019 / Scott 2021; El Housni–Guillevic–Piellard 2022 prove it for BLS12):
/// p ∈ G2 ⇔ ψ(p) = [x]p, for p on the curve. One [x] multiplication.
bool is_in_subgroup(const G2Affine& p);
bool is_in_subgroup(const G2Jacobian& p);
/// [k]p by the 4-dimensional GLS method: k = a0 + a1·|x| + a2·|x|² + a3·|x|³ (0 ≤ a_i < |x|, since
/// r < x⁴) and [|x|]p = −ψ(p), so [k]p = [a0]p − [a1]ψ(p) + [a2]ψ²(p) − [a3]ψ³(p), one interleaved
/// wNAF pass of 64 doublings. Only for p in G2 (elsewhere ψ is not [x]); variable time.
G2Jacobian mul_gls_vartime(const G2Jacobian& p, const Fr& k);
/// [k]p with the same 4-dimensional split on a regular schedule: 13 signed 5-bit windows over
/// the four 64-bit digits (65 doublings + 52 mixed additions, addends taken by masked scans of
/// affine tables and masked negation). Only for p in G2.
G2Jacobian mul_gls(const G2Jacobian& p, const Fr& k);
/// Budroni–Pintore cofactor clearing as in RFC 9380 (§8.8.2, appendix G.4):
/// [x² − x − 1]p + [x − 1]ψ(p) + ψ²(2p), which equals [h_eff]p.
G2Jacobian clear_cofactor(const G2Jacobian& p);

}  // namespace cuzk
