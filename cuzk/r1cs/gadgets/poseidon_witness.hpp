// The witness fast path of neptune's legacy Poseidon circuit (poseidon.hpp), for systems with
// ConstraintSystem::fast_witness(): the permutation on field values, writing in one block the
// values the generic code allocates, in its order:
//   first round     per preimage element x (pre-key k, post k′): (x+k)², (x+k)⁴, (x+k)⁵ + k′
//   other rounds    per S-box input (every element in full rounds, element 0 in partial ones):
//                   the materialised input l, l², l⁴, l⁵ (+ k′ except in the terminal round)
//   result          state[1]
// = 3·arity + 4·(t·(R_F − 1) + R_P) + 1 values (598 for arity 11), one constraint each; the
// linear layers (M, P, the sparse M″) as in the generic code's scalar products.
#pragma once

#include <span>

#include "cuzk/r1cs/gadgets/poseidon.hpp"

namespace cuzk {

/// poseidon_hash_circuit on a fast_witness() system; the caller checks fast_witness(), the
/// preimage length and that every preimage value is known.
AllocatedNum poseidon_hash_witness(ConstraintSystem& cs, const PoseidonConstants& c, const Fr& tag,
                                   std::span<const AllocatedNum> preimage);

}  // namespace cuzk
