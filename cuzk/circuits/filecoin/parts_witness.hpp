// The compact witness (r1cs/compact_witness.hpp) of a circuit made of a prefix and then |parts|
// parts that each allocate the same numbers of inputs and aux variables and read nothing of one
// another (only the prefix's variables): FallbackPoSt's circuit sectors (post_witness.hpp),
// EmptySectorUpdate's challenges (update_witness.hpp). In bellperson's order (inputs and aux
// numbered in allocation order, each apart) part i then owns
//   inputs  prefix_inputs + i·part_inputs ..  (ONE at 0, counted in the prefix)
//   aux     prefix_aux + i·part_aux ..
// so the prefix is synthesized first on the calling thread, then the parts on a thread pool, each
// on a WitnessSliceConstraintSystem writing into a scratch buffer of the part's values (one per
// worker, reused from part to part) that CompactWitnessBuilder converts as soon as the part is
// done. z is never held: the host footprint is the builder's fragments and result plus the
// scratch (parts_scratch_bytes). The result is compact_witness_from_z of the sequential z, byte
// for byte (the builder sorts its fragments, so neither the pool nor the order matters).
// The layout is counted once from the blank circuit (count_parts_layout); a part that allocates
// more or fewer variables than counted fails (out_of_range) and never writes outside its slice.
#pragma once

#include <atomic>
#include <cstdint>

#include "cuzk/base/status.hpp"
#include "cuzk/base/thread_pool.hpp"
#include "cuzk/r1cs/compact_witness.hpp"
#include "cuzk/r1cs/compact_witness_bound.hpp"
#include "cuzk/r1cs/constraint_system.hpp"
#include "cuzk/r1cs/function_ref.hpp"

namespace cuzk::circuits::filecoin {

/// Where the prefix and each part lie among the inputs and the aux variables.
struct PartsLayout {
  std::uint64_t prefix_inputs = 1;  ///< ONE included
  std::uint64_t prefix_aux = 0;
  std::uint64_t part_inputs = 0, part_aux = 0;  ///< per part
  std::uint64_t parts = 0;

  std::uint64_t num_inputs() const { return prefix_inputs + parts * part_inputs; }
  std::uint64_t num_aux() const { return prefix_aux + parts * part_aux; }
  std::uint64_t num_variables() const { return num_inputs() + num_aux(); }
  /// Values of the prefix's slice (ONE excluded) and of one part's.
  std::uint64_t prefix_values() const { return prefix_inputs - 1 + prefix_aux; }
  std::uint64_t part_values() const { return part_inputs + part_aux; }
};

/// The prefix's synthesis (it keeps what the parts read), and part i's.
using PrefixFn = FunctionRef<Status(ConstraintSystem&)>;
using PartFn = FunctionRef<Status(ConstraintSystem&, std::uint64_t)>;

/// The layout of a blank circuit: |prefix| then |part|(0) on a system that counts variables and
/// asks for no value, |parts| parts in all. invalid_argument when the aux count reaches 2^32.
Result<PartsLayout> count_parts_layout(PrefixFn prefix, PartFn part, std::uint64_t parts);

struct PartsOptions {
  /// Gadgets' native witness paths (WitnessOptions::fast_paths).
  bool fast_paths = true;
  /// Polled before each part; set: cancelled.
  const std::atomic<bool>* cancel = nullptr;
  /// What a part is, for errors ("circuit sector", "challenge").
  const char* part_noun = "part";
};

/// The compact witness of the circuit |l| lays out: |prefix| on the calling thread, then
/// |part|(i) for every i on |pool| (each worker one part at a time, the next index claimed), each
/// on its own system (so |part| must only read what the prefix kept). The errors of the
/// synthesis, the first failing part's in index order; out_of_range when a slice's counts are not
/// the layout's.
Result<CompactWitness> compact_witness_by_parts(const PartsLayout& l, ThreadPool& pool,
                                                PrefixFn prefix, PartFn part,
                                                const PartsOptions& opt = {});

/// Upper bound of the scratch compact_witness_by_parts holds on a pool of |threads|: the prefix's
/// slice (freed before the parts start), then one part's slice per worker (min(threads, parts)
/// workers), 32 B per value (a buffer is reserved at exactly its slice) and a page of allocation
/// slack per buffer; and the parts' statuses (one Status per part).
std::uint64_t parts_scratch_bytes(const PartsLayout& l, std::size_t threads);
/// The most slices compact_witness_by_parts gives its builder: ONE, the prefix's inputs and aux,
/// each part's inputs and aux.
std::uint64_t parts_fragments(const PartsLayout& l);
/// Upper bound of the host bytes compact_witness_by_parts holds at its peak on |threads| threads,
/// its result included, for a circuit whose compact witnesses |b| bounds: the scratch beside the
/// builder's bound for parts_fragments slices (CompactWitnessBound::build_bytes, with the masks
/// each running add() may hold and the allocations' slack). The synthesis's own short-lived objects
/// (gadget vectors, names) fit in the room the sum leaves: while parts run, the builder's result
/// (witness_bytes) is not yet allocated; when it is, the scratch is freed.
std::uint64_t parts_peak_bytes(const PartsLayout& l, const CompactWitnessBound& b,
                               std::size_t threads);

}  // namespace cuzk::circuits::filecoin
