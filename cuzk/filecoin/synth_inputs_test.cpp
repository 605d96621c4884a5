// Synthetic large-sector inputs (synth_inputs.hpp) and the sparse trees under them:
//   * SparseTree against its slow twins, the dense PoseidonTree (8-0-0, 8-8-0, 8-8-2) and
//     build_tree_d: same roots, same proofs (seeded, CUZK_SEED replays);
//   * the zero tree_d roots of 2 KiB and 32 GiB are the known unsealed commitments of all-zero
//     sectors (Python hashlib: 6 and 30 levels of SHA-256(z ‖ z), byte 31 &= 0x3f);
//   * porep_interactive_challenges against Python hashlib (BigUint LE mod (nodes − 1) + 1);
//   * synthetic PoSt at 32 GiB (window, 1 sector; winning) and 64 GiB (window) verifies with
//     post_verify, round-trips byte for byte, is deterministic, and fails when tampered;
//   * synthetic C1 at 2 KiB and 32 GiB passes CheckC1Consistency, this test's own check (the PoRep
//     vanilla verifier is not on main yet): every challenge is the derived one, every Merkle
//     path (tree_d, tree_c, tree_r_last) hashes to its root and shows its node, every column's
//     leaf is its column hash, the columns are the graph's parents, every label hashes from its
//     parents' labels (SHA-256 over the 1248 bytes built here), the replica node is data + label_L,
//     comm_r = Poseidon2(comm_c, comm_r_last); its JSON round-trips; a changed label fails.
#include "cuzk/filecoin/synth_inputs.hpp"
#include "cuzk/filecoin/parameter_files.hpp"
#include "cuzk/filecoin/porep_challenges.hpp"
#include "cuzk/filecoin/porep_verify.hpp"
#include "cuzk/filecoin/prover_id.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <random>

#include "cuzk/filecoin/c1_json.hpp"
#include "cuzk/filecoin/poseidon_tree.hpp"
#include "cuzk/filecoin/post_prove.hpp"
#include "cuzk/filecoin/replica_id.hpp"
#include "cuzk/filecoin/sdr_graph.hpp"
#include "cuzk/filecoin/sdr_hashes.hpp"
#include "cuzk/filecoin/sparse_tree.hpp"
#include "cuzk/filecoin/tree_d.hpp"
#include "cuzk/filecoin/vanilla_test_util.hpp"
#include "cuzk/hash/sha256.hpp"

namespace cuzk::filecoin {
namespace {

using testing::fresh_seed;
using testing::random_node;

TEST(SparseTree, MatchesDensePoseidonTrees) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  ThreadPool pool(2);
  for (auto [shape, leaves] : {std::pair{TreeShape{8, 0, 0}, 4096ull},
                               {TreeShape{8, 8, 0}, 512ull},
                               {TreeShape{8, 8, 2}, 1024ull}}) {
    SCOPED_TRACE(shape.name());
    for (unsigned count : {0u, 1u, 5u, 40u}) {
      std::map<std::uint64_t, Node> nz;
      while (nz.size() < count) nz[rng() % leaves] = random_node(rng);
      std::vector<Fr> dense(leaves, Fr::zero());
      for (const auto& [i, v] : nz) dense[i] = *fr_from_node(v);
      const PoseidonTree full = PoseidonTree::build(dense, shape, pool).value();
      const SparseTree sparse = SparseTree::poseidon(shape, leaves, nz).value();
      ASSERT_EQ(sparse.root(), node_from_fr(full.root())) << count;
      std::vector<std::uint64_t> probe = {0, leaves - 1, rng() % leaves};
      for (const auto& [i, v] : nz) probe.push_back(i);
      for (std::uint64_t leaf : probe)
        EXPECT_EQ(sparse.proof(leaf), poseidon_tree_proof(full, leaf));
    }
  }
}

TEST(SparseTree, MatchesDenseTreeD) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  ThreadPool pool(2);
  const std::uint64_t leaves = 1024;
  std::map<std::uint64_t, Node> nz;
  while (nz.size() < 9) nz[rng() % leaves] = random_node(rng);
  std::vector<Node> dense(leaves, Node{});
  for (const auto& [i, v] : nz) dense[i] = v;
  const std::vector<Node> rows = build_tree_d(dense, pool);
  const SparseTree sparse = SparseTree::sha256(leaves, nz).value();
  ASSERT_EQ(sparse.root(), rows.back());
  for (std::uint64_t leaf : {std::uint64_t{0}, nz.begin()->first, leaves - 1}) {
    const MerkleProof p = sparse.proof(leaf);
    EXPECT_TRUE(check_merkle_shape(p, TreeShape{2, 0, 0}, leaves, "tree_d").ok());
    EXPECT_EQ(path_index(p, TreeShape{2, 0, 0}), leaf);
    EXPECT_EQ(p.leaf, dense[leaf]);
    EXPECT_EQ(sha256_root(p, "tree_d").value(), rows.back());
    // The first sibling is the neighbouring leaf.
    EXPECT_EQ(p.base_path[0].hashes[0], dense[leaf ^ 1]);
  }
  EXPECT_FALSE(SparseTree::sha256(1000, {}).ok());
  EXPECT_FALSE(SparseTree::poseidon(TreeShape{8, 0, 0}, 64, {{64, Node{}}}).ok());
}

