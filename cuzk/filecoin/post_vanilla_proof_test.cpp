// bincode of FallbackPoStSectorProof and of the SnapDeals PartitionProof: random round trips for
// every tree shape, every truncation and crafted lengths answered with an error naming the byte
// offset and field, and the real 32 GiB WindowPoSt proof of Curio (CUZK_FILECOIN_DATA): it parses to
// its last byte and writes back byte for byte.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "cuzk/filecoin/post_vanilla_proof.hpp"
#include "cuzk/filecoin/snap_vanilla_proof.hpp"
#include "cuzk/filecoin/vanilla_test_util.hpp"
#include "cuzk/hash/sha256.hpp"

namespace cuzk::filecoin {
namespace {

FallbackPoStSectorProof random_post_proof(std::mt19937_64& rng, SectorSize size,
                                          unsigned challenges, unsigned sectors = 1) {
  const TreeShape shape = tree_shape(size);
  const unsigned levels = *base_levels(shape, sector_nodes(size));
  FallbackPoStSectorProof p;
  p.sector_id = rng();
  p.comm_r = testing::random_node(rng);
  for (unsigned s = 0; s < sectors; ++s) {
    PostSectorProof sp;
    for (unsigned c = 0; c < challenges; ++c)
      sp.inclusion_proofs.push_back(testing::random_merkle_proof(rng, shape, levels));
    sp.comm_c = testing::random_node(rng);
    sp.comm_r_last = testing::random_node(rng);
    p.sectors.push_back(sp);
  }
  return p;
}

SnapPartitionProof random_snap_proof(std::mt19937_64& rng, SectorSize size, unsigned challenges) {
  const TreeShape shape = tree_shape(size);
  const std::uint64_t nodes = sector_nodes(size);
  SnapPartitionProof p;
  p.comm_c = testing::random_node(rng);
  p.apex_leafs = testing::random_nodes(rng, nodes <= 256 ? 8 : 128);
  for (unsigned c = 0; c < challenges; ++c) {
    SnapChallengeProof cp;
    cp.proof_r_old = testing::random_merkle_proof(rng, shape, *base_levels(shape, nodes));
    cp.proof_d_new = testing::random_merkle_proof(rng, TreeShape{2, 0, 0}, 6);
    cp.proof_r_new = testing::random_merkle_proof(rng, shape, *base_levels(shape, nodes));
    p.challenge_proofs.push_back(cp);
  }
  return p;
}

TEST(PostVanillaBincode, RoundTripsEveryShape) {
  const std::uint64_t seed = testing::fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed) + " (replay with CUZK_SEED)");
  std::mt19937_64 rng(seed);
  for (SectorSize size : kSectorSizes) {
    const FallbackPoStSectorProof p = random_post_proof(rng, size, 10, 1 + rng() % 2);
    const std::vector<std::uint8_t> bytes = write_post_sector_proof(p);
    auto back = read_post_sector_proof(bytes);
    ASSERT_TRUE(back.ok()) << back.status().to_string();
    EXPECT_TRUE(*back == p) << sector_size_name(size);
    EXPECT_EQ(write_post_sector_proof(*back), bytes);
  }
}

TEST(PostVanillaBincode, LayoutOfASingleProof) {
  // FORMATS.md §7: u64 sector_id, [32] comm_r, u64 count, u64 inclusion proofs, MerkleProof
  // (u32 variant 0, [32] root, [32] leaf, u64 levels, {u64 count, hashes, u64 index}), comm_c,
  // comm_r_last.
  FallbackPoStSectorProof p;
  p.sector_id = 0x0102030405060708ull;
  p.comm_r[0] = 0xaa;
  PostSectorProof sp;
  MerkleProof m;
  m.root[0] = 0xbb;
  m.leaf[0] = 0xcc;
  m.base_path = {{{Bytes32{}}, 5}};
  m.base_path[0].hashes[0][0] = 0xdd;
  sp.inclusion_proofs = {m};
  sp.comm_c[0] = 0xee;
  sp.comm_r_last[0] = 0xff;
  p.sectors = {sp};
  const std::vector<std::uint8_t> b = write_post_sector_proof(p);
  ASSERT_EQ(b.size(), 8 + 32 + 8 + 8 + (4 + 32 + 32 + 8 + 8 + 32 + 8) + 64u);
  EXPECT_EQ(b[0], 0x08);
  EXPECT_EQ(b[7], 0x01);
  EXPECT_EQ(b[8], 0xaa);
  EXPECT_EQ(b[40], 1);     // one sector proof
  EXPECT_EQ(b[48], 1);     // one inclusion proof
  EXPECT_EQ(b[56], 0);     // variant Single
  EXPECT_EQ(b[60], 0xbb);  // root first
  EXPECT_EQ(b[92], 0xcc);  // then leaf
  EXPECT_EQ(b[124], 1);    // one level
  EXPECT_EQ(b[132], 1);    // one sibling
  EXPECT_EQ(b[140], 0xdd);
  EXPECT_EQ(b[172], 5);  // index
  EXPECT_EQ(b[180], 0xee);
  EXPECT_EQ(b[212], 0xff);
}

TEST(PostVanillaBincode, EveryTruncationIsAnError) {
  std::mt19937_64 rng(7);
  const FallbackPoStSectorProof p = random_post_proof(rng, SectorSize::s64GiB, 2);
  const std::vector<std::uint8_t> bytes = write_post_sector_proof(p);
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    auto r = read_post_sector_proof(std::span(bytes.data(), n));
    ASSERT_FALSE(r.ok()) << "length " << n;
    EXPECT_NE(r.status().message().find("byte "), std::string::npos) << r.status().message();
    EXPECT_NE(r.status().message().find("field "), std::string::npos) << r.status().message();
  }
  std::vector<std::uint8_t> longer = bytes;
  longer.push_back(0);
  auto r = read_post_sector_proof(longer);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("1 bytes follow"), std::string::npos);
}

