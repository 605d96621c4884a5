// The two Poseidon hashes of SDR outside its trees (FORMATS.md §3.3, §7):
//   column hash = Poseidon_L(label_1[v], …, label_L[v]) with the MerkleTree tag 2^L − 1, L = 2 or
//                 11 (storage-proofs-porep stacked/vanilla/hash.rs `hash_single_column`:
//                 POSEIDON_CONSTANTS_2 / _11, built with PoseidonConstants::new());
//   comm_r      = Poseidon_2(comm_c, comm_r_last) with the MerkleTree tag 3
//                 (PoseidonFunction::hash2, proof.rs `transform_and_replicate_layers`).
#pragma once

#include <span>

#include "cuzk/ff/fr.hpp"

namespace cuzk::filecoin {

/// The column hash of one node over its L = |rows|.size() labels (2 or 11).
Fr column_hash(std::span<const Fr> rows);
/// comm_r = Poseidon_2(|comm_c|, |comm_r_last|).
Fr comm_r_of(const Fr& comm_c, const Fr& comm_r_last);

}  // namespace cuzk::filecoin
