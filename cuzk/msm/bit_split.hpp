// The bit-aware split of an MSM (the supraseal idea, REFERENCE-CUZK.md §5): Filecoin witnesses are
// mostly bits, so scalars 0 are dropped, the bases of scalars 1 are summed by a plain parallel sum
// (one addition each, no windows), and only the rest (the "tail") goes to
// Pippenger. msm.cpp decides when the split is used.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/base/thread_pool.hpp"
#include "cuzk/ec/affine.hpp"
#include "cuzk/ec/jacobian.hpp"
#include "cuzk/ff/limbs.hpp"

namespace cuzk {

/// Σ bases[indices[i]] (the identity for no indices), in parallel chunks: batch-affine additions
/// (IFMA lanes where the CPU has them) for chunks of 4096 points or more, XYZZ mixed additions
/// (8M + 2S) below; then one full addition per chunk. Unchecked indices.
template <class C>
Jacobian<C> sum_bases_unchecked(std::span<const Affine<C>> bases,
                                std::span<const std::uint32_t> indices, ThreadPool& pool);

/// Scalars split by value: indices of the ones, and the remaining non-zero scalars with theirs.
struct BitSplitParts {
  std::vector<std::uint32_t> ones;
  std::vector<Limbs<4>> tail_scalars;
  std::vector<std::uint32_t> tail_indices;
  std::size_t zeros = 0;
};

/// Splits canonical |scalars| paired with base |indices| (bases[i] when |indices| is empty). The
/// input order is kept within each part.
BitSplitParts bit_split(std::span<const Limbs<4>> scalars, std::span<const std::uint32_t> indices);

}  // namespace cuzk
