// How large a partition's compact witness (compact_witness.hpp) can be, from the circuit alone:
// the budget reserves this before synthesis (issue 22 item 3), never a measured figure.
//
// A satisfying witness holds 0 or 1 in every column the circuit proves boolean, so those columns
// are bits of the compact form; only the others can be values. A column w is proved boolean by a
// row of at most five columns (ONE aside) whose polynomial in w leaves it no value outside {0, 1}
// whenever the row's other columns are bits (the boolean constraint (ONE − x)·x = 0; the gadgets'
// xor, and, nor, ch and maj rows for each of their columns: compact_witness_bound.cpp). The rules
// come from each distinct block of the compact R1CS (pce_compact.hpp) and are applied to the
// witness columns of every segment using the block, in the circuit's row order, pass after pass
// (at most 8) until none proves more. A rule not followed only loosens the bound, so the count
// is a lower bound of the boolean columns and the bytes an upper bound. With m columns not proved
// boolean out of n, and A = kAllocationSlack per allocation (malloc's usable size over the bytes
// asked):
//   witness    8·⌈n/64⌉ (bits) + 40·m (a value of 32 B and, at worst, a run of its own: 8 B) + 4
//   fragments  what CompactWitnessBuilder holds for F slices: each fragment is one allocation of
//              exactly its bits (⌈len/64⌉ ≤ len/64 + 1 words), runs (8 B) and values (32 B), and
//              its header in the builder's list (grown by doubling: while it grows, the old and
//              the new array, ≤ 3 headers a fragment): 8·(⌈n/64⌉ + F) + 40·m + F·kFragmentBytes
//   adding     add() of a slice of len values holds, beside the fragment it makes, two masks a
//              64 values: 16·⌈len/64⌉ + A (add_bytes);
//   finishing  finish() allocates the result at its final size and releases each fragment once
//              joined, so its peak is the fragments and the result at once: fragments +
//              witness + 5·A (the result's four arrays and the list; finish_bytes).
// The builder's peak (build_bytes) is the larger of the two; a caller's own buffers (a scratch z)
// come beside it, over the adds only when the caller frees them before finish().
// A witness that breaks the bound does not satisfy the circuit (compact_witness_within).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "cuzk/base/status.hpp"
#include "cuzk/r1cs/compact_witness.hpp"
#include "cuzk/r1cs/matrices.hpp"
#include "cuzk/r1cs/pce_compact.hpp"

namespace cuzk {

struct CompactWitnessBound {
  std::uint64_t variables = 0;     ///< n: inputs (ONE included) + aux
  std::uint64_t boolean_cols = 0;  ///< columns proved boolean (ONE included)
  /// Bytes malloc may hand out beyond those asked for, per allocation (glibc: a 16 B header for a
  /// chunk of its heap, the rounding to a 4 KiB page for a chunk it maps).
  static constexpr std::uint64_t kAllocationSlack = 4096;
  /// Room for a fragment's header (CompactWitnessBuilder's, static_asserted in compact_witness.cpp).
  static constexpr std::uint64_t kFragmentHeader = 64;
  /// Bytes per fragment beyond its bits, runs and values: up to three headers in the builder's
  /// list (grown by doubling) and its allocation's slack.
  static constexpr std::uint64_t kFragmentBytes = 3 * kFragmentHeader + kAllocationSlack;

  std::uint64_t others() const { return variables - boolean_cols; }
  /// Upper bound of CompactWitness::bytes() (and of its vectors' capacity) for a satisfying witness.
  std::uint64_t witness_bytes() const { return 8 * ((variables + 63) / 64) + 40 * others() + 4; }
  /// Upper bound of what a CompactWitnessBuilder's |fragments| slices hold before finish().
  std::uint64_t fragment_bytes(std::uint64_t fragments) const {
    return 8 * ((variables + 63) / 64 + fragments) + 40 * others() + fragments * kFragmentBytes;
  }
  /// Upper bound of what finish() holds beside the fragments: the joined result (its four arrays'
  /// and the list's allocation slack included).
  std::uint64_t finish_bytes() const { return witness_bytes() + 5 * kAllocationSlack; }
  /// Upper bound of what one add() of a slice of |len| values holds beside the fragment it makes.
  static std::uint64_t add_bytes(std::uint64_t len) {
    return 16 * ((len + 63) / 64) + kAllocationSlack;
  }
  /// Upper bound of what a CompactWitnessBuilder of |fragments| slices, the largest of
  /// |largest_slice| values added by up to |threads| at once, holds at its peak: the fragments
  /// beside the adds' masks or beside finish()'s result.
  std::uint64_t build_bytes(std::uint64_t fragments, std::uint64_t largest_slice,
                            std::uint64_t threads = 1) const {
    return fragment_bytes(fragments) + std::max(finish_bytes(), threads * add_bytes(largest_slice));
  }
};

/// The bound of the circuit's compact form |c| (one pass over its segments and slots, and
/// pce_bit_columns over each distinct block).
CompactWitnessBound compact_witness_bound(const CompactR1cs& c);
/// The same rules over plain matrices: the slow twin (the compact form's count equals it when every
/// rule's columns lie in one block).
CompactWitnessBound compact_witness_bound(const R1csMatrices& m);
/// The columns of |m| the rules prove boolean, one bit per column (ONE included).
std::vector<std::uint64_t> proved_boolean_columns(const R1csMatrices& m);

/// out_of_range, naming the counts, when |w| holds more values than |b| allows: its witness does
/// not satisfy the circuit (a column proved boolean holds another value).
Status compact_witness_within(const CompactWitness& w, const CompactWitnessBound& b);

/// Bytes |w|'s vectors hold (their capacity), what the partition keeps.
std::uint64_t compact_witness_capacity_bytes(const CompactWitness& w);

}  // namespace cuzk
