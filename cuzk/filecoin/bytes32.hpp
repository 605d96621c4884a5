// 32-byte values as Filecoin stores them: commitments, tickets, seeds, randomness, prover ids and
// Merkle tree nodes. A node of a Poseidon tree (tree_c, tree_r_last) is an Fr in its canonical
// little-endian form (blstrs `to_repr`); a node of a SHA-256 tree (tree_d) is a digest with the top
// two bits of byte 31 cleared (FORMATS.md §1.1, §3.4). On the command line and in messages they are
// the 32 bytes in stored order as 64 hex digits, the way Filecoin prints them.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "cuzk/base/status.hpp"
#include "cuzk/ff/fr.hpp"

namespace cuzk::filecoin {

using Bytes32 = std::array<std::uint8_t, 32>;

/// Lowercase hex of |bytes|, in stored order.
std::string to_hex(std::span<const std::uint8_t> bytes);

/// Parses exactly 64 hex digits (either case, optional "0x") into 32 bytes in the order written;
/// bad_encoding naming |what| otherwise.
Result<Bytes32> parse_hex32(std::string_view text, std::string_view what);

/// The Fr whose canonical little-endian bytes are |b|; out_of_range naming |what| when ≥ r.
Result<Fr> fr_from_bytes32(const Bytes32& b, std::string_view what);

/// The canonical little-endian bytes of |x|.
Bytes32 bytes32_from_fr(const Fr& x);

}  // namespace cuzk::filecoin
