// CompactWitness: a partition's witness z = (inputs ‖ aux) in bellperson's variable order, stored
// as what it mostly is — bits (issue 22 item 1; DESIGN.md §2 step 1). The Filecoin witnesses are
// SHA-256 bits with a few field values between them (Poseidon states, packed words, Merkle
// nodes), so:
//   bits    one bit per variable: z_i ∈ {0, 1} is bit i; bit i is 0 for a variable held in a run;
//   runs    the other variables as runs of consecutive variables: run r covers the variables
//           [run_first[r], run_first[r] + len_r) with len_r = run_value[r + 1] − run_value[r],
//           whose values are values[run_value[r] ..) in order.
// So z_i = values[run_value[r] + i − run_first[r]] when i lies in run r, else bit i (as an Fr: 0 or
// the Montgomery one). Runs are ordered, non-empty, disjoint and not adjacent (a converter merges
// touching runs), so a given z has exactly one compact form.
//
// Size: n/8 bytes of bits + 32 B per non-bit value + 8 B per run (u32 first variable and u32
// value offset; columns are below SparseMatrix::kMaxColumns = 2^30). The 32 GiB PoRep partition:
// docs/perf/gpu.md "compact witness" (4.17 GB as z). The device expands it in VRAM
// (gpu/pce/device_compact_witness.cuh), so only these bytes cross PCIe.
//
// Produced from a full z (compact_witness_from_z, a converter), or from slices of values as a
// concurrent synthesis finishes its parts (CompactWitnessBuilder): the PoRep partition's
// porep_partition_compact_witness (circuits/filecoin/porep_witness.hpp) never holds z.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "cuzk/base/status.hpp"
#include "cuzk/base/thread_pool.hpp"
#include "cuzk/ff/fr.hpp"

namespace cuzk {

/// A witness as bits plus runs of other values (see the file comment).
struct CompactWitness {
  std::uint64_t num_inputs = 0;  ///< ONE included
  std::uint64_t num_aux = 0;
  std::vector<std::uint64_t> bits;       ///< (n + 63) / 64 words, bit i of word i / 64
  std::vector<std::uint32_t> run_first;  ///< per run, its first variable
  std::vector<std::uint32_t> run_value;  ///< per run, its first value's index; runs + 1 entries
  std::vector<Fr> values;                ///< the non-bit values, in variable order

  std::uint64_t num_variables() const { return num_inputs + num_aux; }
  std::size_t num_runs() const { return run_first.size(); }
  /// Bytes of the form's arrays (what crosses to a device): bits, runs, values.
  std::size_t bytes() const {
    return bits.size() * 8 + run_first.size() * 4 + run_value.size() * 4 + values.size() * 32;
  }
  /// Structural checks: sizes, runs ordered, non-empty, disjoint, not adjacent, inside z, run bits
  /// zero, no bits set past the last variable, values in [0, r) and none 0 or 1. Errors name what
  /// is wrong.
  Status validate() const;

  friend bool operator==(const CompactWitness&, const CompactWitness&) = default;
};

/// Builds a compact witness from slices of its values given in any order, from any thread: a
/// circuit whose parts are synthesised concurrently converts each part's slice as it is done, so
/// the whole z never exists (the part's scratch is the only full-width buffer). Each slice becomes
/// a fragment (its bits, runs and values, 64 values per step) in one allocation of its exact size;
/// finish() sorts them, checks they tile the variables exactly, allocates the result at its size
/// and joins them into it (bits shifted into place, touching runs merged), releasing each fragment
/// once joined. What it holds at its peak: CompactWitnessBound::build_bytes.
class CompactWitnessBuilder {
 public:
  CompactWitnessBuilder(std::uint64_t num_inputs, std::uint64_t num_aux);
  ~CompactWitnessBuilder();
  CompactWitnessBuilder(const CompactWitnessBuilder&) = delete;
  CompactWitnessBuilder& operator=(const CompactWitnessBuilder&) = delete;
  /// The values of variables [first, first + values.size()) (an empty slice is ignored).
  void add(std::uint64_t first, std::span<const Fr> values);
  /// The witness; invalid_argument naming the slices when they overlap, leave a gap or run past
  /// the end. The builder is empty afterwards.
  Result<CompactWitness> finish();

 private:
  struct Fragments;
  std::uint64_t num_inputs_, num_aux_;
  std::unique_ptr<Fragments> fragments_;
};

/// The compact form of |z| (|num_inputs| of its values are inputs, ONE first). Split over |pool|
/// in chunks of variables; the result does not depend on the pool. invalid_argument when z has
/// fewer values than inputs or more than 2^30 (the columns a matrix can address).
Result<CompactWitness> compact_witness_from_z(ThreadPool& pool, std::span<const Fr> z,
                                              std::uint64_t num_inputs);

/// Slices compact_witness_from_z converts separately (fragments of its builder) for a witness of
/// |n| values: one per 2^20 values.
std::uint64_t compact_witness_from_z_fragments(std::uint64_t n);
/// The largest of those slices: min(n, 2^20) values.
std::uint64_t compact_witness_from_z_slice(std::uint64_t n);

/// Writes the witness of |w| into |z| (num_variables() values), split over |pool|: every value
/// from its bit, then the runs over them. size_mismatch for another length; the checks of
/// validate() first.
Status compact_witness_expand(ThreadPool& pool, const CompactWitness& w, std::span<Fr> z);

/// Counts of a witness's values, for benchmarks: zeros, ones, others, and the runs of others.
struct CompactWitnessStats {
  std::uint64_t zeros = 0, ones = 0, others = 0, runs = 0;
};
CompactWitnessStats compact_witness_stats(const CompactWitness& w);

}  // namespace cuzk
