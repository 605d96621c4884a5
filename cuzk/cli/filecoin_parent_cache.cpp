// `cuzk filecoin parent-cache`: generates the SDR parent cache of a registered seal proof
// (filecoin/parent_cache.hpp) under its v28 name, or streams its SHA-256 without a file
// (--digest-only: 32 GiB and 64 GiB caches are 56 and 112 GiB). --porep-id and --api-version
// replace the proof's own. Prints
//   {"name": "v28-sdr-parent-<hex>.cache", "sha256": hex, "path": file or null, "nodes": N,
//    "threads": T, "seconds": t, ...}
// Exit 0 done, 1 the file could not be written, 2 bad usage or an input that does not parse.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "cuzk/base/thread_pool.hpp"
#include "cuzk/cli/filecoin_cli.hpp"
#include "cuzk/filecoin/hex_bytes.hpp"
#include "cuzk/filecoin/parent_cache.hpp"
#include "cuzk/filecoin/registered_proof.hpp"

namespace cuzk::cli {
namespace {

struct ParentCacheArgs {
  std::string registered_proof;
  std::string porep_id;
  std::string api_version;
  std::string out;
  bool digest_only = false;
  unsigned threads = 0;
};

int usage_error(const std::string& message) {
  std::fprintf(stderr, "cuzk filecoin parent-cache: %s\n", message.c_str());
  return 2;
}

int run_parent_cache(const ParentCacheArgs& a) {
  using namespace cuzk::filecoin;
  auto proof = seal_proof(a.registered_proof);
  if (!proof.ok()) return usage_error("--registered-proof: " + proof.status().message());
  PorepId porep_id = proof->porep_id;
  if (!a.porep_id.empty()) {
    auto bytes = parse_hex(a.porep_id, porep_id.size());
    if (!bytes.ok()) return usage_error("--porep-id: " + bytes.status().message());
    std::copy(bytes->begin(), bytes->end(), porep_id.begin());
  }
  ApiVersion api = proof->api;
  if (!a.api_version.empty()) {
    auto v = parse_api_version(a.api_version);
    if (!v.ok()) return usage_error("--api-version: " + v.status().message());
    api = *v;
  }
  if (a.digest_only && !a.out.empty())
    return usage_error("--out and --digest-only exclude each other");

  const SdrGraph graph(sector_nodes(proof->size), porep_id, api);
  const std::string name = parent_cache_file_name(graph);
  ThreadPool pool(a.threads);
  const auto t0 = std::chrono::steady_clock::now();
  hash::Digest32 digest{};
  nlohmann::json path = nullptr;
  if (a.digest_only) {
    digest = parent_cache_digest(graph, pool);
  } else {
    const std::filesystem::path file = std::filesystem::path(a.out.empty() ? name : a.out);
    auto r = write_parent_cache(graph, file, pool);
    if (!r.ok()) {
      std::fprintf(stderr, "cuzk filecoin parent-cache: %s\n", r.status().to_string().c_str());
      return 1;
    }
    digest = *r;
    path = file.string();
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const nlohmann::json j = {{"name", name},
                            {"sha256", to_hex(digest)},
                            {"path", path},
                            {"nodes", graph.nodes()},
                            {"registered_proof", proof->name},
                            {"porep_id", to_hex(porep_id)},
                            {"api_version", std::string(api_version_name(api))},
                            {"threads", pool.size()},
                            {"seconds", seconds}};
  std::printf("%s\n", j.dump().c_str());
  return 0;
}

}  // namespace

FilecoinRun add_filecoin_parent_cache(CLI::App& sub) {
  auto a = std::make_shared<ParentCacheArgs>();
  sub.add_option("--registered-proof", a->registered_proof,
                 "Seal proof, e.g. StackedDrg2KiBV1 or StackedDrg32GiBV1_1 (its sector size, "
                 "porep_id and API version)")
      ->required();
  sub.add_option("--porep-id", a->porep_id, "porep_id to use instead (64 hex digits)");
  sub.add_option("--api-version", a->api_version,
                 "API version to use instead (1.0.0, 1.1.0, 1.2.0)");
  sub.add_option("--out", a->out,
                 "Cache file to write (default: its v28 name in the current directory)");
  sub.add_flag("--digest-only", a->digest_only, "Stream the SHA-256 without writing a file");
  sub.add_option("--threads", a->threads, "Threads (0: all cores)")->capture_default_str();
  return [a] { return run_parent_cache(*a); };
}

}  // namespace cuzk::cli