TEST(SparseTree, ZeroTreeDRootsAreTheKnownZeroCommitments) {
  // Python hashlib, 6 and 30 levels of trunc(SHA-256(z ‖ z)) from z = 32 zero bytes; these are
  // also the well-known CommD of all-zero 2 KiB and 32 GiB pieces.
  EXPECT_EQ(to_hex(SparseTree::sha256(64, {})->root()),
            "fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833");
  EXPECT_EQ(to_hex(SparseTree::sha256(std::uint64_t{1} << 30, {})->root()),
            "077e5fde35c50a9303a55009e3498a4ebedff39c42b710b730d8ec7ac7afa63e");
}

TEST(SynthInputs, PorepInteractiveChallengesMatchPython) {
  // Python: (int.from_bytes(sha256(rid ‖ seed ‖ j.to_bytes(4, 'little')), 'little') %
  // (nodes − 1)) + 1, rid = bytes 0..31 (byte 31 & 0x3f), seed = 32 × 0xab.
  Node rid, seed;
  for (int i = 0; i < 32; ++i) rid[i] = static_cast<std::uint8_t>(i);
  rid[31] &= 0x3f;
  seed.fill(0xab);
  const auto p0 = interactive_challenges(std::uint64_t{1} << 30, rid, seed, 18, 0);
  ASSERT_EQ(p0.size(), 18u);
  EXPECT_EQ(p0[0], 412333972u);
  EXPECT_EQ(p0[1], 872051382u);
  EXPECT_EQ(p0[17], 758239659u);
  EXPECT_EQ(interactive_challenges(std::uint64_t{1} << 30, rid, seed, 18, 1)[0], 146887092u);
  EXPECT_EQ(interactive_challenges(std::uint64_t{1} << 30, rid, seed, 18, 9)[17], 424039611u);
  EXPECT_EQ(interactive_challenges(64, rid, seed, 2, 0), (std::vector<std::uint64_t>{43, 27}));
  EXPECT_EQ(porep_challenges_per_partition(SectorSize::s32GiB, PorepScheme::interactive), 18u);
  EXPECT_EQ(porep_challenges_per_partition(SectorSize::s2KiB, PorepScheme::interactive), 2u);
}

