// `cuzk filecoin unseal`: recovers a sealed sector's data (data = replica − last-layer label,
// mod r) and checks its comm_d. From a sector directory written by `cuzk filecoin seal`, or from
// a bare replica file with its registered proof and replica_id (e.g. a lotus-sealed sector).
#include <cstdio>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "cuzk/base/thread_pool.hpp"
#include "cuzk/cli/filecoin_cli.hpp"
#include "cuzk/filecoin/registered_proof.hpp"
#include "cuzk/filecoin/seal.hpp"
#include "cuzk/filecoin/sector_dir.hpp"
#include "cuzk/filecoin/tree_d.hpp"

namespace cuzk::cli {
namespace {

using namespace cuzk::filecoin;

struct UnsealOptions {
  std::string sector, out, replica, proof, replica_id, comm_d, porep_id, api_version;
  unsigned threads = 0;
};

int usage_error(const Status& s) {
  std::fprintf(stderr, "cuzk filecoin unseal: %s\n", s.to_string().c_str());
  return 2;
}

int run_unseal(const UnsealOptions& o) {
  SealConfig config;
  Node replica_id{};
  std::optional<Node> want_comm_d;
  std::string replica_path;
  if (!o.sector.empty()) {
    if (!o.replica.empty() || !o.proof.empty() || !o.replica_id.empty())
      return usage_error(Status(Errc::invalid_argument,
                                "--sector takes the proof, replica and replica_id from the "
                                "directory; drop --replica / --registered-proof / --replica-id"));
    auto info = read_sector_info(o.sector);
    if (!info.ok()) return usage_error(info.status().with_context("--sector"));
    config = info->config();
    replica_id = info->replica_id;
    want_comm_d = info->comm_d;
    replica_path = (std::filesystem::path(o.sector) / kReplicaFile).string();
  } else {
    if (o.replica.empty() || o.proof.empty() || o.replica_id.empty())
      return usage_error(Status(Errc::invalid_argument,
                                "give --sector DIR, or --replica FILE with --registered-proof "
                                "and --replica-id"));
    auto proof = seal_proof(o.proof);
    if (!proof.ok()) return usage_error(proof.status().with_context("--registered-proof"));
    if (sector_bytes(proof->size) > sector_bytes(SectorSize::s512MiB))
      return usage_error(Status(Errc::invalid_argument,
                                "--registered-proof " + o.proof +
                                    ": unsealing is in memory, for 2KiB, 8MiB and 512MiB only"));
    config = seal_config(*proof);
    if (!o.porep_id.empty()) {
      auto p = parse_hex32(o.porep_id, "--porep-id");
      if (!p.ok()) return usage_error(p.status());
      config.porep_id = *p;
    }
    if (!o.api_version.empty()) {
      auto a = parse_api_version(o.api_version);
      if (!a.ok()) return usage_error(a.status().with_context("--api-version"));
      config.api = *a;
    }
    auto id = parse_hex32(o.replica_id, "--replica-id");
    if (!id.ok()) return usage_error(id.status());
    if (!fr_from_node(*id).ok())
      return usage_error(Status(Errc::out_of_range, "--replica-id is not below the modulus r"));
    replica_id = *id;
    replica_path = o.replica;
  }
  if (!o.comm_d.empty()) {
    auto c = parse_hex32(o.comm_d, "--comm-d");
    if (!c.ok()) return usage_error(c.status());
    if (!fr_from_node(*c).ok())
      return usage_error(Status(Errc::out_of_range, "--comm-d is not below the modulus r"));
    want_comm_d = *c;
  }

  auto replica = read_node_file(replica_path, config.nodes);
  if (!replica.ok()) return usage_error(replica.status().with_context("replica"));
  ThreadPool pool(o.threads);
  auto data = unseal(config, replica_id, *replica, pool);
  if (!data.ok()) return usage_error(data.status().with_context(replica_path));
  const Node comm_d = tree_d_root(*data, pool);
  if (want_comm_d && comm_d != *want_comm_d) {
    std::fprintf(stderr,
                 "cuzk filecoin unseal: the unsealed data's comm_d %s differs from the "
                 "expected %s (wrong replica_id, proof or replica); nothing written\n",
                 to_hex(comm_d).c_str(), to_hex(*want_comm_d).c_str());
    return 1;
  }
  if (Status s = write_node_file(o.out, *data); !s.ok()) {
    std::fprintf(stderr, "cuzk filecoin unseal: %s\n", s.to_string().c_str());
    return 1;
  }
  nlohmann::json j;
  j["out"] = o.out;
  j["bytes"] = data->size() * kNodeBytes;
  j["comm_d"] = to_hex(comm_d);
  j["comm_d_checked"] = want_comm_d.has_value();
  std::printf("%s\n", j.dump().c_str());
  return 0;
}

}  // namespace

FilecoinRun add_filecoin_unseal(CLI::App& sub) {
  auto o = std::make_shared<UnsealOptions>();
  sub.add_option("--sector", o->sector, "Sector directory written by `cuzk filecoin seal`");
  sub.add_option("--out", o->out, "File to write the unsealed data to")->required();
  sub.add_option("--replica", o->replica, "A bare sealed sector file (instead of --sector)");
  sub.add_option("--registered-proof", o->proof, "Seal proof of --replica");
  sub.add_option("--replica-id", o->replica_id, "replica_id of --replica, 32 bytes hex");
  sub.add_option("--comm-d", o->comm_d,
                 "Expected comm_d, 32 bytes hex (default: sector.json's with --sector)");
  sub.add_option("--porep-id", o->porep_id, "32 bytes, hex (default: the proof's porep_id)");
  sub.add_option("--api-version", o->api_version, "1.0.0, 1.1.0 or 1.2.0 (default: the proof's)");
  sub.add_option("--threads", o->threads, "Worker threads (default: all cores)");
  return [o] { return run_unseal(*o); };
}

}  // namespace cuzk::cli
