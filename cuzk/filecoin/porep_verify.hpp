// The PoRep vanilla verifier: checks a C1 output before any synthesis (storage-proofs-porep
// stacked/vanilla/proof_scheme.rs `verify_all_partitions`, params.rs `Proof::verify`,
// `ReplicaColumnProof::verify`, column_proof.rs, labeling_proof.rs, encoding_proof.rs), with the
// public data (replica_id, comm_d, comm_r, seed). Per partition k (all of the proof's partitions
// must be present) and challenge i:
//   * the proof count is the challenges per partition; node c = porep_challenges(k)[i];
//   * comm_d_proofs: Single, log2(nodes) binary levels, path index c, SHA-256 root = its root =
//     comm_d;
//   * comm_r_last_proof: the tree shape, path index c, Poseidon root = its root = comm_r_last (the
//     first proof's root: every proof must have the same);
//   * replica_column_proofs: c_x for node c, drg_parents (6) and exp_parents (8) for the graph's
//     parents of c in order: column index = node, L rows, inclusion proof of the tree shape with
//     path index = node, leaf = Poseidon column hash of the rows, Poseidon root = its root =
//     comm_c (c_x's root of the first proof);
//   * Poseidon_2(comm_c, comm_r_last) = comm_r;
//   * labeling_proofs: L of them, layer_index ℓ, node c, 37 parents equal to the labels the columns
//     give (base parents' layer ℓ, expander parents' layer ℓ − 1, cycled), and the label hash of
//     them equals c_x's row ℓ;
//   * encoding_proof: layer_index L, node c, parents those of labeling_proofs[L − 1], and
//     comm_r_last_proof.leaf = comm_d_proofs.leaf + label (mod r).
// Stricter than upstream, as the circuit needs: upstream never compares the labeling proofs'
// parents with the columns (the circuit hashes the columns' labels). Errors (unsatisfied) name
// partition, challenge, node and field path, e.g.
//   "partition 0, challenge 1 (node 37): replica_column_proofs.drg_parents[2].column.rows[1]: …".
#pragma once

#include "cuzk/base/status.hpp"
#include "cuzk/filecoin/porep_vanilla_proof.hpp"
#include "cuzk/filecoin/registered_proof.hpp"

namespace cuzk::filecoin {

/// The public data a PoRep is verified against.
struct PorepPublicInputs {
  Bytes32 replica_id{};
  Bytes32 comm_d{};
  Bytes32 comm_r{};
  Bytes32 seed{};
};

/// The public data the C1 output itself carries.
PorepPublicInputs porep_public_inputs(const SealCommitPhase1Output& c1);

/// Verifies |c1|'s vanilla proofs as proofs of |proof| (the registered proof, with the porep_id
/// and API version its graph uses) for |pub|. The C1's registered_proof must name |proof| (its
/// id, or the same size and scheme when the name differs only in porep_id/API overrides).
Status verify_porep_vanilla(const SealProof& proof, const PorepPublicInputs& pub,
                            const SealCommitPhase1Output& c1);

}  // namespace cuzk::filecoin
