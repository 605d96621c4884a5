// The public inputs of one PoRep partition's Groth16 circuit (storage-proofs-porep
// stacked/circuit/proof.rs `StackedCompound::generate_public_inputs`; every inclusion proof is a
// private-root PoR whose one input is its leaf index, gadgets/por.rs):
//   replica_id, comm_d, comm_r, then per challenge c of the partition (porep_challenges.hpp):
//   c (tree_d), the 6 DRG parents, the 8 expander parents (tree_c), c, c (tree_r_last), c (tree_c)
// — 3 + 18·per_partition field elements (39 at 2 KiB, 327 at 32 GiB).
#pragma once

#include <vector>

#include "cuzk/base/status.hpp"
#include "cuzk/ff/fr.hpp"
#include "cuzk/filecoin/node.hpp"
#include "cuzk/filecoin/registered_proof.hpp"

namespace cuzk::filecoin {

/// Partition |k|'s inputs for |proof| (its porep_id and API version give the graph);
/// out_of_range naming the value when replica_id, comm_d or comm_r is not below r.
Result<std::vector<Fr>> porep_partition_public_inputs(const SealProof& proof,
                                                      const Node& replica_id, const Node& comm_d,
                                                      const Node& comm_r, const Node& seed,
                                                      unsigned k);

}  // namespace cuzk::filecoin
