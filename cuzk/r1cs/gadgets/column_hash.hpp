// The SDR column hash in circuit (rust-fil-proofs storage-proofs-porep stacked/circuit/hash.rs
// `hash_single_column`; FORMATS.md §3.3): neptune's legacy Poseidon circuit over the L labels of
// one node with the MerkleTree constants of arity L (POSEIDON_CONSTANTS_2 / _11, tag 2^L − 1).
// Only L = 2 (2 KiB–512 MiB sectors) and L = 11 (32/64 GiB) exist: 311 and 598 constraints
// (upstream hash.rs tests). Also PoseidonFunction::hash2_circuit (comm_r = H(comm_c, comm_r_last))
// is this hash with L = 2.
#pragma once

#include <span>

#include "cuzk/r1cs/gadgets/num.hpp"

namespace cuzk {

/// Poseidon_L(rows) with the MerkleTree tag; invalid_argument unless rows.size() is 2 or 11.
Result<AllocatedNum> hash_single_column(ConstraintSystem& cs, std::span<const AllocatedNum> rows);

/// The native twin (neptune's optimized Poseidon with the same constants and tag).
Result<Fr> hash_single_column_native(std::span<const Fr> rows);

}  // namespace cuzk
