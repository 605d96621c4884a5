// The schedule of a partition's MSMs (issue 21 item 4): the witness G1 MSMs (A, B_G1, L) on a side
// lane (stream 3) beside the H step or the H MSM (gpu/partition.cuh).
//
// 1. plan_partition_schedule (pure, runs without a GPU): the modes, the room thresholds (derived in
//    the test from msm_min_working_bytes / msm_working_bytes, as the rule states them), the caps'
//    invariants, the cost rule's balance, B_G2's rule unchanged.
// 2. On the device (skipped without a GPU): one partition of a witness whose length is not a power
//    of two (0, 1, −1, repeated and random values) under every schedule, forced ones included, with
//    the schedule taken checked and the five sums equal to CpuBackend::prove_partition's (both H
//    conventions); and the backend's knob (set_partition_overlap) on CudaBackend::prove_partition.
// Seeded (printed; CUZK_SEED replays).
#include <gtest/gtest.h>

#include <bit>
#include <cstdlib>
#include <random>
#include <string>

#include "cuzk/backend/cpu_backend.hpp"
#include "cuzk/base/thread_pool.hpp"
#include "cuzk/gpu/cuda_backend.hpp"
#include "cuzk/gpu/cuda_check.cuh"
#include "cuzk/gpu/partition.cuh"
#include "tests/support/partition_sums.hpp"
#include "tests/support/seed.hpp"

