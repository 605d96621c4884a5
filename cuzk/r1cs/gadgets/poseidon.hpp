// Poseidon over Fr as neptune builds it (Strength::Standard, x^5, R_F = 8; FORMATS.md §3.7):
// round constants from tools/params/derive_poseidon.py (Grain LFSR), MDS M[i][j] = 1/(i+j+t),
// the optimized form (compressed constants C′, pre-sparse matrix P, R_P sparse matrices M″)
// derived once per arity, and neptune's *legacy* circuit (`circuit::poseidon_hash`), which the
// Filecoin parameters were generated with:
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

#include "cuzk/r1cs/gadgets/num.hpp"

namespace cuzk {

/// Constants of one Poseidon width (t = arity + 1).
struct PoseidonConstants {
  unsigned arity = 0;
  unsigned width = 0;
  unsigned full_rounds = 8;
  unsigned partial_rounds = 0;
  std::vector<Fr> round_constants;          ///< (R_F + R_P)·t, round r at [r·t, (r+1)·t)
  std::vector<std::vector<Fr>> mds;         ///< M, symmetric
  std::vector<Fr> compressed;               ///< C′, t·R_F + R_P values
  std::vector<std::vector<Fr>> pre_sparse;  ///< P, applied after round R_F/2 − 1 (state × P)
  struct Sparse {
    std::vector<Fr> w_hat;   ///< column 0 of M″ (t values)
    std::vector<Fr> v_rest;  ///< row 0 of M″ without element 0 (t − 1 values)
  };
  std::vector<Sparse> sparse;  ///< one per partial round, in round order
};

/// The constants for arity 2, 4, 8 or 11 (derived on first use, then shared); nullptr otherwise.
const PoseidonConstants* poseidon_constants(unsigned arity);

/// Domain tags (state[0]): MerkleTree 2^arity − 1, ConstantLength(ℓ) ℓ·2^64, Custom(id) id·2^40.
Fr poseidon_merkle_tag(unsigned arity);
Fr poseidon_constant_length_tag(std::uint64_t length);
Fr poseidon_custom_tag(std::uint64_t id);

/// Reference ("correct") permutation: add RC_r, S-box (full or state[0]), M·state; returns
/// state[1]. |preimage| shorter than the arity is padded with zeros.
Fr poseidon_hash_reference(const PoseidonConstants& c, const Fr& tag, std::span<const Fr> preimage);
/// Optimized permutation (what the circuit mirrors); same output.
Fr poseidon_hash(const PoseidonConstants& c, const Fr& tag, std::span<const Fr> preimage);
/// MerkleTree-tagged hash of exactly |arity| elements.
inline Fr poseidon_hash_merkle(const PoseidonConstants& c, std::span<const Fr> preimage) {
  return poseidon_hash(c, poseidon_merkle_tag(c.arity), preimage);
}

/// neptune's legacy circuit; |preimage| must have exactly |arity| elements (size_mismatch).
Result<AllocatedNum> poseidon_hash_circuit(ConstraintSystem& cs, const PoseidonConstants& c,
                                           const Fr& tag, std::span<const AllocatedNum> preimage);
/// Constraint count of poseidon_hash_circuit.
std::size_t poseidon_circuit_constraints(const PoseidonConstants& c);

}  // namespace cuzk
