#include "cuzk/filecoin/snap_prove.hpp"

#include "cuzk/filecoin/merkle_prove.hpp"
#include "cuzk/filecoin/sdr_hashes.hpp"

namespace cuzk::filecoin {

Result<SnapPartitionProof> snap_partition_proof(const SnapParams& p, const SnapTrees& trees,
                                                unsigned k) {
  if (k >= p.partitions)
    return Status(Errc::invalid_argument, "partition index " + std::to_string(k) + " ≥ " +
                                              std::to_string(p.partitions) + " partitions");
  if (!trees.tree_r_old || !trees.tree_r_new || trees.tree_r_old->leaves() != p.nodes ||
      trees.tree_r_new->leaves() != p.nodes || trees.tree_d_new.size() != 2 * p.nodes - 1)
    return Status(Errc::invalid_argument,
                  "the trees do not have the sector's " + std::to_string(p.nodes) + " leaves");
  auto comm_c = fr_from_node(trees.comm_c);
  if (!comm_c.ok()) return Status(Errc::out_of_range, "comm_c is not below r");
  const Fr comm_r_new = comm_r_of(*comm_c, trees.tree_r_new->root());

  SnapPartitionProof out;
  out.comm_c = trees.comm_c;
  const std::span<const Node> apex_row =
      tree_d_row(trees.tree_d_new, p.nodes, p.apex_leafs_height());
  const auto first = apex_row.begin() + std::ptrdiff_t{k} * p.apex_leaves;
  out.apex_leafs.assign(first, first + p.apex_leaves);
  for (std::uint64_t c : snap_challenges(p, comm_r_new, k))
    out.challenge_proofs.push_back({poseidon_tree_proof(*trees.tree_r_old, c),
                                    tree_d_proof(trees.tree_d_new, p.nodes, c),
                                    poseidon_tree_proof(*trees.tree_r_new, c)});
  return out;
}

}  // namespace cuzk::filecoin
