// An updated (SnapDeals) sector's directory, as `cuzk filecoin update` writes it and
// `cuzk filecoin snap-vanilla` reads it (docs/filecoin/snapdeals.md). Like upstream's
// new_cache_path beside new_replica_path (filecoin-proofs api/update.rs `encode_into`):
//   update.json                      public data (UpdateInfo below), 32-byte values as hex
//   replica                          the new replica (nodes × 32 bytes)
//   p_aux                            comm_c, comm_r_last_new (the sector key's p_aux with the new
//                                    root, as encode_into persists it)
//   t_aux                            the sector's TemporaryAux re-rooted here
//   sc-02-data-tree-d.dat            tree_d_new, every row, leaves (the new data) first
//   sc-02-data-tree-r-last[-<i>].dat tree_r_new base tree i as a LevelCacheStore (the rows above
//                                    rows_to_discard; the leaves are the replica)
// The sector key (the sealed sector's replica and its tree_r_last) stays in the sealed sector's
// directory, which update.json names (sector_key_dir, absolute).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "cuzk/base/status.hpp"
#include "cuzk/filecoin/node.hpp"
#include "cuzk/filecoin/registered_proof.hpp"
#include "cuzk/filecoin/snap_encode.hpp"

namespace cuzk::filecoin {

inline constexpr const char* kUpdateInfoFile = "update.json";

/// The public data of an update (update.json).
struct UpdateInfo {
  std::string registered_proof;  ///< the update proof, e.g. "StackedDrg2KiBV1"
  std::string seal_proof;        ///< the sealed sector's seal proof
  SectorSize size = SectorSize::s2KiB;
  unsigned h = 0;
  Node comm_c{}, comm_r_last_old{}, comm_r_old{}, comm_d_new{}, comm_r_last_new{}, comm_r_new{};
  std::string sector_key_dir;
  bool operator==(const UpdateInfo&) const = default;
};

/// update.json text (fields: registered_proof, seal_proof, sector_size, nodes, h, comm_c,
/// comm_r_last_old, comm_r_old, comm_d_new, comm_r_last_new, comm_r_new, sector_key_dir).
std::string update_info_json(const UpdateInfo& info);
/// Parses update.json; errors name the field.
Result<UpdateInfo> parse_update_info_json(std::string_view text);
/// Reads and parses |dir|/update.json.
Result<UpdateInfo> read_update_info(const std::filesystem::path& dir);

/// Creates |dir| if missing and writes every file above.
Status write_update_dir(const std::filesystem::path& dir, const UpdateInfo& info,
                        const SnapEncoded& e);

}  // namespace cuzk::filecoin
