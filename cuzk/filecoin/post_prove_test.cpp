// PoSt vanilla proof generation from sealed 2 KiB sectors (sealed in the test, written as sector
// directories and read back like `cuzk filecoin post-vanilla` does):
//   * poseidon_tree_proof of every leaf of 8-0-0 / 8-8-0 / 8-8-2 trees passes the verifier's
//     shape check, shows its leaf and hashes to the tree's root (merkle_proof.hpp's verifier side);
//   * Window (V1 and V1_2 challenge rules) and Winning proofs verify with post_verify, survive a
//     bincode write/read byte for byte, and fail after tampering;
//   * the window partition padding: 3 sectors with sector_count 2 make two partitions, the second
//     repeating its last sector's SectorProof;
//   * a sector whose replica was changed, or of the wrong size, is refused.
// Seeded (printed; CUZK_SEED replays).
#include "cuzk/filecoin/post_prove.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "cuzk/filecoin/post_challenges.hpp"
#include "cuzk/filecoin/post_verify.hpp"
#include "cuzk/filecoin/seal.hpp"
#include "cuzk/filecoin/vanilla_test_util.hpp"

namespace cuzk::filecoin {
namespace {

namespace fs = std::filesystem;
using testing::fresh_seed;
using testing::random_node;

// Seals a random 2 KiB sector into a fresh directory under |root|.
fs::path seal_sector(const fs::path& root, std::uint64_t sector_id, std::mt19937_64& rng,
                     ThreadPool& pool) {
  const SealProof proof = seal_proof("StackedDrg2KiBV1_1").value();
  SectorInfo info;
  info.registered_proof = proof.name;
  info.size = proof.size;
  info.porep_id = proof.porep_id;
  info.api = proof.api;
  info.id = {random_node(rng), sector_id, random_node(rng)};
  std::vector<Node> data(sector_nodes(proof.size));
  for (Node& n : data) n = random_node(rng);
  auto sealed = seal(info.config(), info.id, data, pool);
  EXPECT_TRUE(sealed.ok()) << sealed.status().to_string();
  info.comm_d = sealed->comm_d;
  info.comm_c = sealed->comm_c;
  info.comm_r_last = sealed->comm_r_last;
  info.comm_r = sealed->comm_r;
  info.replica_id = sealed->replica_id;
  const fs::path dir = root / ("sector-" + std::to_string(sector_id));
  EXPECT_TRUE(write_sector_dir(dir, info, *sealed).ok());
  return dir;
}

class PostProve : public ::testing::Test {
 protected:
  void SetUp() override {
    seed_ = fresh_seed();
    std::printf("seed %llu (CUZK_SEED replays)\n", static_cast<unsigned long long>(seed_));
    rng_.seed(seed_);
    root_ = fs::temp_directory_path() / ("cuzk-post-prove-" + std::to_string(seed_));
    fs::remove_all(root_);
    for (std::uint64_t id : {7, 1000, 42}) dirs_.push_back(seal_sector(root_, id, rng_, pool_));
  }
  void TearDown() override { fs::remove_all(root_); }

  std::vector<PostSector> load(const PostProof& proof, std::size_t count) {
    std::vector<PostSector> out;
    for (std::size_t i = 0; i < count; ++i) {
      auto s = load_post_sector(dirs_[i], proof, pool_);
      EXPECT_TRUE(s.ok()) << s.status().to_string();
      out.push_back(std::move(*s));
    }
    return out;
  }

