// Groth16 parameter files of Filecoin's circuits: their names and where they are looked up
// (FORMATS.md §1.5, §4.4; docs/filecoin/parameters.md).
//
// rust-fil-proofs names a circuit's files after its public parameters (storage-proofs-core
// parameter_cache.rs `CacheableParameters::cache_identifier`, `parameter_cache_params_path`):
//   v<VERSION>-<prefix>-<hex(SHA-256(identifier))>.{params,vk,meta}     VERSION = 28
// with tree = "merkletree-poseidon_hasher-<base>-<sub>-<top>" (merkle/tree.rs `display`) and
//   PoRep   prefix "stacked-proof-of-replication-<tree>-sha256_hasher" (stacked/circuit/proof.rs)
//           identifier "layered_drgporep::PublicParams{ graph: <stacked graph>, challenges:
//           LayerChallenges { layers: <L>, max_count: <challenges per partition> }, tree: <tree> }"
//           (stacked/vanilla/params.rs), stacked graph "stacked_graph::StackedGraph{expansion_degree:
//           8 base_graph: drgraph::BucketGraph{size: <nodes>; degree: 6; hasher: poseidon_hasher} }"
//           (stacked/vanilla/graph.rs, drgraph.rs)
//   PoSt    prefix "proof-of-spacetime-fallback-<tree>" (fallback/compound.rs), identifier
//           "FallbackPoSt::PublicParams{sector_size: <bytes>, challenge_count: <c>, sector_count:
//           <s>}" (fallback/vanilla.rs)
//   Update  prefix "empty-sector-update-<tree>" (update/compound.rs; the Poseidon-TreeD variant
//           "empty-sector-update-poseidon-<tree>", update/poseidon/compound.rs), identifier
//           "empty_sector_update::PublicParams{ sector_nodes: <nodes> }" (update/vanilla.rs)
// The porep_id, API version and features never enter the identifier: every seal proof of a
// sector size shares one file (non-interactive PoRep keeps 2 / 18 challenges per partition with
// 13 / 126 partitions for that reason, filecoin-proofs constants.rs).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "cuzk/base/status.hpp"
#include "cuzk/filecoin/registered_proof.hpp"

namespace cuzk::filecoin {

/// storage-proofs-core parameter_cache.rs VERSION: bumped whenever a circuit changes.
inline constexpr unsigned kParameterVersion = 28;

/// The circuits that have parameter files.
enum class Circuit {
  porep,            ///< StackedDrg PoRep (SDR), one file per sector size
  winning_post,     ///< FallbackPoSt set up as 66 sectors × 1 challenge (one sector, 66 draws)
  window_post,      ///< FallbackPoSt with sector_count sectors × 10 challenges
  update,           ///< SnapDeals EmptySectorUpdate (SHA-256 TreeD, the one filecoin-proofs uses)
  update_poseidon,  ///< the Poseidon-TreeD EmptySectorUpdate (published for 32/64 GiB, unused)
};
/// "porep", "winning-post", "window-post", "update", "update-poseidon".
std::string_view circuit_name(Circuit c);

/// The tree's Display string: "merkletree-poseidon_hasher-8-8-0".
std::string tree_display(TreeShape shape);

/// One circuit at one sector size: its public-parameter identifier and file names.
struct ParameterSet {
  Circuit circuit = Circuit::porep;
  SectorSize size = SectorSize::s2KiB;
  std::string prefix;  ///< cache prefix, e.g. "proof-of-spacetime-fallback-merkletree-…-8-0-0"
  std::string identifier;  ///< the public parameters' identifier string
  /// "<prefix>-<hex(sha256(identifier))>" (rust-fil-proofs' cache id).
  std::string cache_id() const;
  /// "v28-<cache id>.params", ".vk", ".meta".
  std::string params_file() const;
  std::string vk_file() const;
  std::string meta_file() const;
  /// The .meta file's content as rust-fil-proofs writes it: {"sector_size":<bytes>}.
  std::string meta_json() const;
};

/// PoRep challenges per partition of a seal proof: ceil(minimum challenges / partitions) with
/// the interactive (2 / 176 over 1 / 10) or non-interactive (26 / 2253 over 13 / 126) figures.
unsigned porep_challenges_per_partition(SectorSize s, PorepScheme scheme);

/// The PoRep circuit of |s| (every seal proof of that size).
ParameterSet porep_parameters(SectorSize s);
/// Winning (1 challenge × 66 sectors, filecoin-proofs `winning_post_setup_params`) or Window
/// (10 challenges × 2 / 2349 / 2300 sectors) PoSt of |s|.
ParameterSet post_parameters(PostKind kind, SectorSize s);
/// SnapDeals of |s|; |poseidon| selects the unused Poseidon-TreeD variant.
ParameterSet update_parameters(SectorSize s, bool poseidon = false);

/// Every circuit × sector size with published files: PoRep, Winning, Window and Update at the
/// five sizes, and the Poseidon update at 32 and 64 GiB (22 sets, 44 .params/.vk files).
const std::vector<ParameterSet>& published_parameter_sets();

/// The circuit a registered proof proves with: a seal (StackedDrg32GiBV1_1), PoSt
/// (StackedDrgWindow32GiBV1_2) or update proof name. Update names are also seal names
/// (StackedDrg2KiBV1): a name that is both resolves to the seal proof's PoRep unless |update|.
Result<ParameterSet> parameters_of_proof(std::string_view registered_proof, bool update = false);

/// The parameter directory: $FIL_PROOFS_PARAMETER_CACHE when set and non-empty, else
/// /var/tmp/filecoin-proof-parameters (rust-fil-proofs settings.rs).
std::filesystem::path default_parameter_cache();

/// A circuit's .params and .vk in a directory.
struct ParameterPaths {
  ParameterSet set;
  std::filesystem::path params, vk;
  bool params_found = false, vk_found = false;  ///< a regular file (or a link to one) is there
};
/// Where the files of |registered_proof| are in |dir| and whether they exist (see
/// parameters_of_proof for |update|).
Result<ParameterPaths> locate_parameters(std::string_view registered_proof,
                                         const std::filesystem::path& dir, bool update = false);

}  // namespace cuzk::filecoin
