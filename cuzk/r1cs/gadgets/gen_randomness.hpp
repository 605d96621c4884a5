// SnapDeals' "gen randomness" hash (rust-fil-proofs storage-proofs-update constants.rs
// POSEIDON_CONSTANTS_GEN_RANDOMNESS: Poseidon arity 2, Strength::Standard, domain tag
// HashType::Custom(CType::Arbitrary(1)) = 1·2^40 in state[0]; FORMATS.md §3.7, §4.2), behind
//   phi       = H(comm_d_new, comm_r_old)
//   rho       = H(phi, c_high)                c_high = the h high bits of a challenge
//   digest(j) = H(comm_r_new, digest_index)   the challenge bits
// In circuit it is neptune's legacy Poseidon gadget (poseidon.hpp) with that tag: 311
// constraints, the same as the MerkleTree-tagged arity-2 hash (the tag is a folded constant) but
// a different value.
#pragma once

#include "cuzk/r1cs/gadgets/num.hpp"

namespace cuzk {

/// H_custom1(a, b) in circuit (poseidon_hash with POSEIDON_CONSTANTS_GEN_RANDOMNESS).
Result<AllocatedNum> gen_randomness_circuit(ConstraintSystem& cs, const AllocatedNum& a,
                                            const AllocatedNum& b);

/// Out of circuit: H_custom1(a, b) (optimized permutation).
Fr gen_randomness_native(const Fr& a, const Fr& b);

}  // namespace cuzk