namespace cuzk {
namespace {

using gpu::PartitionSchedule;
using gpu::plan_partition_schedule;
using gpu::ScheduleRoom;
using gpu::SideLane;
using S = PartitionMsm::Sum;

constexpr std::size_t kMiB = std::size_t{1} << 20, kGiB = std::size_t{1} << 30;
constexpr unsigned kAllSides = (1u << static_cast<unsigned>(S::a)) |
                               (1u << static_cast<unsigned>(S::b_g1)) |
                               (1u << static_cast<unsigned>(S::l));

// A bellperson shape with every aux scalar in A and a quarter of the scalars in B (every fourth
// bit: the PoRep's B density is 25.3 %, FORMATS.md), its bitmaps held beside it.
struct TestShape {
  std::vector<std::uint64_t> b_input, b_aux;
  PartitionShape s;
};
TestShape shape_of(std::size_t domain, std::size_t witness, std::size_t inputs) {
  constexpr std::uint64_t kQuarter = 0x1111111111111111ULL;
  TestShape t;
  t.b_input.assign((inputs + 63) / 64, kQuarter);
  t.b_aux.assign((witness - inputs + 63) / 64, kQuarter);
  t.s = {.domain = domain,
         .witness = witness,
         .num_inputs = inputs,
         .a_aux = {.bits = {}, .base_offset = inputs},
         .b_input = {.bits = t.b_input, .base_offset = 0},
         .b_aux = {.bits = t.b_aux, .base_offset = density_selected_count(t.b_input, inputs)}};
  return t;
}

// The rule's thresholds, from the functions the rule names: the side lane's least and full
// working sets (its largest term, B_G2 included when |with_g2|) and the H MSM's.
struct Needs {
  std::size_t side_min, side_full, main_min, main_full;
};
Needs needs_of(const PartitionShape& s, int sms, bool with_g2) {
  const std::size_t side = s.witness - s.num_inputs, main = s.h_count();
  std::size_t side_min = gpu::msm_min_working_bytes(side, false, sms) + 256 * kMiB;
  std::size_t side_full = gpu::msm_working_bytes(side, false);
  if (with_g2) {
    side_min = std::max(side_min, gpu::msm_min_working_bytes(side, true, sms) + 256 * kMiB);
    side_full = std::max(side_full, gpu::msm_working_bytes(side, true));
  }
  return {side_min, std::max(side_min, side_full),
          gpu::msm_min_working_bytes(main, false, sms) + 256 * kMiB,
          gpu::msm_working_bytes(main, false)};
}
constexpr unsigned kG2Side = 1u << static_cast<unsigned>(S::b_g2);

TEST(PartitionSchedule, OffAndThreeStreamsKeepEveryG1MsmOnTheComputeStream) {
  const TestShape s_shape = shape_of(1 << 20, 1'000'003, 5);
  const PartitionShape& s = s_shape.s;
  const ScheduleRoom room{
      .largest_free = 60 * kGiB, .h_step_frees = 96 * kMiB, .streams = 4, .sm_count = 132};
  const PartitionSchedule off = plan_partition_schedule(s, PartitionOverlap::off, room);
  EXPECT_EQ(off.side, SideLane::none);
  EXPECT_EQ(off.side_sums, 0u);
  EXPECT_TRUE(off.g2_beside);
  ScheduleRoom three = room;
  three.streams = 3;
  for (auto mode : {PartitionOverlap::automatic, PartitionOverlap::beside_h_step,
                    PartitionOverlap::beside_h_msm}) {
    const PartitionSchedule p = plan_partition_schedule(s, mode, three);
    EXPECT_EQ(p.side, SideLane::none);
    EXPECT_EQ(p.side_sums, 0u);
  }
}

TEST(PartitionSchedule, G2BesideRuleIsTheFormerOne) {
  const TestShape s_shape = shape_of(1 << 22, 4'000'037, 3);
  const PartitionShape& s = s_shape.s;
  const std::size_t g2 = gpu::msm_working_bytes(s.witness - s.num_inputs, true);
  const std::size_t g1 = gpu::msm_working_bytes(s.h_count(), false);
  for (auto mode : {PartitionOverlap::off, PartitionOverlap::automatic}) {
    ScheduleRoom room{
        .largest_free = g2 + g1 + 512 * kMiB, .h_step_frees = 0, .streams = 4, .sm_count = 132};
    EXPECT_TRUE(plan_partition_schedule(s, mode, room).g2_beside);
    EXPECT_EQ(plan_partition_schedule(s, mode, room).g2_budget, g2);
    room.largest_free -= 1;
    EXPECT_FALSE(plan_partition_schedule(s, mode, room).g2_beside);
  }
}

TEST(PartitionSchedule, RoomDecidesWhereTheSideLaneStarts) {
  const int sms = 132;
  // 2^22 rows, 4 M witness values: c = 16 for G1 and G2, so B_G2's least working set is the
  // largest (G2 points are twice G1's).
  const TestShape s_shape = shape_of(std::size_t{1} << 22, 4'000'037, 7);
  const PartitionShape& s = s_shape.s;
  const Needs all = needs_of(s, sms, true), g1 = needs_of(s, sms, false);
  ASSERT_GT(all.side_min, g1.side_min);
  const std::size_t margin = 512 * kMiB, frees = 3 * (std::size_t{32} << 22);
  const std::size_t g2_full = gpu::msm_working_bytes(s.witness - s.num_inputs, true);
  // Little room now, enough once the H step frees its buffers: beside the H MSM, B_G2 included
  // (not beside: its working set with the H MSM's exceeds the room).
  ScheduleRoom room{.largest_free = all.side_min - 1 + margin,
                    .h_step_frees = all.main_min + 1,
                    .streams = 4,
                    .sm_count = sms};
  ASSERT_LT(room.largest_free, g2_full + all.main_full + margin);
  PartitionSchedule p = plan_partition_schedule(s, PartitionOverlap::automatic, room);
  EXPECT_FALSE(p.g2_beside);
  EXPECT_EQ(p.side, SideLane::beside_h_msm);
  EXPECT_EQ(p.side_sums, kAllSides | kG2Side);
  EXPECT_EQ(plan_partition_schedule(s, PartitionOverlap::beside_h_step, room).side,
            SideLane::beside_h_step)
      << "the G1 sums alone fit beside the H step";
  EXPECT_EQ(plan_partition_schedule(s, PartitionOverlap::beside_h_step, room).side_sums, kAllSides);
  EXPECT_EQ(plan_partition_schedule(s, PartitionOverlap::beside_h_msm, room).side,
            SideLane::beside_h_msm);
  // Room now for all four: beside the H step.
  room.largest_free = all.side_min + margin;
  p = plan_partition_schedule(s, PartitionOverlap::automatic, room);
  EXPECT_EQ(p.side, SideLane::beside_h_step);
  EXPECT_EQ(p.side_sums, kAllSides | kG2Side);
  EXPECT_EQ(plan_partition_schedule(s, PartitionOverlap::beside_h_msm, room).side,
            SideLane::beside_h_msm)
      << "forced beside the H MSM though it could start earlier";
  // Room after the H step for the G1 sums only: B_G2 stays on the compute stream, whose cap then
  // holds B_G2's least working set (larger than the H MSM's here).
  const std::size_t g2_least =
      gpu::msm_min_working_bytes(s.witness - s.num_inputs, true, sms) + 256 * kMiB;
  ASSERT_GT(g2_least, g1.main_min);
  room = {.largest_free = 0,
          .h_step_frees = g1.side_min + g2_least + margin,
          .streams = 4,
          .sm_count = sms};
  p = plan_partition_schedule(s, PartitionOverlap::automatic, room);
  EXPECT_EQ(p.side, SideLane::beside_h_msm);
  EXPECT_EQ(p.side_sums, kAllSides);
  EXPECT_GE(p.main_budget, g2_least);
  // Not enough for two lanes even after the H step: none, forced or not.
  room.h_step_frees -= 1;
  for (auto mode : {PartitionOverlap::automatic, PartitionOverlap::beside_h_step,
                    PartitionOverlap::beside_h_msm}) {
    p = plan_partition_schedule(s, mode, room);
    EXPECT_EQ(p.side, SideLane::none);
    EXPECT_EQ(p.side_sums, 0u);
  }
  (void)frees;
}

TEST(PartitionSchedule, CapsLeaveEachLaneAtLeastItsLeastWorkingSet) {
  const int sms = 114;
  const TestShape s_shape = shape_of(std::size_t{1} << 27, 130'170'221, 21);
  const PartitionShape& s = s_shape.s;  // 32 GiB PoRep sizes
  const std::size_t margin = 512 * kMiB, frees = 3 * (std::size_t{32} << 27);
  for (std::size_t free_now :
       {std::size_t{4} * kGiB, std::size_t{12} * kGiB, std::size_t{20} * kGiB,
        std::size_t{52} * kGiB, std::size_t{120} * kGiB}) {
    SCOPED_TRACE(testing::Message() << "largest free " << free_now / kGiB << " GiB");
    const ScheduleRoom room{
        .largest_free = free_now, .h_step_frees = frees, .streams = 4, .sm_count = sms};
    const PartitionSchedule p = plan_partition_schedule(s, PartitionOverlap::automatic, room);
    const Needs nd = needs_of(s, sms, p.on_side(S::b_g2));
    if (p.side == SideLane::none) {
      EXPECT_LT(free_now + frees,
                needs_of(s, sms, false).side_min + nd.main_min + margin + p.g2_budget);
      continue;
    }
    EXPECT_EQ(p.side_sums & kAllSides, kAllSides);
    if (p.on_side(S::b_g2)) {
      EXPECT_FALSE(p.g2_beside);
    }
    const std::size_t after = free_now + frees - p.g2_budget - margin;
    EXPECT_GE(p.side_budget, nd.side_min);
    EXPECT_LE(p.side_budget, std::max(nd.side_min, nd.side_full));
    EXPECT_GE(p.main_budget, nd.main_min);
    EXPECT_EQ(p.side_budget + p.main_budget, after);
    if (p.side == SideLane::beside_h_step) {
      EXPECT_LE(p.side_budget, free_now - p.g2_budget - margin);
    }
    if (after >= nd.main_full + nd.side_min) {
      EXPECT_GE(p.main_budget, nd.main_full) << "the H MSM keeps its full working set first";
    }
  }
}

TEST(PartitionSchedule, CostRuleBalancesTheLanes) {
  // A witness much longer than the domain: A alone outweighs the H step and the H MSM, so B_G1
  // stays on the compute stream; forced modes move all three (B_G2 is beside with this much
  // room).
  const TestShape s_shape = shape_of(1 << 12, 2'000'003, 2);
  const PartitionShape& s = s_shape.s;
  const ScheduleRoom room{
      .largest_free = 200 * kGiB, .h_step_frees = 3 * (32 << 12), .streams = 4, .sm_count = 132};
  const PartitionSchedule p = plan_partition_schedule(s, PartitionOverlap::automatic, room);
  EXPECT_TRUE(p.g2_beside);
  EXPECT_TRUE(p.on_side(S::a));
  EXPECT_FALSE(p.on_side(S::b_g1));
  EXPECT_GT(p.side_ms, p.main_ms);
  EXPECT_EQ(plan_partition_schedule(s, PartitionOverlap::beside_h_step, room).side_sums, kAllSides);
  // The 32 GiB PoRep sizes (witness ≈ domain, 2^27): the H MSM outweighs the witness sums, so all
  // of them go beside it, B_G2 included where it is not beside.
  const TestShape porep_shape = shape_of(std::size_t{1} << 27, 130'170'221, 21);
  const PartitionShape& porep = porep_shape.s;
  const ScheduleRoom h200{.largest_free = 52 * kGiB,
                          .h_step_frees = 3 * (std::size_t{32} << 27),
                          .streams = 4,
                          .sm_count = 132};
  const PartitionSchedule q = plan_partition_schedule(porep, PartitionOverlap::automatic, h200);
  EXPECT_FALSE(q.g2_beside);
  EXPECT_EQ(q.side_sums, kAllSides | kG2Side);
  EXPECT_EQ(q.side, SideLane::beside_h_step);
  EXPECT_LT(q.side_ms, q.main_ms);
}

TEST(PartitionSchedule, NamesAndTheEnvironmentOverride) {
  EXPECT_EQ(parse_partition_overlap("off").value(), PartitionOverlap::off);
  EXPECT_EQ(parse_partition_overlap("auto").value(), PartitionOverlap::automatic);
  EXPECT_EQ(parse_partition_overlap("h_step").value(), PartitionOverlap::beside_h_step);
  EXPECT_EQ(parse_partition_overlap("h_msm").value(), PartitionOverlap::beside_h_msm);
  EXPECT_EQ(parse_partition_overlap("on").status().code(), Errc::invalid_argument);
  // A bad CUZK_GPU_OVERLAP fails the backend's creation (before any device is touched).
  ASSERT_EQ(setenv("CUZK_GPU_OVERLAP", "sideways", 1), 0);
  auto made = make_cuda_backend("cuda:0", {.arena_bytes = kGiB});
  unsetenv("CUZK_GPU_OVERLAP");
  ASSERT_FALSE(made.ok());
  EXPECT_EQ(made.status().code(), Errc::invalid_argument);
  EXPECT_NE(made.status().to_string().find("CUZK_GPU_OVERLAP"), std::string::npos)
      << made.status().to_string();
}

// ---------------------------------------------------------------------------------------------
// On the device.

#define REQUIRE_GPU() \
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device present: GPU test skipped"

// A Filecoin-like witness: ONE first, then 36 % zeros, 36 % ones, some −1 and repeated values,
// the rest random.
std::vector<Fr> witness(std::mt19937_64& rng, std::size_t nz) {
  std::vector<Fr> z(nz);
  const Fr repeated = test::random_fr(rng);
  z[0] = Fr::one();
  for (std::size_t i = 1; i < nz; ++i) {
    const unsigned r = rng() % 100;
    z[i] = r < 36   ? Fr::zero()
           : r < 72 ? Fr::one()
           : r < 76 ? -Fr::one()
           : r < 80 ? repeated
                    : test::random_fr(rng);
  }
  return z;
}

std::vector<std::uint64_t> density(std::mt19937_64& rng, std::size_t bits, unsigned percent) {
  std::vector<std::uint64_t> w((bits + 63) / 64 + 1, 0);
  for (std::size_t i = 0; i < bits; ++i)
    if (rng() % 100 < percent) w[i / 64] |= std::uint64_t{1} << (i % 64);
  return w;
}

std::size_t ones(const std::vector<std::uint64_t>& w, std::size_t bits) {
  return density_selected_count(w, bits);
}

// One partition's inputs and key tables (host), for a witness of |inputs| + |aux| values over a
// domain of |n| rows.
struct Case {
  std::size_t n, inputs, aux;
  HConvention convention;
  std::vector<Fr> z, a, b, c;
  std::vector<std::uint64_t> a_aux, b_input, b_aux;
  std::vector<G1Affine> ta, tb1, tl, th;
  std::vector<G2Affine> tb2;

