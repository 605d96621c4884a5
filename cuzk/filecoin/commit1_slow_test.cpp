// C1 of a sealed 8 MiB sector (StackedDrg8MiBV1_1; the seal takes ~10–20 s on the dev VM, hence
// label slow): built through the sector directory, JSON round trip, vanilla verification, and
// the build / verify times printed.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <random>

#include "cuzk/filecoin/c1_json.hpp"
#include "cuzk/filecoin/commit1.hpp"
#include "cuzk/filecoin/porep_verify.hpp"
#include "cuzk/filecoin/vanilla_test_util.hpp"

namespace cuzk::filecoin {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

TEST(Commit1Slow, EightMiBSectorDirectory) {
  const std::uint64_t seed = testing::fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed) + " (replay with CUZK_SEED)");
  std::mt19937_64 rng(seed);
  ThreadPool pool(0);
  const SealProof proof = seal_proof("StackedDrg8MiBV1_1").value();
  const SealConfig config = seal_config(proof);
  std::vector<Node> data(config.nodes);
  for (Node& n : data) {
    for (auto& b : n) b = static_cast<std::uint8_t>(rng());
    truncate_to_fr254(n);
  }
  SectorIdentity id{.prover_id = {1}, .sector_id = 42, .ticket = {2}};
  auto t = Clock::now();
  auto r = seal(config, id, data, pool);
  ASSERT_TRUE(r.ok()) << r.status().to_string();
  std::printf("seal 8 MiB: %.2f s\n", since(t));
  const SectorInfo info{.registered_proof = proof.name,
                        .size = proof.size,
                        .porep_id = proof.porep_id,
                        .api = proof.api,
                        .id = id,
                        .comm_d = r->comm_d,
                        .comm_c = r->comm_c,
                        .comm_r_last = r->comm_r_last,
                        .comm_r = r->comm_r,
                        .replica_id = r->replica_id};
  const fs::path dir =
      fs::temp_directory_path() / ("cuzk_commit1_slow_" + std::to_string(::getpid()));
  ASSERT_TRUE(write_sector_dir(dir, info, *r).ok());

  t = Clock::now();
  auto sector = load_sealed_sector(dir, pool);
  ASSERT_TRUE(sector.ok()) << sector.status().to_string();
  const double load_s = since(t);
  Node c1_seed;
  for (auto& b : c1_seed) b = static_cast<std::uint8_t>(rng());
  t = Clock::now();
  auto c1 = build_commit1(*sector, c1_seed, pool);
  ASSERT_TRUE(c1.ok()) << c1.status().to_string();
  const double build_s = since(t);
  t = Clock::now();
  Status v = verify_porep_vanilla(proof, porep_public_inputs(*c1), *c1);
  const double verify_s = since(t);
  EXPECT_TRUE(v.ok()) << v.to_string();
  const std::string json = write_c1_json(*c1);
  auto back = read_c1_json(json);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(write_c1_json(*back), json);
  std::printf(
      "C1 8 MiB (%u threads): load (rebuild tree_c, tree_r_last) %.2f s, build %.4f s, "
      "verify %.4f s, JSON %zu bytes\n",
      static_cast<unsigned>(pool.size()), load_s, build_s, verify_s, json.size());
  fs::remove_all(dir);
}

}  // namespace
}  // namespace cuzk::filecoin
