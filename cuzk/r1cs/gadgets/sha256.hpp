// SHA-256 circuit, bellpepper's gadgets/sha256.rs structure (FORMATS.md §2.6): message schedule
// w[16..64) ("w extension i": two xors for s0, two for s1, one addmany), 64 rounds ("compression
// round i") with the additions for a and e deferred and merged into one addmany each, one MultiEq
// for the whole compression (flushed at its end), then the 8 output additions ("new h1", ...).
// Constants fold: one compression of 512 allocated bits costs 25,840 constraints; sha256() of
// 512 allocated bits (two blocks, the second constant) 44,874 — bellpepper's own test figures.
// Bit order: message bits big-endian within each byte, words big-endian (from_bits_be).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/r1cs/gadgets/uint32.hpp"

namespace cuzk {

/// The initial hash value H0..H7.
std::array<UInt32, 8> sha256_iv();
/// One compression of a 512-bit block onto |current|.
Result<std::array<UInt32, 8>> sha256_compression_function(ConstraintSystem& cs,
                                                          std::span<const Boolean> block,
                                                          const std::array<UInt32, 8>& current);
/// Compression of one 512-bit block from the IV, no padding; 256 output bits, big-endian.
Result<std::vector<Boolean>> sha256_block_no_padding(ConstraintSystem& cs,
                                                     std::span<const Boolean> block);
/// Full SHA-256 of a message of whole bytes (constant padding; scopes "block i"); 256 bits BE.
Result<std::vector<Boolean>> sha256(ConstraintSystem& cs, std::span<const Boolean> message);

/// SHA-256 (FIPS 180-4) out of circuit, the twin of sha256(); OpenSSL through hash/sha256.hpp.
std::array<std::uint8_t, 32> sha256_native(std::span<const std::uint8_t> message);

}  // namespace cuzk
