// G2: [x] multiplication, subgroup test and cofactor clearing.
#include "cuzk/ec/g2.hpp"

namespace cuzk {

G2Jacobian mul_by_x(const G2Jacobian& p) { return -mul_by_u64(p, kBlsXAbs); }

bool is_in_subgroup(const G2Jacobian& p) {
  if (p.is_identity()) return true;
  return psi(p) == mul_by_x(p);
}

bool is_in_subgroup(const G2Affine& p) { return is_in_subgroup(G2Jacobian::from_affine(p)); }

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
