// The compact witness (compact_witness.hpp) against the full z it was made from:
//   * random witnesses (sizes not multiples of 64, runs of every length, runs across the
//     converter's chunk boundary, all bits, no bits): converter → expansion gives z back, the
//     form validates, does not depend on the pool size, and its counts and bytes add up to what
//     a direct count of z gives;
//   * the synthetic PoRep-shaped circuit's witness (bench_circuit.hpp), the same round trip;
//   * the builder (slices converted as parts finish, in any order, from several threads) equal
//     to the converter; slices that overlap, leave a gap or run past the end refused;
//   * every kind of damage (overlapping, adjacent, empty or out-of-range runs, set bits inside a
//     run or past the end, 0/1 or unreduced values, wrong sizes) refused with a clear error.
// The real 2 KiB and 8 MiB PoRep witnesses: circuits/filecoin/compact_witness_porep_test.cpp.
// Seeded (printed; CUZK_SEED replays).
#include "cuzk/r1cs/compact_witness.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "cuzk/r1cs/bench_circuit.hpp"
#include "cuzk/r1cs/compact_witness_bound.hpp"
#include "tests/support/heap_peak.hpp"
#include "tests/support/random_compact_witness.hpp"
#include "tests/support/seed.hpp"

namespace cuzk {
namespace {

using test::fresh_seed;
using test::random_fr;

// Counts and run structure of z, directly (the slow twin of the converter's bookkeeping).
CompactWitnessStats direct_stats(std::span<const Fr> z) {
  CompactWitnessStats s;
  bool in_run = false;
  for (const Fr& x : z) {
    const bool other = !x.is_zero() && !x.is_one();
    s.zeros += x.is_zero();
    s.ones += x.is_one();
    s.others += other;
    s.runs += other && !in_run;
    in_run = other;
  }
  return s;
}

void expect_round_trip(const std::vector<Fr>& z, std::uint64_t num_inputs) {
  ThreadPool one(1), three(3);
  auto w = compact_witness_from_z(three, z, num_inputs);
  ASSERT_TRUE(w.ok()) << w.status().to_string();
  EXPECT_TRUE(w->validate().ok()) << w->validate().to_string();
  EXPECT_EQ(w->num_inputs, num_inputs);
  EXPECT_EQ(w->num_variables(), z.size());
  auto w1 = compact_witness_from_z(one, z, num_inputs);
  ASSERT_TRUE(w1.ok());
  EXPECT_TRUE(*w1 == *w) << "the form depends on the pool size";

  const CompactWitnessStats want = direct_stats(z), got = compact_witness_stats(*w);
  EXPECT_EQ(got.zeros, want.zeros);
  EXPECT_EQ(got.ones, want.ones);
  EXPECT_EQ(got.others, want.others);
  EXPECT_EQ(got.runs, want.runs);
  EXPECT_EQ(w->bytes(), (z.size() + 63) / 64 * 8 + 8 * want.runs + 4 + 32 * want.others);

  for (ThreadPool* pool : {&one, &three}) {
    std::vector<Fr> back(z.size(), Fr::from_u64(5));  // stale values must be overwritten
    ASSERT_TRUE(compact_witness_expand(*pool, *w, back).ok());
    EXPECT_TRUE(back == z) << "threads " << pool->size();
  }
}

TEST(CompactWitness, RandomWitnessesRoundTrip) {
  std::mt19937_64 rng(fresh_seed());
  for (int round = 0; round < 40; ++round) {
    SCOPED_TRACE(round);
    const std::size_t n = 1 + rng() % 5000;
    const std::size_t stretch = 1 + rng() % (round % 2 ? 200 : 8);
    expect_round_trip(test::stretchy_z(rng, {.size = n, .max_stretch = stretch}),
                      1 + rng() % std::min<std::size_t>(n, 9));
  }
  // Edge forms: all bits, all field values, a single variable.
  std::vector<Fr> bits(777), full(130);
  for (auto& x : bits) x = rng() & 1 ? Fr::one() : Fr::zero();
  for (auto& x : full) x = random_fr(rng);
  expect_round_trip(bits, 1);
  expect_round_trip(full, 1);
  expect_round_trip({Fr::one()}, 1);
  expect_round_trip({}, 0);
}

TEST(CompactWitness, RunsAcrossTheConvertersChunksAreMerged) {
  std::mt19937_64 rng(fresh_seed());
  // The converter's tasks are 2^20 variables: field values around each boundary, so runs cross it.
  const std::size_t chunk = std::size_t{1} << 20, n = 2 * chunk + 1000;
  std::vector<Fr> z(n, Fr::zero());
  z[0] = Fr::one();
  for (std::size_t i = chunk - 70; i < chunk + 30; ++i) z[i] = random_fr(rng);
  for (std::size_t i = 2 * chunk - 1; i < 2 * chunk + 1; ++i) z[i] = random_fr(rng);
  z[2 * chunk + 5] = random_fr(rng);
  ThreadPool pool(3);
  auto w = compact_witness_from_z(pool, z, 1);
  ASSERT_TRUE(w.ok());
  ASSERT_EQ(w->num_runs(), 3u);
  EXPECT_EQ(w->run_first[0], chunk - 70);
  EXPECT_EQ(w->run_value[1], 100u);
  expect_round_trip(z, 1);
}

TEST(CompactWitness, BenchCircuitWitnessRoundTrips) {
  const std::uint64_t seed = fresh_seed();
  ThreadPool pool(2);
  auto r1cs = generate_bench_r1cs(pool, {.log_rows = 14, .seed = seed});
  ASSERT_TRUE(r1cs.ok()) << r1cs.status().to_string();
  const std::vector<Fr> z = r1cs->assignment();
  expect_round_trip(z, r1cs->inputs.size());
}

TEST(CompactWitness, BuilderFromSlicesInAnyOrderEqualsTheConverter) {
  std::mt19937_64 rng(fresh_seed());
  ThreadPool pool(3);
  for (int round = 0; round < 20; ++round) {
    SCOPED_TRACE(round);
    const std::size_t n = 1 + rng() % 20000;
    const std::vector<Fr> z = test::stretchy_z(rng, {.size = n, .max_stretch = 1 + rng() % 100});
    // Slices of random lengths (rarely on a word boundary), added shuffled from three threads.
    std::vector<std::pair<std::size_t, std::size_t>> slices;
    for (std::size_t at = 0; at < n;) {
      const std::size_t len = std::min(n - at, 1 + rng() % (round % 3 ? 3000 : 70));
      slices.push_back({at, len});
      at += len;
    }
    std::shuffle(slices.begin(), slices.end(), rng);
    const std::uint64_t num_inputs = 1 + rng() % std::min<std::size_t>(n, 5);
    CompactWitnessBuilder builder(num_inputs, n - num_inputs);
    pool.parallel_for(slices.size(), [&](std::size_t i) {
      builder.add(slices[i].first, std::span(z).subspan(slices[i].first, slices[i].second));
    });
    auto got = builder.finish();
    ASSERT_TRUE(got.ok()) << got.status().to_string();
    EXPECT_TRUE(got->validate().ok()) << got->validate().to_string();
    EXPECT_TRUE(*got == compact_witness_from_z(pool, z, num_inputs).value());
  }
}

// What the builder holds at its peak (every live heap byte of this binary, at malloc's usable
// size) stays within CompactWitnessBound::build_bytes, the figure a reservation takes, for a bound
// whose non-boolean columns are exactly the witness's field values: witnesses across several of
// the converter's slices, with runs of every length and the worst case of a run per value.
TEST(CompactWitness, BuilderPeakWithinBuildBytes) {
  std::mt19937_64 rng(fresh_seed());
  const std::size_t n = 3 * (std::size_t{1} << 20) + 77;
  std::vector<Fr> lone(n, Fr::zero());  // every other value a field value: a run each
  for (std::size_t i = 1; i < n; i += 2) lone[i] = random_fr(rng);
  lone[0] = Fr::one();
  for (const std::vector<Fr>& z : {test::stretchy_z(rng, {.size = n, .max_stretch = 300}), lone}) {
    const CompactWitnessStats direct = direct_stats(z);
    const CompactWitnessBound bound{.variables = n, .boolean_cols = n - direct.others};
    ThreadPool pool(1);  // one add() at a time, as build_bytes(…, 1) counts
    const std::int64_t base = test::heap_peak_reset();
    auto w = compact_witness_from_z(pool, z, 1);
    const std::int64_t held = test::heap_peak() - base;
    ASSERT_TRUE(w.ok()) << w.status().to_string();
    EXPECT_EQ(w->values.size(), direct.others);
    EXPECT_LE(compact_witness_capacity_bytes(*w), bound.witness_bytes());
    const std::uint64_t reserved =
        bound.build_bytes(compact_witness_from_z_fragments(n), compact_witness_from_z_slice(n));
    EXPECT_LE(static_cast<std::uint64_t>(held), reserved)
        << direct.others << " values in " << direct.runs << " runs";
    // Fragments at their exact sizes: the peak is the result and the fragments, about twice the
    // result, where fragments grown by doubling came to three times it.
    EXPECT_LT(static_cast<double>(held), 2.2 * static_cast<double>(w->bytes()));
  }
}

TEST(CompactWitness, BuilderRefusesSlicesThatDoNotTile) {
  std::mt19937_64 rng(fresh_seed());
  const std::vector<Fr> z = test::stretchy_z(rng, {.size = 500, .max_stretch = 20});
  const std::span<const Fr> v(z);
  auto expect_refused = [](CompactWitnessBuilder& b, const char* needle) {
    auto r = b.finish();
    ASSERT_FALSE(r.ok()) << needle;
    EXPECT_EQ(r.status().code(), Errc::invalid_argument);
    EXPECT_NE(r.status().to_string().find(needle), std::string::npos) << r.status().to_string();
  };
  {
    CompactWitnessBuilder b(1, 499);
    b.add(0, v.first(300));
    b.add(299, v.subspan(299));
    expect_refused(b, "overlaps");
  }
  {
    CompactWitnessBuilder b(1, 499);
    b.add(0, v.first(300));
    b.add(301, v.subspan(301));
    expect_refused(b, "leaves a gap");
  }
  {
    CompactWitnessBuilder b(1, 499);
    b.add(0, v.first(300));
    b.add(300, v.subspan(300));
    b.add(500, v.first(3));
    expect_refused(b, "runs past the end");
  }
  {
    CompactWitnessBuilder b(1, 499);
    b.add(0, v.first(300));
    expect_refused(b, "cover variables [0, 300) of 500");
  }
}

TEST(CompactWitness, DamageIsRefusedByName) {
  std::mt19937_64 rng(fresh_seed());
  std::vector<Fr> z(300, Fr::zero());
  z[0] = Fr::one();
  for (std::size_t i = 100; i < 110; ++i) z[i] = random_fr(rng);
  for (std::size_t i = 200; i < 205; ++i) z[i] = random_fr(rng);
  ThreadPool pool(1);
  const CompactWitness good = compact_witness_from_z(pool, z, 1).value();
  ASSERT_EQ(good.num_runs(), 2u);
  auto expect_bad = [&](const CompactWitness& w, const char* needle) {
    const Status st = w.validate();
    EXPECT_FALSE(st.ok()) << needle;
    EXPECT_NE(st.to_string().find(needle), std::string::npos) << st.to_string();
    std::vector<Fr> out(w.num_variables());
    EXPECT_FALSE(compact_witness_expand(pool, w, out).ok()) << needle;
  };
  {
    CompactWitness w = good;
    w.run_first[1] = 105;  // overlaps run 0
    expect_bad(w, "not after the previous run");
  }
  {
    CompactWitness w = good;
    w.run_first[1] = 110;  // adjacent to run 0
    expect_bad(w, "not after the previous run");
  }
  {
    CompactWitness w = good;
    w.run_first[1] = 298;  // 5 values from 298: past 300
    expect_bad(w, "past the witness");
  }
  {
    CompactWitness w = good;
    w.run_value[1] = 0;  // run 0 empty
    expect_bad(w, "empty");
  }
  {
    CompactWitness w = good;
    w.bits[1] |= std::uint64_t{1} << (102 - 64);
    expect_bad(w, "set inside the run");
  }
  {
    CompactWitness w = good;
    w.bits.back() |= std::uint64_t{1} << 50;  // variable 306 of 300
    expect_bad(w, "past its last variable");
  }
  {
    CompactWitness w = good;
    w.values[3] = Fr::one();
    expect_bad(w, "is 0 or 1");
  }
  {
    CompactWitness w = good;
    w.values[3].l = Fr::kModulus;
    expect_bad(w, "not below r");
  }
  {
    CompactWitness w = good;
    w.bits.pop_back();
    expect_bad(w, "bit words");
  }
  {
    CompactWitness w = good;
    w.run_value.back() = 14;
    expect_bad(w, "run value offsets");
  }
  {
    std::vector<Fr> short_z(299);
    EXPECT_EQ(compact_witness_expand(pool, good, short_z).code(), Errc::size_mismatch);
    EXPECT_EQ(compact_witness_from_z(pool, short_z, 300).status().code(), Errc::invalid_argument);
  }
}

}  // namespace
}  // namespace cuzk
