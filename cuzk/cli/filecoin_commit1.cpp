// `cuzk filecoin commit1`: the C1 output (SealCommitPhase1Output JSON, as filecoin-ffi writes it)
// of a sector directory written by `cuzk filecoin seal`, for a seed (docs/filecoin/commit1.md).
// The vanilla proofs are then checked with the PoRep vanilla verifier, as seal_commit_phase1 does.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "cuzk/base/thread_pool.hpp"
#include "cuzk/cli/filecoin_cli.hpp"
#include "cuzk/filecoin/c1_json.hpp"
#include "cuzk/filecoin/commit1.hpp"
#include "cuzk/filecoin/porep_challenges.hpp"
#include "cuzk/filecoin/porep_verify.hpp"

namespace cuzk::cli {
namespace {

using namespace cuzk::filecoin;

struct Commit1Options {
  std::string sector, seed, out;
  std::optional<unsigned> partitions;
  unsigned threads = 0;
};

int fail(int rc, const Status& s) {
  std::fprintf(stderr, "cuzk filecoin commit1: %s\n", s.to_string().c_str());
  return rc;
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

int run_commit1(const Commit1Options& o) {
  auto seed = parse_hex32(o.seed, "--seed");
  if (!seed.ok()) return fail(2, seed.status());
  ThreadPool pool(o.threads);
  const auto t0 = std::chrono::steady_clock::now();
  auto sector = load_sealed_sector(o.sector, pool);
  if (!sector.ok()) return fail(2, sector.status().with_context("--sector"));
  const double load_s = seconds_since(t0);
  const auto t1 = std::chrono::steady_clock::now();
  auto c1 = build_commit1(*sector, *seed, pool, o.partitions);
  if (!c1.ok()) return fail(2, c1.status());
  const double build_s = seconds_since(t1);
  auto proof = sector_seal_proof(sector->info);
  const PorepChallengeConfig cc = porep_challenge_config(*proof);

  nlohmann::json j;
  const bool all = c1->vanilla_proofs.size() == cc.partitions;
  if (all) {
    const auto t2 = std::chrono::steady_clock::now();
    Status v = verify_porep_vanilla(*proof, porep_public_inputs(*c1), *c1);
    if (!v.ok()) return fail(1, v.with_context("the C1 built does not verify"));
    j["verify_seconds"] = seconds_since(t2);
  }
  const std::string json = write_c1_json(*c1);
  std::ofstream f(o.out, std::ios::binary);
  if (!f || !f.write(json.data(), static_cast<std::streamsize>(json.size())))
    return fail(1, Status(Errc::io_error, "--out " + o.out + ": cannot write"));
  j["out"] = o.out;
  j["bytes"] = json.size();
  j["registered_proof"] = c1->registered_proof;
  j["partitions"] = c1->vanilla_proofs.size();
  j["challenges_per_partition"] = cc.per_partition;
  for (const auto& part : c1->vanilla_proofs) {
    nlohmann::json nodes = nlohmann::json::array();
    for (const auto& p : part) nodes.push_back(p.encoding_proof.node);
    j["challenges"].push_back(nodes);
  }
  j["verified"] = all;
  j["load_seconds"] = load_s;
  j["build_seconds"] = build_s;
  j["threads"] = pool.size();
  std::printf("%s\n", j.dump().c_str());
  return 0;
}

}  // namespace

FilecoinRun add_filecoin_commit1(CLI::App& sub) {
  auto o = std::make_shared<Commit1Options>();
  sub.add_option("--sector", o->sector, "Sector directory written by `cuzk filecoin seal`")
      ->required();
  sub.add_option("--seed", o->seed, "Interactive randomness, 64 hex digits (32 bytes)")->required();
  sub.add_option("--out", o->out, "File to write the C1 JSON to")->required();
  sub.add_option("--partition-count", o->partitions,
                 "Prove only the first N partitions (tests and timing; the C1 is then not "
                 "complete and is not verified)");
  sub.add_option("--threads", o->threads, "Worker threads (0: all cores)");
  return [o]() { return run_commit1(*o); };
}

}  // namespace cuzk::cli
