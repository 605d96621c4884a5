// A sector node: 32 bytes that hold one field element little-endian ("Fr32"), the unit of every
// Filecoin sector, label layer and tree file. Data nodes must be below r (the Fr32 padding of
// unsealed data guarantees it); labels and tree_d nodes have their top two bits cleared
// (byte 31 &= 0x3f), so they always are. Helpers between nodes, Fr and hex text, shared by the
// sealing code and the `cuzk filecoin` commands.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "cuzk/base/status.hpp"
#include "cuzk/ff/fr.hpp"
#include "cuzk/filecoin/hex_bytes.hpp"

namespace cuzk::filecoin {

inline constexpr std::size_t kNodeBytes = 32;
using Node = std::array<std::uint8_t, kNodeBytes>;
static_assert(sizeof(Node) == kNodeBytes, "node arrays are read and written as raw bytes");

/// The node's value as Fr; out_of_range when the little-endian integer is ≥ r.
inline Result<Fr> fr_from_node(const Node& n) {
  return Fr::from_bytes_le(std::span<const std::uint8_t, 32>(n));
}
/// The canonical little-endian bytes of |x|.
inline Node node_from_fr(const Fr& x) {
  Node n;
  x.to_bytes_le(std::span<std::uint8_t, 32>(n));
  return n;
}
/// Clears the top two bits (byte 31 &= 0x3f): a 254-bit value, always below r.
inline void truncate_to_fr254(Node& n) { n[31] &= 0x3f; }

/// Parses exactly 64 hex digits (an optional "0x" prefix is accepted) into 32 bytes in the order
/// written (hex_bytes.hpp parse_hex); the error names |what| and the defect. Lowercase hex of a
/// node: to_hex (hex_bytes.hpp).
Result<Node> parse_hex32(std::string_view text, std::string_view what);

}  // namespace cuzk::filecoin
