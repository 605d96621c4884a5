// `cuzk filecoin seal`: seals an Fr32-padded test-size sector (2 KiB, 8 MiB, 512 MiB) with SDR
// and writes its directory (filecoin/sector_dir.hpp; docs/filecoin/sealing.md).
#include <chrono>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "cuzk/base/thread_pool.hpp"
#include "cuzk/cli/filecoin_cli.hpp"
#include "cuzk/filecoin/registered_proof.hpp"
#include "cuzk/filecoin/seal.hpp"
#include "cuzk/filecoin/sector_dir.hpp"

namespace cuzk::cli {
namespace {

using namespace cuzk::filecoin;

struct SealOptions {
  std::string proof, data, prover_id, ticket, out, porep_id, api_version;
  std::uint64_t sector_id = 0;
  unsigned threads = 0;
};

int usage_error(const Status& s) {
  std::fprintf(stderr, "cuzk filecoin seal: %s\n", s.to_string().c_str());
  return 2;
}

int run_seal(const SealOptions& o) {
  auto proof = seal_proof(o.proof);
  if (!proof.ok()) return usage_error(proof.status().with_context("--registered-proof"));
  if (sector_bytes(proof->size) > sector_bytes(SectorSize::s512MiB))
    return usage_error(Status(Errc::invalid_argument,
                              "--registered-proof " + o.proof +
                                  ": sealing is in memory, for the test sizes 2KiB, 8MiB and "
                                  "512MiB only"));
  SectorInfo info;
  info.registered_proof = proof->name;
  info.size = proof->size;
  info.porep_id = proof->porep_id;
  info.api = proof->api;
  if (!o.porep_id.empty()) {
    auto p = parse_hex32(o.porep_id, "--porep-id");
    if (!p.ok()) return usage_error(p.status());
    info.porep_id = *p;
  }
  if (!o.api_version.empty()) {
    auto a = parse_api_version(o.api_version);
    if (!a.ok()) return usage_error(a.status().with_context("--api-version"));
    info.api = *a;
  }
  auto prover = parse_hex32(o.prover_id, "--prover-id");
  if (!prover.ok()) return usage_error(prover.status());
  auto ticket = parse_hex32(o.ticket, "--ticket");
  if (!ticket.ok()) return usage_error(ticket.status());
  info.id = {*prover, o.sector_id, *ticket};

  const SealConfig config = info.config();
  auto data = read_node_file(o.data, config.nodes);
  if (!data.ok()) return usage_error(data.status().with_context("--data"));
  if (Status s = check_sector_data(config, *data); !s.ok())
    return usage_error(s.with_context("--data " + o.data));

  ThreadPool pool(o.threads);
  const auto t0 = std::chrono::steady_clock::now();
  auto sealed = seal(config, info.id, *data, pool);
  if (!sealed.ok()) return usage_error(sealed.status());
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  info.comm_d = sealed->comm_d;
  info.comm_c = sealed->comm_c;
  info.comm_r_last = sealed->comm_r_last;
  info.comm_r = sealed->comm_r;
  info.replica_id = sealed->replica_id;
  if (Status s = write_sector_dir(o.out, info, *sealed); !s.ok()) {
    std::fprintf(stderr, "cuzk filecoin seal: %s\n", s.to_string().c_str());
    return 1;
  }

  nlohmann::json j = nlohmann::json::parse(sector_info_json(info));
  j["sector"] = o.out;
  j["seal_seconds"] = seconds;
  j["threads"] = pool.size();
  std::printf("%s\n", j.dump().c_str());
  return 0;
}

}  // namespace

FilecoinRun add_filecoin_seal(CLI::App& sub) {
  auto o = std::make_shared<SealOptions>();
  sub.add_option("--registered-proof", o->proof, "Seal proof, e.g. StackedDrg2KiBV1_1")->required();
  sub.add_option("--data", o->data, "Fr32-padded sector data, exactly the sector size")->required();
  sub.add_option("--prover-id", o->prover_id, "32 bytes, hex")->required();
  sub.add_option("--sector-id", o->sector_id, "Sector number")->required();
  sub.add_option("--ticket", o->ticket, "32 bytes, hex")->required();
  sub.add_option("--out", o->out, "Sector directory to write (created if missing)")->required();
  sub.add_option("--porep-id", o->porep_id, "32 bytes, hex (default: the proof's porep_id)");
  sub.add_option("--api-version", o->api_version, "1.0.0, 1.1.0 or 1.2.0 (default: the proof's)");
  sub.add_option("--threads", o->threads, "Worker threads (default: all cores)");
  return [o] { return run_seal(*o); };
}

}  // namespace cuzk::cli
