// The SDR parent cache (rust-fil-proofs storage-proofs-porep src/stacked/vanilla/cache.rs;
// FORMATS.md §7): for every node in order, its 14 parents as u32 little-endian, the 6 base
// (DRG) parents then the 8 expander parents: nodes × 56 bytes (2 KiB: 3.5 KiB; 32 GiB: 56 GiB).
// Upstream names the file
//   v28-sdr-parent-<hex SHA-256(hasher name ‖ graph identifier ‖ u64le(feistel key) × 4 ‖
//                               u32le(nodes))>.cache
// where the hasher is the tree hasher (poseidon_hasher for every registered proof) and the graph
// identifier is the StackedGraph's text, e.g. for 2 KiB
//   stacked_graph::StackedGraph{expansion_degree: 8 base_graph: drgraph::BucketGraph{size: 64;
//   degree: 6; hasher: poseidon_hasher} }
// (one line; no porep_id or API version in it: they enter through the Feistel keys only). The
// name without ".cache" is the key of upstream's parent_cache.json, whose "digest" is the
// SHA-256 of the whole file.
//
// Generation runs in chunks of nodes in node order: a ThreadPool fills one chunk while a second
// thread hashes (and writes) the previous one, so memory stays at two chunks for any sector size.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>

#include "cuzk/base/status.hpp"
#include "cuzk/base/thread_pool.hpp"
#include "cuzk/filecoin/sdr_graph.hpp"
#include "cuzk/hash/sha256.hpp"

namespace cuzk::filecoin {

/// The hasher name in every registered proof's cache name (filecoin-hashers PoseidonHasher).
inline constexpr std::string_view kParentCacheHasher = "poseidon_hasher";
/// Bytes of one node's entry: 14 parents × 4.
inline constexpr std::size_t kParentCacheEntryBytes = SdrGraph::kDegree * 4;

/// The graph identifier upstream hashes into the name (StackedGraph::identifier()).
std::string parent_cache_graph_identifier(const SdrGraph& graph,
                                          std::string_view hasher = kParentCacheHasher);
/// "v28-sdr-parent-<hex>": the key of parent_cache.json.
std::string parent_cache_id(const SdrGraph& graph, std::string_view hasher = kParentCacheHasher);
/// parent_cache_id(graph) + ".cache".
std::string parent_cache_file_name(const SdrGraph& graph,
                                   std::string_view hasher = kParentCacheHasher);

/// Writes the entries of nodes [first, first + out.size() / 56) into |out| (a whole number of
/// entries; the nodes must lie in the graph), spreading the nodes over |pool|.
void fill_parent_cache(const SdrGraph& graph, std::uint64_t first, std::span<std::uint8_t> out,
                       ThreadPool& pool);

struct ParentCacheOptions {
  /// Nodes per chunk; two chunks are held (2 × 56 MiB by default).
  std::uint64_t chunk_nodes = std::uint64_t{1} << 20;
};

/// SHA-256 of the whole cache, generated chunk by chunk without a file.
hash::Digest32 parent_cache_digest(const SdrGraph& graph, ThreadPool& pool,
                                   const ParentCacheOptions& options = {});

/// Writes the cache to |path| (through "<path>.tmp", renamed when complete) and returns its
/// SHA-256; io_error names the file when it cannot be written.
Result<hash::Digest32> write_parent_cache(const SdrGraph& graph, const std::filesystem::path& path,
                                          ThreadPool& pool, const ParentCacheOptions& options = {});

}  // namespace cuzk::filecoin