void check_post(const char* name, std::uint64_t sectors, std::uint64_t seed) {
  SCOPED_TRACE(std::string(name) + " seed " + std::to_string(seed));
  ThreadPool pool(2);
  const PostProof proof = post_proof(name).value();
  const SynthPost s = synth_post(proof, seed, sectors, pool).value();
  ASSERT_EQ(s.vanilla.size(), sectors);
  ASSERT_TRUE(verify_post_vanilla(proof, s.randomness, s.sectors, s.vanilla).ok())
      << verify_post_vanilla(proof, s.randomness, s.sectors, s.vanilla).to_string();
  // Round trip, byte for byte; deterministic.
  BincodeWriter w;
  for (const auto& p : s.vanilla) write_post_sector_proof(w, p);
  BincodeReader r(w.bytes());
  std::vector<FallbackPoStSectorProof> back;
  while (!r.at_end()) {
    FallbackPoStSectorProof p;
    ASSERT_TRUE(read_post_sector_proof(r, p).ok());
    back.push_back(std::move(p));
  }
  EXPECT_EQ(back, s.vanilla);
  const SynthPost again = synth_post(proof, seed, sectors, pool).value();
  EXPECT_EQ(again.vanilla, s.vanilla);
  EXPECT_NE(synth_post(proof, seed + 1, sectors, pool)->vanilla, s.vanilla);
  // Tampering: a zero sibling, a leaf.
  auto bad = back;
  bad[0].sectors[0].inclusion_proofs[1].base_path[8].hashes[6][3] ^= 1;
  EXPECT_FALSE(verify_post_vanilla(proof, s.randomness, s.sectors, bad).ok());
  bad = back;
  bad[0].sectors[0].inclusion_proofs[0].leaf[0] ^= 1;
  EXPECT_FALSE(verify_post_vanilla(proof, s.randomness, s.sectors, bad).ok());
}

TEST(SynthInputs, PostAt32And64GiBVerifies) {
  const std::uint64_t seed = fresh_seed();
  check_post("StackedDrgWindow32GiBV1", 1, seed);
  check_post("StackedDrgWindow32GiBV1_2", 3, seed);
  check_post("StackedDrgWinning32GiBV1", 1, seed);
  check_post("StackedDrgWindow64GiBV1_2", 1, seed);
  check_post("StackedDrgWinning64GiBV1", 1, seed);
  ThreadPool pool(1);
  EXPECT_FALSE(synth_post(post_proof("StackedDrgWinning32GiBV1").value(), 1, 2, pool).ok());
}

