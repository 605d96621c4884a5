// Point encodings (FORMATS.md §1.2): the ZCash/IETF format used by bellperson/blstrs/zkcrypto —
// G1 compressed 48 B / uncompressed 96 B, G2 compressed 96 B / uncompressed 192 B, big-endian
// coordinates (G2: c1 before c0), flags in the top three bits of byte 0 (0x80 compressed,
// 0x40 infinity, 0x20 "y lexicographically largest") — and the snarkjs .zkey/.ptau in-file form
// "LEM": little-endian Montgomery limbs (a·2^384 mod p), x‖y, G2 as x.c0‖x.c1‖y.c0‖y.c1, identity
// all zero.
//
// Decoders never throw and accept every byte string of the fixed size. Errors name the defect:
//   bad_encoding     flag bits not allowed for the form, or an infinity encoding with other bits set
//   out_of_range     a coordinate ≥ p
//   not_on_curve     no y for a compressed x, or (x, y) off the curve
//   not_in_subgroup  on the curve but outside the order-r subgroup (also G1 uncompressed x = 0,
//                    the order-3 points (0, ±2), which blst rejects even unchecked)
// Checked decoders (no suffix) test range, curve and subgroup; `_unchecked` ones skip the subgroup.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "cuzk/base/status.hpp"
#include "cuzk/ec/g1.hpp"
#include "cuzk/ec/g2.hpp"

namespace cuzk {

inline constexpr std::size_t kG1CompressedBytes = 48;
inline constexpr std::size_t kG1UncompressedBytes = 96;
inline constexpr std::size_t kG2CompressedBytes = 96;
inline constexpr std::size_t kG2UncompressedBytes = 192;
inline constexpr std::size_t kG1LemBytes = 96;
inline constexpr std::size_t kG2LemBytes = 192;

/// Flag bits of byte 0.
inline constexpr std::uint8_t kFlagCompressed = 0x80;
inline constexpr std::uint8_t kFlagInfinity = 0x40;
inline constexpr std::uint8_t kFlagLargest = 0x20;

using G1Compressed = std::array<std::uint8_t, kG1CompressedBytes>;
using G1Uncompressed = std::array<std::uint8_t, kG1UncompressedBytes>;
using G2Compressed = std::array<std::uint8_t, kG2CompressedBytes>;
using G2Uncompressed = std::array<std::uint8_t, kG2UncompressedBytes>;

/// ZCash encodings of a point (any point with valid coordinates; the identity → 0xc0/0x40 + zeros).
G1Compressed to_compressed(const G1Affine& p);
G1Uncompressed to_uncompressed(const G1Affine& p);
G2Compressed to_compressed(const G2Affine& p);
G2Uncompressed to_uncompressed(const G2Affine& p);

/// ZCash decoders: range + curve + subgroup.
Result<G1Affine> g1_from_compressed(std::span<const std::uint8_t, kG1CompressedBytes> in);
Result<G1Affine> g1_from_uncompressed(std::span<const std::uint8_t, kG1UncompressedBytes> in);
Result<G2Affine> g2_from_compressed(std::span<const std::uint8_t, kG2CompressedBytes> in);
Result<G2Affine> g2_from_uncompressed(std::span<const std::uint8_t, kG2UncompressedBytes> in);
/// ZCash decoders: range + curve only.
Result<G1Affine> g1_from_compressed_unchecked(std::span<const std::uint8_t, kG1CompressedBytes> in);
Result<G1Affine> g1_from_uncompressed_unchecked(
    std::span<const std::uint8_t, kG1UncompressedBytes> in);
Result<G2Affine> g2_from_compressed_unchecked(std::span<const std::uint8_t, kG2CompressedBytes> in);
Result<G2Affine> g2_from_uncompressed_unchecked(
    std::span<const std::uint8_t, kG2UncompressedBytes> in);

/// snarkjs LEM encodings (the identity → all zero).
std::array<std::uint8_t, kG1LemBytes> to_snarkjs_lem(const G1Affine& p);
std::array<std::uint8_t, kG2LemBytes> to_snarkjs_lem(const G2Affine& p);
/// snarkjs LEM decoders: all zero → identity; else range (Montgomery limbs < p) + curve (+ subgroup).
Result<G1Affine> g1_from_snarkjs_lem(std::span<const std::uint8_t, kG1LemBytes> in);
Result<G2Affine> g2_from_snarkjs_lem(std::span<const std::uint8_t, kG2LemBytes> in);
Result<G1Affine> g1_from_snarkjs_lem_unchecked(std::span<const std::uint8_t, kG1LemBytes> in);
Result<G2Affine> g2_from_snarkjs_lem_unchecked(std::span<const std::uint8_t, kG2LemBytes> in);

}  // namespace cuzk
