// Optimal ate pairing on BLS12-381 (see pairing.hpp for the conventions and references).
#include "cuzk/ec/pairing.hpp"

#include <vector>

namespace cuzk {
namespace {

/// a/2 in Fp: (a + p·(a mod 2)) >> 1, branch-free (a + p < 2^382 cannot overflow six limbs).
Fp fp_half(const Fp& a) {
  const std::uint64_t mask = 0 - (a.l[0] & 1);
  Limbs<6> t{};
  std::uint64_t c = 0;
  for (std::size_t i = 0; i < 6; ++i) t[i] = adc(a.l[i], Fp::kModulus[i] & mask, c);
  return Fp::from_mont_unchecked(limbs_shr(t, 1));  // the carry out is always 0
}
Fp2 fp2_half(const Fp2& a) { return {fp_half(a.c0), fp_half(a.c1)}; }

/// A point of the twist E'(Fp2) in homogeneous projective coordinates (x, y) = (X/Z, Y/Z).
struct G2Homogeneous {
  Fp2 x, y, z;
};

/// T ← 2T and the tangent line at T (Costello–Lange–Naehrig 2010 §5, b' = 4ξ):
///   A = XY/2, B = Y², C = Z², E = 3b'C, F = 3E, G = (B + F)/2, H = (Y + Z)² − B − C = 2YZ,
///   X' = A(B − F), Y' = G² − 3E², Z' = BH; line (scaled by −2YZ·w³, which the final exponentiation
///   removes): l0 = E − B, l1 = 3X², l4 = −H. 3m + 6s.
PairingLine double_step(G2Homogeneous& t) {
  const Fp2 a = fp2_half(t.x * t.y);
  const Fp2 b = t.y.square();
  const Fp2 c = t.z.square();
  const Fp2 c4 = c.mul_by_nonresidue().dbl().dbl();  // 4ξC
  const Fp2 e = c4 + c4.dbl();                       // 3b'C = 12ξC
  const Fp2 f = e + e.dbl();
  const Fp2 g = fp2_half(b + f);
  const Fp2 h = (t.y + t.z).square() - (b + c);
  const Fp2 x2 = t.x.square();
  const Fp2 e2 = e.square();
  t.x = a * (b - f);
  t.y = g.square() - (e2 + e2.dbl());
  t.z = b * h;
  return {e - b, x2 + x2.dbl(), -h};
}

/// T ← T + Q (Q affine) and the line through T and Q (Aranha et al. 2011 §4, mixed addition):
///   θ = Y − y_Q·Z, λ = X − x_Q·Z, C = θ², D = λ², E = λD, F = ZC, G = XD, H = E + F − 2G,
///   X' = λH, Y' = θ(G − H) − YE, Z' = ZE; line (scaled by λ·w³): l0 = θx_Q − λy_Q, l1 = −θ, l4 = λ.
///   11m + 2s. T ≠ ±Q always holds inside the loop (T = [k]Q with 1 < k < |x| < r).
PairingLine add_step(G2Homogeneous& t, const G2Affine& q) {
  const Fp2 theta = t.y - q.y * t.z;
  const Fp2 lambda = t.x - q.x * t.z;
  const Fp2 c = theta.square();
  const Fp2 d = lambda.square();
  const Fp2 e = lambda * d;
  const Fp2 f = t.z * c;
  const Fp2 g = t.x * d;
  const Fp2 h = e + f - g.dbl();
  t.x = lambda * h;
  t.y = theta * (g - h) - t.y * e;
  t.z = t.z * e;
  return {theta * q.x - lambda * q.y, -theta, lambda};
}

/// f · line(P): the G1 coordinates scale l1 and l4 (2 Fp mul each), then the sparse product.
Fp12 mul_line(const Fp12& f, const PairingLine& l, const G1Affine& p) {
  return f.mul_by_014(l.l0, l.l1.mul_fp(p.x), l.l4.mul_fp(p.y));
}

/// The shared Miller-loop skeleton over the bits of |x| below the top one. |next(j, add)| returns
/// the next line of pair j (a doubling line, or an addition line when |add|); the pairs in |active|
/// are the ones without an identity.
template <class NextLine>
Fp12 miller_loop_core(std::span<const G1Affine> p, std::span<const std::size_t> active,
                      NextLine&& next) {
  Fp12 f = Fp12::one();
  if (active.empty()) return f;
  for (int i = 62; i >= 0; --i) {
    if (i != 62) f = f.square();  // f = 1 before the first step
    for (std::size_t j : active) f = mul_line(f, next(j, false), p[j]);
    if ((Fp12::kBlsX >> i) & 1) {
      for (std::size_t j : active) f = mul_line(f, next(j, true), p[j]);
    }
  }
  return f.conjugate();  // x < 0: f_{x,Q} = 1/f_{|x|,Q} after the final exponentiation
}

}  // namespace

G2Prepared G2Prepared::from_affine(const G2Affine& q) {
  G2Prepared out;
  out.infinity = q.infinity;
  if (q.infinity) return out;
  G2Homogeneous t{q.x, q.y, Fp2::one()};
  std::size_t k = 0;
  for (int i = 62; i >= 0; --i) {
    out.lines[k++] = double_step(t);
    if ((Fp12::kBlsX >> i) & 1) out.lines[k++] = add_step(t, q);
  }
  return out;
}

Fp12 miller_loop(const G1Affine& p, const G2Affine& q) {
  const G1Affine ps[1] = {p};
  const G2Affine qs[1] = {q};
  return multi_miller_loop(ps, qs).value();
}

Result<Fp12> multi_miller_loop(std::span<const G1Affine> p, std::span<const G2Affine> q) {
  if (p.size() != q.size()) {
    return Status(Errc::size_mismatch, "multi_miller_loop: " + std::to_string(p.size()) +
                                           " G1 points, " + std::to_string(q.size()) +
                                           " G2 points");
  }
  std::vector<std::size_t> active;
  std::vector<G2Homogeneous> t(p.size());
  for (std::size_t j = 0; j < p.size(); ++j) {
    if (p[j].infinity || q[j].infinity) continue;
    active.push_back(j);
    t[j] = {q[j].x, q[j].y, Fp2::one()};
  }
  return miller_loop_core(p, active, [&](std::size_t j, bool add) {
    return add ? add_step(t[j], q[j]) : double_step(t[j]);
  });
}

Result<Fp12> multi_miller_loop(std::span<const G1Affine> p, std::span<const G2Prepared> q) {
  if (p.size() != q.size()) {
    return Status(Errc::size_mismatch, "multi_miller_loop: " + std::to_string(p.size()) +
                                           " G1 points, " + std::to_string(q.size()) +
                                           " prepared G2 points");
  }
  std::vector<std::size_t> active;
  std::vector<std::size_t> cursor(p.size(), 0);
  for (std::size_t j = 0; j < p.size(); ++j) {
    if (!p[j].infinity && !q[j].infinity) active.push_back(j);
  }
  return miller_loop_core(p, active, [&](std::size_t j, bool) -> const PairingLine& {
    return q[j].lines[cursor[j]++];
  });
}

Fp12 final_exponentiation(const Fp12& f) {
  // Easy part: f^((p⁶ − 1)(p² + 1)); the result is in the cyclotomic subgroup.
  Fp12 m = f.conjugate() * f.inverse();
  m = m.frobenius_map(2) * m;
  // Hard part (HHT 2020): m^((x − 1)²(x + p)(x² + p² − 1) + 3) = 3(p⁴ − p² + 1)/r.
  const Fp12 t0 = m.cyclotomic_pow_x() * m.conjugate();         // m^(x−1)
  const Fp12 t1 = t0.cyclotomic_pow_x() * t0.conjugate();       // m^((x−1)²)
  const Fp12 t2 = t1.cyclotomic_pow_x() * t1.frobenius_map(1);  // ·^(x+p)
  const Fp12 t3 = t2.cyclotomic_pow_x().cyclotomic_pow_x() * t2.frobenius_map(2) *
                  t2.conjugate();         // ·^(x²+p²−1)
  return t3 * m.cyclotomic_square() * m;  // · m³
}

Fp12 pairing(const G1Affine& p, const G2Affine& q) {
  return final_exponentiation(miller_loop(p, q));
}

bool pairing_product_is_one(std::span<const G1Affine> p, std::span<const G2Affine> q) {
  auto f = multi_miller_loop(p, q);
  return f.ok() && final_exponentiation(f.value()).is_one();
}

bool pairing_product_is_one(std::span<const G1Affine> p, std::span<const G2Prepared> q) {
  auto f = multi_miller_loop(p, q);
  return f.ok() && final_exponentiation(f.value()).is_one();
}

}  // namespace cuzk
