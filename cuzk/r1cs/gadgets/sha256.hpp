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

/// The round constants K0..K63 (FIPS 180-4 §4.2.2).
inline constexpr std::uint32_t kSha256RoundConstants[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

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
