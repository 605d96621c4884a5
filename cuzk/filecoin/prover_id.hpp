// The prover id of a miner: the payload of its ID address (the actor id as an unsigned LEB128
// varint, go-address `NewIDAddress(id).Payload()`), left-aligned in 32 zero bytes — what Lotus and
// Curio pass to filecoin-ffi as prover_id (`toProverID`), e.g. t0106 → 6a 00 … 00.
#pragma once

#include <cstdint>

#include "cuzk/filecoin/bytes32.hpp"

namespace cuzk::filecoin {

/// The 32-byte prover id of actor |actor_id| (at most 10 varint bytes).
inline Bytes32 prover_id_of_actor(std::uint64_t actor_id) {
  Bytes32 id{};
  std::size_t i = 0;
  do {
    const auto low = static_cast<std::uint8_t>(actor_id & 0x7f);
    actor_id >>= 7;
    id[i++] = actor_id ? static_cast<std::uint8_t>(low | 0x80) : low;
  } while (actor_id != 0);
  return id;
}

}  // namespace cuzk::filecoin
