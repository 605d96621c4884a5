// The SnapDeals vanilla verifier: storage-proofs-update vanilla.rs `EmptySectorUpdate::verify` for
// one PartitionProof, plus the structure the circuit (circuit.rs) asserts of the same proof, as
// filecoin-proofs api/update.rs `verify_partition_proofs` / `verify_single_partition_proof` call it
// with h = h_default. For partition k of an update proof with public comm_r_old, comm_d_new,
// comm_r_new and h:
//   * k < partitions, h one of the size's hs;
//   * apex_leafs has apex_leaves entries and challenge_proofs the challenge count;
//   * root_r_old = challenge_proofs[0].proof_r_old.root, root_r_new likewise; comm_c below r;
//     Poseidon_2(comm_c, root_r_old) = comm_r_old and Poseidon_2(comm_c, root_r_new) = comm_r_new;
//   * per challenge i (c = snap_challenges(comm_r_new, k)[i]): each of proof_r_old, proof_d_new,
//     proof_r_new has the tree's shape (tree_r: the sector's; tree_d: binary, log2(n) levels),
//     shows leaf c, hashes from its leaf to its root (Poseidon / SHA-256), and that root is
//     root_r_old / comm_d_new / root_r_new;
//   * leaf_r_new = leaf_r_old + leaf_d_new · rho(c >> (log2(n) − h));
//   * apex: upstream's check (each sibling of proof_d_new at the apex-tree levels is a node of the
//     apex tree hashed from apex_leafs), and the circuit's: the node proof_d_new reaches at height
//     apex_leafs_height() is apex_leafs[(c >> apex_leafs_height()) mod apex_leaves]; every proof's
//     top partition_bit_len levels (the partition path) equal challenge 0's; the apex root hashed
//     up that path by the bits of k is comm_d_new.
// Errors (unsatisfied, or the decoding error of a value ≥ r) name the partition, the challenge and
// its node, and the field; the first failure is reported.
#pragma once

#include <optional>
#include <span>

#include "cuzk/base/status.hpp"
#include "cuzk/filecoin/bytes32.hpp"
#include "cuzk/filecoin/registered_proof.hpp"
#include "cuzk/filecoin/snap_vanilla_proof.hpp"

namespace cuzk::filecoin {

/// The public data of an update.
struct SnapPublic {
  Bytes32 comm_r_old{}, comm_d_new{}, comm_r_new{};
  unsigned h = 0;  ///< the encoding's h (filecoin-proofs: h_default of the size)
};

/// Verifies partition |k|'s proof.
Status verify_snap_partition(const UpdateProof& proof, const SnapPublic& pub, unsigned k,
                             const SnapPartitionProof& vanilla);

/// Verifies all partitions' proofs (one per partition, in order), or only partition
/// |partition_index|'s when given (then |vanilla| holds one proof).
Status verify_snap_vanilla(const UpdateProof& proof, const SnapPublic& pub,
                           std::span<const SnapPartitionProof> vanilla,
                           std::optional<unsigned> partition_index = std::nullopt);

}  // namespace cuzk::filecoin
