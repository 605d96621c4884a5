// The optimal ate pairing on BLS12-381: e(P, Q) = f_{x,Q}(P)^(3(p¹²−1)/r), x = −0xd201000000010000.
// The exponent 3(p¹²−1)/r (not (p¹²−1)/r) is what the Hayashida–Hayasaka–Teruya 2020 hard part
// computes and what zkcrypto/bls12_381, blst, noble-curves and snarkjs (vk_alphabeta_12) output; the
// vectors file `pairing.e_G1_G2` pins it and tools/params/pairing_ref.py recomputes it from scratch.
//
// Miller loop: Q stays on the M-type twist E': y² = x³ + 4ξ in homogeneous projective coordinates
// (Costello–Lange–Naehrig 2010 doubling, Aranha–Karabina–Longa–Gebotys–López 2011 mixed addition);
// each line is l0 + l1·xP·v + l4·yP·v·w (a sparse Fp12, see Fp12::mul_by_014). 63 doublings and
// 5 additions (the bits of |x|), then a conjugation because x < 0.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <span>

#include "cuzk/base/status.hpp"
#include "cuzk/ec/g1.hpp"
#include "cuzk/ec/g2.hpp"
#include "cuzk/ff/fp12.hpp"

namespace cuzk {

/// One Miller-loop line with the G1 coordinates not yet applied: value l0 + (l1·xP)·v + (l4·yP)·v·w.
struct PairingLine {
  Fp2 l0, l1, l4;
};

/// Number of lines in one Miller loop: 63 doublings + 5 additions (popcount(|x|) − 1).
inline constexpr std::size_t kMillerLines = 68;
static_assert(kMillerLines == 63 + std::popcount(Fp12::kBlsX) - 1,
              "one line per doubling and per set bit below the top");

/// Line coefficients of a fixed G2 point (e.g. the verifying key's γ and δ), computed once and
/// reused by every multi_miller_loop call; 68 × 288 bytes.
struct G2Prepared {
  std::array<PairingLine, kMillerLines> lines{};
  bool infinity = true;

  /// Runs the G2 side of the Miller loop for |q|. The identity gives an empty (infinity) entry.
  static G2Prepared from_affine(const G2Affine& q);
};

/// f_{x,Q}(P) without the final exponentiation; 1 when either point is the identity.
Fp12 miller_loop(const G1Affine& p, const G2Affine& q);

/// Π f_{x,Q_i}(P_i) with one shared squaring chain; pairs with an identity contribute 1.
/// size_mismatch when the spans differ in length.
Result<Fp12> multi_miller_loop(std::span<const G1Affine> p, std::span<const G2Affine> q);
/// As above with prepared G2 points.
Result<Fp12> multi_miller_loop(std::span<const G1Affine> p, std::span<const G2Prepared> q);

/// f^(3(p¹²−1)/r): easy part f^((p⁶−1)(p²+1)), then the hard part
/// (x−1)²(x+p)(x²+p²−1) + 3 with 4 cyclotomic exponentiations by x (HHT 2020). Maps 0 to 0.
Fp12 final_exponentiation(const Fp12& f);

/// e(p, q) = final_exponentiation(miller_loop(p, q)).
Fp12 pairing(const G1Affine& p, const G2Affine& q);

/// Π e(p_i, q_i) == 1 with one multi-Miller loop and one final exponentiation (the Groth16 check).
/// False when the spans differ in length. Points are trusted to be in their subgroups.
bool pairing_product_is_one(std::span<const G1Affine> p, std::span<const G2Affine> q);
/// As above with prepared G2 points.
bool pairing_product_is_one(std::span<const G1Affine> p, std::span<const G2Prepared> q);

}  // namespace cuzk
