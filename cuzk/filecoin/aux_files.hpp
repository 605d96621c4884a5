// p_aux and t_aux, the two small files rust-fil-proofs keeps in a sector's cache directory
// (filecoin-proofs api/util.rs `persist_p_aux`, `persist_t_aux`: bincode 1 with its default
// options, i.e. little-endian fixed-width integers, u64 lengths, no trailing bytes written).
//   p_aux = PersistentAux { comm_c, comm_r_last } (storage-proofs-porep stacked/vanilla/params.rs):
//           two 32-byte domain elements, no length prefix (fixed arrays): 64 bytes.
//   t_aux = TemporaryAux { labels: Labels { labels: Vec<StoreConfig> }, tree_d_config,
//           tree_r_last_config, tree_c_config } (PhantomData members encode as nothing), with
//           StoreConfig (merkletree store/mod.rs) = { path: PathBuf (u64 length + UTF-8 bytes),
//           id: String (the same), size: Option<usize> (u8 0, or u8 1 + u64),
//           rows_to_discard: usize (u64) }.
// A StoreConfig names the file `<path>/sc-02-data-<id>.dat`. The paths inside t_aux are the
// absolute cache directory of the machine that sealed (upstream re-roots them with
// `set_cache_path` when reading); readers here do the same and use only ids, sizes and
// rows_to_discard.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cuzk/base/status.hpp"
#include "cuzk/filecoin/node.hpp"
#include "cuzk/filecoin/registered_proof.hpp"

namespace cuzk::filecoin {

/// comm_c ‖ comm_r_last (Fr little-endian each).
struct PersistentAux {
  Node comm_c{}, comm_r_last{};
  bool operator==(const PersistentAux&) const = default;
};
/// The 64 bytes of p_aux.
std::vector<std::uint8_t> serialize_p_aux(const PersistentAux& p);
/// Parses p_aux: size_mismatch unless exactly 64 bytes; out_of_range when a value is ≥ r.
Result<PersistentAux> parse_p_aux(std::span<const std::uint8_t> bytes);

/// merkletree's StoreConfig.
struct StoreConfig {
  std::string path;
  std::string id;
  std::optional<std::uint64_t> size;
  std::uint64_t rows_to_discard = 0;
  bool operator==(const StoreConfig&) const = default;
  /// The name of the store's file: "sc-02-data-<id>.dat".
  std::string data_file_name() const { return "sc-02-data-" + id + ".dat"; }
};

/// TemporaryAux: where the labels and the three trees of a sealed sector are stored.
struct TemporaryAux {
  std::vector<StoreConfig> labels;  ///< one per layer, ids "layer-1" … "layer-L"
  StoreConfig tree_d, tree_r_last, tree_c;
  bool operator==(const TemporaryAux&) const = default;
};
/// The bincode bytes of |t|.
std::vector<std::uint8_t> serialize_t_aux(const TemporaryAux& t);
/// Parses t_aux; truncated / bad_encoding / size_mismatch name the field and byte offset.
Result<TemporaryAux> parse_t_aux(std::span<const std::uint8_t> bytes);

/// storage-proofs-core util.rs `default_rows_to_discard` (fixed-rows-to-discard, 2 for arity 8):
/// 0 when the tree has ≤ 2 rows, 1 when it has 3, else min(rows − 2, 7 / 5 / 2 for arity
/// 2 / 4 / other).
std::uint64_t default_rows_to_discard(std::uint64_t leaves, unsigned arity);

/// The TemporaryAux a seal writes (proof.rs `transform_and_replicate_layers`): labels "layer-ℓ"
/// of size nodes; "tree-d" of size 2·nodes − 1; "tree-r-last" and "tree-c" of the base tree's
/// length (nodes / base_trees leaves, arity shape.base); rows_to_discard 0 except tree-r-last
/// (default_rows_to_discard of a base tree). All paths are |cache_path|.
TemporaryAux make_t_aux(std::uint64_t nodes, unsigned layers, const TreeShape& shape,
                        const std::string& cache_path);

/// The file of base tree |i| of a split store (merkle/builders.rs `split_config`): the config
/// itself when there is one base tree, else id "<id>-<i>".
StoreConfig split_store_config(const StoreConfig& c, unsigned i, unsigned count);

}  // namespace cuzk::filecoin
