// replica_id: the sector's identity, the first public input of the PoRep and the key every label
// hash starts with (storage-proofs-porep stacked/vanilla/params.rs `generate_replica_id`;
// FORMATS.md §4.3, §7):
//   replica_id = SHA-256(prover_id ‖ u64be(sector_id) ‖ ticket ‖ comm_d ‖ porep_id),
//   then byte 31 &= 0x3f (bytes_into_fr_repr_safe), so it is a 254-bit Fr.
// One SHA-256 over 136 bytes (3 blocks).
#pragma once

#include <cstdint>

#include "cuzk/filecoin/node.hpp"
#include "cuzk/filecoin/registered_proof.hpp"

namespace cuzk::filecoin {

/// The replica id of sector |sector_id| of |prover_id| sealed with |ticket| over data whose
/// tree_d root is |comm_d|, under |porep_id|.
Node replica_id(const Node& prover_id, std::uint64_t sector_id, const Node& ticket,
                const Node& comm_d, const PorepId& porep_id);

}  // namespace cuzk::filecoin
