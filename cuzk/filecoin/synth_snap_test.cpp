// Synthetic SnapDeals inputs (synth_inputs.hpp synth_snap) and the block-constant trees under them:
//   * BlockTree against its slow twins, the dense PoseidonTree (8-0-0, 8-8-0, 8-8-2) and
//     build_tree_d over the written-out leaves: same roots, same proofs (seeded, CUZK_SEED
//     replays);
//   * at 2 KiB, synth_snap against the real pipeline over the written-out sector: snap_encode of
//     the same sector key and data gives the same comm_d_new, comm_r_old and comm_r_new, and
//     snap_partition_proof over the dense trees the same PartitionProof;
//   * at 32 GiB (all 16 partitions) and 64 GiB, verify_snap_vanilla accepts every partition; the
//     proofs round-trip byte for byte; a changed byte fails; the same seed gives the same proofs
//     with 1 thread and with 2, another seed other proofs; the challenged data is non-zero.
#include <gtest/gtest.h>

#include <chrono>
#include <random>

#include "cuzk/filecoin/block_tree.hpp"
#include "cuzk/filecoin/merkle_prove.hpp"
#include "cuzk/filecoin/poseidon_tree.hpp"
#include "cuzk/filecoin/snap_encode.hpp"
#include "cuzk/filecoin/snap_prove.hpp"
#include "cuzk/filecoin/synth_inputs.hpp"
#include "cuzk/filecoin/tree_d.hpp"
#include "cuzk/filecoin/vanilla_test_util.hpp"

namespace cuzk::filecoin {
namespace {

using testing::fresh_seed;
using testing::random_node;

std::vector<Node> write_out(const std::vector<Node>& blocks, std::uint64_t leaves) {
  std::vector<Node> dense;
  dense.reserve(leaves);
  for (const Node& b : blocks) dense.insert(dense.end(), leaves / blocks.size(), b);
  return dense;
}

TEST(BlockTree, MatchesDensePoseidonTrees) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  ThreadPool pool(2);
  for (auto [shape, leaves] : {std::pair{TreeShape{8, 0, 0}, 4096ull},
                               {TreeShape{8, 8, 0}, 512ull},
                               {TreeShape{8, 8, 2}, 1024ull}}) {
    SCOPED_TRACE(shape.name());
    for (std::uint64_t count : {1ull, 2ull, 4ull, 16ull, 64ull, leaves}) {
      SCOPED_TRACE(count);
      std::vector<Node> blocks(count);
      for (Node& b : blocks) b = random_node(rng);
      const std::vector<Node> dense = write_out(blocks, leaves);
      std::vector<Fr> fr;
      for (const Node& n : dense) fr.push_back(*fr_from_node(n));
      const PoseidonTree full = PoseidonTree::build(fr, shape, pool).value();
      const BlockTree bt = BlockTree::poseidon(shape, leaves, blocks, pool).value();
      ASSERT_EQ(bt.root(), node_from_fr(full.root()));
      for (std::uint64_t leaf :
           std::vector<std::uint64_t>{0, leaves - 1, rng() % leaves, rng() % leaves})
        EXPECT_EQ(bt.proof(leaf), poseidon_tree_proof(full, leaf)) << leaf;
    }
  }
  EXPECT_FALSE(BlockTree::poseidon(TreeShape{8, 0, 0}, 64, std::vector<Node>(3), pool).ok());
  Node big;
  big.fill(0xff);
  EXPECT_FALSE(BlockTree::poseidon(TreeShape{8, 0, 0}, 64, {big}, pool).ok());
}

TEST(BlockTree, MatchesDenseTreeD) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  ThreadPool pool(2);
  const std::uint64_t leaves = 1024;
  for (std::uint64_t count : {1ull, 2ull, 8ull, 256ull, 1024ull}) {
    SCOPED_TRACE(count);
    std::vector<Node> blocks(count);
    for (Node& b : blocks) b = random_node(rng);
    const std::vector<Node> dense = write_out(blocks, leaves);
    const std::vector<Node> rows = build_tree_d(dense, pool);
    const BlockTree bt = BlockTree::sha256(leaves, blocks, pool).value();
    ASSERT_EQ(bt.root(), rows.back());
    for (std::uint64_t leaf : std::vector<std::uint64_t>{0, leaves - 1, rng() % leaves})
      EXPECT_EQ(bt.proof(leaf), tree_d_proof(rows, leaves, leaf)) << leaf;
    for (unsigned level = 0; level <= 10; ++level) {
      const std::span<const Node> row = tree_d_row(rows, leaves, level);
      const std::uint64_t i = rng() % row.size();
      EXPECT_EQ(bt.node(level, i), row[i]) << level;
    }
  }
  EXPECT_FALSE(BlockTree::sha256(1000, {Node{}}, pool).ok());
}