// This test's own PoRep consistency check (the PoRep vanilla verifier is on another branch):
// empty when every check passes, else the first failure.
std::string check_c1(const SealCommitPhase1Output& c1, const SynthC1& priv,
                     const SealProof& proof) {
  const std::uint64_t nodes = sector_nodes(proof.size);
  const unsigned layers = sdr_layers(proof.size);
  const TreeShape shape = tree_shape(proof.size);
  const TreeShape bin{2, 0, 0};
  if (c1.replica_id !=
      replica_id(priv.prover_id, priv.sector_id, c1.ticket, c1.comm_d, proof.porep_id))
    return "replica_id";
  const SdrGraph graph(nodes, proof.porep_id, proof.api);
  const unsigned per = porep_challenge_config(proof).per_partition;
  if (c1.vanilla_proofs.size() != porep_partitions(proof.size)) return "partitions";
  const Bytes32 comm_r_last = c1.vanilla_proofs[0][0].comm_r_last_proof.root;
  const Bytes32 comm_c = c1.vanilla_proofs[0][0].replica_column_proofs.c_x.inclusion_proof.root;
  if (node_from_fr(comm_r_of(*fr_from_node(comm_c), *fr_from_node(comm_r_last))) != c1.comm_r)
    return "comm_r";
  auto check_column = [&](const ColumnProof& cp, std::uint64_t want) -> std::string {
    if (cp.column.index != want) return "column index";
    if (cp.column.rows.size() != layers) return "column rows";
    if (!check_merkle_shape(cp.inclusion_proof, shape, nodes, "c").ok()) return "tree_c shape";
    if (path_index(cp.inclusion_proof, shape) != want) return "tree_c path index";
    std::vector<Fr> f;
    for (const Node& r : cp.column.rows) f.push_back(*fr_from_node(r));
    if (cp.inclusion_proof.leaf != node_from_fr(column_hash(f))) return "column hash";
    if (poseidon_root(cp.inclusion_proof, "c").value() != comm_c ||
        cp.inclusion_proof.root != comm_c)
      return "tree_c root";
    return "";
  };
  for (unsigned k = 0; k < c1.vanilla_proofs.size(); ++k) {
    const auto want = interactive_challenges(nodes, c1.replica_id, c1.seed, per, k);
    if (c1.vanilla_proofs[k].size() != per) return "challenge count";
    for (unsigned i = 0; i < per; ++i) {
      const std::string at =
          " (partition " + std::to_string(k) + ", challenge " + std::to_string(i) + ")";
      const PorepChallengeProof& p = c1.vanilla_proofs[k][i];
      const std::uint64_t c = want[i];
      if (p.labeling_proofs.size() != layers || p.labeling_proofs[0].node != c)
        return "challenge" + at;
      // tree_d
      if (!check_merkle_shape(p.comm_d_proofs, bin, nodes, "d").ok() ||
          path_index(p.comm_d_proofs, bin) != c || p.comm_d_proofs.root != c1.comm_d ||
          sha256_root(p.comm_d_proofs, "d").value() != c1.comm_d)
        return "tree_d path" + at;
      // tree_r_last
      if (!check_merkle_shape(p.comm_r_last_proof, shape, nodes, "r").ok() ||
          path_index(p.comm_r_last_proof, shape) != c || p.comm_r_last_proof.root != comm_r_last ||
          poseidon_root(p.comm_r_last_proof, "r").value() != comm_r_last)
        return "tree_r_last path" + at;
      // columns
      std::array<std::uint32_t, SdrGraph::kDegree> ps;
      graph.parents(c, ps);
      const ReplicaColumnProof& rc = p.replica_column_proofs;
      if (rc.drg_parents.size() != 6 || rc.exp_parents.size() != 8) return "parent count" + at;
      if (auto e = check_column(rc.c_x, c); !e.empty()) return e + at;
      for (unsigned j = 0; j < 6; ++j)
        if (auto e = check_column(rc.drg_parents[j], ps[j]); !e.empty()) return e + " drg" + at;
      for (unsigned j = 0; j < 8; ++j)
        if (auto e = check_column(rc.exp_parents[j], ps[6 + j]); !e.empty()) return e + " exp" + at;
      // labels: SHA-256(replica_id ‖ u32be(layer) ‖ u64be(node) ‖ 20 zeros ‖ 37 parents)
      for (unsigned layer = 1; layer <= layers; ++layer) {
        const LabelingProof& lp = p.labeling_proofs[layer - 1];
        std::vector<Node> q;
        for (unsigned j = 0; j < 6; ++j) q.push_back(rc.drg_parents[j].column.rows[layer - 1]);
        if (layer > 1)
          for (unsigned j = 0; j < 8; ++j) q.push_back(rc.exp_parents[j].column.rows[layer - 2]);
        std::vector<Node> full;
        for (unsigned j = 0; j < 37; ++j) full.push_back(q[j % q.size()]);
        if (lp.parents != full || lp.layer_index != layer || lp.node != c)
          return "labeling parents, layer " + std::to_string(layer) + at;
        std::vector<std::uint8_t> msg(c1.replica_id.begin(), c1.replica_id.end());
        for (int b = 3; b >= 0; --b) msg.push_back(static_cast<std::uint8_t>(layer >> (8 * b)));
        for (int b = 7; b >= 0; --b) msg.push_back(static_cast<std::uint8_t>(c >> (8 * b)));
        msg.resize(64, 0);
        for (const Node& n : full) msg.insert(msg.end(), n.begin(), n.end());
        hash::Digest32 d = hash::sha256(msg);
        d[31] &= 0x3f;
        if (!std::equal(d.begin(), d.end(), rc.c_x.column.rows[layer - 1].begin()))
          return "label, layer " + std::to_string(layer) + at;
      }
      if (!(p.encoding_proof == p.labeling_proofs.back())) return "encoding proof" + at;
      const Fr replica =
          *fr_from_node(rc.c_x.column.rows[layers - 1]) + *fr_from_node(p.comm_d_proofs.leaf);
      if (p.comm_r_last_proof.leaf != node_from_fr(replica)) return "encoding" + at;
    }
  }
  return "";
}

