// The slow twin of every MSM: Σ k_i·P_i as a sum of independent double-and-add scalar
// multiplications (≈ 255 doublings + 128 additions per term), with bellperson's density rule.
// Test oracle only; no windows, no signed digits, no threads, so it shares no logic with Pippenger.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "cuzk/ec/affine.hpp"
#include "cuzk/ec/jacobian.hpp"
#include "cuzk/ff/fr.hpp"

namespace cuzk {

/// [k]p by left-to-right double-and-add over the canonical bits of k.
template <class C>
Jacobian<C> scalar_mul_double_and_add(const Affine<C>& p, const Fr& k) {
  const auto bits = k.to_canonical();
  Jacobian<C> acc = Jacobian<C>::identity();
  for (int i = 255; i >= 0; --i) {
    acc.dbl();
    if ((bits[i / 64] >> (i % 64)) & 1) acc.add_mixed(p);
  }
  return acc;
}

/// Σ scalars[i]·bases[...] with the density rule of FORMATS.md §2.3: scalar i takes part iff bit i of
/// |density_bits| is set (all when empty), and the k-th taking part pairs with bases[base_offset + k].
/// nullopt when the bases run out or the bitmap is shorter than the scalars.
template <class C>
std::optional<Jacobian<C>> msm_naive(std::span<const Affine<C>> bases, std::span<const Fr> scalars,
                                     std::span<const std::uint64_t> density_bits = {},
                                     std::size_t base_offset = 0) {
  if (!density_bits.empty() && density_bits.size() * 64 < scalars.size()) return std::nullopt;
  Jacobian<C> acc = Jacobian<C>::identity();
  std::size_t next = base_offset;
  for (std::size_t i = 0; i < scalars.size(); ++i) {
    if (!density_bits.empty() && !((density_bits[i / 64] >> (i % 64)) & 1)) continue;
    if (next >= bases.size()) return std::nullopt;
    acc += scalar_mul_double_and_add(bases[next++], scalars[i]);
  }
  return acc;
}

}  // namespace cuzk
