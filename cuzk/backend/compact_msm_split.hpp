// The 0/1/tail split of one partition MSM's scalars read straight from the compact witness (issue 22
// item 2; r1cs/compact_witness.hpp: a bit per variable, runs of the other values). The MSM over
// z[offset, offset + count) under a bellperson density (msm/density.hpp: scalar i takes part iff
// its density bit is set, and pairs with base base_offset + rank(i)) splits its scalars as the GPU's
// classify step does from z (gpu/msm/pippenger_impl.cuh): 0 skipped, 1 to the "ones" list (with
// the split on; else to the tail), others to the "tail" list with their value. From the compact
// form that needs no z:
//   ones   per 64-scalar word, take & (the witness bits of the word's variables): a funnel shift of
//          two bitmap words, one AND, a popcount per base index;
//   tail   the run values whose variable lies in the term (the compact form guarantees they are
//          neither 0 nor 1), each found from its value index (its run by binary search over the
//          runs' value offsets: ≤ 13 steps for the 32 GiB PoRep's 7,608 runs);
//   zeros  everything else taking part.
// So a 2^27 term reads n/8 bytes of bits and the ≈ 1.3 % non-bit values (≈ 72 MB at the 32 GiB
// PoRep) instead of z's n·32 bytes (4.3 GB). The word and run helpers below are CUZK_HD: the
// device kernels (gpu/msm/compact_classify.cu) and the host twin share them.
// The host functions are the slow twins the CI tests pin: msm_split_from_compact (the same walk)
// against msm_split_from_scalars (the classify rule over the expanded z, the oracle).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/base/status.hpp"
#include "cuzk/ec/hd.hpp"
#include "cuzk/ff/fr.hpp"
#include "cuzk/msm/density.hpp"
#include "cuzk/r1cs/compact_witness.hpp"

namespace cuzk {

/// Bits [first, end) of a bitmap (bit i of word i / 64) in the low end − first bits of one word
/// (end − first ≤ 64; nothing past word (end − 1) / 64 is read; 0 when first ≥ end).
CUZK_HD inline std::uint64_t compact_bits_at(const std::uint64_t* bits, std::uint64_t first,
                                             std::uint64_t end) {
  if (first >= end) return 0;
  const std::uint64_t w = first / 64;
  const unsigned shift = static_cast<unsigned>(first % 64);
  std::uint64_t x = bits[w] >> shift;
  if (shift != 0 && (w + 1) * 64 < end) x |= bits[w + 1] << (64 - shift);
  const std::uint64_t len = end - first;
  return len >= 64 ? x : x & ((std::uint64_t{1} << len) - 1);
}

/// Word |w| (scalars 64w .. 64w + 63) of an MSM over the |n| variables from |offset| of a compact
/// witness with bitmap |witness_bits|: |take| the scalars taking part (|density| null: all of
/// them), |ones| those among them whose value is 1. A scalar of |take| not in |ones| is 0 unless
/// its variable lies in a run (the run's bits are 0).
struct CompactSplitWord {
  std::uint64_t take = 0, ones = 0;
};
CUZK_HD inline CompactSplitWord compact_split_word(const std::uint64_t* witness_bits,
                                                   std::uint64_t offset, std::size_t n,
                                                   const std::uint64_t* density, std::size_t w) {
  const std::uint64_t first = std::uint64_t{w} * 64;
  CompactSplitWord s;
  if (first >= n) return s;
  if (density != nullptr)
    s.take = density_word(density, n, w);
  else
    s.take = n - first >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << (n - first)) - 1;
  s.ones = s.take & compact_bits_at(witness_bits, offset + first, offset + n);
  return s;
}

/// The base index of scalar 64w + |j| of a word whose scalars taking part are |take|, with
/// |rank_before| scalars taking part below the word (64w without a density): base_offset + rank.
CUZK_HD inline std::size_t compact_split_base(std::size_t base_offset, std::size_t rank_before,
                                              std::uint64_t take, unsigned j) {
  return base_offset + rank_before + density_popcount(take & ((std::uint64_t{1} << j) - 1));
}

/// The run holding value |j| (run_value[r] ≤ j < run_value[r + 1]) among |runs| ≥ 1 runs, by binary
/// search over the value offsets; j below run_value[runs].
CUZK_HD inline std::uint32_t compact_run_of_value(const std::uint32_t* run_value,
                                                  std::uint32_t runs, std::uint64_t j) {
  std::uint32_t lo = 0, hi = runs;  // the last r with run_value[r] ≤ j lies in [lo, hi)
  while (hi - lo > 1) {
    const std::uint32_t mid = lo + (hi - lo) / 2;
    if (run_value[mid] <= j)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

/// One MSM's scalars split by value, as the GPU's classify step lists them: the base index of each
/// scalar 1 (empty without the split: they are in the tail), the base index and value (Montgomery
/// form) of each other non-zero scalar, and the count of zeros taking part. The device lists come in
/// no fixed order; sort() orders both lists by base index (each base index occurs once in an MSM),
/// so equal multisets compare equal.
struct MsmScalarSplit {
  std::vector<std::uint32_t> ones;
  std::vector<std::uint32_t> tail_bases;
  std::vector<Fr> tail_scalars;
  std::uint64_t zeros = 0;

  void sort();
  friend bool operator==(const MsmScalarSplit&, const MsmScalarSplit&) = default;
};

/// The split of the MSM over z[offset, offset + count) of |w| under |density| (its bits cover
/// count scalars or are empty), from the compact form alone (the walk the device kernels make).
/// |bit_split| off: the ones go to the tail with value 1. out_of_range when the term runs past the
/// witness or a base index past 2^32; size_mismatch for a short density.
Result<MsmScalarSplit> msm_split_from_compact(const CompactWitness& w, std::uint64_t offset,
                                              std::size_t count, const MsmDensity& density,
                                              bool bit_split);

/// The same split from the scalars themselves (the classify rule over z: the oracle). size_mismatch
/// for a short density.
Result<MsmScalarSplit> msm_split_from_scalars(std::span<const Fr> scalars,
                                              const MsmDensity& density, bool bit_split);

}  // namespace cuzk
