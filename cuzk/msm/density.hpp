// bellperson's density rule for one MSM (FORMATS.md §2.3), written once for every executor: walk
// the scalars in order; scalar i takes part iff bit i of the bitmap is set (every scalar when the
// bitmap is empty), and the k-th taking part pairs with bases[base_offset + k]. So the rank of a
// taking part scalar is the popcount of the bitmap below it. The word and rank helpers are CUZK_HD:
// the GPU's classify kernel uses them with a prefix sum of per-word counts.
// Which queries take which densities (A over inputs and the a-density's aux, B over the b-densities,
// L over aux, H over the n − 1 coefficients) is the partition's term list (backend/partition_terms.hpp).
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "cuzk/base/status.hpp"
#include "cuzk/ec/hd.hpp"

namespace cuzk {

/// One MSM's density: an empty |bits| means every scalar takes part (scalar i pairs with
/// bases[base_offset + i]).
struct MsmDensity {
  std::span<const std::uint64_t> bits{};
  std::size_t base_offset = 0;
};

/// Popcount of a 64-bit word, host or device.
CUZK_HD inline unsigned density_popcount(std::uint64_t w) {
#if defined(__CUDA_ARCH__)
  return static_cast<unsigned>(__popcll(w));
#else
  return static_cast<unsigned>(std::popcount(w));
#endif
}

/// Word |w| of bitmap |bits| with the bits of scalars ≥ |n| cleared.
CUZK_HD inline std::uint64_t density_word(const std::uint64_t* bits, std::size_t n, std::size_t w) {
  std::uint64_t word = bits[w];
  if ((w + 1) * 64 > n)
    word &= (n % 64 == 0) ? ~std::uint64_t{0} : (std::uint64_t{1} << (n % 64)) - 1;
  return word;
}

/// Whether scalar |i| takes part (|bits| null: every scalar does).
CUZK_HD inline bool density_takes_part(const std::uint64_t* bits, std::size_t i) {
  return bits == nullptr || ((bits[i / 64] >> (i % 64)) & 1) != 0;
}

/// The rank of scalar |i| among those taking part, |word_prefix|[w] being the count of words below
/// w (|bits| null: i). Its base is bases[base_offset + rank].
CUZK_HD inline std::size_t density_rank(const std::uint64_t* bits, const std::uint32_t* word_prefix,
                                        std::size_t i) {
  if (bits == nullptr) return i;
  const std::uint64_t below = bits[i / 64] & ((std::uint64_t{1} << (i % 64)) - 1);
  return word_prefix[i / 64] + density_popcount(below);
}

/// Scalars among the first |n| taking part, counted over words [wb, we) of |bits| (not empty).
inline std::size_t density_count_words(std::span<const std::uint64_t> bits, std::size_t n,
                                       std::size_t wb, std::size_t we) {
  std::size_t count = 0;
  for (std::size_t w = wb; w < we; ++w) count += density_popcount(density_word(bits.data(), n, w));
  return count;
}

/// How many of the first |n| scalars take part under |bits| (all n when |bits| is empty); |bits|
/// must hold at least ⌈n/64⌉ words (check_density_bits).
inline std::size_t density_selected_count(std::span<const std::uint64_t> bits, std::size_t n) {
  if (bits.empty()) return n;
  const std::size_t words = (n + 63) / 64;
  return density_count_words(bits, n, 0, words < bits.size() ? words : bits.size());
}

/// size_mismatch when a non-empty bitmap has fewer than |n| bits.
inline Status check_density_bits(std::size_t n, std::span<const std::uint64_t> bits) {
  if (!bits.empty() && bits.size() * 64 < n)
    return Status(Errc::size_mismatch, "density has " + std::to_string(bits.size() * 64) +
                                           " bits for " + std::to_string(n) + " scalars");
  return {};
}

/// size_mismatch when |selected| scalars from |base_offset| run past a table of |points| bases.
inline Status check_density_bases(std::size_t selected, std::size_t base_offset,
                                  std::size_t points) {
  if (base_offset > points || points - base_offset < selected)
    return Status(Errc::size_mismatch, "MSM needs bases up to " +
                                           std::to_string(base_offset + selected) +
                                           ", the table has " + std::to_string(points));
  return {};
}

/// Both checks for an MSM of |n| scalars under |density| over a table of |points| bases.
inline Status check_density(std::size_t n, const MsmDensity& density, std::size_t points) {
  CUZK_RETURN_IF_ERROR(check_density_bits(n, density.bits));
  return check_density_bases(density_selected_count(density.bits, n), density.base_offset, points);
}

}  // namespace cuzk
