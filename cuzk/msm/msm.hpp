// The checked MSM entry point: Σ k_i·P_i over Fr scalars (Montgomery form) and affine bases, with
// bellperson's density rule (FORMATS.md §2.3) and the bit-aware split (bit_split.hpp), on the
// caller's ThreadPool. Generic over the curve; msm.cpp instantiates G1 and G2.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "cuzk/base/status.hpp"
#include "cuzk/base/thread_pool.hpp"
#include "cuzk/ec/affine.hpp"
#include "cuzk/ec/jacobian.hpp"
#include "cuzk/ff/fr.hpp"
#include "cuzk/msm/pippenger.hpp"

namespace cuzk {

/// One MSM's options, set by designated initialisers: {.density_bits = bits, .split = ...}.
struct MsmConfig {
  /// Scalar i takes part iff bit i is set (every scalar when empty); the k-th taking part pairs with
  /// bases[base_offset + k].
  std::span<const std::uint64_t> density_bits{};
  std::size_t base_offset = 0;
  MsmSplit split = MsmSplit::automatic;  ///< automatic: the CPU's rule (msm_plan.hpp)
  PippengerOptions pippenger{};
};

/// What one MSM did (for benchmarks and logs).
struct MsmReport {
  std::size_t selected = 0;                   ///< scalars that took part
  std::size_t zeros = 0, ones = 0, tail = 0;  ///< counted only when the split was considered
  bool split_used = false;
};

/// How many of the first |n| scalars take part under density |bits| (all n when |bits| is empty).
std::size_t msm_selected_count(std::span<const std::uint64_t> bits, std::size_t n);

/// Σ scalars[i]·bases[...] with the density rule. size_mismatch when the bitmap is shorter than the
/// scalars or the bases run out; invalid_argument past 2^32 bases.
template <class C>
Result<Jacobian<C>> msm(std::span<const Affine<C>> bases, std::span<const Fr> scalars,
                        ThreadPool& pool, const MsmConfig& config = {},
                        MsmReport* report = nullptr);

}  // namespace cuzk
