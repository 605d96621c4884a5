// neptune's *legacy* Poseidon circuit (`circuit::poseidon_hash`), which the Filecoin parameters
// were generated with, over the constants of hash/poseidon.hpp (FORMATS.md §3.7):
//   first round    tag S-box folded to a constant; per preimage element x (pre-key k, post k′):
//                  s = (x+k)²; q = s²; y = (x+k)·q + k′                    3 constraints
//   later rounds   an LC input is first materialised (v; LC·1 = v), then v², v⁴, v·v⁴ (+k′)
//   mixing         linear (state × M, × P, sparse M″), no constraints
//   output         state[1] materialised with one LC·1 = out constraint
// Count = 3·(t·R_F + R_P − 1) + (t·R_F + R_P − arity): 311 / 377 / 505 / 598 for arity 2/4/8/11.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/hash/poseidon.hpp"
#include "cuzk/r1cs/gadgets/num.hpp"

namespace cuzk {

// The native Poseidon lives in cuzk::hash; gadgets name it unqualified.
using hash::poseidon_constant_length_tag;
using hash::poseidon_constants;
using hash::poseidon_custom_tag;
using hash::poseidon_hash;
using hash::poseidon_hash_merkle;
using hash::poseidon_hash_reference;
using hash::poseidon_merkle_tag;
using hash::PoseidonConstants;

/// How poseidon_hash_circuit builds its LCs; every choice gives the same constraints.
struct PoseidonCircuitOptions {
  /// The LCs the hash materialises taken from a template computed once per (constants, tag)
  /// and shifted to the hash's variables (poseidon.cpp); off: built round by round (the twin).
  bool lc_templates = true;
};

/// neptune's legacy circuit; |preimage| must have exactly |arity| elements (size_mismatch).
Result<AllocatedNum> poseidon_hash_circuit(ConstraintSystem& cs, const PoseidonConstants& c,
                                           const Fr& tag, std::span<const AllocatedNum> preimage,
                                           const PoseidonCircuitOptions& opt = {});
/// Constraint count of poseidon_hash_circuit.
std::size_t poseidon_circuit_constraints(const PoseidonConstants& c);

}  // namespace cuzk