  Case(std::mt19937_64& rng, std::size_t n_, std::size_t inputs_, std::size_t aux_,
       HConvention conv)
      : n(n_), inputs(inputs_), aux(aux_), convention(conv) {
    z = witness(rng, inputs + aux);
    for (auto* v : {&a, &b, &c}) {
      v->resize(n);
      for (auto& x : *v) x = test::random_fr(rng);
    }
    a_aux = density(rng, aux, 70);
    b_input = density(rng, inputs, 60);
    b_input[0] |= 1;  // ONE takes part in B
    b_aux = density(rng, aux, 25);
    const bool snarkjs = conv == HConvention::snarkjs;
    const std::size_t nz = inputs + aux;
    const std::size_t na = snarkjs ? nz : inputs + ones(a_aux, aux);
    const std::size_t nb = snarkjs ? nz : ones(b_input, inputs) + ones(b_aux, aux);
    ta = test::periodic_points<G1Curve>(rng, na, 509);
    tb1 = test::periodic_points<G1Curve>(rng, nb, 509);
    tl = test::periodic_points<G1Curve>(rng, aux, 509);
    th = test::periodic_points<G1Curve>(rng, snarkjs ? n : n - 1, 509);
    tb2 = test::periodic_points<G2Curve>(rng, nb, 509);
  }

