// An 8 MiB sector (StackedDrg8MiBV1_1, 2^18 nodes) of seeded pseudo-random Fr32 data: seal,
// compare tree_d, tree_c, tree_r_last and comm_r with the naive twins (seal_naive.hpp, reference
// Poseidon, top-down recursion) and unseal back to the data. Labelled slow (~20 s on the 2-core
// dev VM). The seed is fixed (printed); CUZK_SEED=<n> replays another.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <random>
#include <string>

#include "cuzk/filecoin/seal.hpp"
#include "cuzk/filecoin/seal_naive.hpp"
#include "cuzk/filecoin/tree_d.hpp"

namespace cuzk::filecoin {
namespace {

Node naive_tree_d_root(std::span<const Node> leaves) {
  if (leaves.size() == 1) return leaves[0];
  const std::size_t half = leaves.size() / 2;
  return tree_d_hash(naive_tree_d_root(leaves.first(half)),
                     naive_tree_d_root(leaves.subspan(half)));
}

TEST(SealSlow, EightMiBSealUnsealAndTwins) {
  const char* env = std::getenv("CUZK_SEED");
  const std::uint64_t seed = env ? std::strtoull(env, nullptr, 10) : 20261218;
  SCOPED_TRACE("seed " + std::to_string(seed) + " (CUZK_SEED)");
  std::mt19937_64 rng(seed);
  const SealProof proof = seal_proof("StackedDrg8MiBV1_1").value();
  const SealConfig config = seal_config(proof);
  std::vector<Node> data(config.nodes);
  for (Node& x : data) {
    for (auto& b : x) b = static_cast<std::uint8_t>(rng());
    x[31] &= 0x3f;
  }
  SectorIdentity id;
  for (auto& b : id.prover_id) b = static_cast<std::uint8_t>(rng());
  for (auto& b : id.ticket) b = static_cast<std::uint8_t>(rng());
  id.sector_id = rng();

  ThreadPool pool(0);
  auto t0 = std::chrono::steady_clock::now();
  const auto sealed = seal(config, id, data, pool);
  const double seal_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_TRUE(sealed.ok()) << sealed.status().to_string();
  t0 = std::chrono::steady_clock::now();
  const auto back = unseal(config, sealed->replica_id, sealed->replica, pool);
  const double unseal_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_TRUE(back.ok()) << back.status().to_string();
  EXPECT_TRUE(*back == data);
  std::printf("8 MiB, %zu threads: seal %.2f s, unseal %.2f s\n", pool.size(), seal_s, unseal_s);

  EXPECT_EQ(sealed->comm_d, naive_tree_d_root(data));
  const auto twin = naive::seal_commitments(sealed->labels, data, config.shape);
  EXPECT_EQ(sealed->comm_c, twin.comm_c);
  EXPECT_EQ(sealed->comm_r_last, twin.comm_r_last);
  EXPECT_EQ(sealed->comm_r, twin.comm_r);
  EXPECT_TRUE(sealed->replica == twin.replica);
}

}  // namespace
}  // namespace cuzk::filecoin
