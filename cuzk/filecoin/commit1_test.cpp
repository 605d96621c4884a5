// C1 from sealed 2 KiB sectors for every registered proof of that size, its JSON round trip and
// the PoRep vanilla verifier, which must accept it and name the field of every tampered part.
#include "cuzk/filecoin/commit1.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <random>
#include <string>

#include "cuzk/filecoin/c1_json.hpp"
#include "cuzk/filecoin/porep_challenges.hpp"
#include "cuzk/filecoin/porep_verify.hpp"
#include "cuzk/filecoin/tree_d.hpp"
#include "cuzk/filecoin/vanilla_test_util.hpp"

namespace cuzk::filecoin {
namespace {

namespace fs = std::filesystem;

// A sector of |proof| sealed over seeded random Fr32 data.
SealedSector seal_random(const SealProof& proof, std::mt19937_64& rng, ThreadPool& pool) {
  const SealConfig config = seal_config(proof);
  std::vector<Node> data(config.nodes);
  for (Node& n : data) {
    for (auto& b : n) b = static_cast<std::uint8_t>(rng());
    truncate_to_fr254(n);
  }
  SectorIdentity id;
  for (auto& b : id.prover_id) b = static_cast<std::uint8_t>(rng());
  for (auto& b : id.ticket) b = static_cast<std::uint8_t>(rng());
  truncate_to_fr254(id.ticket);
  id.sector_id = rng() % 1000;
  auto r = seal(config, id, data, pool);
  EXPECT_TRUE(r.ok()) << r.status().to_string();
  SealedSector s;
  s.info = {.registered_proof = proof.name,
            .size = proof.size,
            .porep_id = proof.porep_id,
            .api = proof.api,
            .id = id,
            .comm_d = r->comm_d,
            .comm_c = r->comm_c,
            .comm_r_last = r->comm_r_last,
            .comm_r = r->comm_r,
            .replica_id = r->replica_id};
  s.sealed = std::move(r).value();
  return s;
}

Node random_seed(std::mt19937_64& rng) {
  Node s;
  for (auto& b : s) b = static_cast<std::uint8_t>(rng());
  return s;
}

std::vector<SealProof> proofs_of_size(SectorSize size) {
  std::vector<SealProof> out;
  for (const SealProof& p : seal_proofs())
    if (p.size == size) out.push_back(p);
  return out;
}

TEST(Commit1, TreeProofsHashToTheRootInEveryShape) {
  const std::uint64_t seed = testing::fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed) + " (replay with CUZK_SEED)");
  std::mt19937_64 rng(seed);
  ThreadPool pool(2);
  for (const TreeShape shape : {TreeShape{8, 0, 0}, TreeShape{8, 8, 0}, TreeShape{8, 8, 2}}) {
    const std::uint64_t leaves = 64ull * shape.base_trees();
    std::vector<Fr> v(leaves);
    for (Fr& x : v) x = Fr::from_u64(rng());
    auto tree = PoseidonTree::build(v, shape, pool);
    ASSERT_TRUE(tree.ok());
    for (int t = 0; t < 20; ++t) {
      const std::uint64_t leaf = rng() % leaves;
      const MerkleProof p = poseidon_tree_proof(*tree, leaf);
      ASSERT_TRUE(check_merkle_shape(p, shape, leaves, "p").ok()) << shape.name();
      EXPECT_EQ(path_index(p, shape), leaf) << shape.name();
      EXPECT_EQ(p.leaf, node_from_fr(v[leaf]));
      EXPECT_EQ(*poseidon_root(p, "p"), node_from_fr(tree->root())) << shape.name();
    }
  }
  // tree_d: binary SHA-256.
  std::vector<Node> data(64);
  for (Node& n : data) n = random_seed(rng);
  const std::vector<Node> tree_d = build_tree_d(data, pool);
  for (std::uint64_t leaf : {0ull, 1ull, 37ull, 63ull}) {
    const MerkleProof p = tree_d_proof(tree_d, (tree_d.size() + 1) / 2, leaf);
    EXPECT_EQ(path_index(p, TreeShape{2, 0, 0}), leaf);
    EXPECT_EQ(p.leaf, data[leaf]);
    EXPECT_EQ(*sha256_root(p, "p"), tree_d.back());
  }
}

