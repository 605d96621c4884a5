// Merkle proof roots and shapes. Known answer: Curio's TestPoseidonHashMulti (curio
// lib/proof/post_vproof_test.go, an independent Go Poseidon): eight arity-8 nodes hash to
// 0737ca50…6866. Slow twins: a 2 KiB tree built level by level with poseidon_hash_reference, and
// a 4-leaf SHA-256 tree built with sha256() directly, against poseidon_root / sha256_root.
#include "cuzk/filecoin/merkle_proof.hpp"

#include <gtest/gtest.h>

#include "cuzk/filecoin/vanilla_test_util.hpp"
#include "cuzk/hash/sha256.hpp"

namespace cuzk::filecoin {
namespace {

TEST(MerkleProof, CurioPoseidonArity8KnownAnswer) {
  const char* in[] = {"f743111428ecda9b74a18826f1cc62d48ae1510de17e58645997559f86442f31",
                      "197a6efa37086e3a37108f8460c52bc810e2781aff0091bfd7b74e3f6f752f02",
                      "01c2c12f7930bbb59e3b36dae1c694b33ac6b3f199ec32a8665fadb8338f4f21",
                      "bbe672a853f65cdb2563339ca61d6ad648473b4b4ce44bf3a48486424b865a2d",
                      "937d57295f488cea8099f5525958f1af39c6241614b917835292e8e2314cf908",
                      "3272570cd8ba38c1183629ca72d5e9149d76786ed22c1d591db3d2bccfa7d308",
                      "2d3fc90e11aaf601bd1beae80fc3aba15a9e1f886d8140533ce36cda3dd9f936",
                      "0a017e264d0728bfcd2edb3c6c60cc5a05a02af31a71cdd7bb2da27616f5f630"};
  const Bytes32 want =
      *parse_hex32("0737ca506df7d4544f8512df35aaa07ed8a40691e96ae868c23320220fec6866", "want");
  // The same eight nodes with the current node at each position.
  for (unsigned pos = 0; pos < 8; ++pos) {
    MerkleProof p;
    PathElement e;
    e.index = pos;
    for (unsigned i = 0; i < 8; ++i) {
      const Bytes32 b = *parse_hex32(in[i], "in");
      if (i == pos)
        p.leaf = b;
      else
        e.hashes.push_back(b);
    }
    p.base_path.push_back(e);
    auto root = poseidon_root(p, "p");
    ASSERT_TRUE(root.ok()) << root.status().to_string();
    EXPECT_EQ(to_hex(*root), to_hex(want)) << "position " << pos;
  }
}

TEST(MerkleProof, Full2KiBTreeAgainstReferencePoseidon) {
  const std::uint64_t seed = testing::fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed) + " (replay with CUZK_SEED)");
  std::mt19937_64 rng(seed);
  const hash::PoseidonConstants& c8 = *hash::poseidon_constants(8);
  // 64 leaves, two levels of 8.
  std::vector<std::vector<Bytes32>> level = {testing::random_nodes(rng, 64)};
  while (level.back().size() > 1) {
    std::vector<Bytes32> up;
    const auto& cur = level.back();
    for (std::size_t i = 0; i < cur.size(); i += 8) {
      std::vector<Fr> kids;
      for (std::size_t j = 0; j < 8; ++j) kids.push_back(*fr_from_bytes32(cur[i + j], "kid"));
      up.push_back(
          bytes32_from_fr(hash::poseidon_hash_reference(c8, hash::poseidon_merkle_tag(8), kids)));
    }
    level.push_back(up);
  }
  const TreeShape shape = tree_shape(SectorSize::s2KiB);
  for (std::uint64_t leaf = 0; leaf < 64; ++leaf) {
    MerkleProof p;
    p.leaf = level[0][leaf];
    p.root = level.back()[0];
    std::uint64_t idx = leaf;
    for (std::size_t l = 0; l + 1 < level.size(); ++l) {
      PathElement e;
      e.index = idx % 8;
      for (std::uint64_t j = 0; j < 8; ++j)
        if (j != e.index) e.hashes.push_back(level[l][idx / 8 * 8 + j]);
      p.base_path.push_back(e);
      idx /= 8;
    }
    ASSERT_TRUE(check_merkle_shape(p, shape, 64, "p").ok());
    EXPECT_EQ(path_index(p, shape), leaf);
    auto root = poseidon_root(p, "p");
    ASSERT_TRUE(root.ok());
    EXPECT_EQ(*root, p.root) << "leaf " << leaf;
  }
}

