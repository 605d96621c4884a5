// Scalar decompositions for the endomorphism split of a Pippenger MSM (pippenger.cpp):
//
//   G1 (GLV): σ²(x, y) = (β²x, y) = [λ]P with λ = x² − 1 ≈ 2^127.4, r = λ² + λ + 1. A scalar k < r is
//   written k ≡ ±m1 ± m2·λ (mod r) with m1, m2 < 2^127, so Σ k_i·P_i becomes an MSM of 2n terms
//   (m1, ±P_i) and (m2, ±σ²(P_i)) with half-length scalars: half the windows over twice the points,
//   so the same bucket additions but half the bucket reductions (and room for a wider window).
//   k = q·λ + k1 by division (Barrett), then balanced with λ² ≡ −λ − 1: k1 > λ/2 → (k1 − λ, q + 1);
//   q > λ/2 → (k1 − 1, q − λ − 1). Both magnitudes end ≤ λ/2 + 1 < 2^127.
//
//   G2 (GLS): ψ = [x] on G2 with x = −|x| negative, |x| < 2^64, r < |x|^4. k = a0 + a1|x| + a2|x|² +
//   a3|x|³ (base-|x| digits, each < |x| < 2^64), and [|x|]P = −ψ(P), so the terms are (a0, P),
//   (a1, −ψ(P)), (a2, ψ²(P)), (a3, −ψ³(P)): four times the points with 64-bit scalars.
#pragma once

#include <cstdint>

#include "cuzk/ff/limbs.hpp"

namespace cuzk {

/// λ = x² − 1, the eigenvalue of σ² on G1 (two limbs, low first).
inline constexpr std::uint64_t kGlvLambda[2] = {0x00000000ffffffffULL, 0xac45a4010001a402ULL};
/// Bits of the magnitudes glv_split_g1 returns (< 2^127).
inline constexpr unsigned kGlvHalfBits = 127;
/// Bits of the base-|x| digits gls_split_g2 returns (< 2^64).
inline constexpr unsigned kGlsDigitBits = 64;

/// k ≡ (neg1 ? −m1 : m1) + (neg2 ? −m2 : m2)·λ (mod r), m1, m2 < 2^127, for canonical k < r.
struct GlvHalves {
  std::uint64_t m1[2], m2[2];
  bool neg1, neg2;
};
GlvHalves glv_split_g1(const Limbs<4>& k);

/// k = Σ a[t]·|x|^t, a[t] < |x|, for canonical k < r.
void gls_split_g2(const Limbs<4>& k, std::uint64_t a[4]);

}  // namespace cuzk
