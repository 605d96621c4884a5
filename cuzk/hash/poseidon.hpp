// Native Poseidon over Fr as neptune builds it (Strength::Standard, x^5, R_F = 8; FORMATS.md
// §3.7): round constants from tools/params/derive_poseidon.py (Grain LFSR, in
// poseidon_constants.inc), MDS M[i][j] = 1/(i+j+t), and the optimized form (compressed constants
// C′, pre-sparse matrix P, R_P sparse matrices M″) derived once per arity. The circuit twin
// (neptune's legacy gadget) is r1cs/gadgets/poseidon.hpp and uses these constants.
// Cost of one optimized hash: t·R_F + R_P S-boxes' worth of 3 multiplications plus R_F dense
// t×t mixes (arity 8: ~1.3k Fr multiplications).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/ff/fr.hpp"

namespace cuzk::hash {

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

}  // namespace cuzk::hash
