// create_label (rust-fil-proofs storage-proofs-porep stacked/circuit/create_label.rs
// `create_label_circuit`; FORMATS.md §3.3): the SDR label of one node in circuit,
//   SHA-256( replica_id (256 bits: the given bits, padded with constant 0)
//          ‖ layer (UInt32, big-endian bits) ‖ node (UInt64, big-endian bits)
//          ‖ constant 0 bits up to 512
//          ‖ 37 parents, each padded with constant 0 bits to 256 )          1248 bytes, 20 blocks
// then the 256 digest bits reversed inside every byte (reverse_bit_numbering) and the first 254
// packed into one new variable (multipack::pack_bits, scope "result_num"): the digest read as a
// little-endian integer with its top two bits cleared, as the vanilla label (byte 31 &= 0x3f).
// The SHA-256 runs in scope "hash". Cost: 522,269 constraints when the parents are 255
// allocated bits + 1 constant (to_bits_le + reverse_bit_numbering, as in the PoRep circuit) and
// the node is 64 allocated bits; 522,297 with 256 allocated bits per parent and a constant node
// (upstream's test_create_label: 532,025 − 9,728 bit allocations).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/r1cs/gadgets/num.hpp"
#include "cuzk/r1cs/gadgets/uint32.hpp"
#include "cuzk/r1cs/gadgets/uint64.hpp"

namespace cuzk {

/// Parent labels per SDR label hash (storage-proofs-porep stacked/vanilla TOTAL_PARENTS).
inline constexpr std::size_t kLabelParents = 37;

/// The label of |node| in |layer| from |replica_id| (32..256 bits, SHA-256 byte order) and
/// exactly 37 |parents| (at most 256 bits each, SHA-256 byte order); invalid_argument otherwise.
Result<AllocatedNum> create_label_circuit(ConstraintSystem& cs, std::span<const Boolean> replica_id,
                                          std::span<const std::vector<Boolean>> parents,
                                          const UInt32& layer, const UInt64& node);

/// The native twin: SHA-256(replica_id ‖ u32be(layer) ‖ u64be(node) ‖ 20 zero bytes ‖ the 37
/// parents) with byte 31 &= 0x3f, as 32 little-endian bytes of the label.
std::array<std::uint8_t, 32> create_label_native(
    std::span<const std::uint8_t, 32> replica_id, std::uint32_t layer, std::uint64_t node,
    std::span<const std::array<std::uint8_t, 32>> parents);

}  // namespace cuzk
