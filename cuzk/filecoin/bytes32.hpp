// 32-byte values as Filecoin stores them: commitments, tickets, seeds, randomness, prover ids and
// Merkle tree nodes. A node of a Poseidon tree (tree_c, tree_r_last) is an Fr in its canonical
// little-endian form (blstrs `to_repr`); a node of a SHA-256 tree (tree_d) is a digest with the top
// two bits of byte 31 cleared (FORMATS.md §1.1, §3.4). On the command line and in messages they are
// the 32 bytes in stored order as 64 hex digits, the way Filecoin prints them. The type, hex and Fr
// conversions are node.hpp's (one definition); this adds the forms that name the value in errors.
#pragma once

#include <string_view>

#include "cuzk/base/status.hpp"
#include "cuzk/ff/fr.hpp"
#include "cuzk/filecoin/node.hpp"

namespace cuzk::filecoin {

using Bytes32 = Node;

/// The Fr whose canonical little-endian bytes are |b|; out_of_range naming |what| when ≥ r.
Result<Fr> fr_from_bytes32(const Bytes32& b, std::string_view what);
/// The canonical little-endian bytes of |x|.
inline Bytes32 bytes32_from_fr(const Fr& x) { return node_from_fr(x); }

}  // namespace cuzk::filecoin
