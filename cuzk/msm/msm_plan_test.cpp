// The MSM planner (msm_plan.hpp) pinned over a grid: scalar counts from 1 to 2^27 (powers of two,
// the GPU's thresholds 2^17 and 3·2^22 and their neighbours), 1, 2 and 16 threads, G1 and G2, the
// CPU's price table with and without IFMA lanes, and the GPU's table.
//
// Where the pinned plans come from: they are the decisions the two executors took before the
// planner existed (main at 06ae9d0), derived from those code paths: the CPU's from
// msm/pippenger.cpp (choose_shape over pippenger_shape, the endomorphism rule with its 1 GiB cap
// and its 1.0 / 0.3 margins, the chunk clamp, and pippenger_run's "small top window" rule), the
// GPU's from gpu/msm/pippenger_impl.cuh (pick_window: 8 below 2^17, 16, and 20 for G1 from 3·2^22;
// K = ⌈256/c⌉; reduction chunks min(2^(c−1), 2048)). When the planner was written, a copy of that
// pre-planner code was run against it over 612 sizes, 8 thread counts, both curves, IFMA off and
// on and the caller's overrides (104 448 plans): no plan differed. So these figures are today's
// design decisions, not measurements: this test fails when a change moves a plan, which must then
// be a decision of its own (docs/perf/msm.md, docs/perf/gpu.md) with the table updated beside it.
#include "cuzk/msm/msm_plan.hpp"

#include <gtest/gtest.h>

#include <cstddef>

