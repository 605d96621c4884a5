// G2: [x] multiplication, subgroup test and cofactor clearing.
#include "cuzk/ec/g2.hpp"

#include <vector>

#include "cuzk/ec/batch_affine.hpp"

namespace cuzk {

G2Jacobian mul_by_x(const G2Jacobian& p) { return -mul_by_u64(p, kBlsXAbs); }

bool is_in_subgroup(const G2Jacobian& p) {
  if (p.is_identity()) return true;
  return psi(p) == mul_by_x(p);
}

bool is_in_subgroup(const G2Affine& p) { return is_in_subgroup(G2Jacobian::from_affine(p)); }

G2Jacobian mul_gls_vartime(const G2Jacobian& p, const Fr& k) {
  Limbs<4> e = k.to_canonical();
  Limbs<1> a[4];
  for (auto& ai : a) ai[0] = limbs_div_small(e, kBlsXAbs);  // base-|x| digits, low first
  constexpr unsigned kW = 5, kT = 1u << (kW - 2);
  std::int8_t digits[4][64 + 2];
  unsigned n[4], longest = 0;
  for (int i = 0; i < 4; ++i) {
    n[i] = ec_detail::wnaf_digits(a[i], kW, digits[i]);
    if (n[i] > longest) longest = n[i];
  }
  // tables of odd multiples of p, −ψ(p) = [|x|]p, ψ²(p) = [x²]p, −ψ³(p) = [|x|³]p
  G2Jacobian t[4][kT];
  t[0][0] = p;
  const G2Jacobian p2 = p.doubled();
  for (unsigned i = 1; i < kT; ++i) t[0][i] = t[0][i - 1] + p2;
  for (unsigned i = 0; i < kT; ++i) {
    t[1][i] = -psi(t[0][i]);
    t[2][i] = psi2(t[0][i]);
    t[3][i] = -psi(t[2][i]);
  }
  G2Jacobian acc = G2Jacobian::identity();
  for (unsigned i = longest; i-- > 0;) {
    acc.dbl();
    for (int j = 0; j < 4; ++j) {
      const int d = i < n[j] ? digits[j][i] : 0;
      if (d > 0)
        acc.add(t[j][(d - 1) / 2]);
      else if (d < 0)
        acc.add(-t[j][(-d - 1) / 2]);
    }
  }
  return acc;
}

G2Jacobian mul_gls(const G2Jacobian& p, const Fr& k) {
  Limbs<4> e = k.to_canonical();
  constexpr unsigned kW = 5, kDigits = 13, kT = 17;  // 13·5 = 65 > 64 bits; digits in [−16, 16]
  std::int8_t d[4][kDigits];
  for (auto& dj : d) {
    const Limbs<1> a{limbs_div_small(e, kBlsXAbs)};  // base-|x| digits, low first
    ec_detail::signed_window_digits(a, kW, kDigits, dj);
  }
  // t[j][i] = [i]·(p, −ψ(p), ψ²(p), −ψ³(p))[j]
  G2Jacobian tj[kT];
  tj[0] = G2Jacobian::identity();
  tj[1] = p;
  for (unsigned i = 2; i < kT; ++i) tj[i] = (i & 1) ? tj[i - 1] + p : tj[i / 2].doubled();
  // Affine tables (one inversion, on values that depend on p only), so additions are mixed.
  const std::vector<G2Affine> t0 = batch_to_affine_vartime<G2Curve>(tj);
  G2Affine t[4][kT];
  for (unsigned i = 0; i < kT; ++i) {
    t[0][i] = t0[i];
    t[1][i] = -psi(t0[i]);
    t[2][i] = {t0[i].x.mul_fp(G2Curve::kPsi2X), -t0[i].y, t0[i].infinity};  // ψ²
    t[3][i] = -psi(t[2][i]);
  }
  G2Jacobian acc = G2Jacobian::identity();
  for (int w = kDigits - 1; w >= 0; --w) {
    for (unsigned j = 0; j < kW; ++j) acc.dbl();
    for (int j = 0; j < 4; ++j) acc.add_mixed(ec_detail::select_signed(t[j], kT, d[j][w]));
  }
  return acc;
}

G2Jacobian clear_cofactor(const G2Jacobian& p) {
  // RFC 9380 appendix G.4 with c1 = x.
  const G2Jacobian t1 = mul_by_x(p);
  G2Jacobian t2 = psi(p);
  G2Jacobian t3 = psi2(p.doubled());
  t3 -= t2;
  t2 = mul_by_x(t1 + t2);
  t3 += t2;
  t3 -= t1;
  return t3 - p;
}

}  // namespace cuzk