  std::uint64_t seed_ = 0;
  std::mt19937_64 rng_;
  ThreadPool pool_{2};
  fs::path root_;
  std::vector<fs::path> dirs_;
};

std::vector<PostPublicSector> public_sectors(std::span<const PostSector> s) {
  std::vector<PostPublicSector> out;
  for (const PostSector& x : s) out.push_back({x.info.id.sector_id, x.info.comm_r});
  return out;
}

TEST(PoseidonTreeProof, EveryLeafOfEveryShapeHashesToTheRoot) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  ThreadPool pool(2);
  for (auto [shape, leaves] : {std::pair{TreeShape{8, 0, 0}, 64ull},
                               {TreeShape{8, 8, 0}, 512ull},
                               {TreeShape{8, 8, 2}, 1024ull}}) {
    SCOPED_TRACE(shape.name());
    std::vector<Fr> v;
    for (std::uint64_t i = 0; i < leaves; ++i) v.push_back(*fr_from_node(random_node(rng)));
    const std::vector<Fr> copy = v;
    auto tree = PoseidonTree::build(std::move(v), shape, pool);
    ASSERT_TRUE(tree.ok());
    for (std::uint64_t leaf = 0; leaf < leaves; ++leaf) {
      const MerkleProof p = poseidon_tree_proof(*tree, leaf);
      ASSERT_TRUE(check_merkle_shape(p, shape, leaves, "p").ok()) << leaf;
      EXPECT_EQ(path_index(p, shape), leaf);
      EXPECT_EQ(p.leaf, node_from_fr(copy[leaf]));
      EXPECT_EQ(p.root, node_from_fr(tree->root()));
      EXPECT_EQ(poseidon_root(p, "p").value(), p.root) << leaf;
    }
  }
}

TEST_F(PostProve, WindowV1AndV12VerifyRoundTripAndFailWhenTampered) {
  for (const char* name : {"StackedDrgWindow2KiBV1", "StackedDrgWindow2KiBV1_2"}) {
    SCOPED_TRACE(name);
    const PostProof proof = post_proof(name).value();
    const std::vector<PostSector> sectors = load(proof, 2);
    const Bytes32 randomness = random_node(rng_);
    auto v = window_post_vanilla_proofs(proof, randomness, sectors);
    ASSERT_TRUE(v.ok()) << v.status().to_string();
    ASSERT_EQ(v->size(), 2u);
    for (std::size_t i = 0; i < 2; ++i) {
      const auto& sp = (*v)[i].sectors.at(0);
      ASSERT_EQ(sp.inclusion_proofs.size(), proof.challenge_count);
      const auto leaves =
          post_sector_challenges(proof, randomness, sectors[i].info.id.sector_id, i);
      for (unsigned n = 0; n < proof.challenge_count; ++n)
        EXPECT_EQ(path_index(sp.inclusion_proofs[n], tree_shape(proof.size)), leaves[n]);
    }
    const auto pub = public_sectors(sectors);
    ASSERT_TRUE(verify_post_vanilla(proof, randomness, pub, *v).ok());

    // Concatenated, read back one by one, written again byte for byte.
    BincodeWriter w;
    for (const auto& p : *v) write_post_sector_proof(w, p);
    const std::vector<std::uint8_t> bytes = w.bytes();
    BincodeReader r(bytes);
    std::vector<FallbackPoStSectorProof> back(2);
    ASSERT_TRUE(read_post_sector_proof(r, back[0]).ok());
    ASSERT_TRUE(read_post_sector_proof(r, back[1]).ok());
    EXPECT_TRUE(r.at_end());
    EXPECT_EQ(back, *v);
    BincodeWriter w2;
    for (const auto& p : back) write_post_sector_proof(w2, p);
    EXPECT_EQ(w2.bytes(), bytes);

    // Tampering: a sibling hash, a leaf, comm_c, the sector id; another randomness.
    auto bad = back;
    bad[1].sectors[0].inclusion_proofs[3].base_path[1].hashes[2][0] ^= 1;
    EXPECT_FALSE(verify_post_vanilla(proof, randomness, pub, bad).ok());
    bad = back;
    bad[0].sectors[0].inclusion_proofs[0].leaf[5] ^= 0x10;
    EXPECT_FALSE(verify_post_vanilla(proof, randomness, pub, bad).ok());
    bad = back;
    bad[0].sectors[0].comm_c[0] ^= 1;
    EXPECT_FALSE(verify_post_vanilla(proof, randomness, pub, bad).ok());
    bad = back;
    bad[1].sector_id += 1;
    EXPECT_FALSE(verify_post_vanilla(proof, randomness, pub, bad).ok());
    Bytes32 other = randomness;
    other[0] ^= 1;
    EXPECT_FALSE(verify_post_vanilla(proof, other, pub, back).ok());
  }
}

TEST_F(PostProve, V1AndV12ChallengeTheSecondSectorDifferently) {
  const Bytes32 randomness = random_node(rng_);
  const PostProof v1 = post_proof("StackedDrgWindow2KiBV1").value();
  const PostProof v12 = post_proof("StackedDrgWindow2KiBV1_2").value();
  const auto s1 = load(v1, 2);
  const auto a = window_post_vanilla_proofs(v1, randomness, s1).value();
  const auto b = window_post_vanilla_proofs(v12, randomness, s1).value();
  // Position 0: challenge index n under both rules, so the same proofs.
  EXPECT_EQ(a[0], b[0]);
  // Position 1: 10 + n under V1, n under V1_2 (with 64 leaves some may coincide, not all 10).
  EXPECT_NE(a[1], b[1]);
  // A V1 proof of position 1 is not a V1_2 proof.
  EXPECT_FALSE(verify_post_vanilla(v12, randomness, public_sectors(s1), a).ok());
}

TEST_F(PostProve, WinningSelectsAndProvesOneSector) {
  const PostProof proof = post_proof("StackedDrgWinning2KiBV1").value();
  const std::vector<PostSector> sectors = load(proof, 3);
  for (int round = 0; round < 4; ++round) {
    const Bytes32 randomness = random_node(rng_);
    const Bytes32 prover_id = random_node(rng_);
    auto w = winning_post_vanilla_proof(proof, randomness, prover_id, sectors);
    ASSERT_TRUE(w.ok()) << w.status().to_string();
    EXPECT_EQ(w->sector_index, winning_post_sector_challenges(randomness, prover_id, 3)->at(0));
    const PostSector& s = sectors[w->sector_index];
    EXPECT_EQ(w->proof.sector_id, s.info.id.sector_id);
    ASSERT_EQ(w->proof.sectors.at(0).inclusion_proofs.size(), 66u);
    const PostPublicSector pub{s.info.id.sector_id, s.info.comm_r};
    ASSERT_TRUE(verify_post_vanilla(proof, randomness, {&pub, 1}, {&w->proof, 1}).ok());
    const auto bytes = write_post_sector_proof(w->proof);
    EXPECT_EQ(read_post_sector_proof(bytes).value(), w->proof);
    auto bad = w->proof;
    bad.sectors[0].inclusion_proofs[65].base_path[0].index ^= 1;
    EXPECT_FALSE(verify_post_vanilla(proof, randomness, {&pub, 1}, {&bad, 1}).ok());
  }
}

TEST_F(PostProve, ShortWindowPartitionRepeatsItsLastSector) {
  const PostProof proof = post_proof("StackedDrgWindow2KiBV1").value();
  ASSERT_EQ(proof.sector_count, 2u);
  const std::vector<PostSector> sectors = load(proof, 3);
  const Bytes32 randomness = random_node(rng_);
  const auto v = window_post_vanilla_proofs(proof, randomness, sectors).value();
  ASSERT_EQ(window_post_partitions(v.size(), proof.sector_count), 2u);
  const auto p0 = window_post_partition_proof(proof, v, 0).value();
  ASSERT_EQ(p0.size(), 2u);
  EXPECT_EQ(p0[0], v[0].sectors[0]);
  EXPECT_EQ(p0[1], v[1].sectors[0]);
  const auto p1 = window_post_partition_proof(proof, v, 1).value();
  ASSERT_EQ(p1.size(), 2u);
  EXPECT_EQ(p1[0], v[2].sectors[0]);
  EXPECT_EQ(p1[1], v[2].sectors[0]);
  EXPECT_FALSE(window_post_partition_proof(proof, v, 2).ok());
  // Each partition verifies on its own (sector positions 2k + i); the padded slot is the last
  // sector again, whose public inputs the circuit repeats (position 2).
  const auto pub = public_sectors(sectors);
  EXPECT_TRUE(verify_post_vanilla(proof, randomness, std::span(pub).subspan(0, 2),
                                  std::span(v).subspan(0, 2), 0)
                  .ok());
  EXPECT_TRUE(verify_post_vanilla(proof, randomness, std::span(pub).subspan(2, 1),
                                  std::span(v).subspan(2, 1), 1)
                  .ok());
  for (const PostSectorProof& sp : p1) {
    FallbackPoStSectorProof one{v[2].sector_id, v[2].comm_r, {sp}};
    EXPECT_TRUE(verify_post_sector(proof, randomness, pub[2], 2, one).ok());
  }
  // The whole PoSt at once.
  EXPECT_TRUE(verify_post_vanilla(proof, randomness, pub, v).ok());
}

TEST_F(PostProve, RefusesAChangedReplicaAndAWrongSize) {
  const PostProof proof = post_proof("StackedDrgWindow2KiBV1").value();
  // One replica byte changed: tree_r_last no longer has sector.json's comm_r_last.
  {
    std::fstream f(dirs_[0] / kReplicaFile, std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(100);
    const char c = static_cast<char>(f.get() ^ 0x01);
    f.seekp(100);
    f.put(c);
  }
  auto s = load_post_sector(dirs_[0], proof, pool_);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), Errc::unsatisfied);
  EXPECT_NE(s.status().message().find("comm_r_last"), std::string::npos) << s.status().to_string();
  auto big = load_post_sector(dirs_[1], post_proof("StackedDrgWindow32GiBV1").value(), pool_);
  ASSERT_FALSE(big.ok());
  EXPECT_NE(big.status().message().find("32GiB"), std::string::npos) << big.status().to_string();
  auto missing = load_post_sector(root_ / "nothing-here", proof, pool_);
  EXPECT_FALSE(missing.ok());
}

}  // namespace
}  // namespace cuzk::filecoin
