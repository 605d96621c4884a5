// `cuzk filecoin update`: SnapDeals encoding of new data into a sealed test-size sector (the
// sealed replica becomes the sector key) into an updated sector directory (filecoin/update_dir.hpp;
// docs/filecoin/snapdeals.md), and `--decode`: the data back out of an updated directory.
#include <algorithm>
#include <chrono>
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
#include "cuzk/filecoin/snap_encode.hpp"
#include "cuzk/filecoin/tree_d.hpp"
#include "cuzk/filecoin/update_dir.hpp"

namespace cuzk::cli {
namespace {

using namespace cuzk::filecoin;
namespace fs = std::filesystem;

struct UpdateOptions {
  std::string sector, data, out;
  std::optional<unsigned> h;
  bool decode = false;
  unsigned threads = 0;
};

int usage_error(const Status& s) {
  std::fprintf(stderr, "cuzk filecoin update: %s\n", s.to_string().c_str());
  return 2;
}

int check_failed(const std::string& what) {
  std::fprintf(stderr, "cuzk filecoin update: %s\n", what.c_str());
  return 1;
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

int run_encode(const UpdateOptions& o) {
  auto info = read_sector_info(o.sector);
  if (!info.ok()) return usage_error(info.status().with_context("--sector"));
  if (sector_bytes(info->size) > sector_bytes(SectorSize::s512MiB))
    return usage_error(Status(Errc::invalid_argument,
                              "--sector: updating is in memory, for 2KiB, 8MiB and 512MiB only"));
  const SnapParams p = snap_params(info->size);
  const unsigned h = o.h.value_or(p.h_default);
  if (!p.h_allowed(h))
    return usage_error(Status(Errc::invalid_argument,
                              "--h " + std::to_string(h) + " is not allowed for " +
                                  std::string(sector_size_name(info->size)) + " (allowed: " +
                                  std::to_string(p.hs[0]) + ".." + std::to_string(p.hs[5]) + ")"));
  const std::uint64_t nodes = sector_nodes(info->size);
  auto key = read_node_file(fs::path(o.sector) / kReplicaFile, nodes);
  if (!key.ok()) return usage_error(key.status().with_context("--sector"));
  auto data = read_node_file(o.data, nodes);
  if (!data.ok()) return usage_error(data.status().with_context("--data"));
  if (Status s = check_sector_data(info->config(), *data); !s.ok())
    return usage_error(s.with_context("--data " + o.data));

  ThreadPool pool(o.threads);
  const auto t0 = std::chrono::steady_clock::now();
  auto enc = snap_encode({info->size, info->comm_c, info->comm_r_last, *key}, *data, h, pool);
  if (!enc.ok()) return usage_error(enc.status());
  const double seconds = seconds_since(t0);
  if (enc->comm_r_old != info->comm_r)
    return check_failed("--sector: Poseidon2(comm_c, comm_r_last) is not the sector's comm_r " +
                        to_hex(info->comm_r));

  UpdateInfo u;
  const auto proof = std::find_if(update_proofs().begin(), update_proofs().end(),
                                  [&](const UpdateProof& x) { return x.size == info->size; });
  u.registered_proof = proof->name;
  u.seal_proof = info->registered_proof;
  u.size = info->size;
  u.h = h;
  u.comm_c = info->comm_c;
  u.comm_r_last_old = info->comm_r_last;
  u.comm_r_old = enc->comm_r_old;
  u.comm_d_new = enc->comm_d_new;
  u.comm_r_last_new = enc->comm_r_last_new;
  u.comm_r_new = enc->comm_r_new;
  std::error_code ec;
  const fs::path abs = fs::absolute(o.sector, ec);
  u.sector_key_dir = (ec ? fs::path(o.sector) : abs).lexically_normal().string();
  if (Status s = write_update_dir(o.out, u, *enc); !s.ok()) {
    std::fprintf(stderr, "cuzk filecoin update: %s\n", s.to_string().c_str());
    return 1;
  }
  nlohmann::json j = nlohmann::json::parse(update_info_json(u));
  j["out"] = o.out;
  j["encode_seconds"] = seconds;
  j["threads"] = pool.size();
  std::printf("%s\n", j.dump().c_str());
  return 0;
}

int run_decode(const UpdateOptions& o) {
  if (!o.data.empty() || o.h)
    return usage_error(Status(Errc::invalid_argument,
                              "--decode takes h and the sector key from --sector's update.json; "
                              "drop --data / --h"));
  auto u = read_update_info(o.sector);
  if (!u.ok()) return usage_error(u.status().with_context("--sector"));
  const std::uint64_t nodes = sector_nodes(u->size);
  auto replica = read_node_file(fs::path(o.sector) / kReplicaFile, nodes);
  if (!replica.ok()) return usage_error(replica.status().with_context("--sector"));
  auto key = read_node_file(fs::path(u->sector_key_dir) / kReplicaFile, nodes);
  if (!key.ok()) return usage_error(key.status().with_context("update.json sector_key_dir"));
  ThreadPool pool(o.threads);
  const auto t0 = std::chrono::steady_clock::now();
  auto data = snap_decode({u->size, u->comm_c, u->comm_r_last_old, *key}, *replica, u->comm_d_new,
                          u->h, pool);
  if (!data.ok()) return usage_error(data.status());
  const double seconds = seconds_since(t0);
  const Node comm_d = tree_d_root(*data, pool);
  if (comm_d != u->comm_d_new)
    return check_failed("the decoded data's comm_d " + to_hex(comm_d) + " is not comm_d_new " +
                        to_hex(u->comm_d_new));
  if (Status s = write_node_file(o.out, *data); !s.ok()) return check_failed(s.to_string());
  nlohmann::json j = {{"out", o.out},
                      {"comm_d_new", to_hex(comm_d)},
                      {"decode_seconds", seconds},
                      {"threads", pool.size()}};
  std::printf("%s\n", j.dump().c_str());
  return 0;
}

}  // namespace

FilecoinRun add_filecoin_update(CLI::App& sub) {
  auto o = std::make_shared<UpdateOptions>();
  sub.add_option("--sector", o->sector,
                 "Sealed sector directory (`cuzk filecoin seal`); with --decode the updated one")
      ->required();
  sub.add_option("--data", o->data, "New Fr32-padded data, exactly the sector size");
  sub.add_option("--out", o->out,
                 "Updated sector directory to write (created if missing); with --decode the data "
                 "file")
      ->required();
  sub.add_option("--h", o->h, "High bits of the node index per rho (default: h_default, 1 or 10)");
  sub.add_flag("--decode", o->decode, "Recover the data of an updated sector directory");
  sub.add_option("--threads", o->threads, "Worker threads (default: all cores)");
  return [o] {
    if (o->decode) return run_decode(*o);
    if (o->data.empty()) return usage_error(Status(Errc::invalid_argument, "--data is required"));
    return run_encode(*o);
  };
}

}  // namespace cuzk::cli
