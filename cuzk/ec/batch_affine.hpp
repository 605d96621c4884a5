// Batch conversion Jacobian → affine with one field inversion (Montgomery's trick): prefix products
// of the Z coordinates, one inverse of the total, then a backward pass; 3M per point plus the
// per-point 3M + 1S of the conversion. Identities are skipped and come out as the affine identity.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "cuzk/ec/affine.hpp"
#include "cuzk/ec/jacobian.hpp"

namespace cuzk {

/// Affine forms of |in|; the single inversion is variable-time (inputs are treated as public).
template <class C>
std::vector<Affine<C>> batch_to_affine_vartime(std::span<const Jacobian<C>> in) {
  using F = typename C::Field;
  std::vector<Affine<C>> out(in.size(), Affine<C>::identity());
  std::vector<F> prefix(in.size());
  F acc = F::one();
  for (std::size_t i = 0; i < in.size(); ++i) {
    prefix[i] = acc;  // product of the Z of the non-identity points before i
    if (!in[i].is_identity()) acc *= in[i].Z;
  }
  F inv = acc.inverse_vartime();  // 1 / (product of all non-zero Z)
  for (std::size_t i = in.size(); i-- > 0;) {
    if (in[i].is_identity()) continue;
    const F zi = inv * prefix[i];  // 1 / Z_i
    inv *= in[i].Z;
    out[i] = in[i].with_z_inverse(zi);
  }
  return out;
}

}  // namespace cuzk
