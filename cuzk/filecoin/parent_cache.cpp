#include "cuzk/filecoin/parent_cache.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <functional>
#include <system_error>
#include <thread>
#include <vector>

#include "cuzk/filecoin/hex_bytes.hpp"

namespace cuzk::filecoin {
namespace {

// Runs over the cache in node order in chunks of |options.chunk_nodes|: the pool fills chunk i
// while one extra thread hashes chunk i − 1 and hands it to |sink|, so two chunk buffers suffice.
// A sink error stops generation at the next chunk and is returned.
Result<hash::Digest32> stream_parent_cache(
    const SdrGraph& graph, ThreadPool& pool, const ParentCacheOptions& options,
    const std::function<Status(std::span<const std::uint8_t>)>& sink) {
  const std::uint64_t nodes = graph.nodes();
  const std::uint64_t chunk = std::clamp<std::uint64_t>(options.chunk_nodes, 1, nodes);
  std::array<std::vector<std::uint8_t>, 2> buffers;
  for (auto& b : buffers) b.resize(chunk * kParentCacheEntryBytes);

  hash::Sha256 sha;
  Status sink_status;
  std::thread consumer;
  std::uint64_t index = 0;
  for (std::uint64_t first = 0; first < nodes; first += chunk, ++index) {
    const std::uint64_t count = std::min(chunk, nodes - first);
    const std::span<std::uint8_t> out(buffers[index & 1].data(), count * kParentCacheEntryBytes);
    // Buffer index & 1 was last read by the consumer of chunk index − 2, joined before chunk
    // index − 1's consumer started.
    fill_parent_cache(graph, first, out, pool);
    if (consumer.joinable()) consumer.join();
    if (!sink_status.ok()) break;
    consumer = std::thread([&sha, &sink_status, &sink, out] {
      sha.update(out);
      if (sink) sink_status = sink(out);
    });
  }
  if (consumer.joinable()) consumer.join();
  if (!sink_status.ok()) return sink_status;
  return sha.finish();
}

// "v28": storage-proofs-core parameter_cache.rs VERSION.
constexpr std::string_view kVersionPrefix = "v28-sdr-parent-";

}  // namespace

std::string parent_cache_graph_identifier(const SdrGraph& graph, std::string_view hasher) {
  // graph.rs StackedGraph::new (id) around drgraph.rs BucketGraph::identifier().
  return "stacked_graph::StackedGraph{expansion_degree: " +
         std::to_string(SdrGraph::kExpansionDegree) +
         " base_graph: drgraph::BucketGraph{size: " + std::to_string(graph.nodes()) +
         "; degree: " + std::to_string(SdrGraph::kBaseDegree) + "; hasher: " + std::string(hasher) +
         "} }";
}

std::string parent_cache_id(const SdrGraph& graph, std::string_view hasher) {
  // cache.rs cache_path(): SHA-256(H::name() ‖ identifier ‖ keys as u64le ‖ u32le(entries)).
  hash::Sha256 h;
  h.update(hasher);
  h.update(parent_cache_graph_identifier(graph, hasher));
  for (std::uint64_t key : graph.feistel_keys()) {
    std::uint8_t le[8];
    for (unsigned b = 0; b < 8; ++b) le[b] = static_cast<std::uint8_t>(key >> (8 * b));
    h.update(le);
  }
  const auto entries = static_cast<std::uint32_t>(graph.nodes());
  const std::uint8_t entries_le[4] = {
      static_cast<std::uint8_t>(entries), static_cast<std::uint8_t>(entries >> 8),
      static_cast<std::uint8_t>(entries >> 16), static_cast<std::uint8_t>(entries >> 24)};
  h.update(entries_le);
  return std::string(kVersionPrefix) + to_hex(h.finish());
}

std::string parent_cache_file_name(const SdrGraph& graph, std::string_view hasher) {
  return parent_cache_id(graph, hasher) + ".cache";
}

void fill_parent_cache(const SdrGraph& graph, std::uint64_t first, std::span<std::uint8_t> out,
                       ThreadPool& pool) {
  const std::size_t count = out.size() / kParentCacheEntryBytes;
  pool.parallel_for(
      count,
      [&](std::size_t begin, std::size_t end) {
        constexpr std::size_t kBlock = 256;
        std::array<std::uint32_t, kBlock * SdrGraph::kDegree> parents;
        for (std::size_t b = begin; b < end; b += kBlock) {
          const std::size_t n = std::min(kBlock, end - b);
          graph.parents_range(first + b, std::span(parents.data(), n * SdrGraph::kDegree));
          std::uint8_t* entry = out.data() + b * kParentCacheEntryBytes;
          for (std::size_t k = 0; k < n * SdrGraph::kDegree; ++k, entry += 4) {
            const std::uint32_t p = parents[k];
            entry[0] = static_cast<std::uint8_t>(p);
            entry[1] = static_cast<std::uint8_t>(p >> 8);
            entry[2] = static_cast<std::uint8_t>(p >> 16);
            entry[3] = static_cast<std::uint8_t>(p >> 24);
          }
        }
      },
      256);
}

hash::Digest32 parent_cache_digest(const SdrGraph& graph, ThreadPool& pool,
                                   const ParentCacheOptions& options) {
  // With no sink nothing can fail.
  return stream_parent_cache(graph, pool, options, nullptr).value();
}

Result<hash::Digest32> write_parent_cache(const SdrGraph& graph, const std::filesystem::path& path,
                                          ThreadPool& pool, const ParentCacheOptions& options) {
  std::filesystem::path tmp = path;
  tmp += ".tmp";
  std::FILE* file = std::fopen(tmp.c_str(), "wb");
  if (!file)
    return Result<hash::Digest32>(Errc::io_error,
                                  "cannot create " + tmp.string() + ": " + std::strerror(errno));
  std::uint64_t written = 0;
  auto digest =
      stream_parent_cache(graph, pool, options, [&](std::span<const std::uint8_t> chunk) -> Status {
        if (std::fwrite(chunk.data(), 1, chunk.size(), file) != chunk.size())
          return Status(Errc::io_error, "writing " + tmp.string() + " at offset " +
                                            std::to_string(written) + ": " + std::strerror(errno));
        written += chunk.size();
        return {};
      });
  const bool closed = std::fclose(file) == 0;
  if (digest.ok() && !closed)
    digest = Result<hash::Digest32>(Errc::io_error,
                                    "closing " + tmp.string() + ": " + std::strerror(errno));
  std::error_code ec;
  if (digest.ok()) {
    std::filesystem::rename(tmp, path, ec);
    if (ec)
      digest = Result<hash::Digest32>(Errc::io_error, "renaming " + tmp.string() + " to " +
                                                          path.string() + ": " + ec.message());
  }
  if (!digest.ok()) std::filesystem::remove(tmp, ec);
  return digest;
}

}  // namespace cuzk::filecoin
