// The accumulation's segment rule (segment_rule.hpp) on the CPU: its sizes worked by hand for the
// MSM shapes docs/perf/gpu.md "Segment size" names, and over random shapes the properties the
// device code relies on: waves of segments in [T, 2T] with less than 1/(T + 1) of them idle, and
// segment slots sized from least_segment_pairs never fewer than a group's segments.
#include "cuzk/gpu/msm/segment_rule.hpp"

#include <gtest/gtest.h>

#include <random>

#include "tests/support/seed.hpp"

namespace cuzk::gpu {
namespace {

constexpr std::size_t kH100 = 132 * 384;  // resident threads: 132 SMs, three blocks of 128

TEST(SegmentRule, TargetIsTwiceTheAverageBucketInRange) {
  EXPECT_EQ(segment_target(0), 128u);
  EXPECT_EQ(segment_target(32), 128u);
  EXPECT_EQ(segment_target(64), 128u);
  EXPECT_EQ(segment_target(65), 256u);
  EXPECT_EQ(segment_target(256), 512u);
  EXPECT_EQ(segment_target(5000), 1024u);
}

// Worked by hand: T, then w = ⌊pairs / (resident·T)⌋ waves of ⌈pairs / (resident·w)⌉ pairs.
TEST(SegmentRule, SizesOfTheBenchmarkedShapes) {
  // 2^27 with four copies at c = 22: 2^29 pairs over 2^21 buckets, T = 512, 20 waves.
  EXPECT_EQ(segment_pairs_for(std::size_t{1} << 29, std::size_t{1} << 21, kH100, 0), 530u);
  EXPECT_EQ(least_segment_pairs(std::size_t{1} << 29, std::size_t{1} << 21, kH100, 0), 512u);
  // 2^22 at c = 16, 16 windows: 2^26 pairs over 2^19 buckets, T = 256, 5 waves.
  EXPECT_EQ(segment_pairs_for(std::size_t{1} << 26, std::size_t{1} << 19, kH100, 0), 265u);
  // 2^24 at c = 20, 13 windows: 32 pairs a bucket, T = 128, 33 waves.
  EXPECT_EQ(segment_pairs_for(std::size_t{13} << 24, std::size_t{13} << 19, kH100, 0), 131u);
  // G2 at 2^22 (lane pairs: 132 × 192 segments resident), T = 256, 10 waves.
  EXPECT_EQ(segment_pairs_for(std::size_t{1} << 26, std::size_t{1} << 19, 132 * 192, 0), 265u);
  EXPECT_EQ(segment_pairs_for(std::size_t{1} << 30, std::size_t{1} << 15, kH100, 0), 1060u);
  EXPECT_EQ(segment_pairs_for(std::size_t{1} << 26, std::size_t{1} << 16, kH100, 0), 1324u);
  // Below one wave of T: 128.
  EXPECT_EQ(segment_pairs_for(std::size_t{1} << 20, std::size_t{1} << 15, kH100, 0), 128u);
  EXPECT_EQ(least_segment_pairs(1000, 10, kH100, 0), 128u);
  EXPECT_EQ(segment_pairs_for(0, 0, kH100, 0), 128u);
  // A set size is kept.
  EXPECT_EQ(segment_pairs_for(std::size_t{1} << 29, std::size_t{1} << 21, kH100, 5), 5u);
  EXPECT_EQ(least_segment_pairs(1000, 10, kH100, 7), 7u);
}

TEST(SegmentRule, WholeWavesAndEnoughSlots) {
  const std::uint64_t seed = test::fresh_seed();
  std::mt19937_64 rng(seed);
  for (int i = 0; i < 20000; ++i) {
    const std::size_t resident = 1 + rng() % 100000;
    const std::size_t buckets = std::size_t{1} << (rng() % 23);  // one window's 2^(c−1)
    const std::size_t pairs = rng() % (std::size_t{1} << (rng() % 31));
    const int groups = 1 + static_cast<int>(rng() % 8);
    const std::size_t target = segment_target(pairs / buckets);
    const std::uint32_t least = least_segment_pairs(pairs, buckets, resident, 0);
    ASSERT_GE(least, 128u);
    for (int g = 1; g <= groups; ++g) {
      const std::size_t cnt = pairs * g, gb = buckets * g;
      const std::size_t s = segment_pairs_for(cnt, gb, resident, 0);
      const std::size_t segments = (cnt + s - 1) / s;
      SCOPED_TRACE(::testing::Message()
                   << "pairs=" << pairs << " buckets=" << buckets << " resident=" << resident
                   << " g=" << g << " S=" << s << " seed=" << seed);
      ASSERT_GE(s, 128u);
      // The slots of every group come from least: a group never has more segments.
      ASSERT_LE(segments, (cnt + least - 1) / least);
      if (cnt >= resident * target) {  // w waves of [T, 2T], idle less than 1/(T + 1) of them
        ASSERT_GE(s, target);
        ASSERT_LE(s, 2 * target);
        const std::size_t waves = cnt / (resident * target);
        ASSERT_LE(segments, waves * resident);
        // S = ⌈x⌉ < x + 1 with x = cnt / (resident·w) ≥ T, so segments > resident·w·T / (T + 1).
        ASSERT_GT(segments * (target + 1), waves * resident * target);
      } else {  // under one wave of T
        ASSERT_EQ(s, std::max<std::size_t>(128, (cnt + resident - 1) / resident));
      }
    }
  }
}

}  // namespace
}  // namespace cuzk::gpu
