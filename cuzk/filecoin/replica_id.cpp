#include "cuzk/filecoin/replica_id.hpp"

#include "cuzk/hash/sha256.hpp"

namespace cuzk::filecoin {

Node replica_id(const Node& prover_id, std::uint64_t sector_id, const Node& ticket,
                const Node& comm_d, const PorepId& porep_id) {
  std::array<std::uint8_t, 8> id_be{};
  for (int i = 0; i < 8; ++i) id_be[i] = static_cast<std::uint8_t>(sector_id >> (56 - 8 * i));
  hash::Sha256 h;
  h.update(prover_id).update(id_be).update(ticket).update(comm_d).update(porep_id);
  Node out = h.finish();
  truncate_to_fr254(out);
  return out;
}

}  // namespace cuzk::filecoin
