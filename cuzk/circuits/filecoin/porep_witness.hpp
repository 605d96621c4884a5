// The witness z = (inputs ‖ aux) of one PoRep partition with its challenges synthesised in
// parallel (issue 19 item 8). Given the prelude (replica_id, the commitments, the comm_r check),
// the challenges of a partition are independent: each reads only the prelude's variables, and
// each allocates the same numbers of aux variables and inputs (they depend on the shape alone).
// So the layout is counted once per shape from the blank circuit (prelude, one challenge), the
// prelude is synthesised first, and then challenge i on witness-only systems writing straight
// into z at
//   inputs  prelude_inputs + i·challenge_inputs   (ONE at 0, in the prelude's count)
//   aux     prelude_aux + i·challenge_aux
// on a thread pool: z equals PorepCircuit's through WitnessConstraintSystem, value for value (a
// test compares the two). Within a challenge the parts of porep_circuit_steps.hpp run as separate
// tasks at their own offsets, so 18 challenges keep 16 threads busy: first every challenge's
// columns part (≈ 1 % of the work: the labels read its rows), then every tree_d part (19 %,
// largest first) and every label (80 %, 11 per challenge at 32 GiB) claimed one by one, then the
// tails. The first call for a shape also counts its blank prelude and one blank challenge (the
// generic gadget path: 0.24–0.30 s CPU at 32 GiB), then the layout is cached for the process.
#pragma once

#include <cstdint>
#include <vector>

#include "cuzk/base/status.hpp"
#include "cuzk/base/thread_pool.hpp"
#include "cuzk/circuits/filecoin/porep_circuit.hpp"
#include "cuzk/r1cs/compact_witness.hpp"
#include "cuzk/r1cs/compact_witness_bound.hpp"
#include "cuzk/r1cs/witness_cs.hpp"

namespace cuzk::circuits::filecoin {

/// Where each step of a partition's synthesis lies in z, and the totals.
struct PorepWitnessLayout {
  std::uint64_t prelude_inputs = 0;  ///< ONE included
  std::uint64_t prelude_aux = 0;
  std::uint64_t challenge_inputs = 0, challenge_aux = 0;  ///< per challenge
  std::uint64_t num_inputs = 0, num_aux = 0;              ///< the whole partition (ONE included)
  std::uint64_t num_constraints = 0;  ///< bellperson's input constraints included
  /// A challenge's parts in synthesis order: tree_d, columns, the label of each layer 1..L, tail.
  struct Part {
    std::uint64_t inputs = 0, aux = 0;
  };
  std::vector<Part> parts;
};

/// The layout of |shape|'s circuit, counted on the first call for the shape, then cached
/// (thread-safe); invalid_argument for a shape PorepCircuit refuses.
Result<PorepWitnessLayout> porep_witness_layout(const PorepCircuitShape& shape);

/// z of the partition (|pub|, |priv|), the challenges in parallel on |pool|; a drop-in for
/// synthesising PorepCircuit(shape, pub, priv) with a WitnessConstraintSystem and taking its
/// assignment. Only |opt|.fast_paths is read. |storage| (a previous result) is reused when its
/// capacity suffices, so that proof after proof writes memory already mapped. The errors of
/// PorepCircuit::synthesize; the first failing challenge's (in order) when several fail.
Result<std::vector<Fr>> porep_partition_witness(const PorepCircuitShape& shape,
                                                const PorepCircuitPublic& pub,
                                                const PorepCircuitPrivate& priv, ThreadPool& pool,
                                                const WitnessOptions& opt = {},
                                                std::vector<Fr>&& storage = {});

/// The partition's compact witness (r1cs/compact_witness.hpp) straight from the same parallel
/// synthesis: each part writes into a scratch buffer (one per part running at once, reused) and
/// is converted into a fragment as soon as it is done, so z is never held: the host footprint is
/// the compact form plus the running parts' scratch (threads × the largest part). Equal to
/// compact_witness_from_z of porep_partition_witness's z. The same errors.
Result<CompactWitness> porep_partition_compact_witness(const PorepCircuitShape& shape,
                                                       const PorepCircuitPublic& pub,
                                                       const PorepCircuitPrivate& priv,
                                                       ThreadPool& pool,
                                                       const WitnessOptions& opt = {});

/// Upper bound of the scratch porep_partition_compact_witness holds on a pool of |threads|: a
/// buffer per thread, each of the largest slice (the prelude's, or a challenge part's inputs and
/// aux) at most, 32 B per value (a buffer grows to exactly the slice it must hold), and the
/// allocations' slack.
std::uint64_t porep_compact_witness_scratch_bytes(const PorepWitnessLayout& l, std::size_t threads);
/// The most fragments porep_partition_compact_witness gives its builder: ONE, and the aux and
/// inputs of the prelude and of every challenge's parts.
std::uint64_t porep_compact_witness_fragments(const PorepWitnessLayout& l);
/// Upper bound of the heap bytes porep_partition_compact_witness holds at its peak on a pool of
/// |threads|, its result included, for the circuit whose compact witnesses |b| bounds (needs only
/// the layout and the bound, no synthesis): the builder's fragments
/// (CompactWitnessBound::fragment_bytes), the synthesis's buffers (the scratch and each thread's
/// add()) and finish()'s result (finish_bytes). The buffers and the result never coexist (the
/// scratch is freed before finish()), so the smaller of the two is room that this sum keeps for
/// what it does not derive: the synthesis's own objects (PorepSteps' copy of the vanilla
/// witnesses, the gadgets' temporaries while a part runs), which the heap-peak tests measure
/// (2 KiB: circuits_filecoin_family_compact_test; 32 GiB: circuits_porep_compact_peak_slow_test).
std::uint64_t porep_compact_witness_peak_bytes(const PorepWitnessLayout& l,
                                               const CompactWitnessBound& b, std::size_t threads);

}  // namespace cuzk::circuits::filecoin
