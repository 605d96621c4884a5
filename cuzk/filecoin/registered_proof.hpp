// Filecoin's registered proofs as filecoin-proofs-api names them, with the public parameters each
// one fixes (rust-fil-proofs filecoin-proofs/src/constants.rs, filecoin-proofs-api
// src/registry.rs; FORMATS.md §3.1, §4.1–4.3):
//   sector sizes 2 KiB, 8 MiB, 512 MiB, 32 GiB, 64 GiB; nodes = size / 32
//   tree shape (base-sub-top arity) 8-0-0 up to 512 MiB, 8-8-0 at 32 GiB, 8-8-2 at 64 GiB
//   SDR layers 2 up to 512 MiB, 11 at 32/64 GiB; PoRep partitions 1 / 10
//   porep_id = u64le(seal proof id) ‖ u64le(nonce 0) ‖ 16 zero bytes
// The API version and features decide the SDR predecessor rule (V1_0 vs V1_1+) and the challenge
// scheme (interactive, synthetic, non-interactive); they never change the circuit's parameters
// file (FORMATS.md §1.5).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cuzk/base/status.hpp"

namespace cuzk::filecoin {

enum class SectorSize : std::uint64_t {
  s2KiB = 2048,
  s8MiB = 8ull << 20,
  s512MiB = 512ull << 20,
  s32GiB = 32ull << 30,
  s64GiB = 64ull << 30,
};

/// All five, smallest first.
inline constexpr std::array<SectorSize, 5> kSectorSizes = {SectorSize::s2KiB, SectorSize::s8MiB,
                                                           SectorSize::s512MiB, SectorSize::s32GiB,
                                                           SectorSize::s64GiB};

/// Bytes of the sector.
constexpr std::uint64_t sector_bytes(SectorSize s) { return static_cast<std::uint64_t>(s); }
/// 32-byte nodes of the sector.
constexpr std::uint64_t sector_nodes(SectorSize s) { return sector_bytes(s) / 32; }
/// "2KiB", "8MiB", "512MiB", "32GiB", "64GiB" (as in registered proof names).
std::string_view sector_size_name(SectorSize s);
/// Parses a name as sector_size_name prints it, or a byte count.
Result<SectorSize> parse_sector_size(std::string_view text);

/// Arity of each level of tree_c / tree_r_last: base (8), sub (0 or 8), top (0 or 2).
struct TreeShape {
  unsigned base = 8, sub = 0, top = 0;
  /// "8-0-0", "8-8-0", "8-8-2".
  std::string name() const;
  /// How many base trees (sub·top, or 1): the sector's nodes are split evenly among them.
  unsigned base_trees() const { return (sub ? sub : 1) * (top ? top : 1); }
};
TreeShape tree_shape(SectorSize s);

/// SDR layers: 2 up to 512 MiB, 11 for 32/64 GiB.
unsigned sdr_layers(SectorSize s);

/// A version as rust-fil-proofs writes it ("1.0.0", "1.1.0", "1.2.0").
enum class ApiVersion { v1_0_0, v1_1_0, v1_2_0 };
std::string_view api_version_name(ApiVersion v);
Result<ApiVersion> parse_api_version(std::string_view text);

/// How a PoRep derives its challenges.
enum class PorepScheme { interactive, synthetic, non_interactive };

using PorepId = std::array<std::uint8_t, 32>;

/// RegisteredSealProof: StackedDrg{size}V1 (ids 0–4), V1_1 (5–9), V1_1_Feat_SyntheticPoRep
/// (10–14), V1_2_Feat_NonInteractivePoRep (15–19).
struct SealProof {
  std::string name;
  std::uint64_t id = 0;
  SectorSize size = SectorSize::s2KiB;
  ApiVersion api = ApiVersion::v1_0_0;
  PorepScheme scheme = PorepScheme::interactive;
  PorepId porep_id{};
};

/// The proof registered under |name| (e.g. "StackedDrg32GiBV1_1"); not_found names the list.
Result<SealProof> seal_proof(std::string_view name);
/// Every registered seal proof, in id order.
const std::vector<SealProof>& seal_proofs();
/// porep_id of a registered seal proof id: u64le(id) ‖ u64le(0) ‖ 16 zero bytes.
PorepId porep_id_of(std::uint64_t seal_proof_id);

enum class PostKind { winning, window };

/// RegisteredPoStProof: StackedDrgWinning{size}V1, StackedDrgWindow{size}V1 and V1_2 (same
/// circuit and parameters; the version selects the challenge rule).
struct PostProof {
  std::string name;
  PostKind kind = PostKind::winning;
  SectorSize size = SectorSize::s2KiB;
  ApiVersion api = ApiVersion::v1_0_0;
  unsigned challenge_count = 0;  ///< per sector: winning 66 (one sector), window 10
  unsigned sector_count = 0;     ///< per partition: winning 1, window 2 / 2349 / 2300
};
Result<PostProof> post_proof(std::string_view name);
const std::vector<PostProof>& post_proofs();

/// RegisteredUpdateProof: StackedDrg{size}V1 (SnapDeals, the SHA-256 TreeD variant).
struct UpdateProof {
  std::string name;
  SectorSize size = SectorSize::s2KiB;
  unsigned partitions = 0;  ///< 1 (≤ 256 nodes), 2 (≤ 1024), 4 (≤ 2^19), else 16
  unsigned challenges_per_partition = 0;  ///< 10 (≤ 2^19 nodes), else 86
};
Result<UpdateProof> update_proof(std::string_view name);
const std::vector<UpdateProof>& update_proofs();

/// PoRep partitions of a sector size: 1 up to 512 MiB, 10 for 32/64 GiB (interactive).
unsigned porep_partitions(SectorSize s);
/// Interactive PoRep challenges per sector: 2 up to 512 MiB, 176 for 32/64 GiB.
unsigned porep_min_challenges(SectorSize s);

}  // namespace cuzk::filecoin
