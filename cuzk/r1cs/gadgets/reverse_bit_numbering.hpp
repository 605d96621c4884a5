// reverse_bit_numbering (rust-fil-proofs storage-proofs-core util.rs): pads a bit string to whole
// bytes with constant 0 bits, then reverses the bit order inside every byte. Applied to the 255
// little-endian bits of AllocatedNum::to_bits_le it gives the 256 bits of the element's 32-byte
// little-endian encoding, most significant bit of each byte first: the order SHA-256 reads bytes
// in (FORMATS.md §3.3). A rewiring: no variables, no constraints.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/r1cs/gadgets/boolean.hpp"

namespace cuzk {

/// |bits| padded with Boolean::constant(false) to a multiple of 8, each byte's bits reversed.
std::vector<Boolean> reverse_bit_numbering(std::vector<Boolean> bits);

/// The native twin on plain bits: the same padding and reversal.
std::vector<bool> reverse_bit_numbering_native(std::vector<bool> bits);

}  // namespace cuzk
