// bellperson file formats (FORMATS.md §1.3–1.4), byte-compatible with bellperson/blstrs:
//   .params  VK (α₁ β₁ β₂ γ₂ δ₁ δ₂, uncompressed) | u32 n_ic, ic | u32 n_h, h | u32 n_l, l |
//            u32 n_a, a | u32 n_b1, b_g1 | u32 n_b2, b_g2     (u32 big-endian, points uncompressed)
//   .vk      the first two parts (VK and ic)
//   proof    192 bytes: A (G1 compressed) | B (G2 compressed) | C (G1 compressed); partition
//            proofs concatenated (PoRep 32 GiB: 10 × 192)
// Decoding as bellperson: VK points checked (on curve + subgroup), ic non-identity; the queries
// with the checked or unchecked decoder (ParamsReadOptions::checked) and the identity rejected;
// proof points checked, the identity rejected. Errors name the section and the point index.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "cuzk/base/status.hpp"
#include "cuzk/base/thread_pool.hpp"
#include "cuzk/groth16/keys.hpp"
#include "cuzk/groth16/proof.hpp"

namespace cuzk {

inline constexpr std::size_t kBellpersonProofBytes = 192;

struct ParamsReadOptions {
  /// Subgroup checks on the query points (bellperson's `checked`); the production path of
  /// rust-fil-proofs reads with checked = false. The VK is always checked.
  bool checked = true;
  /// Threads for point decoding (nullptr: one thread).
  ThreadPool* pool = nullptr;
};

/// Parses a .params image into a bellperson-layout key (domain size n_h + 1).
Result<ProvingKey> parse_params(std::span<const std::uint8_t> file,
                                const ParamsReadOptions& opt = {});
/// Reads a .params file through a memory map, decoding each section in parallel from the map.
Result<ProvingKey> read_params(const std::string& path, const ParamsReadOptions& opt = {});
/// A query section of a .params file: |count| points from byte |offset| of the file.
struct ParamsSection {
  std::size_t offset = 0;
  std::size_t count = 0;
};
/// A .params file's verifying key and where its queries lie, their points not read (the direct
/// path: a device decodes them itself from the mapped file, engine/key_store.hpp).
struct ParamsLayout {
  VerifyingKey vk;
  std::uint64_t domain_size = 0;
  ParamsSection h, l, a, b_g1, b_g2;  ///< G1 sections 96 bytes a point, b_g2 192
};
/// The VK (checked, as parse_params) and the sections of a .params image, with parse_params's
/// size checks (bounds, no trailing bytes, h of 2^k − 1 points, b_g1 and b_g2 alike); reads only
/// the VK and the section lengths.
Result<ParamsLayout> scan_params(std::span<const std::uint8_t> file);

/// The .params image of a bellperson-layout key (invalid_argument for the snarkjs layout).
Result<std::vector<std::uint8_t>> write_params(const ProvingKey& pk, ThreadPool* pool = nullptr);

/// .vk image and parser (exactly the VK and ic, no trailing bytes).
std::vector<std::uint8_t> write_vk(const VerifyingKey& vk);
Result<VerifyingKey> parse_vk(std::span<const std::uint8_t> file);

/// 192 bytes per proof, concatenated.
std::vector<std::uint8_t> write_proofs(std::span<const Proof> proofs);
/// size_mismatch unless the length is a non-zero multiple of 192; errors name the proof and point.
Result<std::vector<Proof>> parse_proofs(std::span<const std::uint8_t> bytes);

}  // namespace cuzk