TEST(Commit1, EveryTwoKiBProofBuildsRoundTripsAndVerifies) {
  const std::uint64_t seed = testing::fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed) + " (replay with CUZK_SEED)");
  std::mt19937_64 rng(seed);
  ThreadPool pool(2);
  for (const SealProof& proof : proofs_of_size(SectorSize::s2KiB)) {
    SCOPED_TRACE(proof.name);
    const SealedSector s = seal_random(proof, rng, pool);
    const Node c1_seed = random_seed(rng);
    auto c1 = build_commit1(s, c1_seed, pool);
    ASSERT_TRUE(c1.ok()) << c1.status().to_string();
    const auto cc = porep_challenge_config(proof);
    ASSERT_EQ(c1->vanilla_proofs.size(), cc.partitions);
    for (unsigned k = 0; k < cc.partitions; ++k) {
      const auto challenges = porep_challenges(cc, s.info.replica_id, s.info.comm_r, c1_seed, k);
      ASSERT_EQ(c1->vanilla_proofs[k].size(), cc.per_partition);
      for (unsigned i = 0; i < cc.per_partition; ++i)
        EXPECT_EQ(c1->vanilla_proofs[k][i].encoding_proof.node, challenges[i]);
    }
    EXPECT_EQ(c1->registered_proof, proof.name);
    EXPECT_EQ(c1->comm_r, s.sealed.comm_r);
    EXPECT_EQ(c1->ticket, s.info.id.ticket);

    Status v = verify_porep_vanilla(proof, porep_public_inputs(*c1), *c1);
    EXPECT_TRUE(v.ok()) << v.to_string();

    const std::string json = write_c1_json(*c1);
    auto back = read_c1_json(json);
    ASSERT_TRUE(back.ok()) << back.status().to_string();
    EXPECT_TRUE(*back == *c1);
    EXPECT_EQ(write_c1_json(*back), json);

    // Through the sector directory: the same C1.
    const fs::path dir = fs::temp_directory_path() /
                         ("cuzk_commit1_test_" + std::to_string(::getpid()) + "_" + proof.name);
    ASSERT_TRUE(write_sector_dir(dir, s.info, s.sealed).ok());
    auto loaded = load_sealed_sector(dir, pool);
    ASSERT_TRUE(loaded.ok()) << loaded.status().to_string();
    auto c1_dir = build_commit1(*loaded, c1_seed, pool);
    ASSERT_TRUE(c1_dir.ok());
    EXPECT_EQ(write_c1_json(*c1_dir), json);
    fs::remove_all(dir);
  }
}

class Commit1Tamper : public ::testing::Test {
 protected:
  void SetUp() override {
    std::mt19937_64 rng(20261203);
    proof_ = seal_proof("StackedDrg2KiBV1_1").value();
    sector_ = seal_random(proof_, rng, pool_);
    c1_ = build_commit1(sector_, random_seed(rng), pool_).value();
    pub_ = porep_public_inputs(c1_);
    ASSERT_TRUE(verify_porep_vanilla(proof_, pub_, c1_).ok());
  }
  // The verifier's message for |c1| and |pub|; empty when it accepts.
  std::string failure(const SealCommitPhase1Output& c1, const PorepPublicInputs& pub) {
    Status s = verify_porep_vanilla(proof_, pub, c1);
    return s.ok() ? std::string() : s.message();
  }
  std::string failure(const SealCommitPhase1Output& c1) { return failure(c1, pub_); }

  ThreadPool pool_{2};
  SealProof proof_;
  SealedSector sector_;
  SealCommitPhase1Output c1_;
  PorepPublicInputs pub_;
};

#define EXPECT_FAILS_NAMING(msg, needle)                                \
  do {                                                                  \
    const std::string m_ = (msg);                                       \
    EXPECT_FALSE(m_.empty()) << "accepted";                             \
    EXPECT_NE(m_.find(needle), std::string::npos) << "message: " << m_; \
  } while (0)

TEST_F(Commit1Tamper, LabelByte) {
  auto c = c1_;
  c.vanilla_proofs[0][1].labeling_proofs[1].parents[3][5] ^= 1;
  EXPECT_FAILS_NAMING(failure(c), "partition 0, challenge 1");
  EXPECT_FAILS_NAMING(failure(c), "labeling_proofs[1].parents[3]");
}