void check_synth_c1(const char* name, std::uint64_t seed) {
  SCOPED_TRACE(std::string(name) + " seed " + std::to_string(seed));
  ThreadPool pool(2);
  const SealProof proof = seal_proof(name).value();
  const auto t0 = std::chrono::steady_clock::now();
  const SynthC1 s = synth_c1(proof, seed, pool).value();
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("%s: synthetic C1 in %.2f s\n", name, secs);
  EXPECT_EQ(check_c1(s.c1, s, proof), "");
  // The project's PoRep vanilla verifier (the check run before any synthesis) accepts it too.
  const Status v = verify_porep_vanilla(proof, porep_public_inputs(s.c1), s.c1);
  EXPECT_TRUE(v.ok()) << v.to_string();
  const std::string json = write_c1_json(s.c1);
  EXPECT_EQ(read_c1_json(json).value(), s.c1);
  EXPECT_EQ(synth_c1(proof, seed, pool)->c1, s.c1);
  // A label of a challenged node changed (its column hash then no longer matches either).
  SynthC1 bad = s;
  bad.c1.vanilla_proofs[0][0].replica_column_proofs.c_x.column.rows[0][0] ^= 1;
  EXPECT_NE(check_c1(bad.c1, s, proof), "");
  bad = s;
  bad.c1.vanilla_proofs[0][1].replica_column_proofs.exp_parents[3].column.rows[0][2] ^= 1;
  EXPECT_NE(check_c1(bad.c1, s, proof), "");
  EXPECT_FALSE(verify_porep_vanilla(proof, porep_public_inputs(bad.c1), bad.c1).ok());
  // Another seed. At 2 KiB (63 challengeable nodes, 2 challenges) one changed bit leaves the
  // challenges as they were with probability 1/63^2, and the C1 then stays valid: take the first
  // bit whose seed draws other challenges.
  bad = s;
  const PorepChallengeConfig cc = porep_challenge_config(proof);
  const auto challenges_of = [&](const Node& seed) {
    std::vector<std::vector<std::uint64_t>> all;
    for (unsigned k = 0; k < cc.partitions; ++k)
      all.push_back(interactive_challenges(cc.nodes, s.c1.replica_id, seed, cc.per_partition, k));
    return all;
  };
  for (unsigned bit = 0; bit < 8 * bad.c1.seed.size(); ++bit) {
    bad.c1.seed = s.c1.seed;
    bad.c1.seed[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
    if (challenges_of(bad.c1.seed) != challenges_of(s.c1.seed)) break;
  }
  ASSERT_NE(challenges_of(bad.c1.seed), challenges_of(s.c1.seed));
  EXPECT_NE(check_c1(bad.c1, s, proof), "");
  EXPECT_FALSE(verify_porep_vanilla(proof, porep_public_inputs(bad.c1), bad.c1).ok());
}

TEST(SynthInputs, C1At2KiBIsConsistent) {
  const std::uint64_t seed = fresh_seed();
  check_synth_c1("StackedDrg2KiBV1", seed);
  check_synth_c1("StackedDrg2KiBV1_1", seed);
}

TEST(SynthInputs, C1OfAGivenProver) {
  // The prover of miner f01000 (prover_id_of_actor): its C1 commits to that prover, so a daemon
  // request naming miner 1000 matches it, and it still verifies.
  ThreadPool pool(2);
  const SealProof proof = seal_proof("StackedDrg2KiBV1_1").value();
  const Node miner = prover_id_of_actor(1000);
  const SynthC1 s = synth_c1(proof, 7, pool, miner).value();
  EXPECT_EQ(s.prover_id, miner);
  EXPECT_EQ(s.c1.replica_id,
            replica_id(miner, s.sector_id, s.c1.ticket, s.c1.comm_d, proof.porep_id));
  EXPECT_NE(s.c1.replica_id, synth_c1(proof, 7, pool)->c1.replica_id);
  const Status v = verify_porep_vanilla(proof, porep_public_inputs(s.c1), s.c1);
  EXPECT_TRUE(v.ok()) << v.to_string();
  const SynthPost p =
      synth_post(post_proof("StackedDrgWinning2KiBV1").value(), 7, 1, pool, miner).value();
  EXPECT_EQ(p.prover_id, miner);
}

TEST(SynthInputs, C1At32GiBIsConsistent) { check_synth_c1("StackedDrg32GiBV1_1", fresh_seed()); }

TEST(SynthInputs, C1RefusesOtherSchemes) {
  ThreadPool pool(1);
  auto r = synth_c1(seal_proof("StackedDrg32GiBV1_2_Feat_NonInteractivePoRep").value(), 1, pool);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("not yet"), std::string::npos);
}

}  // namespace
}  // namespace cuzk::filecoin
