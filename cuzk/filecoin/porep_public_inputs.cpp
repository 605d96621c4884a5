#include "cuzk/filecoin/porep_public_inputs.hpp"

#include <array>

#include "cuzk/filecoin/porep_challenges.hpp"
#include "cuzk/filecoin/sdr_graph.hpp"

namespace cuzk::filecoin {

Result<std::vector<Fr>> porep_partition_public_inputs(const SealProof& proof,
                                                      const Node& replica_id, const Node& comm_d,
                                                      const Node& comm_r, const Node& seed,
                                                      unsigned k) {
  std::vector<Fr> inputs;
  for (const auto& [value, name] : {std::pair{&replica_id, "replica_id"},
                                    std::pair{&comm_d, "comm_d"}, std::pair{&comm_r, "comm_r"}}) {
    auto x = fr_from_node(*value);
    if (!x.ok()) return Status(Errc::out_of_range, std::string(name) + " is not below r");
    inputs.push_back(*x);
  }
  const PorepChallengeConfig cc = porep_challenge_config(proof);
  const SdrGraph graph(cc.nodes, proof.porep_id, proof.api);
  std::array<std::uint32_t, SdrGraph::kDegree> parents;
  for (std::uint64_t c : porep_challenges(cc, replica_id, comm_r, seed, k)) {
    inputs.push_back(Fr::from_u64(c));
    graph.parents(c, parents);
    for (std::uint32_t p : parents) inputs.push_back(Fr::from_u64(p));
    for (int i = 0; i < 3; ++i) inputs.push_back(Fr::from_u64(c));
  }
  return inputs;
}

}  // namespace cuzk::filecoin