namespace cuzk {
namespace {

constexpr MsmCurve G1 = MsmCurve::g1, G2 = MsmCurve::g2;
constexpr bool kScalar = false, kIfma = true;
constexpr bool kPlain = false, kEndo = true;
constexpr auto kXyzz = PippengerAccumulation::xyzz, kAffine = PippengerAccumulation::batch_affine;
constexpr bool kTopAsRest = false, kTopXyzz = true;

struct CpuRow {
  MsmCurve curve;
  bool ifma;
  std::size_t threads, n;
  bool endomorphism;
  unsigned c, windows, chunks;
  PippengerAccumulation accumulation;
  bool top_window_xyzz;
};

// clang-format off
constexpr CpuRow kCpuPlans[] = {
    {G1, kScalar, 1, 1, kEndo, 2, 64, 1, kXyzz, kTopAsRest},
    {G1, kScalar, 1, 7, kEndo, 3, 43, 1, kXyzz, kTopAsRest},
    {G1, kScalar, 1, 100, kEndo, 6, 22, 1, kXyzz, kTopAsRest},
    {G1, kScalar, 1, 1000, kEndo, 8, 16, 1, kXyzz, kTopAsRest},
    {G1, kScalar, 1, 4096, kEndo, 11, 12, 1, kAffine, kTopXyzz},
    {G1, kScalar, 1, 16384, kEndo, 12, 11, 1, kAffine, kTopXyzz},
    {G1, kScalar, 1, 65536, kEndo, 13, 10, 1, kAffine, kTopAsRest},
    {G1, kScalar, 1, 131071, kPlain, 13, 20, 1, kAffine, kTopXyzz},
    {G1, kScalar, 1, 131072, kPlain, 13, 20, 1, kAffine, kTopXyzz},
    {G1, kScalar, 1, 262144, kEndo, 16, 8, 1, kAffine, kTopAsRest},
    {G1, kScalar, 1, 1048576, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G1, kScalar, 1, 4194304, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G1, kScalar, 1, 12582911, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G1, kScalar, 1, 12582912, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G1, kScalar, 1, 16777216, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G1, kScalar, 1, 67108864, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G1, kScalar, 1, 134217728, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G1, kScalar, 2, 1, kEndo, 2, 64, 1, kXyzz, kTopAsRest},
    {G1, kScalar, 2, 7, kEndo, 3, 43, 1, kXyzz, kTopAsRest},
    {G1, kScalar, 2, 100, kEndo, 6, 22, 1, kXyzz, kTopAsRest},
    {G1, kScalar, 2, 1000, kEndo, 8, 16, 1, kXyzz, kTopAsRest},
    {G1, kScalar, 2, 4096, kEndo, 11, 12, 1, kAffine, kTopXyzz},
    {G1, kScalar, 2, 16384, kEndo, 13, 10, 1, kAffine, kTopAsRest},
    {G1, kScalar, 2, 65536, kPlain, 13, 20, 1, kAffine, kTopXyzz},
    {G1, kScalar, 2, 131071, kPlain, 13, 20, 1, kAffine, kTopXyzz},
    {G1, kScalar, 2, 131072, kPlain, 13, 20, 1, kAffine, kTopXyzz},
    {G1, kScalar, 2, 262144, kPlain, 13, 20, 1, kAffine, kTopXyzz},
    {G1, kScalar, 2, 1048576, kPlain, 15, 18, 1, kAffine, kTopXyzz},
    {G1, kScalar, 2, 4194304, kPlain, 15, 18, 1, kAffine, kTopXyzz},
    {G1, kScalar, 2, 12582911, kPlain, 15, 18, 1, kAffine, kTopXyzz},
    {G1, kScalar, 2, 12582912, kPlain, 15, 18, 1, kAffine, kTopXyzz},
    {G1, kScalar, 2, 16777216, kPlain, 15, 18, 1, kAffine, kTopXyzz},
    {G1, kScalar, 2, 67108864, kPlain, 15, 18, 1, kAffine, kTopXyzz},
    {G1, kScalar, 2, 134217728, kPlain, 15, 18, 1, kAffine, kTopXyzz},
    {G1, kScalar, 16, 1, kEndo, 2, 64, 1, kXyzz, kTopAsRest},
    {G1, kScalar, 16, 7, kEndo, 4, 32, 1, kXyzz, kTopAsRest},
    {G1, kScalar, 16, 100, kPlain, 4, 64, 1, kXyzz, kTopAsRest},
    {G1, kScalar, 16, 1000, kPlain, 8, 32, 1, kXyzz, kTopAsRest},
    {G1, kScalar, 16, 4096, kPlain, 8, 32, 1, kXyzz, kTopAsRest},
    {G1, kScalar, 16, 16384, kPlain, 11, 24, 2, kAffine, kTopXyzz},
    {G1, kScalar, 16, 65536, kPlain, 12, 22, 2, kAffine, kTopXyzz},
    {G1, kScalar, 16, 131071, kPlain, 12, 22, 2, kAffine, kTopXyzz},
    {G1, kScalar, 16, 131072, kPlain, 12, 22, 2, kAffine, kTopXyzz},
    {G1, kScalar, 16, 262144, kPlain, 13, 20, 4, kAffine, kTopXyzz},
    {G1, kScalar, 16, 1048576, kPlain, 13, 20, 4, kAffine, kTopXyzz},
    {G1, kScalar, 16, 4194304, kPlain, 14, 19, 5, kAffine, kTopXyzz},
    {G1, kScalar, 16, 12582911, kPlain, 15, 18, 8, kAffine, kTopXyzz},
    {G1, kScalar, 16, 12582912, kPlain, 15, 18, 8, kAffine, kTopXyzz},
    {G1, kScalar, 16, 16777216, kPlain, 15, 18, 8, kAffine, kTopXyzz},
    {G1, kScalar, 16, 67108864, kPlain, 15, 18, 8, kAffine, kTopXyzz},
    {G1, kScalar, 16, 134217728, kPlain, 15, 18, 8, kAffine, kTopXyzz},
    {G1, kIfma, 1, 1, kEndo, 2, 64, 1, kXyzz, kTopAsRest},
    {G1, kIfma, 1, 7, kEndo, 3, 43, 1, kXyzz, kTopAsRest},
    {G1, kIfma, 1, 100, kEndo, 11, 12, 1, kAffine, kTopAsRest},
    {G1, kIfma, 1, 1000, kEndo, 11, 12, 1, kAffine, kTopAsRest},
    {G1, kIfma, 1, 4096, kEndo, 13, 10, 1, kAffine, kTopAsRest},
    {G1, kIfma, 1, 16384, kEndo, 13, 10, 1, kAffine, kTopAsRest},
    {G1, kIfma, 1, 65536, kEndo, 16, 8, 1, kAffine, kTopAsRest},
    {G1, kIfma, 1, 131071, kEndo, 16, 8, 1, kAffine, kTopAsRest},
    {G1, kIfma, 1, 131072, kEndo, 16, 8, 1, kAffine, kTopAsRest},
    {G1, kIfma, 1, 262144, kEndo, 16, 8, 1, kAffine, kTopAsRest},
    {G1, kIfma, 1, 1048576, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G1, kIfma, 1, 4194304, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G1, kIfma, 1, 12582911, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G1, kIfma, 1, 12582912, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G1, kIfma, 1, 16777216, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G1, kIfma, 1, 67108864, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G1, kIfma, 1, 134217728, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G1, kIfma, 2, 1, kEndo, 2, 64, 1, kXyzz, kTopAsRest},
    {G1, kIfma, 2, 7, kEndo, 3, 43, 1, kXyzz, kTopAsRest},
    {G1, kIfma, 2, 100, kEndo, 11, 12, 1, kAffine, kTopAsRest},
    {G1, kIfma, 2, 1000, kEndo, 11, 12, 1, kAffine, kTopAsRest},
    {G1, kIfma, 2, 4096, kEndo, 13, 10, 1, kAffine, kTopAsRest},
    {G1, kIfma, 2, 16384, kEndo, 13, 10, 1, kAffine, kTopAsRest},
    {G1, kIfma, 2, 65536, kEndo, 16, 8, 1, kAffine, kTopAsRest},
    {G1, kIfma, 2, 131071, kEndo, 16, 8, 1, kAffine, kTopAsRest},
    {G1, kIfma, 2, 131072, kEndo, 16, 8, 1, kAffine, kTopAsRest},
    {G1, kIfma, 2, 262144, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G1, kIfma, 2, 1048576, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G1, kIfma, 2, 4194304, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G1, kIfma, 2, 12582911, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G1, kIfma, 2, 12582912, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G1, kIfma, 2, 16777216, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G1, kIfma, 2, 67108864, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G1, kIfma, 2, 134217728, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G1, kIfma, 16, 1, kEndo, 2, 64, 1, kXyzz, kTopAsRest},
    {G1, kIfma, 16, 7, kEndo, 4, 32, 1, kXyzz, kTopAsRest},
    {G1, kIfma, 16, 100, kEndo, 11, 12, 1, kAffine, kTopAsRest},
    {G1, kIfma, 16, 1000, kPlain, 11, 24, 1, kAffine, kTopXyzz},
    {G1, kIfma, 16, 4096, kPlain, 11, 24, 2, kAffine, kTopXyzz},
    {G1, kIfma, 16, 16384, kPlain, 11, 24, 2, kAffine, kTopXyzz},
    {G1, kIfma, 16, 65536, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G1, kIfma, 16, 131071, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G1, kIfma, 16, 131072, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G1, kIfma, 16, 262144, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G1, kIfma, 16, 1048576, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G1, kIfma, 16, 4194304, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G1, kIfma, 16, 12582911, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G1, kIfma, 16, 12582912, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G1, kIfma, 16, 16777216, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G1, kIfma, 16, 67108864, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G1, kIfma, 16, 134217728, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G2, kScalar, 1, 1, kEndo, 2, 33, 1, kXyzz, kTopAsRest},
    {G2, kScalar, 1, 7, kEndo, 4, 17, 1, kXyzz, kTopAsRest},
    {G2, kScalar, 1, 100, kEndo, 6, 11, 1, kXyzz, kTopAsRest},
    {G2, kScalar, 1, 1000, kEndo, 11, 6, 1, kAffine, kTopAsRest},
    {G2, kScalar, 1, 4096, kEndo, 11, 6, 1, kAffine, kTopAsRest},
    {G2, kScalar, 1, 16384, kEndo, 13, 5, 1, kAffine, kTopAsRest},
    {G2, kScalar, 1, 65536, kEndo, 13, 5, 1, kAffine, kTopAsRest},
    {G2, kScalar, 1, 131071, kEndo, 14, 5, 1, kAffine, kTopXyzz},
    {G2, kScalar, 1, 131072, kEndo, 14, 5, 1, kAffine, kTopXyzz},
    {G2, kScalar, 1, 262144, kPlain, 14, 19, 1, kAffine, kTopXyzz},
    {G2, kScalar, 1, 1048576, kPlain, 15, 18, 1, kAffine, kTopXyzz},
    {G2, kScalar, 1, 4194304, kPlain, 15, 18, 1, kAffine, kTopXyzz},
    {G2, kScalar, 1, 12582911, kPlain, 15, 18, 1, kAffine, kTopXyzz},
    {G2, kScalar, 1, 12582912, kPlain, 15, 18, 1, kAffine, kTopXyzz},
    {G2, kScalar, 1, 16777216, kPlain, 15, 18, 1, kAffine, kTopXyzz},
    {G2, kScalar, 1, 67108864, kPlain, 15, 18, 1, kAffine, kTopXyzz},
    {G2, kScalar, 1, 134217728, kPlain, 15, 18, 1, kAffine, kTopXyzz},
    {G2, kScalar, 2, 1, kEndo, 2, 33, 1, kXyzz, kTopAsRest},
    {G2, kScalar, 2, 7, kEndo, 3, 22, 1, kXyzz, kTopAsRest},
    {G2, kScalar, 2, 100, kEndo, 7, 10, 1, kXyzz, kTopAsRest},
    {G2, kScalar, 2, 1000, kEndo, 11, 6, 1, kAffine, kTopAsRest},
    {G2, kScalar, 2, 4096, kEndo, 11, 6, 1, kAffine, kTopAsRest},
    {G2, kScalar, 2, 16384, kEndo, 12, 6, 1, kAffine, kTopXyzz},
    {G2, kScalar, 2, 65536, kPlain, 13, 20, 1, kAffine, kTopXyzz},
    {G2, kScalar, 2, 131071, kPlain, 13, 20, 1, kAffine, kTopXyzz},
    {G2, kScalar, 2, 131072, kPlain, 13, 20, 1, kAffine, kTopXyzz},
    {G2, kScalar, 2, 262144, kPlain, 13, 20, 1, kAffine, kTopXyzz},
    {G2, kScalar, 2, 1048576, kPlain, 14, 19, 2, kAffine, kTopXyzz},
    {G2, kScalar, 2, 4194304, kPlain, 14, 19, 2, kAffine, kTopXyzz},
    {G2, kScalar, 2, 12582911, kPlain, 14, 19, 2, kAffine, kTopXyzz},
    {G2, kScalar, 2, 12582912, kPlain, 14, 19, 2, kAffine, kTopXyzz},
    {G2, kScalar, 2, 16777216, kPlain, 14, 19, 2, kAffine, kTopXyzz},
    {G2, kScalar, 2, 67108864, kPlain, 14, 19, 2, kAffine, kTopXyzz},
    {G2, kScalar, 2, 134217728, kPlain, 14, 19, 2, kAffine, kTopXyzz},
    {G2, kScalar, 16, 1, kEndo, 2, 33, 1, kXyzz, kTopAsRest},
    {G2, kScalar, 16, 7, kEndo, 5, 13, 1, kXyzz, kTopAsRest},
    {G2, kScalar, 16, 100, kPlain, 4, 64, 1, kXyzz, kTopAsRest},
    {G2, kScalar, 16, 1000, kPlain, 8, 32, 1, kXyzz, kTopAsRest},
    {G2, kScalar, 16, 4096, kPlain, 8, 32, 1, kXyzz, kTopAsRest},
    {G2, kScalar, 16, 16384, kPlain, 11, 24, 2, kAffine, kTopXyzz},
    {G2, kScalar, 16, 65536, kPlain, 12, 22, 2, kAffine, kTopXyzz},
    {G2, kScalar, 16, 131071, kPlain, 12, 22, 2, kAffine, kTopXyzz},
    {G2, kScalar, 16, 131072, kPlain, 12, 22, 2, kAffine, kTopXyzz},
    {G2, kScalar, 16, 262144, kPlain, 13, 20, 4, kAffine, kTopXyzz},
    {G2, kScalar, 16, 1048576, kPlain, 13, 20, 4, kAffine, kTopXyzz},
    {G2, kScalar, 16, 4194304, kPlain, 14, 19, 5, kAffine, kTopXyzz},
    {G2, kScalar, 16, 12582911, kPlain, 14, 19, 5, kAffine, kTopXyzz},
    {G2, kScalar, 16, 12582912, kPlain, 14, 19, 5, kAffine, kTopXyzz},
    {G2, kScalar, 16, 16777216, kPlain, 14, 19, 5, kAffine, kTopXyzz},
    {G2, kScalar, 16, 67108864, kPlain, 14, 19, 16, kAffine, kTopXyzz},
    {G2, kScalar, 16, 134217728, kPlain, 14, 19, 16, kAffine, kTopXyzz},
    {G2, kIfma, 1, 1, kEndo, 2, 33, 1, kXyzz, kTopAsRest},
    {G2, kIfma, 1, 7, kEndo, 4, 17, 1, kXyzz, kTopAsRest},
    {G2, kIfma, 1, 100, kEndo, 11, 6, 1, kAffine, kTopAsRest},
    {G2, kIfma, 1, 1000, kEndo, 11, 6, 1, kAffine, kTopAsRest},
    {G2, kIfma, 1, 4096, kEndo, 13, 5, 1, kAffine, kTopAsRest},
    {G2, kIfma, 1, 16384, kEndo, 13, 5, 1, kAffine, kTopAsRest},
    {G2, kIfma, 1, 65536, kEndo, 17, 4, 1, kAffine, kTopAsRest},
    {G2, kIfma, 1, 131071, kEndo, 17, 4, 1, kAffine, kTopAsRest},
    {G2, kIfma, 1, 131072, kEndo, 17, 4, 1, kAffine, kTopAsRest},
    {G2, kIfma, 1, 262144, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G2, kIfma, 1, 1048576, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G2, kIfma, 1, 4194304, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G2, kIfma, 1, 12582911, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G2, kIfma, 1, 12582912, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G2, kIfma, 1, 16777216, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G2, kIfma, 1, 67108864, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G2, kIfma, 1, 134217728, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G2, kIfma, 2, 1, kEndo, 2, 33, 1, kXyzz, kTopAsRest},
    {G2, kIfma, 2, 7, kEndo, 3, 22, 1, kXyzz, kTopAsRest},
    {G2, kIfma, 2, 100, kEndo, 11, 6, 1, kAffine, kTopAsRest},
    {G2, kIfma, 2, 1000, kEndo, 11, 6, 1, kAffine, kTopAsRest},
    {G2, kIfma, 2, 4096, kEndo, 11, 6, 1, kAffine, kTopAsRest},
    {G2, kIfma, 2, 16384, kPlain, 13, 20, 1, kAffine, kTopAsRest},
    {G2, kIfma, 2, 65536, kPlain, 13, 20, 1, kAffine, kTopAsRest},
    {G2, kIfma, 2, 131071, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G2, kIfma, 2, 131072, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G2, kIfma, 2, 262144, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G2, kIfma, 2, 1048576, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G2, kIfma, 2, 4194304, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G2, kIfma, 2, 12582911, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G2, kIfma, 2, 12582912, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G2, kIfma, 2, 16777216, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G2, kIfma, 2, 67108864, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G2, kIfma, 2, 134217728, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G2, kIfma, 16, 1, kEndo, 2, 33, 1, kXyzz, kTopAsRest},
    {G2, kIfma, 16, 7, kEndo, 5, 13, 1, kXyzz, kTopAsRest},
    {G2, kIfma, 16, 100, kEndo, 11, 6, 1, kAffine, kTopAsRest},
    {G2, kIfma, 16, 1000, kPlain, 11, 24, 1, kAffine, kTopXyzz},
    {G2, kIfma, 16, 4096, kPlain, 11, 24, 2, kAffine, kTopXyzz},
    {G2, kIfma, 16, 16384, kPlain, 11, 24, 2, kAffine, kTopXyzz},
    {G2, kIfma, 16, 65536, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G2, kIfma, 16, 131071, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G2, kIfma, 16, 131072, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G2, kIfma, 16, 262144, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G2, kIfma, 16, 1048576, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G2, kIfma, 16, 4194304, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G2, kIfma, 16, 12582911, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G2, kIfma, 16, 12582912, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G2, kIfma, 16, 16777216, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G2, kIfma, 16, 67108864, kPlain, 16, 16, 1, kAffine, kTopAsRest},
    {G2, kIfma, 16, 134217728, kPlain, 16, 16, 1, kAffine, kTopAsRest},
};
// clang-format on

struct CudaRow {
  MsmCurve curve;
  std::size_t n;
  unsigned c, windows, reduction_chunks;
};

// clang-format off
constexpr CudaRow kCudaPlans[] = {
    {G1, 1, 8, 32, 128},
    {G1, 7, 8, 32, 128},
    {G1, 100, 8, 32, 128},
    {G1, 1000, 8, 32, 128},
    {G1, 4096, 8, 32, 128},
    {G1, 16384, 8, 32, 128},
    {G1, 65536, 8, 32, 128},
    {G1, 131071, 8, 32, 128},
    {G1, 131072, 16, 16, 2048},
    {G1, 262144, 16, 16, 2048},
    {G1, 1048576, 16, 16, 2048},
    {G1, 4194304, 16, 16, 2048},
    {G1, 12582911, 16, 16, 2048},
    {G1, 12582912, 20, 13, 2048},
    {G1, 16777216, 20, 13, 2048},
    {G1, 67108864, 20, 13, 2048},
    {G1, 134217728, 20, 13, 2048},
    {G2, 1, 8, 32, 128},
    {G2, 7, 8, 32, 128},
    {G2, 100, 8, 32, 128},
    {G2, 1000, 8, 32, 128},
    {G2, 4096, 8, 32, 128},
    {G2, 16384, 8, 32, 128},
    {G2, 65536, 8, 32, 128},
    {G2, 131071, 8, 32, 128},
    {G2, 131072, 16, 16, 2048},
    {G2, 262144, 16, 16, 2048},
    {G2, 1048576, 16, 16, 2048},
    {G2, 4194304, 16, 16, 2048},
    {G2, 12582911, 16, 16, 2048},
    {G2, 12582912, 20, 13, 2048},
    {G2, 16777216, 20, 13, 2048},
    {G2, 67108864, 20, 13, 2048},
    {G2, 134217728, 20, 13, 2048},
};
// clang-format on

TEST(MsmPlan, CpuPlansPinned) {
  for (const CpuRow& r : kCpuPlans) {
    const MsmPlan p = make_msm_plan(r.n, r.threads, r.curve, cpu_msm_prices(r.ifma));
    const auto where = ::testing::Message()
                       << (r.curve == G2 ? "G2" : "G1") << (r.ifma ? " ifma" : " scalar")
                       << " threads=" << r.threads << " n=" << r.n;
    EXPECT_EQ(p.executor, MsmExecutor::cpu) << where;
    EXPECT_EQ(p.endomorphism, r.endomorphism) << where;
    EXPECT_EQ(p.window_bits, r.c) << where;
    EXPECT_EQ(p.windows, r.windows) << where;
    EXPECT_EQ(p.chunks, r.chunks) << where;
    EXPECT_EQ(p.accumulation, r.accumulation) << where;
    EXPECT_EQ(p.top_window_xyzz, r.top_window_xyzz) << where;
    // What follows from the pinned fields.
    const std::size_t dim = r.curve == G2 ? 4 : 2;
    EXPECT_EQ(p.terms, r.endomorphism ? dim * r.n : r.n) << where;
    EXPECT_EQ(p.scalar_bits, r.endomorphism ? (r.curve == G2 ? 64u : 127u) : 255u) << where;
    EXPECT_EQ(p.windows, msm_window_count(p.window_bits, p.scalar_bits)) << where;
    EXPECT_EQ(p.ifma, r.ifma && r.accumulation == kAffine) << where;
    EXPECT_FALSE(p.split.always) << where;
    EXPECT_EQ(p.split.min_share_inverse, 16u) << where;
  }
}

TEST(MsmPlan, CudaPlansPinned) {
  for (const CudaRow& r : kCudaPlans) {
    for (std::size_t threads : {0u, 1u, 132u}) {  // not read on the GPU
      const MsmPlan p = make_msm_plan(r.n, threads, r.curve, cuda_msm_prices());
      const auto where = ::testing::Message()
                         << (r.curve == G2 ? "G2" : "G1") << " n=" << r.n << " threads=" << threads;
      EXPECT_EQ(p.executor, MsmExecutor::cuda) << where;
      EXPECT_EQ(p.window_bits, r.c) << where;
      EXPECT_EQ(p.windows, r.windows) << where;
      EXPECT_EQ(p.reduction_chunks, r.reduction_chunks) << where;
      EXPECT_FALSE(p.endomorphism) << where;
      EXPECT_EQ(p.terms, r.n) << where;
      EXPECT_EQ(p.accumulation, kXyzz) << where;
      EXPECT_FALSE(p.ifma) << where;
      EXPECT_TRUE(p.split.always) << where;
    }
  }
}

// The caller's overrides win, as the executors applied them before the planner.
TEST(MsmPlan, Overrides) {
  const MsmPrices cpu = cpu_msm_prices(false);
  // A forced window turns the automatic endomorphism off and picks the accumulation by width.
  auto p = make_msm_plan(1u << 16, 1, G1, cpu, {.window_bits = 12});
  EXPECT_FALSE(p.endomorphism);
  EXPECT_EQ(p.window_bits, 12u);
  EXPECT_EQ(p.windows, 22u);
  EXPECT_EQ(p.accumulation, kAffine);
  p = make_msm_plan(1u << 16, 1, G1, cpu, {.window_bits = 30});  // clamped to 24
  EXPECT_EQ(p.window_bits, 24u);
  p = make_msm_plan(1u << 16, 1, G1, cpu, {.window_bits = 8});
  EXPECT_EQ(p.accumulation, kXyzz);
  EXPECT_FALSE(p.top_window_xyzz);
  // Endomorphism forced on and off; chunks forced (and clamped to the terms).
  EXPECT_TRUE(
      make_msm_plan(1u << 20, 1, G1, cpu, {.endomorphism = MsmEndomorphism::on}).endomorphism);
  EXPECT_FALSE(
      make_msm_plan(1u << 18, 1, G1, cpu, {.endomorphism = MsmEndomorphism::off}).endomorphism);
  EXPECT_EQ(make_msm_plan(1u << 16, 1, G1, cpu, {.chunks = 3, .endomorphism = MsmEndomorphism::off})
                .chunks,
            3u);
  EXPECT_EQ(
      make_msm_plan(2, 1, G1, cpu, {.chunks = 5, .endomorphism = MsmEndomorphism::off}).chunks, 2u);
  EXPECT_EQ(make_msm_plan(1u << 16, 1, G2, cpu, {.accumulation = kXyzz}).accumulation, kXyzz);
  // The GPU takes the caller's window as it is.
  p = make_msm_plan(1u << 20, 0, G1, cuda_msm_prices(), {.window_bits = 13});
  EXPECT_EQ(p.window_bits, 13u);
  EXPECT_EQ(p.windows, 20u);
  EXPECT_EQ(p.reduction_chunks, 2048u);
}

// The 0/1 split's rules: the CPU's from a sixteenth of the scalars, the GPU's always.
TEST(MsmPlan, SplitRules) {
  const MsmSplitRule cpu = cpu_msm_prices(false).cpu.split, gpu = cuda_msm_prices().cuda.split;
  EXPECT_TRUE(msm_split_used(cpu, MsmSplit::automatic, 1600, 100));
  EXPECT_FALSE(msm_split_used(cpu, MsmSplit::automatic, 1601, 100));
  EXPECT_FALSE(msm_split_used(cpu, MsmSplit::automatic, 0, 0));
  EXPECT_TRUE(msm_split_used(cpu, MsmSplit::always, 1000, 0));
  EXPECT_FALSE(msm_split_used(cpu, MsmSplit::never, 1000, 1000));
  EXPECT_TRUE(msm_split_used(gpu, MsmSplit::automatic, 1000, 0));
  EXPECT_TRUE(msm_split_used(gpu, MsmSplit::always, 0, 0));
  EXPECT_FALSE(msm_split_used(gpu, MsmSplit::never, 1000, 1000));
}

// Same inputs, same plan (the planner reads nothing else).
TEST(MsmPlan, Pure) {
  for (bool ifma : {false, true}) {
    const MsmPlan a = make_msm_plan(12345, 3, G2, cpu_msm_prices(ifma));
    const MsmPlan b = make_msm_plan(12345, 3, G2, cpu_msm_prices(ifma));
    EXPECT_EQ(a.window_bits, b.window_bits);
    EXPECT_EQ(a.chunks, b.chunks);
    EXPECT_EQ(a.endomorphism, b.endomorphism);
    EXPECT_EQ(a.cost, b.cost);
  }
}

}  // namespace
}  // namespace cuzk