TEST(MerkleProof, EveryShapeRootsAndIndices) {
  const std::uint64_t seed = testing::fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed) + " (replay with CUZK_SEED)");
  std::mt19937_64 rng(seed);
  for (SectorSize size : kSectorSizes) {
    const TreeShape shape = tree_shape(size);
    const std::uint64_t nodes = sector_nodes(size);
    std::vector<std::uint64_t> leaves = {0, nodes - 1, rng() % nodes, rng() % nodes};
    testing::SparseTree tree(shape, nodes, leaves, rng());
    for (std::uint64_t leaf : leaves) {
      const MerkleProof p = tree.proof(leaf);
      EXPECT_EQ(p.kind, merkle_proof_kind(shape));
      Status s = check_merkle_shape(p, shape, nodes, "p");
      ASSERT_TRUE(s.ok()) << s.to_string();
      EXPECT_EQ(path_index(p, shape), leaf) << sector_size_name(size);
      auto root = poseidon_root(p, "p");
      ASSERT_TRUE(root.ok());
      EXPECT_EQ(*root, tree.root()) << sector_size_name(size) << " leaf " << leaf;
    }
  }
}

TEST(MerkleProof, BaseLevelsPerSize) {
  EXPECT_EQ(*base_levels(tree_shape(SectorSize::s2KiB), 64), 2u);
  EXPECT_EQ(*base_levels(tree_shape(SectorSize::s8MiB), 1u << 18), 6u);
  EXPECT_EQ(*base_levels(tree_shape(SectorSize::s512MiB), 1u << 24), 8u);
  EXPECT_EQ(*base_levels(tree_shape(SectorSize::s32GiB), 1ull << 30), 9u);
  EXPECT_EQ(*base_levels(tree_shape(SectorSize::s64GiB), 1ull << 31), 9u);
  EXPECT_EQ(*base_levels(TreeShape{2, 0, 0}, 1ull << 30), 30u);  // tree_d of 32 GiB
  EXPECT_FALSE(base_levels(TreeShape{8, 0, 0}, 32).ok());
}

TEST(MerkleProof, ShapeErrorsNameThePart) {
  std::mt19937_64 rng(1);
  const TreeShape shape = tree_shape(SectorSize::s32GiB);
  const std::uint64_t nodes = sector_nodes(SectorSize::s32GiB);
  const MerkleProof good = testing::random_merkle_proof(rng, shape, 9);
  ASSERT_TRUE(check_merkle_shape(good, shape, nodes, "p").ok());
  auto expect_error = [&](const MerkleProof& p, const char* needle) {
    Status s = check_merkle_shape(p, shape, nodes, "p");
    ASSERT_FALSE(s.ok()) << needle;
    EXPECT_NE(s.message().find(needle), std::string::npos) << s.message();
  };
  MerkleProof p = good;
  p.kind = MerkleProofKind::single;
  expect_error(p, "Single");
  p = good;
  p.base_path.pop_back();
  expect_error(p, "p.base_proof: 8 levels");
  p = good;
  p.sub_path[0].hashes.pop_back();
  expect_error(p, "p.sub_proof[0].hashes");
  p = good;
  p.base_path[4].index = 8;
  expect_error(p, "p.base_proof[4].index");
}

TEST(MerkleProof, NonCanonicalNodesAreNamed) {
  std::mt19937_64 rng(2);
  MerkleProof p = testing::random_merkle_proof(rng, tree_shape(SectorSize::s2KiB), 2);
  p.leaf.fill(0xff);
  auto r = poseidon_root(p, "inclusion_proofs[0]");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Errc::out_of_range);
  EXPECT_NE(r.status().message().find("inclusion_proofs[0].leaf"), std::string::npos);
  p = testing::random_merkle_proof(rng, tree_shape(SectorSize::s2KiB), 2);
  p.base_path[1].hashes[3].fill(0xff);
  r = poseidon_root(p, "q");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("q.path[1].hashes[3]"), std::string::npos)
      << r.status().message();
}

TEST(MerkleProof, Sha256TreeAgainstDirectHashing) {
  std::mt19937_64 rng(3);
  auto node = [](const Bytes32& a, const Bytes32& b) {
    hash::Sha256 h;
    h.update(a);
    h.update(b);
    Bytes32 d = h.finish();
    d[31] &= 0x3f;
    return d;
  };
  const std::vector<Bytes32> leaf = testing::random_nodes(rng, 4);
  const Bytes32 n01 = node(leaf[0], leaf[1]), n23 = node(leaf[2], leaf[3]);
  const Bytes32 root = node(n01, n23);
  MerkleProof p;  // leaf 2: sibling leaf 3 on the right, then n01 on the left
  p.leaf = leaf[2];
  p.base_path = {{{leaf[3]}, 0}, {{n01}, 1}};
  auto r = sha256_root(p, "comm_d_proofs");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, root);
  EXPECT_EQ(path_index(p, TreeShape{2, 0, 0}), 2u);
}

}  // namespace
}  // namespace cuzk::filecoin
