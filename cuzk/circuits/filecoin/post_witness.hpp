// The compact witness of one FallbackPoSt partition (WindowPoSt, WinningPoSt; post_circuit.hpp)
// straight from a synthesis by circuit sectors (parts_witness.hpp): there is no prefix but ONE,
// and circuit sector i (comm_r_last, comm_c, comm_r, its comm_r input, the comm_r check and its
// challenges' PoRs) is part i — it reads no variable of another sector, and every sector
// allocates the same 1 + challenge_count inputs and aux count, so its variables are a contiguous
// range of the inputs and of the aux (PostCircuit::synthesize_circuit_sector; upstream's
// synthesize_extendable appends sector groups synthesized apart). 32 GiB WindowPoSt: 2,349 parts.
#pragma once

#include "cuzk/base/status.hpp"
#include "cuzk/base/thread_pool.hpp"
#include "cuzk/circuits/filecoin/parts_witness.hpp"
#include "cuzk/circuits/filecoin/post_circuit.hpp"
#include "cuzk/r1cs/compact_witness.hpp"

namespace cuzk::circuits::filecoin {

/// The layout of |params|' circuit as parts (one per circuit sector), counted from one blank
/// sector on the first call for the tree and challenge count, then cached (thread-safe); the
/// errors of PostCircuit for a tree it refuses.
Result<PartsLayout> post_witness_layout(const PostCircuitParams& params);

/// The compact witness of |circuit| (made by PostCircuit::create), its circuit sectors in parallel
/// on |pool|: equal to compact_witness_from_z of the WitnessConstraintSystem's z. The errors of
/// PostCircuit::synthesize (the first failing sector's); invalid_argument for a blank circuit.
Result<CompactWitness> post_partition_compact_witness(const PostCircuit& circuit, ThreadPool& pool,
                                                      const PartsOptions& opt = {});

}  // namespace cuzk::circuits::filecoin