TEST_F(Commit1Tamper, ColumnLabelRow) {
  // The challenged node's own label: the column hash no longer matches.
  auto c = c1_;
  c.vanilla_proofs[0][0].replica_column_proofs.c_x.column.rows[1][0] ^= 1;
  EXPECT_FAILS_NAMING(failure(c), "replica_column_proofs.c_x.inclusion_proof.leaf");
  c = c1_;
  c.vanilla_proofs[0][1].replica_column_proofs.drg_parents[2].column.rows[0][7] ^= 1;
  EXPECT_FAILS_NAMING(failure(c), "replica_column_proofs.drg_parents[2]");
  c = c1_;
  c.vanilla_proofs[0][0].replica_column_proofs.exp_parents[4].column.index ^= 1;
  EXPECT_FAILS_NAMING(failure(c), "replica_column_proofs.exp_parents[4].column.index");
}

TEST_F(Commit1Tamper, PathHashes) {
  auto c = c1_;
  c.vanilla_proofs[0][0].comm_r_last_proof.base_path[1].hashes[2][0] ^= 1;
  EXPECT_FAILS_NAMING(failure(c), "comm_r_last_proof");
  c = c1_;
  c.vanilla_proofs[0][1].comm_d_proofs.base_path[3].hashes[0][0] ^= 1;
  EXPECT_FAILS_NAMING(failure(c), "comm_d_proofs");
  c = c1_;
  c.vanilla_proofs[0][1]
      .replica_column_proofs.exp_parents[7]
      .inclusion_proof.base_path[0]
      .hashes[6][1] ^= 1;
  EXPECT_FAILS_NAMING(failure(c), "replica_column_proofs.exp_parents[7].inclusion_proof");
  c = c1_;
  c.vanilla_proofs[0][0].comm_d_proofs.base_path[0].index ^= 1;
  EXPECT_FAILS_NAMING(failure(c), "comm_d_proofs");
}

TEST_F(Commit1Tamper, EncodingProof) {
  auto c = c1_;
  c.vanilla_proofs[0][0].encoding_proof.parents[36][2] ^= 1;
  EXPECT_FAILS_NAMING(failure(c), "encoding_proof.parents[36]");
  c = c1_;
  c.vanilla_proofs[0][0].encoding_proof.layer_index = 1;
  EXPECT_FAILS_NAMING(failure(c), "encoding_proof.layer_index");
  // A replica leaf that is not data + key (its path made consistent is beyond reach; the leaf
  // alone changes the path's root first).
  c = c1_;
  c.vanilla_proofs[0][1].comm_r_last_proof.leaf[0] ^= 1;
  EXPECT_FAILS_NAMING(failure(c), "comm_r_last_proof");
}

TEST_F(Commit1Tamper, WrongChallengeNode) {
  auto c = c1_;
  c.vanilla_proofs[0][0].labeling_proofs[0].node += 1;
  EXPECT_FAILS_NAMING(failure(c), "labeling_proofs[0].node");
  // Proofs of other nodes in place of the challenged ones.
  c = c1_;
  ASSERT_NE(c.vanilla_proofs[0][0].encoding_proof.node, c.vanilla_proofs[0][1].encoding_proof.node);
  std::swap(c.vanilla_proofs[0][0], c.vanilla_proofs[0][1]);
  EXPECT_FAILS_NAMING(failure(c), "comm_d_proofs: the path's index bits show node");
  // A missing challenge.
  c = c1_;
  c.vanilla_proofs[0].pop_back();
  EXPECT_FAILS_NAMING(failure(c), "vanilla_proofs[0]: 1 proofs");
}

TEST_F(Commit1Tamper, WrongPublicInputs) {
  auto pub = pub_;
  pub.seed[0] ^= 1;
  EXPECT_FAILS_NAMING(failure(c1_, pub), "partition 0, challenge");
  pub = pub_;
  pub.comm_d[0] ^= 1;
  EXPECT_FAILS_NAMING(failure(c1_, pub), "public comm_d");
  pub = pub_;
  pub.comm_r[0] ^= 1;
  EXPECT_FAILS_NAMING(failure(c1_, pub), "public comm_r");
  pub = pub_;
  pub.replica_id[0] ^= 1;
  EXPECT_FAILS_NAMING(failure(c1_, pub), "partition 0, challenge");
  pub = pub_;
  pub.comm_r[31] = 0xff;  // not below r
  EXPECT_FAILS_NAMING(failure(c1_, pub), "comm_r");
  // Under another registered proof.
  Status s = verify_porep_vanilla(seal_proof("StackedDrg2KiBV1").value(), pub_, c1_);
  EXPECT_NE(s.message().find("registered_proof"), std::string::npos) << s.to_string();
}

}  // namespace
}  // namespace cuzk::filecoin
