// Batch conversion Jacobian → affine with one field inversion: the Z coordinates go through
// Montgomery's trick (ff/batch_invert.hpp, 3M per point), then each point costs 3M + 1S.
// Identities (Z = 0) are skipped by the trick and come out as the affine identity.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "cuzk/ec/affine.hpp"
#include "cuzk/ec/jacobian.hpp"
#include "cuzk/ff/batch_invert.hpp"

namespace cuzk {

/// Affine forms of |in|; the single inversion is variable-time (inputs are treated as public).
template <class C>
std::vector<Affine<C>> batch_to_affine_vartime(std::span<const Jacobian<C>> in) {
  using F = typename C::Field;
  std::vector<F> zinv(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) zinv[i] = in[i].Z;
  batch_invert_vartime(std::span<F>(zinv));
  std::vector<Affine<C>> out(in.size(), Affine<C>::identity());
  for (std::size_t i = 0; i < in.size(); ++i)
    if (!in[i].is_identity()) out[i] = in[i].with_z_inverse(zinv[i]);
  return out;
}

}  // namespace cuzk
