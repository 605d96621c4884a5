// A sealed sector's directory, as `cuzk filecoin seal` writes it and later commands (unseal,
// commit1, post-vanilla, update) read it with `--sector DIR` alone (docs/filecoin/sealing.md):
//   sector.json                     public data (SectorInfo below), 32-byte values as hex of
//                                   their bytes (Fr little-endian)
//   replica                         the sealed sector (nodes × 32 bytes)
//   p_aux, t_aux                    as rust-fil-proofs writes them (aux_files.hpp)
//   sc-02-data-layer-<ℓ>.dat        label layer ℓ = 1..L (nodes × 32 bytes)
//   sc-02-data-tree-d.dat           tree_d, every row, leaves (the data) first (2n − 1 nodes)
//   sc-02-data-tree-c[-<i>].dat     tree_c base tree i, every row (one file when unsplit)
//   sc-02-data-tree-r-last[-<i>].dat tree_r_last base tree i as a LevelCacheStore: only the rows
//                                   above its rows_to_discard lowest non-leaf rows (the leaves
//                                   are the replica)
// The cache files have upstream's names and layouts, so the directory is also a rust-fil-proofs
// cache directory (with the replica beside it).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "cuzk/base/status.hpp"
#include "cuzk/filecoin/node.hpp"
#include "cuzk/filecoin/registered_proof.hpp"
#include "cuzk/filecoin/seal.hpp"

namespace cuzk::filecoin {

inline constexpr const char* kSectorInfoFile = "sector.json";
inline constexpr const char* kReplicaFile = "replica";

/// The public data of a sealed sector (sector.json).
struct SectorInfo {
  std::string registered_proof;  ///< e.g. "StackedDrg2KiBV1"
  SectorSize size = SectorSize::s2KiB;
  PorepId porep_id{};
  ApiVersion api = ApiVersion::v1_0_0;
  SectorIdentity id;
  Node comm_d{}, comm_c{}, comm_r_last{}, comm_r{}, replica_id{};

  /// The seal parameters: nodes, layers and shape of the size, this porep_id and API.
  SealConfig config() const;
  bool operator==(const SectorInfo&) const = default;
};

/// sector.json text of |info| (fields: registered_proof, sector_size, nodes, layers,
/// tree_shape, porep_id, api_version, prover_id, sector_id, ticket, comm_d, comm_c,
/// comm_r_last, comm_r, replica_id).
std::string sector_info_json(const SectorInfo& info);
/// Parses sector.json; errors name the field. Derived fields (nodes, layers, tree_shape) must
/// agree with sector_size.
Result<SectorInfo> parse_sector_info_json(std::string_view text);

/// Creates |dir| if missing and writes every file above for a seal of |info| with result |r|.
Status write_sector_dir(const std::filesystem::path& dir, const SectorInfo& info,
                        const SealResult& r);
/// Reads and parses |dir|/sector.json.
Result<SectorInfo> read_sector_info(const std::filesystem::path& dir);
/// Reads |file| as exactly |nodes| nodes; size_mismatch names the file and both sizes.
Result<std::vector<Node>> read_node_file(const std::filesystem::path& file, std::uint64_t nodes);
/// Writes |nodes| to |file| (replacing it).
Status write_node_file(const std::filesystem::path& file, std::span<const Node> nodes);
/// Reads a whole (small) file.
Result<std::vector<std::uint8_t>> read_small_file(const std::filesystem::path& file);

}  // namespace cuzk::filecoin