  // The inputs over fresh copies of a, b, c (a backend may consume them) in |abc|.
  PartitionInputs inputs_with(std::vector<Fr> (&abc)[3], const BasesId (&ids)[5]) const {
    abc[0] = a, abc[1] = b, abc[2] = c;
    return {.abc = {.a = abc[0], .b = abc[1], .c = abc[2], .convention = convention},
            .z = z,
            .num_inputs = inputs,
            .a = ids[0],
            .b_g1 = ids[1],
            .b_g2 = ids[2],
            .l = ids[3],
            .h = ids[4],
            .a_aux = {.bits = a_aux, .base_offset = inputs},
            .b_input = {.bits = b_input, .base_offset = 0},
            .b_aux = {.bits = b_aux, .base_offset = ones(b_input, inputs)}};
  }

  struct Ids {
    BasesId v[5];
  };
  Ids load(Backend& be) const {
    return {{be.load_bases_g1(ta).value(), be.load_bases_g1(tb1).value(),
             be.load_bases_g2(tb2).value(), be.load_bases_g1(tl).value(),
             be.load_bases_g1(th).value()}};
  }
  Result<PartitionSums> prove(Backend& be, const Ids& ids) const {
    std::vector<Fr> abc[3];
    return be.prove_partition(inputs_with(abc, ids.v));
  }
};

// Every schedule, forced ones included, on a small partition: the schedule asked for is the one
// taken, and the sums are the CPU backend's. Twice: with room for B_G2 beside (the side lane takes
// the G1 sums), and with the arena's largest free block just below B_G2's rule (a filler buffer;
// the side lane then takes B_G2 too).
TEST(GpuPartitionOverlap, EveryScheduleGivesTheCpuSums) {
  REQUIRE_GPU();
  std::mt19937_64 rng(test::fresh_seed());
  ThreadPool pool(4);
  auto made = gpu::DeviceContext::create({.arena_bytes = 3 * kGiB, .streams = 4});
  ASSERT_TRUE(made.ok()) << made.status().to_string();
  gpu::DeviceContext& ctx = **made;
  ASSERT_GE(ctx.stream_count(), 4);
  gpu::NttTables tables(ctx);
  for (HConvention conv : {HConvention::bellperson, HConvention::snarkjs}) {
    SCOPED_TRACE(testing::Message() << "convention " << static_cast<int>(conv));
    // 2^12 rows, 3 + 3,001 witness values (not powers of two).
    const std::size_t log_n = 12;
    const Case k(rng, std::size_t{1} << log_n, 3, 3001, conv);
    CpuBackend cpu(pool);
    auto want = k.prove(cpu, k.load(cpu));
    ASSERT_TRUE(want.ok()) << want.status().to_string();
    cudaStream_t s = ctx.stream();
    gpu::ResidentBases ra = gpu::upload_bases_g1(ctx, k.ta, s),
                       rb1 = gpu::upload_bases_g1(ctx, k.tb1, s),
                       rb2 = gpu::upload_bases_g2(ctx, k.tb2, s),
                       rl = gpu::upload_bases_g1(ctx, k.tl, s),
                       rh = gpu::upload_bases_g1(ctx, k.th, s);
    const gpu::PartitionTables t{.a = &ra, .b_g1 = &rb1, .b_g2 = &rb2, .l = &rl, .h = &rh};
    const BasesId none[5] = {};
    // The NTT tables of this size first, so the arena's use is the same before every call.
    (void)tables.get(log_n, s,
                     conv == HConvention::snarkjs ? RootFamily::ffjs : RootFamily::bellman);
    const PartitionShape shape = [&] {
      std::vector<Fr> abc[3];
      return partition_shape(k.inputs_with(abc, none));
    }();
    std::size_t g2_count = 0, g1_max = 0;
    for (const PartitionMsmTerm& m : partition_msm_terms(shape)) {
      std::size_t& c = m.g2() ? g2_count : g1_max;
      c = std::max(c, m.count);
    }
    const std::size_t g2_rule =
        gpu::msm_working_bytes(g2_count, true) + gpu::msm_working_bytes(g1_max, false) + 512 * kMiB;
    // One call first: the H step's programs build their scaling tables on first use
    // (NttTables::pow_table, kept per size), so the arena's use is the same before every call.
    {
      std::vector<Fr> abc[3];
      const PartitionInputs in = k.inputs_with(abc, none);
      const PartitionSums warm = gpu::prove_partition_device(
          ctx, tables, in, t, gpu::stage_partition(ctx, in), nullptr, PartitionOverlap::off);
      test::expect_same_sums(warm, *want);
    }
    const std::size_t used_before = ctx.arena_used();
    for (bool tight : {false, true}) {
      struct Want {
        PartitionOverlap mode;
        SideLane side;
        unsigned sums;  // 0: any, with A on the side lane
      };
      const unsigned all = tight ? kAllSides | kG2Side : kAllSides;
      for (const Want& w : {Want{PartitionOverlap::off, SideLane::none, 0},
                            Want{PartitionOverlap::beside_h_step, SideLane::beside_h_step, all},
                            Want{PartitionOverlap::beside_h_msm, SideLane::beside_h_msm, all},
                            Want{PartitionOverlap::automatic, SideLane::beside_h_step, 0}}) {
        SCOPED_TRACE(testing::Message()
                     << "mode " << static_cast<int>(w.mode) << " tight " << tight);
        std::vector<Fr> abc[3];
        const PartitionInputs in = k.inputs_with(abc, none);
        ASSERT_TRUE(gpu::check_partition(in, t).ok());
        PartitionSchedule taken;
        PartitionTimings tm;
        try {
          gpu::StagedPartition staged = gpu::stage_partition(ctx, in);
          gpu::DeviceBuffer filler;
          if (tight) {
            const std::size_t target = g2_rule - 1;
            ASSERT_GT(ctx.arena_largest_free(), target) << "the arena is too small for the test";
            filler = ctx.alloc(ctx.arena_largest_free() - target, "filler").value();
            ASSERT_LE(ctx.arena_largest_free(), target);
            ASSERT_GE(ctx.arena_largest_free(), target - 256);
          }
          const PartitionSums got = gpu::prove_partition_device(
              ctx, tables, in, t, std::move(staged), &tm, w.mode, &taken);
          test::expect_same_sums(got, *want);
        } catch (const gpu::CudaError& e) {
          FAIL() << e.what();
        }
        EXPECT_EQ(taken.side, w.side);
        EXPECT_EQ(taken.g2_beside, !tight);
        if (w.side == SideLane::none) {
          EXPECT_EQ(taken.side_sums, 0u);
        } else if (w.sums != 0) {
          EXPECT_EQ(taken.side_sums, w.sums);
        } else {
          EXPECT_TRUE(taken.on_side(S::a));
        }
        // Every lane's buffers went back.
        EXPECT_EQ(ctx.arena_used(), used_before);
      }
    }
  }
}

// The backend's knob: CudaBackend::prove_partition under each schedule equals the CPU's sums;
// another backend refuses it.
TEST(GpuPartitionOverlap, BackendKnobSwitchesTheSchedule) {
  REQUIRE_GPU();
  std::mt19937_64 rng(test::fresh_seed());
  ThreadPool pool(4);
  CpuBackend cpu(pool);
  EXPECT_EQ(set_partition_overlap(cpu, PartitionOverlap::off).code(), Errc::invalid_argument);
  const Case k(rng, std::size_t{1} << 11, 2, 1999, HConvention::bellperson);
  auto want = k.prove(cpu, k.load(cpu));
  ASSERT_TRUE(want.ok()) << want.status().to_string();
  auto made = make_cuda_backend(
      "cuda:0", {.arena_bytes = 2 * kGiB, .partition_overlap = PartitionOverlap::beside_h_msm});
  ASSERT_TRUE(made.ok()) << made.status().to_string();
  Backend& be = **made;
  const Case::Ids ids = k.load(be);
  for (auto mode : {PartitionOverlap::beside_h_msm, PartitionOverlap::off,
                    PartitionOverlap::beside_h_step, PartitionOverlap::automatic}) {
    SCOPED_TRACE(testing::Message() << "mode " << static_cast<int>(mode));
    if (mode != PartitionOverlap::beside_h_msm) {
      ASSERT_TRUE(set_partition_overlap(be, mode).ok());
    }
    auto got = k.prove(be, ids);
    ASSERT_TRUE(got.ok()) << got.status().to_string();
    test::expect_same_sums(*got, *want);
  }
}

}  // namespace
}  // namespace cuzk