// The slow twin: the same sector written out and run through snap_encode and
// snap_partition_proof.
TEST(SynthSnap, MatchesTheRealPipelineAt2KiB) {
  ThreadPool pool(2);
  const UpdateProof proof = update_proof("StackedDrg2KiBV1").value();
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const SynthSnap s = synth_snap(proof, seed, pool).value();
  const SnapParams p = snap_params(proof.size);
  const std::uint64_t regions = std::uint64_t{1} << p.h_default;
  std::vector<Node> key_blocks, data_blocks;
  for (std::uint64_t j = 0; j < regions; ++j) {
    key_blocks.push_back(synth_value("snap sector key", seed, j));
    data_blocks.push_back(synth_value("snap data", seed, j));
  }
  const std::vector<Node> key = write_out(key_blocks, p.nodes);
  const std::vector<Node> data = write_out(data_blocks, p.nodes);
  std::vector<Fr> key_fr;
  for (const Node& n : key) key_fr.push_back(*fr_from_node(n));
  const TreeShape shape = tree_shape(proof.size);
  const PoseidonTree tree_r_old = PoseidonTree::build(key_fr, shape, pool).value();
  ASSERT_EQ(node_from_fr(tree_r_old.root()), s.comm_r_last_old);
  const SnapSectorKey sk{proof.size, s.comm_c, s.comm_r_last_old, key};
  const SnapEncoded e = snap_encode(sk, data, p.h_default, pool).value();
  EXPECT_EQ(e.comm_r_old, s.pub.comm_r_old);
  EXPECT_EQ(e.comm_d_new, s.pub.comm_d_new);
  EXPECT_EQ(e.comm_r_last_new, s.comm_r_last_new);
  EXPECT_EQ(e.comm_r_new, s.pub.comm_r_new);
  ASSERT_EQ(s.partitions.size(), p.partitions);
  const SnapTrees trees{&tree_r_old, e.tree_d, &e.tree_r, s.comm_c};
  for (unsigned k = 0; k < p.partitions; ++k)
    EXPECT_EQ(snap_partition_proof(p, trees, k).value(), s.partitions[k]) << k;
  EXPECT_TRUE(verify_snap_vanilla(proof, s.pub, s.partitions).ok());
}

void check_large(const char* name, std::uint64_t seed) {
  SCOPED_TRACE(std::string(name) + ", seed " + std::to_string(seed));
  const UpdateProof proof = update_proof(name).value();
  ThreadPool pool(2);
  const auto t0 = std::chrono::steady_clock::now();
  const SynthSnap s = synth_snap(proof, seed, pool).value();
  const auto t1 = std::chrono::steady_clock::now();
  ASSERT_EQ(s.partitions.size(), 16u);
  ASSERT_EQ(s.pub.h, 10u);
  const Status ok = verify_snap_vanilla(proof, s.pub, s.partitions);
  const auto t2 = std::chrono::steady_clock::now();
  ASSERT_TRUE(ok.ok()) << ok.to_string();
  std::printf("%s: generate %.2f s, verify 16 partitions %.2f s\n", name,
              std::chrono::duration<double>(t1 - t0).count(),
              std::chrono::duration<double>(t2 - t1).count());
  for (const SnapPartitionProof& part : s.partitions) {
    ASSERT_EQ(part.challenge_proofs.size(), 86u);
    for (const SnapChallengeProof& c : part.challenge_proofs) {
      // Non-zero data: the encoding relation is not 0 = 0 + 0 · rho.
      EXPECT_NE(c.proof_d_new.leaf, Node{});
      EXPECT_NE(c.proof_r_new.leaf, c.proof_r_old.leaf);
    }
  }
  // Round trip, and a changed byte fails (to parse or to verify).
  for (unsigned k : {0u, 7u, 15u}) {
    const std::vector<std::uint8_t> bytes = write_snap_partition_proof(s.partitions[k]);
    ASSERT_EQ(read_snap_partition_proof(bytes).value(), s.partitions[k]);
    for (std::size_t at :
         {std::size_t{0}, std::size_t{40}, bytes.size() / 3, bytes.size() / 2, bytes.size() - 1}) {
      std::vector<std::uint8_t> bad = bytes;
      bad[at] ^= 0x01;
      auto parsed = read_snap_partition_proof(bad);
      if (!parsed.ok()) continue;
      EXPECT_FALSE(verify_snap_partition(proof, s.pub, k, *parsed).ok())
          << "partition " << k << ", byte " << at;
    }
  }
  // A proof offered as another partition's fails.
  EXPECT_FALSE(verify_snap_partition(proof, s.pub, 1, s.partitions[0]).ok());
  // Deterministic for the seed, whatever the thread count; another seed differs.
  ThreadPool one(1);
  const SynthSnap again = synth_snap(proof, seed, one).value();
  EXPECT_EQ(again.partitions, s.partitions);
  EXPECT_EQ(again.pub.comm_r_new, s.pub.comm_r_new);
  const SynthSnap other = synth_snap(proof, seed + 1, pool).value();
  EXPECT_NE(other.pub.comm_r_new, s.pub.comm_r_new);
  EXPECT_NE(other.partitions[0], s.partitions[0]);
}

TEST(SynthSnap, At32GiBVerifies) { check_large("StackedDrg32GiBV1", fresh_seed()); }
TEST(SynthSnap, At64GiBVerifies) { check_large("StackedDrg64GiBV1", fresh_seed()); }

}  // namespace
}  // namespace cuzk::filecoin
