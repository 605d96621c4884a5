// The compact witness of one EmptySectorUpdate (SnapDeals) partition (update_circuit.hpp)
// straight from a synthesis by challenges (parts_witness.hpp): the prefix is the circuit up to
// gen_challenge_bits (its four public inputs, phi, the apex PoR, every challenge's random bits),
// then challenge i is part i — it reads only the prefix's variables, allocates no input and as
// many aux variables as every other challenge, so its aux variables are one contiguous range
// (update_circuit_steps.hpp; storage-proofs-update circuit.rs allocates the challenges one after
// the other in that loop). 32 GiB: 86 challenges, each two Poseidon PoRs and a SHA-256 PoR of the
// levels below the apex leaves.
#pragma once

#include <cstdint>

#include "cuzk/base/status.hpp"
#include "cuzk/base/thread_pool.hpp"
#include "cuzk/circuits/filecoin/parts_witness.hpp"
#include "cuzk/circuits/filecoin/update_circuit.hpp"
#include "cuzk/r1cs/compact_witness.hpp"

namespace cuzk::circuits::filecoin {

/// The layout of the circuit of |nodes|-node sectors as parts (one per challenge), counted from
/// the blank circuit on the first call for the size, then cached (thread-safe); invalid_argument
/// for a size update_tree_shape refuses.
Result<PartsLayout> update_witness_layout(std::uint64_t nodes);

/// The compact witness of partition |pub|.k proved by |vanilla|, its challenges in parallel on
/// |pool|: equal to compact_witness_from_z of UpdateCircuit(pub, &vanilla)'s z through the
/// WitnessConstraintSystem. The errors of UpdateCircuit::synthesize (the first failing
/// challenge's).
Result<CompactWitness> update_partition_compact_witness(const UpdatePublic& pub,
                                                        const SnapPartitionProof& vanilla,
                                                        ThreadPool& pool,
                                                        const PartsOptions& opt = {});

}  // namespace cuzk::circuits::filecoin
