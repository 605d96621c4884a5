// Known answers computed with Python's hashlib from the formulas of storage-proofs-post
// fallback/vanilla.rs (generate_sector_challenge, generate_leaf_challenge) and utils.rs
// (get_challenge_index), and the ten leaves of the real 32 GiB WindowPoSt proof of Curio
// (curio lib/proof/testgolden/post.vproof: its paths' index bits, read with a Python script).
#include "cuzk/filecoin/post_challenges.hpp"

#include <gtest/gtest.h>

namespace cuzk::filecoin {
namespace {

// Randomness bytes 01 02 … 1f 20 with byte 31 &= 0x3f (as lotus masks it): below r.
Bytes32 test_randomness() {
  Bytes32 r{};
  for (int i = 0; i < 32; ++i) r[i] = static_cast<std::uint8_t>(i + 1);
  r[31] &= 0x3f;
  return r;
}

// prover_id of miner f01000: the LEB128 of 1000 (e8 07) and 30 zero bytes.
Bytes32 f01000() {
  Bytes32 p{};
  p[0] = 0xe8;
  p[1] = 0x07;
  return p;
}

TEST(PostChallenges, WinningSectorSelection) {
  const std::pair<std::uint64_t, std::uint64_t> cases[] = {
      {1, 0}, {7, 5}, {1000, 441}, {2349, 2138}};
  for (auto [set_size, want] : cases) {
    auto c = winning_post_sector_challenges(test_randomness(), f01000(), set_size);
    ASSERT_TRUE(c.ok());
    ASSERT_EQ(c->size(), 1u);
    EXPECT_EQ((*c)[0], want) << "sector set size " << set_size;
  }
  EXPECT_FALSE(winning_post_sector_challenges(test_randomness(), f01000(), 0).ok());
}

TEST(PostChallenges, ChallengeIndexPerApiVersion) {
  // V1_0 / V1_1: the sector's position in the PoSt times the challenge count, plus n.
  EXPECT_EQ(post_challenge_index(ApiVersion::v1_0_0, 3, 10, 7), 37u);
  EXPECT_EQ(post_challenge_index(ApiVersion::v1_1_0, 3, 10, 7), 37u);
  // V1_2: n alone.
  EXPECT_EQ(post_challenge_index(ApiVersion::v1_2_0, 3, 10, 7), 7u);
}

TEST(PostChallenges, WindowLeavesV1AndV1_2) {
  // Sector 42 at position 3 of a 32 GiB WindowPoSt.
  const std::uint64_t v1[] = {154343087,  219262895, 592172573, 161389886, 94619575,
                              1071412469, 426944091, 345460916, 620630121, 949049291};
  const std::uint64_t v1_2[] = {829961123, 215056547, 471408326, 482943955, 323516774,
                                136820670, 121205534, 774854793, 96532178,  570000148};
  auto old_rule = post_proof("StackedDrgWindow32GiBV1");
  auto new_rule = post_proof("StackedDrgWindow32GiBV1_2");
  ASSERT_TRUE(old_rule.ok() && new_rule.ok());
  EXPECT_EQ(post_sector_challenges(*old_rule, test_randomness(), 42, 3),
            std::vector<std::uint64_t>(std::begin(v1), std::end(v1)));
  EXPECT_EQ(post_sector_challenges(*new_rule, test_randomness(), 42, 3),
            std::vector<std::uint64_t>(std::begin(v1_2), std::end(v1_2)));
}

TEST(PostChallenges, Winning66Leaves) {
  const std::uint64_t want[] = {6,  25, 28, 44, 17, 19, 26, 61, 41, 11, 8,  34, 43, 14, 49, 48, 50,
                                27, 17, 22, 43, 55, 30, 62, 24, 62, 11, 24, 12, 15, 46, 22, 39, 14,
                                7,  34, 37, 51, 33, 15, 2,  36, 40, 51, 23, 51, 39, 47, 13, 19, 24,
                                2,  14, 39, 19, 17, 62, 63, 18, 27, 36, 22, 17, 24, 29, 7};
  auto p = post_proof("StackedDrgWinning2KiBV1");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(post_sector_challenges(*p, test_randomness(), 5, 0),
            std::vector<std::uint64_t>(std::begin(want), std::end(want)));
}

TEST(PostChallenges, CurioWindowProofLeaves) {
  // Sector 1, all-zero randomness, StackedDrgWindow32GiBV1 (curio-32gib-post/postpub.json).
  const std::uint64_t want[] = {707914199, 439148358,  967788220, 548708700,  1061661429,
                                6202012,   1055504637, 389535735, 1000069704, 600088878};
  auto p = post_proof("StackedDrgWindow32GiBV1");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(post_sector_challenges(*p, Bytes32{}, 1, 0),
            std::vector<std::uint64_t>(std::begin(want), std::end(want)));
}

TEST(PostChallenges, WindowPartitionsPadWithTheLastSector) {
  EXPECT_EQ(window_post_partitions(0, 2349), 1u);
  EXPECT_EQ(window_post_partitions(2349, 2349), 1u);
  EXPECT_EQ(window_post_partitions(2350, 2349), 2u);
  auto p0 = window_post_partition_sectors(5, 2, 0);
  auto p2 = window_post_partition_sectors(5, 2, 2);
  ASSERT_TRUE(p0.ok() && p2.ok());
  EXPECT_EQ(*p0, (std::vector<std::uint64_t>{0, 1}));
  EXPECT_EQ(*p2, (std::vector<std::uint64_t>{4, 4}));
  auto one = window_post_partition_sectors(1, 2349, 0);
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(one->size(), 2349u);
  EXPECT_EQ(one->back(), 0u);
  EXPECT_FALSE(window_post_partition_sectors(5, 2, 3).ok());
}

}  // namespace
}  // namespace cuzk::filecoin
