// GPU MSM (G1, G2) against an independent oracle: bases P_i = P0 + i·Q with P0 = r·G, Q = t·G
// known, so Σ s_i·P_i = (Σ s_i·k_i)·G is one host scalar multiplication, and the naive
// Σ s_i·P_i by host scalar multiplication at small sizes. Inputs include identity bases,
// duplicated bases, 0/1-heavy scalars, density bitmaps with offsets, forced small windows and window
// groups, sizes that are not powers of two.
#include <gtest/gtest.h>

#include <initializer_list>
#include <random>
#include <vector>

#include "cuzk/ec/batch_affine.hpp"
#include "cuzk/ec/g1.hpp"
#include "cuzk/ec/g2.hpp"
#include "cuzk/ec/scalar_mul.hpp"
#include "cuzk/gpu/cuda_check.cuh"
#include "cuzk/gpu/device_context.hpp"
#include "cuzk/gpu/gpu_test_util.cuh"
#include "cuzk/gpu/msm/pippenger.cuh"
#include "cuzk/msm/msm.hpp"
#include "cuzk/msm/precomputed_windows.hpp"

namespace cuzk::gpu {
namespace {

template <class C>
struct Bases {
  std::vector<Affine<C>> points;
  std::vector<Fr> logs;  // points[i] = logs[i]·G
};

template <class C>
Bases<C> make_bases(std::size_t n, std::mt19937_64& rng) {
  const Fr r = test::random_fr(rng), t = test::random_fr(rng);
  const Jacobian<C> g = Jacobian<C>::generator();
  const Jacobian<C> q = mul_vartime(g, t);
  Jacobian<C> p = mul_vartime(g, r);
  std::vector<Jacobian<C>> jac(n);
  Bases<C> b;
  b.logs.resize(n);
  Fr k = r;
  for (std::size_t i = 0; i < n; ++i) {
    jac[i] = p;
    b.logs[i] = k;
    p.add(q);
    k += t;
  }
  // identities and duplicates
  for (std::size_t j = 0; j < n / 50 + 1; ++j) {
    const std::size_t i = rng() % n;
    if (rng() & 1) {
      jac[i] = Jacobian<C>::identity();
      b.logs[i] = Fr::zero();
    } else {
      const std::size_t src = rng() % n;
      jac[i] = jac[src];
      b.logs[i] = b.logs[src];
    }
  }
  b.points = batch_to_affine_vartime<C>(jac);
  return b;
}

enum class ScalarKind { random, bits, mixed, repeats };

std::vector<Fr> make_scalars(std::size_t n, ScalarKind kind, std::mt19937_64& rng) {
  std::vector<Fr> s(n);
  for (auto& v : s) {
    const unsigned roll = rng() % 10;
    if (kind == ScalarKind::random)
      v = test::random_fr(rng);
    else if (kind == ScalarKind::bits)
      v = (rng() & 1) ? Fr::one() : Fr::zero();
    else if (kind == ScalarKind::repeats) {
      // ±(1 + (roll mod 3))·2^40 + 5: a handful of tail values and their negatives.
      const Fr base = Fr::from_u64((1 + roll % 3) * (std::uint64_t{1} << 40) + 5);
      v = (rng() & 1) ? base : -base;
    } else
      v = roll < 4   ? Fr::zero()
          : roll < 7 ? Fr::one()
          : roll < 8 ? -Fr::one()
                     : test::random_fr(rng);
  }
  return s;
}

/// Σ s_i·logs[base(i)] under the density rule.
Fr expected_log(const std::vector<Fr>& s, const std::vector<Fr>& logs,
                const std::vector<std::uint64_t>& bits, std::size_t offset) {
  Fr acc = Fr::zero();
  std::size_t k = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (!bits.empty() && !((bits[i / 64] >> (i % 64)) & 1)) continue;
    acc += s[i] * logs[offset + (bits.empty() ? i : k)];
    ++k;
  }
  return acc;
}

/// How many scalars a case takes over |nb| bases: without a density, 3/4·nb to nb of them; with
/// one, nb to 2·nb scalars of which about half take part (at most nb), their bases from a random
/// offset.
struct Count {
  std::size_t n;
  std::vector<std::uint64_t> bits;
  std::size_t offset;
};
Count draw_count(std::mt19937_64& rng, std::size_t nb, bool density) {
  Count c{nb - rng() % (nb / 4), {}, 0};
  if (!density) return c;
  c.n = nb + rng() % nb;
  c.bits.assign((c.n + 63) / 64, 0);
  std::size_t ones = 0;
  for (std::size_t i = 0; i < c.n; ++i)
    if (ones < nb && rng() % 2) {
      c.bits[i / 64] |= std::uint64_t{1} << (i % 64);
      ++ones;
    }
  c.offset = rng() % (nb - ones + 1);
  return c;
}

template <class C>
bool same_point(const Xyzz<C>& got, const Jacobian<C>& want) {
  return got.to_jacobian().to_affine_vartime() == want.to_affine_vartime();
}

std::unique_ptr<DeviceContext> make_ctx(std::size_t bytes) {
  auto c = DeviceContext::create({.arena_bytes = bytes});
  EXPECT_TRUE(c.ok()) << c.status().to_string();
  return c.ok() ? std::move(c).value() : nullptr;
}

/// Every G2 accumulation form; each must give the oracle's sums.
constexpr G2Accumulation kG2Accumulations[] = {
    G2Accumulation::one_thread, G2Accumulation::lane_pair, G2Accumulation::lane_pair_fused,
    G2Accumulation::lane_pair_rolled, G2Accumulation::lane_pair_rolled2_ahead};

/// |form|: the accumulation's fields of GpuMsmConfig (g2_accumulation; G1's accumulate_min_blocks,
/// accumulate_rows_per_step, accumulate_lazy), the rest set per case.
template <class C, class Upload, class Msm>
void run_cases(std::size_t n_min, std::size_t n_span, Upload upload, Msm msm,
               const GpuMsmConfig& form = {}) {
  auto ctx = make_ctx(std::size_t{2} << 30);
  ASSERT_TRUE(ctx);
  const std::uint64_t seed = test::fresh_seed();
  std::mt19937_64 rng(seed);
  const std::size_t nb = n_min + rng() % n_span;
  const Bases<C> bases = make_bases<C>(nb, rng);
  cudaStream_t s = ctx->stream();
  ResidentBases rb = upload(*ctx, std::span<const Affine<C>>(bases.points), s);
  const Jacobian<C> g = Jacobian<C>::generator();
  struct Case {
    ScalarKind kind;
    bool density, split;
    int window, group;
  };
  const Case cases[] = {
      {ScalarKind::random, false, true, 0, 0},  {ScalarKind::mixed, false, true, 0, 0},
      {ScalarKind::mixed, false, false, 0, 0},  {ScalarKind::bits, true, true, 0, 0},
      {ScalarKind::mixed, true, true, 5, 3},    {ScalarKind::random, false, true, 11, 0},
      {ScalarKind::mixed, false, true, 20, 0},  // the large-MSM G1 width (the GPU plan's), 2^19 buckets
      {ScalarKind::repeats, false, true, 0, 0}, {ScalarKind::repeats, true, false, 8, 0},
      {ScalarKind::bits, false, false, 0, 0},  // the 1-scalars through Pippenger
  };
  for (const auto& cs : cases) {
    const auto [n, bits, offset] = draw_count(rng, nb, cs.density);
    const auto sc = make_scalars(n, cs.kind, rng);
    GpuMsmConfig cfg = form;
    cfg.density_bits = bits;
    cfg.base_offset = offset;
    cfg.bit_split = cs.split;
    cfg.window_bits = cs.window;
    cfg.max_windows_per_group = cs.group;
    GpuMsmStats st;
    const Xyzz<C> got = msm(*ctx, rb, std::span<const Fr>(sc), cfg, s, &st);
    const Jacobian<C> want = mul_vartime(g, expected_log(sc, bases.logs, bits, offset));
    EXPECT_TRUE(same_point(got, want))
        << C::name << " n=" << n << " kind=" << static_cast<int>(cs.kind)
        << " density=" << cs.density << " split=" << cs.split << " c=" << st.window_bits
        << " groups=" << st.window_groups << " ones=" << st.ones << " tail=" << st.tail
        << " g2_accumulation=" << static_cast<int>(form.g2_accumulation)
        << " rows_per_step=" << form.accumulate_rows_per_step << " lazy=" << form.accumulate_lazy
        << " square_rows=" << form.accumulate_square_rows << " segment=" << st.segment_pairs
        << " seed=" << seed;
  }
  // The naive sum by host scalar multiplications, on a prefix.
  const std::size_t n = std::min<std::size_t>(nb, 300);
  const auto sc = make_scalars(n, ScalarKind::mixed, rng);
  Jacobian<C> naive = Jacobian<C>::identity();
  for (std::size_t i = 0; i < n; ++i)
    naive.add(mul_vartime(Jacobian<C>::from_affine(bases.points[i]), sc[i]));
  const GpuMsmConfig& plain = form;
  const Xyzz<C> got = msm(*ctx, rb, std::span<const Fr>(sc), plain, s, nullptr);
  EXPECT_TRUE(same_point(got, naive)) << C::name << " naive n=" << n << " seed=" << seed;
  // No scalars: the identity.
  const Xyzz<C> empty = msm(*ctx, rb, std::span<const Fr>(), plain, s, nullptr);
  EXPECT_TRUE(empty.is_identity());
}

TEST(GpuMsm, G1MatchesOracle) {
  CUZK_REQUIRE_GPU();
  run_cases<G1Curve>(3000, 5000, upload_bases_g1,
                     [](auto&&... a) { return msm_g1_device(std::forward<decltype(a)>(a)...); });
}

/// An MSM of |n| random scalars on curve |C| under each configuration of |refused| must throw
/// CudaError.
template <class C, class Upload, class Msm>
void expect_refused(Upload upload, Msm msm, std::size_t n,
                    std::initializer_list<GpuMsmConfig> refused) {
  auto ctx = make_ctx(std::size_t{1} << 30);
  ASSERT_TRUE(ctx);
  std::mt19937_64 rng(test::fresh_seed());
  const auto bases = make_bases<C>(n, rng);
  ResidentBases rb = upload(*ctx, std::span<const Affine<C>>(bases.points), ctx->stream());
  const auto sc = make_scalars(n, ScalarKind::random, rng);
  for (const GpuMsmConfig& cfg : refused)
    EXPECT_THROW((void)msm(*ctx, rb, std::span<const Fr>(sc), cfg, ctx->stream(), nullptr),
                 CudaError)
        << C::name << " min_blocks=" << cfg.accumulate_min_blocks
        << " rows_per_step=" << cfg.accumulate_rows_per_step << " lazy=" << cfg.accumulate_lazy
        << " segment_pairs=" << cfg.segment_pairs;
}

/// Every case with the G1 accumulation form (|min_blocks|, |rows|, |lazy|: GpuMsmConfig's
/// accumulate_min_blocks, accumulate_rows_per_step and accumulate_lazy), then each configuration
/// of |refused| must be refused with CudaError.
void run_g1_form(int min_blocks, int rows, std::initializer_list<GpuMsmConfig> refused,
                 bool lazy = GpuMsmConfig{}.accumulate_lazy,
                 bool square_rows = GpuMsmConfig{}.accumulate_square_rows) {
  run_cases<G1Curve>(3000, 5000, upload_bases_g1,
                     [](auto&&... a) { return msm_g1_device(std::forward<decltype(a)>(a)...); },
                     {.accumulate_min_blocks = min_blocks,
                      .accumulate_rows_per_step = rows,
                      .accumulate_lazy = lazy,
                      .accumulate_square_rows = square_rows});
  expect_refused<G1Curve>(
      upload_bases_g1, [](auto&&... a) { return msm_g1_device(std::forward<decltype(a)>(a)...); },
      4000, refused);
}

// The accumulation without the register cap (GpuMsmConfig::accumulate_min_blocks = 0, unrolled:
// the slow twin of the default 3); any other count than 0 or 3 is refused.
TEST(GpuMsm, G1UncappedAccumulationMatchesOracle) {
  CUZK_REQUIRE_GPU();
  run_g1_form(0, 0, {{.accumulate_min_blocks = 2}});
}

// The accumulation's field products unrolled (GpuMsmConfig::accumulate_rows_per_step = 0, the
// slow twin of the default's loops of 3 rows a step, under the same 3-block cap); other step
// counts, and rolled products without the cap, are refused.
TEST(GpuMsm, G1UnrolledAccumulationMatchesOracle) {
  CUZK_REQUIRE_GPU();
  run_g1_form(3, 0,
              {{.accumulate_rows_per_step = 6},
               {.accumulate_min_blocks = 0, .accumulate_rows_per_step = 3}});
}

// The rolled accumulation reduced after every product (GpuMsmConfig::accumulate_lazy = false: the
// twin of the default's lazy form, coordinates in [0, 2p) reduced when they leave).
TEST(GpuMsm, G1ReducedAccumulationMatchesOracle) {
  CUZK_REQUIRE_GPU();
  run_g1_form(3, 3, {}, false);
}

// The default accumulation with its two squares by the rolled product
// (GpuMsmConfig::accumulate_square_rows = false: the twin of the default's square rows).
TEST(GpuMsm, G1ProductSquaresAccumulationMatchesOracle) {
  CUZK_REQUIRE_GPU();
  run_g1_form(3, 3, {}, true, false);
}

/// Every case with the rule's segments (GpuMsmConfig::segment_pairs = 0) and segments of 5 and 1000
/// sorted pairs in the accumulation of curve |C| (G2: the default lane pairs and |g2|); a size over
/// 2^16 is refused.
template <class C, class Upload, class Msm>
void run_segment_sizes(Upload upload, Msm msm, std::size_t n_min, std::size_t n_span,
                       G2Accumulation g2 = GpuMsmConfig{}.g2_accumulation) {
  for (std::uint32_t pairs : {0u, 5u, 1000u})
    run_cases<C>(n_min, n_span, upload, msm, {.g2_accumulation = g2, .segment_pairs = pairs});
  expect_refused<C>(upload, msm, 1000, {{.segment_pairs = (1u << 16) + 1}});
}

// The rule's segments, and 5 and 1000 pairs (beside the default 128): a bucket crossing many
// segments, and many buckets inside one.
TEST(GpuMsm, G1SegmentSizesMatchOracle) {
  CUZK_REQUIRE_GPU();
  run_segment_sizes<G1Curve>(
      upload_bases_g1, [](auto&&... a) { return msm_g1_device(std::forward<decltype(a)>(a)...); },
      3000, 5000);
}
TEST(GpuMsm, G2SegmentSizesMatchOracle) {
  CUZK_REQUIRE_GPU();
  const auto msm = [](auto&&... a) { return msm_g2_device(std::forward<decltype(a)>(a)...); };
  run_segment_sizes<G2Curve>(upload_bases_g2, msm, 1000, 1500);
  run_segment_sizes<G2Curve>(upload_bases_g2, msm, 1000, 1500, G2Accumulation::one_thread);
}

void run_g2_cases(G2Accumulation acc) {
  run_cases<G2Curve>(1000, 1500, upload_bases_g2,
                     [](auto&&... a) { return msm_g2_device(std::forward<decltype(a)>(a)...); },
                     {.g2_accumulation = acc});
}

TEST(GpuMsm, G2MatchesOracle) {
  CUZK_REQUIRE_GPU();
  run_g2_cases(GpuMsmConfig{}.g2_accumulation);
}
TEST(GpuMsm, G2OneThreadMatchesOracle) {
  CUZK_REQUIRE_GPU();
  run_g2_cases(G2Accumulation::one_thread);
}
TEST(GpuMsm, G2LanePairMatchesOracle) {
  CUZK_REQUIRE_GPU();
  run_g2_cases(G2Accumulation::lane_pair);
}
TEST(GpuMsm, G2LanePairFusedMatchesOracle) {
  CUZK_REQUIRE_GPU();
  run_g2_cases(G2Accumulation::lane_pair_fused);
}
TEST(GpuMsm, G2LanePairRolledMatchesOracle) {
  CUZK_REQUIRE_GPU();
  run_g2_cases(G2Accumulation::lane_pair_rolled);
}
TEST(GpuMsm, G2LanePairRolled2AheadMatchesOracle) {
  CUZK_REQUIRE_GPU();
  run_g2_cases(G2Accumulation::lane_pair_rolled2_ahead);
}

// Every base the same point P: a bucket then sums P, P, … (the doubling branch at its second point)
// or P, −P, … (the cancelling branch, then an identity accumulator), in the tail and in the batch
// addition of the 1-scalars, for each G2 kernel.
TEST(GpuMsm, G2EqualAndOppositePoints) {
  CUZK_REQUIRE_GPU();
  auto ctx = make_ctx(std::size_t{1} << 30);
  ASSERT_TRUE(ctx);
  const std::uint64_t seed = test::fresh_seed();
  std::mt19937_64 rng(seed);
  const std::size_t n = 300 + rng() % 300;
  const Fr r = test::random_fr(rng);
  const std::vector<G2Affine> points(n,
                                     mul_vartime(G2Jacobian::generator(), r).to_affine_vartime());
  ResidentBases rb = upload_bases_g2(*ctx, points, ctx->stream());
  const Fr v = test::random_fr(rng);
  struct Case {
    const char* what;
    Fr even, odd;  // scalars at even and odd positions
  };
  const Case cases[] = {{"equal", v, v},
                        {"opposite", v, -v},
                        {"ones", Fr::one(), Fr::one()},
                        {"ones and minus ones", Fr::one(), -Fr::one()}};
  for (const auto& cs : cases) {
    std::vector<Fr> sc(n);
    Fr sum = Fr::zero();
    for (std::size_t i = 0; i < n; ++i) {
      sc[i] = i % 2 ? cs.odd : cs.even;
      sum += sc[i];
    }
    const G2Jacobian want = mul_vartime(G2Jacobian::generator(), sum * r);
    for (const G2Accumulation acc : kG2Accumulations) {
      const G2Xyzz got = msm_g2_device(*ctx, rb, sc, {.g2_accumulation = acc}, ctx->stream());
      EXPECT_TRUE(same_point(got, want))
          << cs.what << " n=" << n << " g2_accumulation=" << static_cast<int>(acc)
          << " seed=" << seed;
    }
  }
}

// The G2 kernels agree with one another on a larger MSM whose buckets hold hundreds of points
// (segments of 128 pairs, buckets crossing segments), and with the oracle.
TEST(GpuMsm, G2LargerKernelsAgree) {
  CUZK_REQUIRE_GPU();
  auto ctx = make_ctx(std::size_t{4} << 30);
  ASSERT_TRUE(ctx);
  const std::uint64_t seed = test::fresh_seed();
  std::mt19937_64 rng(seed);
  const std::size_t n = (std::size_t{1} << 16) + rng() % 20000;
  const auto bases = make_bases<G2Curve>(n, rng);
  ResidentBases rb = upload_bases_g2(*ctx, bases.points, ctx->stream());
  auto sc = make_scalars(n, ScalarKind::mixed, rng);
  for (std::size_t i = 0; i < n / 4; ++i) sc[rng() % n] = Fr::from_u64(rng() % 7);  // repeats
  const G2Jacobian want = mul_vartime(G2Jacobian::generator(), expected_log(sc, bases.logs, {}, 0));
  for (const G2Accumulation acc : kG2Accumulations) {
    const G2Xyzz got = msm_g2_device(*ctx, rb, sc, {.g2_accumulation = acc}, ctx->stream());
    EXPECT_TRUE(same_point(got, want))
        << "n=" << n << " g2_accumulation=" << static_cast<int>(acc) << " seed=" << seed;
  }
  // Forced groups of 1, 2 and 5 windows with the reduction chunks scaled per group.
  for (const int group : {1, 2, 5}) {
    GpuMsmConfig cfg{.max_windows_per_group = group};
    cfg.scale_group_chunks = true;
    GpuMsmStats st;
    const G2Xyzz got = msm_g2_device(*ctx, rb, sc, cfg, ctx->stream(), &st);
    EXPECT_TRUE(same_point(got, want))
        << "n=" << n << " group=" << group << " groups=" << st.window_groups << " seed=" << seed;
  }
}

TEST(GpuMsm, G1LargerRandom) {
  CUZK_REQUIRE_GPU();
  auto ctx = make_ctx(std::size_t{4} << 30);
  ASSERT_TRUE(ctx);
  const std::uint64_t seed = test::fresh_seed();
  std::mt19937_64 rng(seed);
  const std::size_t n = (std::size_t{1} << 17) + rng() % 50000;
  const auto bases = make_bases<G1Curve>(n, rng);
  ResidentBases rb = upload_bases_g1(*ctx, bases.points, ctx->stream());
  const auto sc = make_scalars(n, ScalarKind::random, rng);
  const G1Xyzz got = msm_g1_device(*ctx, rb, sc, {}, ctx->stream());
  const G1Jacobian want = mul_vartime(G1Jacobian::generator(), expected_log(sc, bases.logs, {}, 0));
  EXPECT_TRUE(same_point(got, want)) << "n=" << n << " seed=" << seed;
  // Forced groups of 1 and 3 windows with the reduction chunks scaled per group.
  for (const int group : {1, 3}) {
    GpuMsmConfig cfg{.max_windows_per_group = group};
    cfg.scale_group_chunks = true;
    GpuMsmStats st;
    const G1Xyzz g = msm_g1_device(*ctx, rb, sc, cfg, ctx->stream(), &st);
    EXPECT_TRUE(same_point(g, want))
        << "n=" << n << " group=" << group << " groups=" << st.window_groups << " seed=" << seed;
  }
}

// The precomputed-window option (GpuMsmConfig::precomputed, msm/precomputed_windows.hpp): copies
// 2^(j·S)·P built on the device, k·m pairs over K' bucket windows, wider reduction chunks; against
// the oracle and the CPU MSM. Bases with identities, duplicates and negations; scalars 0, 1, r − 1
// and random; a size that is not a power of two; with and without the 0/1 split, a density bitmap
// and an offset, and forced window groups.
TEST(GpuMsm, G1PrecomputedCopiesMatchOracle) {
  CUZK_REQUIRE_GPU();
  auto ctx = make_ctx(std::size_t{3} << 30);
  ASSERT_TRUE(ctx);
  cudaStream_t s = ctx->stream();
  const std::uint64_t seed = test::fresh_seed();
  std::mt19937_64 rng(seed);
  const std::size_t nb = 5000 + rng() % 4000;
  Bases<G1Curve> bases = make_bases<G1Curve>(nb, rng);
  for (std::size_t k = 0; k < nb / 40 + 1; ++k) {  // negated bases
    const std::size_t i = rng() % nb, j = rng() % nb;
    bases.points[i] = -bases.points[j];
    bases.logs[i] = -bases.logs[j];
  }
  ResidentBases rb = upload_bases_g1(*ctx, bases.points, s);
  const G1Jacobian g = G1Jacobian::generator();
  ThreadPool pool(2);
  struct Case {
    unsigned c, copies, chunks;
    ScalarKind kind;
    bool density, split;
    int group;
  };
  const Case cases[] = {
      {20, 2, 0, ScalarKind::random, false, true, 0},
      {20, 2, 1u << 14, ScalarKind::mixed, false, true, 0},
      {22, 3, 1u << 14, ScalarKind::random, false, true, 0},
      {24, 2, 1u << 16, ScalarKind::mixed, false, false, 0},
      {11, 2, 64, ScalarKind::repeats, true, true, 0},
      {8, 4, 0, ScalarKind::mixed, true, false, 2},
      {13, 1, 1024, ScalarKind::random, false, true, 3},
      {5, 8, 0, ScalarKind::bits, false, false, 0},
  };
  for (const auto& cs : cases) {
    const PrecomputedBases pre = precompute_bases_g1(*ctx, rb, cs.c, cs.copies, s);
    const auto [n, bits, offset] = draw_count(rng, nb, cs.density);
    auto sc = make_scalars(n, cs.kind, rng);
    sc[0] = Fr::zero();
    sc[1] = Fr::one();
    sc[2] = -Fr::one();  // r − 1
    sc[3] = -Fr::one();
    GpuMsmConfig cfg{.density_bits = bits,
                     .base_offset = offset,
                     .bit_split = cs.split,
                     .max_windows_per_group = cs.group};
    cfg.precomputed = &pre;
    cfg.reduction_chunks = cs.chunks;
    cfg.accumulate_min_blocks = (&cs - cases) % 2 == 1 ? 3 : 0;  // every other case capped
    // Of the capped cases: the 2nd and 4th rolled in the lazy form (the default), the 6th rolled
    // and reduced, the 8th unrolled (their twins).
    const std::ptrdiff_t at = &cs - cases;
    cfg.accumulate_rows_per_step = at % 2 == 1 && at != 7 ? 3 : 0;
    cfg.accumulate_lazy = at != 5;
    GpuMsmStats st;
    const G1Xyzz got = msm_g1_device(*ctx, rb, sc, cfg, s, &st);
    const G1Jacobian want = mul_vartime(g, expected_log(sc, bases.logs, bits, offset));
    // The CPU backend's MSM (msm/msm.hpp) on the same input agrees with the oracle too.
    const auto cpu = msm<G1Curve>(std::span<const G1Affine>(bases.points), std::span<const Fr>(sc),
                                  pool, {.density_bits = bits, .base_offset = offset});
    ASSERT_TRUE(cpu.ok()) << cpu.status().to_string();
    EXPECT_TRUE(same_point(got, *cpu))
        << "against the CPU MSM: c=" << cs.c << " copies=" << cs.copies << " seed=" << seed;
    const auto plan = PrecomputedWindowPlan::make(cs.c, cs.copies);
    EXPECT_TRUE(same_point(got, want))
        << "c=" << cs.c << " copies=" << cs.copies << " chunks=" << cs.chunks << " n=" << n
        << " kind=" << static_cast<int>(cs.kind) << " density=" << cs.density
        << " split=" << cs.split << " groups=" << st.window_groups << " tail=" << st.tail
        << " min_blocks=" << cfg.accumulate_min_blocks
        << " rows_per_step=" << cfg.accumulate_rows_per_step << " lazy=" << cfg.accumulate_lazy
        << " seed=" << seed;
    if (st.tail > 0) {
      EXPECT_EQ(st.window_bits, static_cast<int>(cs.c));
      EXPECT_EQ(st.windows, static_cast<int>(plan.bucket_windows));
    }
  }
  // Refused: a window width other than the copies', more copies than the plan allows, and
  // reduction chunks that are not a power of two.
  const PrecomputedBases pre = precompute_bases_g1(*ctx, rb, 20, 2, s);
  const auto sc = make_scalars(nb, ScalarKind::random, rng);
  GpuMsmConfig wrong{.window_bits = 16};
  wrong.precomputed = &pre;
  EXPECT_THROW((void)msm_g1_device(*ctx, rb, sc, wrong, s), CudaError);
  EXPECT_THROW((void)precompute_bases_g1(*ctx, rb, 20, kMaxPrecomputedCopies + 1, s), CudaError);
  GpuMsmConfig odd;
  odd.reduction_chunks = 3000;
  EXPECT_THROW((void)msm_g1_device(*ctx, rb, sc, odd, s), CudaError);
}

// Dense scalars (GpuMsmConfig::dense_scalars: H's MSM, no classification): every kind of scalar
// (0, 1, r − 1, 0/1-heavy, repeated) through Pippenger as it lies, against the oracle and the
// classified path (the twin); with window copies, forced window groups, a size that is not a power
// of two, and G2. Refused beside density bits or a compact witness.
TEST(GpuMsm, DenseScalarsMatchOracleAndClassified) {
  CUZK_REQUIRE_GPU();
  auto ctx = make_ctx(std::size_t{2} << 30);
  ASSERT_TRUE(ctx);
  cudaStream_t s = ctx->stream();
  const std::uint64_t seed = test::fresh_seed();
  std::mt19937_64 rng(seed);
  const std::size_t nb = 4000 + rng() % 3000;
  const Bases<G1Curve> bases = make_bases<G1Curve>(nb, rng);
  ResidentBases rb = upload_bases_g1(*ctx, bases.points, s);
  const PrecomputedBases pre = precompute_bases_g1(*ctx, rb, 12, 3, s);
  const G1Jacobian g = G1Jacobian::generator();
  for (const ScalarKind kind :
       {ScalarKind::random, ScalarKind::mixed, ScalarKind::repeats, ScalarKind::bits}) {
    for (const int variant : {0, 1, 2}) {  // plain, window copies, groups of one window
      const std::size_t n = nb - rng() % (nb / 4);
      auto sc = make_scalars(n, kind, rng);
      sc[0] = Fr::zero();
      sc[1] = Fr::one();
      sc[2] = -Fr::one();
      GpuMsmConfig cfg{.max_windows_per_group = variant == 2 ? 1 : 0};
      if (variant == 1) cfg.precomputed = &pre;
      GpuMsmConfig dense = cfg;
      dense.dense_scalars = true;
      GpuMsmStats st;
      const G1Xyzz got = msm_g1_device(*ctx, rb, sc, dense, s, &st);
      const G1Xyzz twin = msm_g1_device(*ctx, rb, sc, cfg, s);
      const G1Jacobian want = mul_vartime(g, expected_log(sc, bases.logs, {}, 0));
      EXPECT_TRUE(same_point(got, want))
          << "kind=" << static_cast<int>(kind) << " variant=" << variant << " n=" << n
          << " groups=" << st.window_groups << " seed=" << seed;
      EXPECT_TRUE(same_point(got, twin.to_jacobian()))
          << "against the classified path: variant=" << variant << " seed=" << seed;
      EXPECT_EQ(st.tail, n);
      EXPECT_EQ(st.ones, 0u);
    }
  }
  // G2, one size.
  const std::size_t n2 = 900 + rng() % 300;
  const Bases<G2Curve> b2 = make_bases<G2Curve>(n2, rng);
  ResidentBases rb2 = upload_bases_g2(*ctx, b2.points, s);
  const auto sc2 = make_scalars(n2, ScalarKind::mixed, rng);
  const G2Xyzz got2 = msm_g2_device(*ctx, rb2, sc2, {.dense_scalars = true}, s);
  EXPECT_TRUE(
      same_point(got2, mul_vartime(G2Jacobian::generator(), expected_log(sc2, b2.logs, {}, 0))))
      << "G2 n=" << n2 << " seed=" << seed;
  // Refused: density bits, and a compact witness.
  const auto [n, bits, offset] = draw_count(rng, nb, true);
  const auto sc = make_scalars(n, ScalarKind::random, rng);
  EXPECT_THROW(
      (void)msm_g1_device(*ctx, rb, sc,
                          {.density_bits = bits, .base_offset = offset, .dense_scalars = true}, s),
      CudaError);
  GpuMsmConfig compact{.dense_scalars = true};
  compact.compact.present = true;
  EXPECT_THROW((void)msm_g1_device(*ctx, rb, std::span<const Fr>(sc).first(nb / 2), compact, s),
               CudaError);
}

// The small-card path: a VRAM cap far below the working set of one MSM makes the arena small, the
// MSM sorts its windows in several groups, and the result is unchanged.
TEST(GpuMsm, VramCapForcesWindowGroups) {
  CUZK_REQUIRE_GPU();
  const std::size_t cap = std::size_t{16} << 20;
  auto c =
      DeviceContext::create({.vram_cap_bytes = cap, .pinned_buffer_bytes = std::size_t{4} << 20});
  ASSERT_TRUE(c.ok()) << c.status().to_string();
  auto& ctx = **c;
  EXPECT_LE(ctx.arena_bytes(), cap);
  const std::uint64_t seed = test::fresh_seed();
  std::mt19937_64 rng(seed);
  const std::size_t n = 30000 + rng() % 2000;
  const auto bases = make_bases<G1Curve>(n, rng);
  ResidentBases rb = upload_bases_g1(ctx, bases.points, ctx.stream());
  const auto sc =
      make_scalars(n, ScalarKind::random, rng);  // every scalar in the tail: ≈ 0.5 MB per window
  const G1Jacobian want = mul_vartime(G1Jacobian::generator(), expected_log(sc, bases.logs, {}, 0));
  GpuMsmStats st;
  for (const bool scaled : {false, true}) {  // GpuMsmConfig::scale_group_chunks
    GpuMsmConfig cfg;
    cfg.scale_group_chunks = scaled;
    const G1Xyzz got = msm_g1_device(ctx, rb, sc, cfg, ctx.stream(), &st);
    EXPECT_GT(st.window_groups, 1)
        << "the cap should not leave room for all " << st.windows << " windows";
    EXPECT_TRUE(same_point(got, want)) << "n=" << n << " groups=" << st.window_groups
                                       << " scaled chunks=" << scaled << " seed=" << seed;
  }
  std::printf("arena %zu bytes, %d windows in %d groups\n", ctx.arena_bytes(), st.windows,
              st.window_groups);
  // A request larger than the whole arena is refused with out_of_memory, not a device error.
  EXPECT_EQ(ctx.alloc(cap + 1, "too large").status().code(), Errc::out_of_memory);
}

}  // namespace
}  // namespace cuzk::gpu
