// G1: [x] multiplication, subgroup test, cofactor clearing and GLV multiplication.
#include "cuzk/ec/g1.hpp"

#include <vector>

#include "cuzk/ec/batch_affine.hpp"

namespace cuzk {

namespace {

/// β², the σ² constant: σ²(x, y) = (β²x, y) = [x⁴]P = [x² − 1]P on G1.
constexpr Fp kBeta2 = G1Curve::kBeta * G1Curve::kBeta;
/// λ = x² − 1, the eigenvalue of σ² on G1 (r = λ² + λ + 1).
constexpr Limbs<4> kLambda = {0x00000000ffffffffULL, 0xac45a4010001a402ULL, 0, 0};

/// q = a / d and a ← a mod d for 256-bit a and d (shift-subtract, 256 steps, no branch on a).
Limbs<4> divmod(Limbs<4>& a, const Limbs<4>& d) {
  Limbs<4> q{}, rem{};
  for (unsigned i = 256; i-- > 0;) {
    // rem = 2·rem + bit i of a (rem < d < 2^128, so no bit is lost)
    for (std::size_t j = 4; j-- > 1;) rem[j] = (rem[j] << 1) | (rem[j - 1] >> 63);
    rem[0] = (rem[0] << 1) | static_cast<std::uint64_t>(limbs_bit(a, i));
    Limbs<4> t{};
    const std::uint64_t take = 1 - static_cast<std::uint64_t>(limbs_sub(t, rem, d));  // rem ≥ d
    const std::uint64_t mask = 0 - take;
    for (std::size_t j = 0; j < 4; ++j) rem[j] ^= (rem[j] ^ t[j]) & mask;
    q[i / 64] |= take << (i % 64);
  }
  a = rem;
  return q;
}

}  // namespace

G1Jacobian mul_by_x(const G1Jacobian& p) { return -mul_by_u64(p, kBlsXAbs); }

bool is_in_subgroup(const G1Jacobian& p) {
  if (p.is_identity()) return true;
  const G1Jacobian x2p = mul_by_x(mul_by_x(p));
  return sigma(p) == -x2p;
}

bool is_in_subgroup(const G1Affine& p) { return is_in_subgroup(G1Jacobian::from_affine(p)); }

G1Jacobian clear_cofactor(const G1Jacobian& p) { return p - mul_by_x(p); }

G1Jacobian mul_glv_vartime(const G1Jacobian& p, const Fr& k) {
  Limbs<4> k1 = k.to_canonical();
  const Limbs<4> k2 = divmod(k1, kLambda);  // k = k1 + k2·λ, both below 2^128
  constexpr unsigned kW = 5, kT = 1u << (kW - 2);
  std::int8_t d1[64 * 4 + 2], d2[64 * 4 + 2];
  const unsigned n1 = ec_detail::wnaf_digits(k1, kW, d1);
  const unsigned n2 = ec_detail::wnaf_digits(k2, kW, d2);
  G1Jacobian t1[kT], t2[kT];
  t1[0] = p;
  const G1Jacobian p2 = p.doubled();
  for (unsigned i = 1; i < kT; ++i) t1[i] = t1[i - 1] + p2;
  for (unsigned i = 0; i < kT; ++i) t2[i] = {t1[i].X * kBeta2, t1[i].Y, t1[i].Z};  // σ²
  G1Jacobian acc = G1Jacobian::identity();
  for (unsigned i = n1 > n2 ? n1 : n2; i-- > 0;) {
    acc.dbl();
    const int a = i < n1 ? d1[i] : 0, b = i < n2 ? d2[i] : 0;
    if (a > 0)
      acc.add(t1[(a - 1) / 2]);
    else if (a < 0)
      acc.add(-t1[(-a - 1) / 2]);
    if (b > 0)
      acc.add(t2[(b - 1) / 2]);
    else if (b < 0)
      acc.add(-t2[(-b - 1) / 2]);
  }
  return acc;
}

G1Jacobian mul_glv(const G1Jacobian& p, const Fr& k) {
  Limbs<4> k1 = k.to_canonical();
  const Limbs<4> k2 = divmod(k1, kLambda);           // k = k1 + k2·λ, both below 2^128
  constexpr unsigned kW = 5, kDigits = 26, kT = 17;  // 26·5 = 130 > 128 bits; digits in [−16, 16]
  std::int8_t d1[kDigits], d2[kDigits];
  ec_detail::signed_window_digits(k1, kW, kDigits, d1);
  ec_detail::signed_window_digits(k2, kW, kDigits, d2);
  G1Jacobian tj[kT];
  tj[0] = G1Jacobian::identity();
  tj[1] = p;
  for (unsigned i = 2; i < kT; ++i) tj[i] = (i & 1) ? tj[i - 1] + p : tj[i / 2].doubled();
  // Affine tables (one inversion, on values that depend on p only), so additions are mixed.
  const std::vector<G1Affine> t1 = batch_to_affine_vartime<G1Curve>(tj);
  G1Affine t2[kT];
  for (unsigned i = 0; i < kT; ++i)
    t2[i] = {t1[i].x * kBeta2, t1[i].y, t1[i].infinity};  // σ² = [λ]
  G1Jacobian acc = G1Jacobian::identity();
  for (int w = kDigits - 1; w >= 0; --w) {
    for (unsigned j = 0; j < kW; ++j) acc.dbl();
    acc.add_mixed(ec_detail::select_signed(t1.data(), kT, d1[w]));
    acc.add_mixed(ec_detail::select_signed(t2, kT, d2[w]));
  }
  return acc;
}

}  // namespace cuzk
