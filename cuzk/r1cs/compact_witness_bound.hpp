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
// boolean out of n:
//   witness    8·⌈n/64⌉ (bits) + 40·m (a value of 32 B and, at worst, a run of its own: 8 B) + 4
//   building   CompactWitnessBuilder holds its fragments (each: ⌈len/64⌉ + 1 bit words, its runs
//              and values in vectors grown by doubling, ≤ 2× their size, and the Fragment itself)
//              and the joined result at once: witness + 8·(⌈n/64⌉ + F) + 80·m + F·kFragmentBytes
//              for F fragments.
// A witness that breaks the bound does not satisfy the circuit (compact_witness_within).
#pragma once

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
  /// Bytes per fragment beyond its bits, runs and values: the Fragment (two counts, four vector
  /// headers) as the builder's list holds it (the list grown by doubling: 2×), and an allocator
  /// header per vector.
  static constexpr std::uint64_t kFragmentBytes = 2 * (16 + 4 * 24) + 4 * 16;

  std::uint64_t others() const { return variables - boolean_cols; }
  /// Upper bound of CompactWitness::bytes() (and of its vectors' capacity) for a satisfying witness.
  std::uint64_t witness_bytes() const { return 8 * ((variables + 63) / 64) + 40 * others() + 4; }
  /// Upper bound of what a CompactWitnessBuilder of |fragments| slices holds at its peak (the
  /// fragments and the joined result).
  std::uint64_t build_bytes(std::uint64_t fragments) const {
    return witness_bytes() + 8 * ((variables + 63) / 64 + fragments) + 80 * others() +
           fragments * kFragmentBytes;
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
