#include "cuzk/circuits/filecoin/update_witness.hpp"

#include <map>
#include <mutex>

#include "cuzk/circuits/filecoin/update_circuit_steps.hpp"
#include "cuzk/filecoin/snap_params.hpp"
#include "cuzk/r1cs/gadgets/assign.hpp"

namespace cuzk::circuits::filecoin {

Result<PartsLayout> update_witness_layout(std::uint64_t nodes) {
  static std::mutex mu;
  static std::map<std::uint64_t, PartsLayout> cache;
  {
    std::lock_guard<std::mutex> lock(mu);
    if (auto it = cache.find(nodes); it != cache.end()) return it->second;
  }
  // The blank circuit of partition 0 with the size's default h: neither k nor h changes a count.
  CUZK_ASSIGN_OR_RETURN(SnapParams p, cuzk::filecoin::snap_params(nodes));
  UpdatePublic pub;
  pub.nodes = nodes;
  pub.h = p.h_default;
  CUZK_ASSIGN_OR_RETURN(detail::UpdateSteps steps, detail::UpdateSteps::make(pub, nullptr));
  detail::UpdatePrelude prelude;
  CUZK_ASSIGN_OR_RETURN(
      PartsLayout l, count_parts_layout(
                         [&](ConstraintSystem& cs) -> Status {
                           CUZK_ASSIGN_OR_RETURN(prelude, steps.synthesize_prelude(cs));
                           return {};
                         },
                         [&](ConstraintSystem& cs, std::uint64_t i) {
                           return steps.synthesize_challenge(cs, static_cast<unsigned>(i), prelude);
                         },
                         steps.challenges()));  // outside the lock
  std::lock_guard<std::mutex> lock(mu);
  cache.emplace(nodes, l);
  return l;
}

Result<CompactWitness> update_partition_compact_witness(const UpdatePublic& pub,
                                                        const SnapPartitionProof& vanilla,
                                                        ThreadPool& pool, const PartsOptions& opt) {
  CUZK_ASSIGN_OR_RETURN(detail::UpdateSteps steps, detail::UpdateSteps::make(pub, &vanilla));
  CUZK_ASSIGN_OR_RETURN(PartsLayout l, update_witness_layout(pub.nodes));
  PartsOptions o = opt;
  o.part_noun = "SnapDeals witness part";
  detail::UpdatePrelude prelude;
  return compact_witness_by_parts(
      l, pool,
      [&](ConstraintSystem& cs) -> Status {
        CUZK_ASSIGN_OR_RETURN(prelude, steps.synthesize_prelude(cs));
        return {};
      },
      [&](ConstraintSystem& cs, std::uint64_t i) {
        return steps.synthesize_challenge(cs, static_cast<unsigned>(i), prelude);
      },
      o);
}

}  // namespace cuzk::circuits::filecoin
