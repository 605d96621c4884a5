#include "cuzk/circuits/filecoin/post_witness.hpp"

#include <map>
#include <mutex>
#include <tuple>

#include "cuzk/r1cs/gadgets/assign.hpp"

namespace cuzk::circuits::filecoin {

Result<PartsLayout> post_witness_layout(const PostCircuitParams& params) {
  // One sector's counts depend on the tree and the challenge count only.
  using Key = std::tuple<std::uint64_t, unsigned, unsigned, unsigned, unsigned>;
  static std::mutex mu;
  static std::map<Key, PartsLayout> cache;
  const Key key{params.nodes, params.shape.base, params.shape.sub, params.shape.top,
                params.challenge_count};
  PartsLayout l;
  bool cached = false;
  {
    std::lock_guard<std::mutex> lock(mu);
    if (auto it = cache.find(key); it != cache.end()) l = it->second, cached = true;
  }
  if (!cached) {  // counted outside the lock
    PostCircuitParams one = params;
    one.sector_count = 1;
    const PostCircuit blank(one);
    CUZK_ASSIGN_OR_RETURN(l, count_parts_layout([](ConstraintSystem&) { return Status(); },
                                                [&](ConstraintSystem& cs, std::uint64_t) {
                                                  return blank.synthesize_circuit_sector(cs, 0);
                                                },
                                                1));
    std::lock_guard<std::mutex> lock(mu);
    cache.emplace(key, l);
  }
  l.parts = params.sector_count;
  return l;
}

Result<CompactWitness> post_partition_compact_witness(const PostCircuit& circuit, ThreadPool& pool,
                                                      const PartsOptions& opt) {
  if (!circuit.has_values())
    return Status(Errc::invalid_argument, "PoSt compact witness: the circuit has no values");
  CUZK_ASSIGN_OR_RETURN(PartsLayout l, post_witness_layout(circuit.params()));
  PartsOptions o = opt;
  o.part_noun = "PoSt witness part";
  return compact_witness_by_parts(
      l, pool, [](ConstraintSystem&) { return Status(); },
      [&](ConstraintSystem& cs, std::uint64_t i) {
        return circuit.synthesize_circuit_sector(cs, static_cast<unsigned>(i));
      },
      o);
}

}  // namespace cuzk::circuits::filecoin
