// The 0/1/tail split of a partition MSM from the compact witness (compact_msm_split.hpp) against
// the split the classify rule makes from the expanded z (msm_split_from_scalars, the oracle), as
// multisets: random witnesses (sizes not multiples of 64, no runs, runs at the start and the end),
// every witness-sourced term partition_msm_terms makes in both conventions (inputs / aux offsets
// that are not word-aligned), random density bitmaps with stray bits past the term, base offsets,
// the split on and off. Also a small case worked by hand and the errors. Seeded (printed;
// CUZK_SEED replays).
#include "cuzk/backend/compact_msm_split.hpp"

#include <gtest/gtest.h>

#include <random>

#include "cuzk/backend/backend.hpp"
#include "tests/support/random_compact_witness.hpp"
#include "tests/support/seed.hpp"

namespace cuzk {
namespace {

// z = (1, 0, 5, 1, 7, 7, 0, 1), density 1 0 1 1 1 1 1 1 from base 10: scalar 0 (1) is base 10,
// scalar 1 does not take part, then 2 (5) base 11, 3 (1) base 12, 4 and 5 (7) bases 13, 14,
// 6 (0) base 15, 7 (1) base 16.
TEST(CompactMsmSplit, SmallCaseByHand) {
  const std::vector<Fr> z = {Fr::one(),       Fr::zero(),      Fr::from_u64(5), Fr::one(),
                             Fr::from_u64(7), Fr::from_u64(7), Fr::zero(),      Fr::one()};
  ThreadPool pool(1);
  const CompactWitness w = compact_witness_from_z(pool, z, 1).value();
  ASSERT_EQ(w.num_runs(), 2u);  // {2} and {4, 5}
  const std::vector<std::uint64_t> density = {0b11111101};
  const MsmDensity d{.bits = density, .base_offset = 10};
  for (bool split : {true, false}) {
    auto got = msm_split_from_compact(w, 0, z.size(), d, split);
    ASSERT_TRUE(got.ok()) << got.status().to_string();
    got->sort();
    MsmScalarSplit want;
    want.zeros = 1;
    if (split) {
      want.ones = {10, 12, 16};
      want.tail_bases = {11, 13, 14};
      want.tail_scalars = {Fr::from_u64(5), Fr::from_u64(7), Fr::from_u64(7)};
    } else {
      want.tail_bases = {10, 11, 12, 13, 14, 16};
      want.tail_scalars = {Fr::one(),       Fr::from_u64(5), Fr::one(),
                           Fr::from_u64(7), Fr::from_u64(7), Fr::one()};
    }
    EXPECT_TRUE(*got == want) << "split " << split;
  }
  // The term of variables [3, 7) with no density: 1 7 7 0 from base 0.
  auto part = msm_split_from_compact(w, 3, 4, {}, true);
  ASSERT_TRUE(part.ok());
  part->sort();
  EXPECT_EQ(part->ones, (std::vector<std::uint32_t>{0}));
  EXPECT_EQ(part->tail_bases, (std::vector<std::uint32_t>{1, 2}));
  EXPECT_EQ(part->zeros, 1u);
}

void expect_same_split(const CompactWitness& w, std::span<const Fr> z, std::uint64_t offset,
                       std::size_t count, const MsmDensity& d, bool split) {
  auto got = msm_split_from_compact(w, offset, count, d, split);
  ASSERT_TRUE(got.ok()) << got.status().to_string();
  auto want = msm_split_from_scalars(z.subspan(offset, count), d, split);
  ASSERT_TRUE(want.ok()) << want.status().to_string();
  got->sort();
  want->sort();
  EXPECT_EQ(got->ones, want->ones);
  EXPECT_EQ(got->tail_bases, want->tail_bases);
  EXPECT_TRUE(got->tail_scalars == want->tail_scalars);
  EXPECT_EQ(got->zeros, want->zeros);
}

TEST(CompactMsmSplit, EqualsTheSplitOfZOnEveryPartitionTerm) {
  std::mt19937_64 rng(test::fresh_seed());
  ThreadPool pool(3);
  std::size_t ones = 0, tails = 0, zeros = 0, runs = 0;
  for (int round = 0; round < 60; ++round) {
    const test::StretchyOptions o{.size = 2 + rng() % 3000,
                                  .max_stretch = 1 + rng() % 200,
                                  .field_values = round % 6 != 0,
                                  .run_at_start = round % 3 == 1,
                                  .run_at_end = round % 4 == 2};
    const std::vector<Fr> z = test::stretchy_z(rng, o);
    const std::size_t ni = 1 + rng() % std::min<std::size_t>(z.size(), 150);
    SCOPED_TRACE(testing::Message()
                 << "round " << round << ": " << z.size() << " variables, " << ni << " inputs");
    auto w = compact_witness_from_z(pool, z, ni);
    ASSERT_TRUE(w.ok()) << w.status().to_string();
    if (!o.field_values) {
      EXPECT_EQ(w->num_runs(), 0u);
    }
    if (o.run_at_start && o.field_values) {
      EXPECT_EQ(w->run_first.front(), 1u);
    }
    if (o.run_at_end && o.field_values) {
      EXPECT_EQ(w->run_first.back() + (w->run_value.back() - w->run_value[w->num_runs() - 1]),
                z.size());
    }
    runs += w->num_runs();
    const std::size_t n_aux = z.size() - ni;
    // The densities of a key: a_aux and b_aux over aux, b_input over the inputs; B's aux bases
    // follow its inputs'.
    const std::vector<std::uint64_t> a_aux = test::random_density(rng, n_aux, rng() % 101),
                                     b_in = test::random_density(rng, ni, rng() % 101),
                                     b_aux = test::random_density(rng, n_aux, rng() % 101);
    for (HConvention conv : {HConvention::bellperson, HConvention::snarkjs}) {
      PartitionShape shape{.domain = 2, .witness = z.size(), .num_inputs = ni, .convention = conv};
      if (conv == HConvention::bellperson) {
        shape.a_aux = {.bits = a_aux, .base_offset = ni};
        shape.b_input = {.bits = b_in, .base_offset = 0};
        shape.b_aux = {.bits = b_aux, .base_offset = density_selected_count(b_in, ni)};
      }
      for (const PartitionMsmTerm& t : partition_msm_terms(shape)) {
        if (t.source != PartitionScalars::witness) continue;
        for (bool split : {true, false})
          expect_same_split(*w, z, t.offset, t.count, t.density, split);
        const MsmScalarSplit s =
            msm_split_from_scalars(std::span<const Fr>(z).subspan(t.offset, t.count), t.density,
                                   true)
                .value();
        ones += s.ones.size(), tails += s.tail_bases.size(), zeros += s.zeros;
      }
    }
    // A term at any offset and length.
    const std::uint64_t off = rng() % z.size();
    const std::size_t count = rng() % (z.size() - off + 1);
    const std::vector<std::uint64_t> d = test::random_density(rng, count, 70);
    expect_same_split(*w, z, off, count, {.bits = d, .base_offset = rng() % 1000}, true);
  }
  // The cases a wrong walk would miss were all there.
  EXPECT_GT(ones, 1000u);
  EXPECT_GT(tails, 1000u);
  EXPECT_GT(zeros, 1000u);
  EXPECT_GT(runs, 100u);
}

// Every term [offset, offset + count) of a 200-variable witness: each word alignment of both ends
// (a term ending one past a word boundary needs the next bitmap word).
TEST(CompactMsmSplit, EveryOffsetAndLength) {
  std::mt19937_64 rng(test::fresh_seed());
  ThreadPool pool(1);
  const std::vector<Fr> z = test::stretchy_z(rng, {.size = 200, .max_stretch = 5});
  const CompactWitness w = compact_witness_from_z(pool, z, 1).value();
  for (std::uint64_t off = 0; off <= z.size(); ++off) {
    for (std::size_t count = 0; off + count <= z.size(); ++count) {
      SCOPED_TRACE(testing::Message() << "offset " << off << " count " << count);
      const std::vector<std::uint64_t> d = test::random_density(rng, count, 80);
      expect_same_split(w, z, off, count, {}, true);
      expect_same_split(w, z, off, count, {.bits = d, .base_offset = 3}, off % 2 == 0);
      if (testing::Test::HasFailure()) return;
    }
  }
}

TEST(CompactMsmSplit, RefusesTermsPastTheWitnessAndShortDensities) {
  std::mt19937_64 rng(test::fresh_seed());
  ThreadPool pool(1);
  const std::vector<Fr> z = test::stretchy_z(rng, {.size = 300});
  const CompactWitness w = compact_witness_from_z(pool, z, 1).value();
  EXPECT_EQ(msm_split_from_compact(w, 200, 101, {}, true).status().code(), Errc::out_of_range);
  EXPECT_EQ(msm_split_from_compact(w, 301, 0, {}, true).status().code(), Errc::out_of_range);
  EXPECT_TRUE(msm_split_from_compact(w, 300, 0, {}, true).ok());
  const std::vector<std::uint64_t> one_word = {~std::uint64_t{0}};
  EXPECT_EQ(msm_split_from_compact(w, 0, 65, {.bits = one_word}, true).status().code(),
            Errc::size_mismatch);
  EXPECT_EQ(msm_split_from_scalars(z, {.bits = one_word}, true).status().code(),
            Errc::size_mismatch);
  EXPECT_EQ(msm_split_from_compact(w, 0, 10, {.base_offset = std::uint64_t{1} << 32}, true)
                .status()
                .code(),
            Errc::out_of_range);
}

}  // namespace
}  // namespace cuzk