TEST(PostVanillaBincode, CraftedLengthsAndVariantsAreRefused) {
  std::mt19937_64 rng(8);
  const std::vector<std::uint8_t> good =
      write_post_sector_proof(random_post_proof(rng, SectorSize::s32GiB, 1));
  auto expect = [&](std::size_t at, std::uint64_t value, unsigned width, const char* field) {
    std::vector<std::uint8_t> b = good;
    for (unsigned i = 0; i < width; ++i) b[at + i] = static_cast<std::uint8_t>(value >> (8 * i));
    auto r = read_post_sector_proof(b);
    ASSERT_FALSE(r.ok()) << field;
    EXPECT_NE(r.status().message().find(field), std::string::npos) << r.status().message();
    EXPECT_NE(r.status().message().find("byte " + std::to_string(at)), std::string::npos)
        << r.status().message();
  };
  expect(40, ~0ull, 8, "field vanilla_proof.sectors:");
  expect(48, 1ull << 40, 8, "field vanilla_proof.sectors[0].inclusion_proofs:");
  expect(56, 3, 4, "field vanilla_proof.sectors[0].inclusion_proofs[0].data");
  expect(60, 1ull << 60, 8, "inclusion_proofs[0].base_proof:");
  expect(68, 1ull << 59, 8, "inclusion_proofs[0].base_proof[0].hashes:");
}

TEST(SnapVanillaBincode, RoundTripsEveryShape) {
  const std::uint64_t seed = testing::fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed) + " (replay with CUZK_SEED)");
  std::mt19937_64 rng(seed);
  for (SectorSize size : kSectorSizes) {
    const SnapPartitionProof p = random_snap_proof(rng, size, 3);
    const std::vector<std::uint8_t> bytes = write_snap_partition_proof(p);
    auto back = read_snap_partition_proof(bytes);
    ASSERT_TRUE(back.ok()) << back.status().to_string();
    EXPECT_TRUE(*back == p) << sector_size_name(size);
    EXPECT_EQ(write_snap_partition_proof(*back), bytes);
  }
}

TEST(SnapVanillaBincode, LayoutAndMalformedInput) {
  SnapPartitionProof p;
  p.comm_c[0] = 0x11;
  p.apex_leafs = {Bytes32{}};
  p.apex_leafs[0][0] = 0x22;
  p.challenge_proofs.resize(1);
  p.challenge_proofs[0].proof_d_new.leaf[0] = 0x33;
  const std::vector<std::uint8_t> b = write_snap_partition_proof(p);
  // comm_c, u64 1, apex leaf, u64 1, three empty Single proofs of 4 + 64 + 8 bytes.
  ASSERT_EQ(b.size(), 32 + 8 + 32 + 8 + 3 * 76u);
  EXPECT_EQ(b[0], 0x11);
  EXPECT_EQ(b[32], 1);
  EXPECT_EQ(b[40], 0x22);
  EXPECT_EQ(b[72], 1);
  EXPECT_EQ(b[80 + 76 + 4 + 32], 0x33);  // proof_d_new: variant, root, then leaf
  for (std::size_t n = 0; n < b.size(); ++n)
    ASSERT_FALSE(read_snap_partition_proof(std::span(b.data(), n)).ok()) << n;
  std::vector<std::uint8_t> bad = b;
  bad[80 + 76] = 9;  // proof_d_new variant
  auto r = read_snap_partition_proof(bad);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("challenge_proofs[0].proof_d_new.data"), std::string::npos)
      << r.status().message();
  bad = b;
  bad[39] = 0x10;  // apex_leafs length 2^60
  r = read_snap_partition_proof(bad);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("byte 32, field apex_leafs"), std::string::npos)
      << r.status().message();
}

// The real proof: curio-32gib-post/post.vproof (24,960 bytes, SHA-256 3c906a39…c41e9 per
// shared/filecoin/SOURCES.md).
constexpr std::size_t kCurioProofBytes = 24960;
constexpr const char* kCurioProofSha256 =
    "3c906a399450aba007683a8a974604ffef5297a25c51731eb7832e26340c41e9";

std::vector<std::uint8_t> read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), {}};
}

TEST(PostVanillaBincode, CurioRealProofParsesAndWritesBack) {
  const char* dir = std::getenv("CUZK_FILECOIN_DATA");
  if (!dir) GTEST_SKIP() << "CUZK_FILECOIN_DATA is unset: the real Curio PoSt proof is not read";
  const std::vector<std::uint8_t> bytes =
      read_file(std::string(dir) + "/curio-32gib-post/post.vproof");
  ASSERT_EQ(bytes.size(), kCurioProofBytes);
  EXPECT_EQ(to_hex(hash::sha256(bytes)), kCurioProofSha256);
  auto p = read_post_sector_proof(bytes);  // refuses left-over bytes: parses to the last byte
  ASSERT_TRUE(p.ok()) << p.status().to_string();
  EXPECT_EQ(p->sector_id, 1u);
  ASSERT_EQ(p->sectors.size(), 1u);
  ASSERT_EQ(p->sectors[0].inclusion_proofs.size(), 10u);
  for (const MerkleProof& m : p->sectors[0].inclusion_proofs) {
    EXPECT_EQ(m.kind, MerkleProofKind::sub);
    EXPECT_EQ(m.base_path.size(), 9u);
    EXPECT_EQ(m.sub_path.size(), 1u);
  }
  EXPECT_EQ(write_post_sector_proof(*p), bytes);
}

}  // namespace
}  // namespace cuzk::filecoin
