// An 8 MiB SnapDeals update (StackedDrg8MiBV1: 2^18 nodes, 4 partitions, h = 10): seal a sector of
// seeded pseudo-random data, update it, compare with the slow twin, decode, prove every partition,
// round-trip the bincode, verify, and refuse a wrong h and a proof given for another partition.
// Labelled slow (the seal alone takes 10–20 s on the 2-core dev VM). CUZK_SEED=<n> replays.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "cuzk/filecoin/snap_prove.hpp"
#include "cuzk/filecoin/snap_test_util.hpp"
#include "cuzk/filecoin/snap_verify.hpp"

namespace cuzk::filecoin {
namespace {

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

TEST(SnapSlow, EightMiBUpdateProveVerify) {
  const char* env = std::getenv("CUZK_SEED");
  const std::uint64_t seed = env ? std::strtoull(env, nullptr, 10) : 20261220;
  SCOPED_TRACE("seed " + std::to_string(seed) + " (CUZK_SEED)");
  std::mt19937_64 rng(seed);
  ThreadPool pool;
  auto t = std::chrono::steady_clock::now();
  const SealResult sealed = testing::seal_random(rng, "StackedDrg8MiBV1_1", pool);
  std::printf("8 MiB: seal %.2f s\n", seconds_since(t));
  const std::vector<Node> data = testing::random_fr32(rng, sealed.replica.size());
  const SnapParams p = snap_params(SectorSize::s8MiB);
  ASSERT_EQ(p.h_default, 10u);
  const SnapSectorKey key{SectorSize::s8MiB, sealed.comm_c, sealed.comm_r_last, sealed.replica};

  t = std::chrono::steady_clock::now();
  const SnapEncoded enc = snap_encode(key, data, p.h_default, pool).value();
  std::printf("8 MiB: encode (tree_d, rho, replica, tree_r) %.2f s\n", seconds_since(t));
  t = std::chrono::steady_clock::now();
  EXPECT_EQ(snap_decode(key, enc.replica, enc.comm_d_new, p.h_default, pool).value(), data);
  std::printf("8 MiB: decode %.2f s\n", seconds_since(t));
  t = std::chrono::steady_clock::now();
  const testing::NaiveUpdate n = testing::naive_snap_encode(
      SectorSize::s8MiB, sealed.comm_c, sealed.comm_r_last, sealed.replica, data, p.h_default);
  std::printf("8 MiB: slow twin %.2f s\n", seconds_since(t));
  EXPECT_EQ(enc.comm_d_new, n.comm_d_new);
  EXPECT_EQ(enc.comm_r_new, n.comm_r_new);
  EXPECT_EQ(enc.replica, n.replica);

  t = std::chrono::steady_clock::now();
  const SnapTrees trees{&sealed.tree_r_last, enc.tree_d, &enc.tree_r, sealed.comm_c};
  std::vector<SnapPartitionProof> proofs;
  for (unsigned k = 0; k < p.partitions; ++k)
    proofs.push_back(snap_partition_proof(p, trees, k).value());
  std::printf("8 MiB: 4 partition proofs %.3f s\n", seconds_since(t));
  for (const SnapPartitionProof& pp : proofs) {
    EXPECT_EQ(pp.apex_leafs.size(), 128u);
    const auto bytes = write_snap_partition_proof(pp);
    EXPECT_EQ(write_snap_partition_proof(read_snap_partition_proof(bytes).value()), bytes);
  }
  const UpdateProof proof = update_proof("StackedDrg8MiBV1").value();
  SnapPublic pub{enc.comm_r_old, enc.comm_d_new, enc.comm_r_new, p.h_default};
  t = std::chrono::steady_clock::now();
  Status s = verify_snap_vanilla(proof, pub, proofs);
  std::printf("8 MiB: verify 4 partitions %.3f s\n", seconds_since(t));
  EXPECT_TRUE(s.ok()) << s.to_string();
  // Another allowed h changes rho for some challenge.
  pub.h = 9;
  s = verify_snap_vanilla(proof, pub, proofs);
  EXPECT_EQ(s.code(), Errc::unsatisfied) << s.to_string();
  EXPECT_NE(s.message().find("rho"), std::string::npos) << s.message();
  pub.h = p.h_default;
  // Partition 1's proof offered as partition 2's.
  s = verify_snap_partition(proof, pub, 2, proofs[1]);
  EXPECT_EQ(s.code(), Errc::unsatisfied) << s.to_string();
  EXPECT_NE(s.message().find("partition 2, challenge 0"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace cuzk::filecoin
