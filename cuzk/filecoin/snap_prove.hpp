// SnapDeals vanilla proofs: one PartitionProof per partition k (storage-proofs-update vanilla.rs
// `prove_inner`; format in snap_vanilla_proof.hpp):
//   comm_c          the sealed sector's comm_c
//   apex_leafs      partition k's apex_leaves nodes of tree_d_new's row at height
//                   apex_leafs_height() (the row holds partitions · apex_leaves nodes)
//   challenge_proofs for each challenge c of snap_challenges(comm_r_new, k), in order:
//                   proof_r_old (tree_r_old = tree_r_last of the sector key), proof_d_new
//                   (tree_d_new) and proof_r_new (tree_r_new), each the inclusion proof of leaf c.
#pragma once

#include <span>

#include "cuzk/base/status.hpp"
#include "cuzk/filecoin/node.hpp"
#include "cuzk/filecoin/poseidon_tree.hpp"
#include "cuzk/filecoin/snap_params.hpp"
#include "cuzk/filecoin/snap_vanilla_proof.hpp"

namespace cuzk::filecoin {

/// The private inputs of an update proof: the three trees and comm_c.
struct SnapTrees {
  const PoseidonTree* tree_r_old = nullptr;
  std::span<const Node> tree_d_new;  ///< build_tree_d layout
  const PoseidonTree* tree_r_new = nullptr;
  Node comm_c{};
};

/// Partition |k|'s proof; invalid_argument when k ≥ partitions or a tree does not have the
/// sector's node count.
Result<SnapPartitionProof> snap_partition_proof(const SnapParams& p, const SnapTrees& trees,
                                                unsigned k);

}  // namespace cuzk::filecoin
