// MSM tests: the signed-window recoding against big-integer reconstruction, and Pippenger (every
// window width, chunking, thread count, split mode, density) against the naive double-and-add MSM
// at random sizes that are not powers of two, with identity bases, duplicated and negated bases,
// and the scalars 0, 1, r − 1; the endomorphism split (GLV on G1, GLS on G2) on and off, its scalar
// decompositions at the balancing boundaries. Every test prints its seed (CUZK_SEED=… replays one).
#include <gtest/gtest.h>

#include <initializer_list>
#include <type_traits>

#include <random>
#include <vector>

#include "cuzk/ec/batch_affine.hpp"
#include "cuzk/ec/g1.hpp"
#include "cuzk/ec/g2.hpp"
#include "cuzk/ec/test_util.hpp"
#include "cuzk/msm/affine_buckets.hpp"
#include "cuzk/msm/bit_split.hpp"
#include "cuzk/msm/digits.hpp"
#include "cuzk/msm/endomorphism.hpp"
#include "cuzk/msm/ifma_buckets.hpp"
#include "cuzk/msm/msm.hpp"
#include "cuzk/msm/naive.hpp"
#include "cuzk/msm/pippenger.hpp"

namespace cuzk {
namespace {

using ec_test::fresh_seed;
using ec_test::random_fr;

const Fr kMinusOne = -Fr::one();

// n subgroup bases from a few random multiples of the generator and cheap additions; then about
// 1/16 identities, 1/16 copies of an earlier base and 1/32 negations of one.
template <class C>
std::vector<Affine<C>> make_bases(std::size_t n, std::mt19937_64& rng) {
  std::vector<Jacobian<C>> seeds;
  for (int i = 0; i < 5; ++i) seeds.push_back(ec_test::random_subgroup_point<C>(rng));
  std::vector<Jacobian<C>> jac(n);
  Jacobian<C> acc = seeds[0];
  for (std::size_t i = 0; i < n; ++i) {
    acc += seeds[1 + rng() % 4];
    jac[i] = acc;
  }
  auto out = batch_to_affine_vartime<C>(jac);
  for (std::size_t i = 0; i < n; ++i) {
    const auto r = rng() % 32;
    if (r < 2)
      out[i] = Affine<C>::identity();
    else if (r < 4 && i > 0)
      out[i] = out[rng() % i];
    else if (r < 5 && i > 0)
      out[i] = -out[rng() % i];
  }
  return out;
}

// Random scalars with about 1/8 zeros, 1/8 ones, 1/16 r − 1 and a few small values.
std::vector<Fr> make_scalars(std::size_t n, std::mt19937_64& rng) {
  std::vector<Fr> s(n);
  for (auto& k : s) {
    const auto r = rng() % 16;
    if (r == 0)
      k = Fr::zero();
    else if (r == 1)
      k = Fr::one();
    else if (r == 2)
      k = kMinusOne;
    else if (r == 3)
      k = Fr::from_u64(rng() % 1000);
    else
      k = random_fr(rng);
  }
  return s;
}

// Σ d_j·2^(cj) over Fr.
Fr digits_value(const SignedWindowPlan& plan, const std::uint64_t* kr) {
  Fr acc = Fr::zero();
  const Fr radix = Fr::from_u64(2).pow_u64(plan.c);
  for (unsigned j = plan.windows; j-- > 0;) {
    const std::int32_t d = msm_signed_digit(plan, kr, j);
    const Fr dv =
        Fr::from_u64(static_cast<std::uint64_t>(d < 0 ? -static_cast<std::int64_t>(d) : d));
    acc = acc * radix + (d < 0 ? -dv : dv);
  }
  return acc;
}

TEST(MsmDigits, RecodingReconstructsTheScalarWithinRange) {
  const auto seed = fresh_seed();
  std::mt19937_64 rng(seed);
  for (unsigned c = 1; c <= 24; ++c) {
    const SignedWindowPlan plan = SignedWindowPlan::make(c);
    ASSERT_GE(plan.windows * c, 256u);
    ASSERT_LT((plan.windows - 1) * c, 256u);
    std::vector<Fr> ks = {Fr::zero(), Fr::one(), kMinusOne, Fr::from_u64(2), -Fr::from_u64(2)};
    for (int i = 0; i < 40; ++i) ks.push_back(random_fr(rng));
    for (const Fr& k : ks) {
      const auto kc = k.to_canonical();
      std::uint64_t kr[4];
      msm_recode(plan, kc.data(), kr);
      EXPECT_EQ(digits_value(plan, kr), k) << "c=" << c << " k=" << k.to_hex() << " seed=" << seed;
      for (unsigned j = 0; j < plan.windows; ++j) {
        const std::int32_t d = msm_signed_digit(plan, kr, j);
        const std::int64_t half = std::int64_t{1} << (c - 1);
        EXPECT_LE(d, half) << "c=" << c << " j=" << j;
        EXPECT_GE(d, -half) << "c=" << c << " j=" << j;
        if (j + 1 == plan.windows) {
          EXPECT_GE(d, 0);
        }
      }
      if (k.is_zero()) {
        for (unsigned j = 0; j < plan.windows; ++j) EXPECT_EQ(msm_signed_digit(plan, kr, j), 0);
      }
    }
  }
}

TEST(MsmDigits, ExtractBitsCrossesLimbs) {
  const std::uint64_t v[4] = {0x8000000000000001ULL, 0x3ULL, 0, 0xf000000000000000ULL};
  EXPECT_EQ(msm_extract_bits(v, 63, 3), 0x7u);
  EXPECT_EQ(msm_extract_bits(v, 0, 2), 0x1u);
  EXPECT_EQ(msm_extract_bits(v, 252, 8), 0xfu);  // bits past 256 read as zero
  EXPECT_EQ(msm_extract_bits(v, 256, 8), 0u);
}

// λ and scalars around the boundaries of the GLV balancing (multiples of λ, λ/2, r − 1).
std::vector<Fr> glv_boundary_scalars(std::mt19937_64& rng) {
  const Fr lam = Fr::from_limbs_reduce(Limbs<4>{kGlvLambda[0], kGlvLambda[1], 0, 0});
  const Fr half = Fr::from_limbs_reduce(
      Limbs<4>{(kGlvLambda[0] >> 1) | (kGlvLambda[1] << 63), kGlvLambda[1] >> 1, 0, 0});
  std::vector<Fr> ks = {Fr::zero(),
                        Fr::one(),
                        kMinusOne,
                        -Fr::from_u64(2),
                        lam,
                        lam - Fr::one(),
                        lam + Fr::one(),
                        half,
                        half + Fr::one(),
                        half - Fr::one(),
                        lam * lam,
                        lam * lam - Fr::one(),
                        -lam,
                        -lam - Fr::one(),
                        lam + half,
                        lam + half + Fr::one(),
                        lam * half,
                        lam * (half + Fr::one()),
                        Fr::from_u64(kBlsXAbs),
                        Fr::from_u64(kBlsXAbs) * Fr::from_u64(kBlsXAbs)};
  for (int i = 0; i < 8; ++i) {
    const Fr e = Fr::from_u64(rng() % 5);
    ks.push_back(lam * random_fr(rng) + e);
    ks.push_back(lam * (half + e) + half - e);
  }
  for (int i = 0; i < 200; ++i) ks.push_back(random_fr(rng));
  return ks;
}

TEST(MsmEndomorphism, GlvHalvesReconstructTheScalar) {
  const auto seed = fresh_seed();
  std::mt19937_64 rng(seed);
  const Fr lam = Fr::from_limbs_reduce(Limbs<4>{kGlvLambda[0], kGlvLambda[1], 0, 0});
  for (const Fr& k : glv_boundary_scalars(rng)) {
    const GlvHalves h = glv_split_g1(k.to_canonical());
    EXPECT_EQ(h.m1[1] >> 63, 0u) << k.to_hex() << " seed=" << seed;  // < 2^127
    EXPECT_EQ(h.m2[1] >> 63, 0u) << k.to_hex() << " seed=" << seed;
    const Fr m1 = Fr::from_limbs_reduce(Limbs<4>{h.m1[0], h.m1[1], 0, 0});
    const Fr m2 = Fr::from_limbs_reduce(Limbs<4>{h.m2[0], h.m2[1], 0, 0});
    EXPECT_EQ((h.neg1 ? -m1 : m1) + (h.neg2 ? -m2 : m2) * lam, k) << k.to_hex() << " seed=" << seed;
  }
}

TEST(MsmEndomorphism, GlsDigitsReconstructTheScalar) {
  const auto seed = fresh_seed();
  std::mt19937_64 rng(seed);
  const Fr x = Fr::from_u64(kBlsXAbs);
  for (const Fr& k : glv_boundary_scalars(rng)) {
    std::uint64_t a[4];
    gls_split_g2(k.to_canonical(), a);
    Fr acc = Fr::zero();
    for (int t = 4; t-- > 0;) {
      EXPECT_LT(a[t], kBlsXAbs);
      acc = acc * x + Fr::from_u64(a[t]);
    }
    EXPECT_EQ(acc, k) << k.to_hex() << " seed=" << seed;
  }
}

// The split MSM on the boundary scalars, every accumulation, against the naive MSM.
template <class C>
void check_endomorphism_boundaries() {
  const auto seed = fresh_seed();
  std::mt19937_64 rng(seed);
  ThreadPool pool(2);
  const auto ks = glv_boundary_scalars(rng);
  const auto bases = make_bases<C>(ks.size(), rng);
  const auto expect = msm_naive<C>(bases, ks);
  ASSERT_TRUE(expect.has_value());
  for (unsigned c : {0u, 4u, 7u, 10u, 13u}) {
    const auto got = msm<C>(bases, ks, pool,
                            {.split = MsmSplit::never,
                             .pippenger = {.window_bits = c, .endomorphism = MsmEndomorphism::on}});
    ASSERT_TRUE(got.ok());
    EXPECT_TRUE(*got == *expect) << C::name << " c=" << c << " seed=" << seed;
  }
}

TEST(MsmEndomorphism, G1BoundaryScalarsMatchNaive) { check_endomorphism_boundaries<G1Curve>(); }
TEST(MsmEndomorphism, G2BoundaryScalarsMatchNaive) { check_endomorphism_boundaries<G2Curve>(); }

template <class C>
void check_against_naive(std::size_t max_n, int rounds) {
  const auto seed = fresh_seed();
  std::mt19937_64 rng(seed);
  ThreadPool pool1(1), pool3(3);
  for (int round = 0; round < rounds; ++round) {
    std::size_t n = 1 + rng() % max_n;
    if ((n & (n - 1)) == 0) ++n;
    const auto bases = make_bases<C>(n, rng);
    const auto scalars = make_scalars(n, rng);
    const auto expect = msm_naive<C>(bases, scalars);
    ASSERT_TRUE(expect.has_value());
    ThreadPool& pool = (round % 2) ? pool3 : pool1;
    const MsmSplit split = round % 3 == 0
                               ? MsmSplit::never
                               : (round % 3 == 1 ? MsmSplit::always : MsmSplit::automatic);
    MsmConfig cfg{.split = split};
    if (round % 4 != 3) cfg.pippenger.window_bits = 1 + static_cast<unsigned>(rng() % 12);
    if (round % 5 == 4) cfg.pippenger.chunks = 1 + static_cast<unsigned>(rng() % 5);
    cfg.pippenger.accumulation = static_cast<PippengerAccumulation>(rng() % 3);
    cfg.pippenger.endomorphism = static_cast<MsmEndomorphism>(rng() % 3);
    const auto got = msm<C>(bases, scalars, pool, cfg);
    ASSERT_TRUE(got.ok()) << got.status().to_string();
    EXPECT_TRUE(*got == *expect) << C::name << " n=" << n << " c=" << cfg.pippenger.window_bits
                                 << " chunks=" << cfg.pippenger.chunks
                                 << " split=" << static_cast<int>(split)
                                 << " acc=" << static_cast<int>(cfg.pippenger.accumulation)
                                 << " endo=" << static_cast<int>(cfg.pippenger.endomorphism)
                                 << " threads=" << pool.size() << " seed=" << seed;
  }
}

TEST(MsmPippenger, G1MatchesNaive) { check_against_naive<G1Curve>(300, 30); }
TEST(MsmPippenger, G2MatchesNaive) { check_against_naive<G2Curve>(90, 14); }

// Every configuration of the fast paths agrees at a size where the naive MSM would be slow.
TEST(MsmPippenger, ConfigurationsAgreeAtMediumSize) {
  const auto seed = fresh_seed();
  std::mt19937_64 rng(seed);
  ThreadPool pool(2);
  const std::size_t n = 1500 + rng() % 700;
  const auto bases = make_bases<G1Curve>(n, rng);
  const auto scalars = make_scalars(n, rng);
  const auto ref = msm<G1Curve>(bases, scalars, pool, {.split = MsmSplit::never});
  ASSERT_TRUE(ref.ok());
  for (unsigned c : {0u, 5u, 11u}) {
    for (unsigned p : {0u, 1u, 3u}) {
      for (MsmSplit s : {MsmSplit::never, MsmSplit::always}) {
        for (auto acc : {PippengerAccumulation::xyzz, PippengerAccumulation::batch_affine}) {
          for (auto endo : {MsmEndomorphism::off, MsmEndomorphism::on}) {
            if (p == 1 && acc == PippengerAccumulation::xyzz) continue;
            MsmConfig cfg{.split = s};
            cfg.pippenger = {
                .window_bits = c, .chunks = p, .accumulation = acc, .endomorphism = endo};
            const auto got = msm<G1Curve>(bases, scalars, pool, cfg);
            ASSERT_TRUE(got.ok());
            EXPECT_TRUE(*got == *ref)
                << "n=" << n << " c=" << c << " p=" << p << " acc=" << static_cast<int>(acc)
                << " split=" << static_cast<int>(s) << " endo=" << static_cast<int>(endo)
                << " seed=" << seed;
          }
        }
      }
    }
  }
  // A spot check of the whole sum against the naive MSM on a random slice.
  const std::size_t b = rng() % (n - 100), len = 37 + rng() % 50;
  const auto sb = std::span(bases).subspan(b, len);
  const auto ss = std::span(scalars).subspan(b, len);
  EXPECT_TRUE(*msm<G1Curve>(sb, ss, pool) == *msm_naive<G1Curve>(sb, ss)) << "seed=" << seed;
}

template <class C>
void check_special_scalars() {
  const auto seed = fresh_seed();
  std::mt19937_64 rng(seed);
  ThreadPool pool(2);
  const std::size_t n = 77 + rng() % 40;
  auto bases = make_bases<C>(n, rng);
  for (int mode = 0; mode < 12; ++mode) {
    const MsmSplit s = static_cast<MsmSplit>(mode % 3);
    MsmConfig cfg{.split = s};
    if (mode / 3 == 1)
      cfg.pippenger = {.window_bits = 10, .accumulation = PippengerAccumulation::batch_affine};
    if (mode / 3 == 2) cfg.pippenger = {.endomorphism = MsmEndomorphism::on};
    if (mode / 3 == 3) {
      cfg.pippenger = {.window_bits = 10,
                       .accumulation = PippengerAccumulation::batch_affine,
                       .endomorphism = MsmEndomorphism::on};
    }
    // All zeros: the identity.
    std::vector<Fr> zeros(n, Fr::zero());
    EXPECT_TRUE(msm<C>(bases, zeros, pool, cfg)->is_identity()) << "seed=" << seed;
    // All ones: the plain sum of the bases.
    std::vector<Fr> ones(n, Fr::one());
    Jacobian<C> sum = Jacobian<C>::identity();
    for (const auto& b : bases) sum += b;
    EXPECT_TRUE(*msm<C>(bases, ones, pool, cfg) == sum) << "seed=" << seed;
    // All r − 1: minus the sum.
    std::vector<Fr> minus(n, kMinusOne);
    EXPECT_TRUE(*msm<C>(bases, minus, pool, cfg) == -sum) << "seed=" << seed;
    // Only identity bases.
    std::vector<Affine<C>> ids(n, Affine<C>::identity());
    EXPECT_TRUE(msm<C>(ids, make_scalars(n, rng), pool, cfg)->is_identity()) << "seed=" << seed;
    // One base repeated with k and −k cancels; with k and k doubles.
    std::vector<Affine<C>> same(n, bases[0].is_identity() ? Affine<C>::generator() : bases[0]);
    std::vector<Fr> pm(n);
    for (std::size_t i = 0; i < n; ++i) pm[i] = (i % 2) ? -pm[i - 1] : random_fr(rng);
    if (n % 2) pm[n - 1] = Fr::zero();
    EXPECT_TRUE(msm<C>(same, pm, pool, cfg)->is_identity()) << "seed=" << seed;
    std::vector<Fr> twice(n, Fr::from_u64(3));
    EXPECT_TRUE(*msm<C>(same, twice, pool, cfg) ==
                *msm_naive<C>(std::span(same).subspan(0, 1), std::vector<Fr>{Fr::from_u64(3 * n)}))
        << "seed=" << seed;
  }
  // Empty input.
  EXPECT_TRUE(msm<C>(bases, std::span<const Fr>{}, pool)->is_identity());
}

// Few distinct scalars and bases: batches fill with collisions, queues overflow, and equal points
// meet in buckets (doublings and cancellations inside the batch-affine accumulation; on G2 its
// inversion runs over the denominators' norms in Fp).
// Batch-affine accumulation at each window in |windows| (0: automatic), with and without the
// endomorphism split, against |ref| (the XYZZ sum), no 0/1 split.
template <class C>
void expect_batch_affine_matches(std::span<const Affine<C>> bases, std::span<const Fr> scalars,
                                 ThreadPool& pool, const Jacobian<C>& ref,
                                 std::initializer_list<unsigned> windows, const std::string& what) {
  for (unsigned c : windows) {
    for (auto endo : {MsmEndomorphism::off, MsmEndomorphism::on}) {
      const auto got = msm<C>(bases, scalars, pool,
                              {.split = MsmSplit::never,
                               .pippenger = {.window_bits = c,
                                             .accumulation = PippengerAccumulation::batch_affine,
                                             .endomorphism = endo}});
      ASSERT_TRUE(got.ok());
      EXPECT_TRUE(*got == ref) << C::name << " c=" << c << " endo=" << static_cast<int>(endo) << " "
                               << what;
    }
  }
}

template <class C>
void check_batch_affine_collisions(std::size_t min_n) {
  const auto seed = fresh_seed();
  std::mt19937_64 rng(seed);
  ThreadPool pool(2);
  const std::size_t n = min_n + rng() % (min_n / 3);
  const auto few = make_bases<C>(3, rng);
  const Fr ks[3] = {random_fr(rng), random_fr(rng), Fr::from_u64(5)};
  std::vector<Affine<C>> bases(n);
  std::vector<Fr> scalars(n);
  for (std::size_t i = 0; i < n; ++i) {
    bases[i] = (rng() % 2) ? few[rng() % 3] : -few[rng() % 3];
    scalars[i] = ks[rng() % 3];
  }
  const auto ref = msm<C>(
      bases, scalars, pool,
      {.split = MsmSplit::never, .pippenger = {.accumulation = PippengerAccumulation::xyzz}});
  ASSERT_TRUE(ref.ok());
  expect_batch_affine_matches<C>(bases, scalars, pool, *ref, {10u, 13u},
                                 "n=" + std::to_string(n) + " seed=" + std::to_string(seed));
  // And the whole sum against a short naive computation: Σ over the three (base, scalar) classes.
  Jacobian<C> expect = Jacobian<C>::identity();
  for (std::size_t i = 0; i < n; ++i)
    expect += mul_vartime(Jacobian<C>::from_affine(bases[i]), scalars[i]);
  EXPECT_TRUE(*ref == expect) << C::name << " seed=" << seed;
}
// Skewed digits: most scalars small (2..199, so window 0's few low buckets fill the queue and
// batches run early, add()), the rest random, plus a run of only ones and zeros (one hot bucket:
// early runs stop and the rest overflows into XYZZ buckets); batch-affine at c = 10..13, with and
// without the endomorphism split, against XYZZ buckets, and the XYZZ sum against a naive slice.
template <class C>
void check_skewed_small_scalars(std::size_t min_n) {
  const auto seed = fresh_seed();
  std::mt19937_64 rng(seed);
  ThreadPool pool(2);
  std::size_t n = min_n + rng() % (min_n / 3);
  if ((n & (n - 1)) == 0) ++n;
  const auto bases = make_bases<C>(n, rng);
  for (int kind = 0; kind < 2; ++kind) {
    std::vector<Fr> scalars(n);
    for (auto& k : scalars) {
      if (kind == 1)
        k = Fr::from_u64(rng() % 2);
      else
        k = (rng() % 10 < 6) ? Fr::from_u64(2 + rng() % 198) : random_fr(rng);
    }
    const auto ref = msm<C>(
        bases, scalars, pool,
        {.split = MsmSplit::never, .pippenger = {.accumulation = PippengerAccumulation::xyzz}});
    ASSERT_TRUE(ref.ok());
    expect_batch_affine_matches<C>(bases, scalars, pool, *ref, {10u, 11u, 13u},
                                   "kind=" + std::to_string(kind) + " n=" + std::to_string(n) +
                                       " seed=" + std::to_string(seed));
    // The first 40 terms against the naive MSM (the XYZZ path's own checks cover the rest).
    const std::size_t m = 40;
    const auto head = msm<C>(
        std::span(bases).subspan(0, m), std::span<const Fr>(scalars).subspan(0, m), pool,
        {.split = MsmSplit::never,
         .pippenger = {.window_bits = 10, .accumulation = PippengerAccumulation::batch_affine}});
    const auto naive =
        msm_naive<C>(std::span(bases).subspan(0, m), std::span<const Fr>(scalars).subspan(0, m));
    EXPECT_TRUE(head.ok() && *head == *naive) << C::name << " kind=" << kind << " seed=" << seed;
  }
}

// The 0/1 split's sum of the ones (sum_bases_unchecked): batch-affine round-robin buckets from 4096
// points per chunk, the XYZZ chain below, against the Jacobian sum. Lists: random picks (with the
// bases' identities, copies and negations), one base repeated (every batch entry a doubling after the
// first round), and pairs P, −P 256 places apart (they meet in one bucket and cancel, so rounds fall
// out of step with the batches and entries wait in the queue); pools of 1 and 3 threads.
template <class C>
void check_sum_bases() {
  const auto seed = fresh_seed();
  std::mt19937_64 rng(seed);
  const std::size_t nb = 3000 + rng() % 2000;
  auto bases = make_bases<C>(nb, rng);
  const std::uint32_t repeated = static_cast<std::uint32_t>(rng() % nb);
  const std::size_t neg_from = bases.size();
  for (std::size_t i = 0; i < 600; ++i) bases.push_back(-bases[rng() % nb]);
  for (int kind = 0; kind < 3; ++kind) {
    const std::size_t n = (kind == 1 ? 4096 : 9000) + rng() % 3000;
    std::vector<std::uint32_t> idx(n);
    for (std::size_t i = 0; i < n; ++i) {
      if (kind == 0)
        idx[i] = static_cast<std::uint32_t>(rng() % bases.size());
      else if (kind == 1)
        idx[i] = repeated;
      else
        idx[i] = static_cast<std::uint32_t>(rng() % nb);
    }
    if (kind == 2) {
      for (std::size_t j = 0; j < 600 && 300 + j + 256 < n; ++j) {
        idx[300 + j] = static_cast<std::uint32_t>(neg_from + j);
        idx[300 + j + 256] = 0;  // set below: the base that neg_from + j negates
      }
      for (std::size_t j = 0; j < 600 && 300 + j + 256 < n; ++j) {
        const auto& q = bases[neg_from + j];
        for (std::uint32_t b = 0; b < nb; ++b) {
          if (bases[b] == -q) {
            idx[300 + j + 256] = b;
            break;
          }
        }
      }
    }
    Jacobian<C> expect = Jacobian<C>::identity();
    for (const auto i : idx) expect += Jacobian<C>::from_affine(bases[i]);
    for (std::size_t threads : {1u, 3u}) {
      ThreadPool pool(threads);
      const auto got = sum_bases_unchecked<C>(bases, idx, pool);
      EXPECT_TRUE(got == expect) << C::name << " kind=" << kind << " n=" << n
                                 << " threads=" << threads << " seed=" << seed;
      // A list under 4096 points takes the XYZZ chain.
      const auto head =
          sum_bases_unchecked<C>(bases, std::span<const std::uint32_t>(idx).subspan(0, 1000), pool);
      Jacobian<C> head_expect = Jacobian<C>::identity();
      for (std::size_t i = 0; i < 1000; ++i) head_expect += Jacobian<C>::from_affine(bases[idx[i]]);
      EXPECT_TRUE(head == head_expect) << C::name << " kind=" << kind << " seed=" << seed;
    }
  }
  // total() directly, with a hot bucket: most points into bucket 0 fill the queue, early runs stop
  // and the rest goes to the XYZZ overflow bucket, which total() must include.
  const std::size_t m = 2000;
  Jacobian<C> expect = Jacobian<C>::identity();
  for (std::size_t i = 0; i < m; ++i) expect += Jacobian<C>::from_affine(bases[i]);
  auto feed = [&](auto& buckets) {
    using Buckets = std::remove_reference_t<decltype(buckets)>;
    // A first window left without finish(): reset() must drop its overflow buckets.
    for (std::size_t i = 0; i < m / 2; ++i) {
      if (!bases[i].infinity) buckets.add(0u, Buckets::bucket_form(bases[i]));
    }
    buckets.reset(16);
    for (std::size_t i = 0; i < m; ++i) {
      if (!bases[i].infinity)
        buckets.add(i % 8 == 0 ? static_cast<std::uint32_t>(1 + i % 3) : 0u,
                    Buckets::bucket_form(bases[i]));
    }
    buckets.finish();
    return Jacobian<C>(buckets.total().to_jacobian());
  };
  AffineBuckets<C> plain(4, 16);
  EXPECT_TRUE(feed(plain) == expect) << C::name << " hot bucket seed=" << seed;
#if CUZK_FF_IFMA
  if (ifma::ifma_kernel_available()) {
    ifma::IfmaBuckets<C> lanes(4, 16);
    EXPECT_TRUE(feed(lanes) == expect) << C::name << " hot bucket (IFMA) seed=" << seed;
  }
#endif
}

TEST(MsmPippenger, BatchAffineCollisionsAgreeWithXyzz) {
  check_batch_affine_collisions<G1Curve>(1200);
}
TEST(MsmPippenger, G2BatchAffineCollisionsAgreeWithXyzz) {
  check_batch_affine_collisions<G2Curve>(600);
}

// G2 at a medium size that is not a power of two: batch-affine accumulation (norm inversion, lazy
// Fp2 products) at c = 10..13, with and without the GLS split, against XYZZ buckets, and a random
// slice against the naive MSM.
TEST(MsmPippenger, G2BatchAffineAgreesWithXyzzAtMediumSize) {
  const auto seed = fresh_seed();
  std::mt19937_64 rng(seed);
  ThreadPool pool(2);
  const std::size_t n = 2500 + rng() % 900;
  const auto bases = make_bases<G2Curve>(n, rng);
  const auto scalars = make_scalars(n, rng);
  const auto ref = msm<G2Curve>(bases, scalars, pool,
                                {.split = MsmSplit::never,
                                 .pippenger = {.window_bits = 7,
                                               .accumulation = PippengerAccumulation::xyzz,
                                               .endomorphism = MsmEndomorphism::off}});
  ASSERT_TRUE(ref.ok());
  expect_batch_affine_matches<G2Curve>(bases, scalars, pool, *ref, {0u, 10u, 11u, 13u},
                                       "n=" + std::to_string(n) + " seed=" + std::to_string(seed));
  const std::size_t b = rng() % (n - 100), len = 23 + rng() % 40;
  const auto sb = std::span(bases).subspan(b, len);
  const auto ss = std::span(scalars).subspan(b, len);
  EXPECT_TRUE(*msm<G2Curve>(sb, ss, pool) == *msm_naive<G2Curve>(sb, ss)) << "seed=" << seed;
}

TEST(MsmPippenger, G1SpecialScalarsAndBases) { check_special_scalars<G1Curve>(); }
TEST(MsmPippenger, G2SpecialScalarsAndBases) { check_special_scalars<G2Curve>(); }

// |window_bits| 0: the automatic shape (XYZZ at these sizes); 10: batch-affine buckets.
template <class C>
void check_density(unsigned window_bits = 0) {
  const auto seed = fresh_seed();
  std::mt19937_64 rng(seed);
  ThreadPool pool(3);
  for (int round = 0; round < 6; ++round) {
    const std::size_t n = 40 + rng() % 200;
    std::vector<std::uint64_t> bits((n + 63) / 64 + (round % 2));  // sometimes one spare word
    for (auto& w : bits) w = (round == 0) ? 0 : (round == 1 ? ~std::uint64_t{0} : rng() & rng());
    std::size_t selected = 0;
    for (std::size_t i = 0; i < n; ++i) selected += (bits[i / 64] >> (i % 64)) & 1;
    const std::size_t offset = rng() % 7;
    const auto bases = make_bases<C>(offset + selected + rng() % 3, rng);
    const auto scalars = make_scalars(n, rng);
    const auto expect = msm_naive<C>(bases, scalars, bits, offset);
    ASSERT_TRUE(expect.has_value());
    for (MsmSplit s : {MsmSplit::never, MsmSplit::always}) {
      MsmReport report;
      const auto endo = static_cast<MsmEndomorphism>(rng() % 3);
      const auto got = msm<C>(bases, scalars, pool,
                              {.density_bits = bits,
                               .base_offset = offset,
                               .split = s,
                               .pippenger = {.window_bits = window_bits, .endomorphism = endo}},
                              &report);
      ASSERT_TRUE(got.ok()) << got.status().to_string();
      EXPECT_TRUE(*got == *expect) << "n=" << n << " selected=" << selected << " seed=" << seed;
      EXPECT_EQ(report.selected, selected);
    }
    // One base too few: size_mismatch (when anything is selected).
    if (selected > 0) {
      const auto short_bases = std::span(bases).subspan(0, offset + selected - 1);
      const auto bad =
          msm<C>(short_bases, scalars, pool, {.density_bits = bits, .base_offset = offset});
      EXPECT_EQ(bad.status().code(), Errc::size_mismatch);
      EXPECT_FALSE(msm_naive<C>(short_bases, scalars, bits, offset).has_value());
    }
  }
  // A bitmap shorter than the scalars.
  const auto bases = make_bases<C>(200, rng);
  const auto scalars = make_scalars(130, rng);
  std::vector<std::uint64_t> two(2, ~std::uint64_t{0});
  EXPECT_EQ(msm<C>(bases, scalars, pool, {.density_bits = two}).status().code(),
            Errc::size_mismatch);
  // Dense with an offset past the end.
  EXPECT_EQ(msm<C>(bases, scalars, pool, {.base_offset = 71}).status().code(), Errc::size_mismatch);
  EXPECT_TRUE(msm<C>(bases, scalars, pool, {.base_offset = 70}).ok());
}

TEST(MsmDensity, G1MatchesNaive) { check_density<G1Curve>(); }
TEST(MsmDensity, G2MatchesNaive) { check_density<G2Curve>(); }

// Batch-affine accumulation in IFMA lanes (ifma_buckets.hpp) and the scalar AffineBuckets, G1 and
// G2, both dispatch choices through the same checks (the IFMA one skipped where the CPU lacks IFMA).
class MsmIfmaDispatch : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    prev_ = set_msm_ifma_enabled(GetParam());
    if (GetParam() && !msm_ifma_enabled()) GTEST_SKIP() << "no AVX-512 IFMA on this CPU";
  }
  void TearDown() override { set_msm_ifma_enabled(prev_); }
  bool prev_ = false;
};
TEST_P(MsmIfmaDispatch, G1MatchesNaive) { check_against_naive<G1Curve>(300, 20); }
TEST_P(MsmIfmaDispatch, G1SpecialScalarsAndBases) { check_special_scalars<G1Curve>(); }
TEST_P(MsmIfmaDispatch, G1BatchAffineCollisions) { check_batch_affine_collisions<G1Curve>(1200); }
TEST_P(MsmIfmaDispatch, G1DensityBatchAffine) { check_density<G1Curve>(10); }
TEST_P(MsmIfmaDispatch, G1EndomorphismBoundaries) { check_endomorphism_boundaries<G1Curve>(); }
TEST_P(MsmIfmaDispatch, G2MatchesNaive) { check_against_naive<G2Curve>(90, 10); }
TEST_P(MsmIfmaDispatch, G2SpecialScalarsAndBases) { check_special_scalars<G2Curve>(); }
TEST_P(MsmIfmaDispatch, G2BatchAffineCollisions) { check_batch_affine_collisions<G2Curve>(600); }
TEST_P(MsmIfmaDispatch, G2DensityBatchAffine) { check_density<G2Curve>(10); }
TEST_P(MsmIfmaDispatch, G2EndomorphismBoundaries) { check_endomorphism_boundaries<G2Curve>(); }
TEST_P(MsmIfmaDispatch, G1SkewedSmallScalars) { check_skewed_small_scalars<G1Curve>(3000); }
TEST_P(MsmIfmaDispatch, G2SkewedSmallScalars) { check_skewed_small_scalars<G2Curve>(1500); }
TEST_P(MsmIfmaDispatch, G1SumOfOnes) { check_sum_bases<G1Curve>(); }
TEST_P(MsmIfmaDispatch, G2SumOfOnes) { check_sum_bases<G2Curve>(); }
INSTANTIATE_TEST_SUITE_P(Msm, MsmIfmaDispatch, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& i) {
                           return i.param ? "ifma" : "scalar";
                         });

// The IFMA path against the scalar batch-affine path and XYZZ buckets at random sizes that are not
// powers of two (window 10..14, GLV on and off, 1..3 chunks, one and two threads).
TEST(MsmIfma, G1AgreesWithScalarPathAtRandomSizes) {
  if (!ifma::ifma_kernel_available()) GTEST_SKIP() << "no AVX-512 IFMA on this CPU";
  const auto seed = fresh_seed();
  std::mt19937_64 rng(seed);
  ThreadPool pool1(1), pool2(2);
  const bool prev = set_msm_ifma_enabled(true);
  for (int round = 0; round < 6; ++round) {
    std::size_t n = 1000 + rng() % 5000;
    if ((n & (n - 1)) == 0) ++n;
    const auto bases = make_bases<G1Curve>(n, rng);
    const auto scalars = make_scalars(n, rng);
    ThreadPool& pool = round % 2 ? pool2 : pool1;
    MsmConfig cfg{.split = round % 3 == 0 ? MsmSplit::automatic : MsmSplit::never};
    cfg.pippenger = {.window_bits = 10 + static_cast<unsigned>(rng() % 5),
                     .chunks = 1 + static_cast<unsigned>(rng() % 3),
                     .accumulation = PippengerAccumulation::batch_affine,
                     .endomorphism = round % 2 ? MsmEndomorphism::on : MsmEndomorphism::off};
    set_msm_ifma_enabled(true);
    const auto fast = msm<G1Curve>(bases, scalars, pool, cfg);
    set_msm_ifma_enabled(false);
    const auto scalar = msm<G1Curve>(bases, scalars, pool, cfg);
    cfg.pippenger.accumulation = PippengerAccumulation::xyzz;
    const auto xyzz = msm<G1Curve>(bases, scalars, pool, cfg);
    ASSERT_TRUE(fast.ok() && scalar.ok() && xyzz.ok());
    EXPECT_TRUE(*fast == *scalar && *fast == *xyzz)
        << "n=" << n << " c=" << cfg.pippenger.window_bits << " chunks=" << cfg.pippenger.chunks
        << " endo=" << static_cast<int>(cfg.pippenger.endomorphism) << " threads=" << pool.size()
        << " seed=" << seed;
  }
  // The automatic shape (GLV, batch-affine) at a size with many full batches, against the naive
  // MSM on a slice and the scalar path on the whole.
  const std::size_t n = 20000 + rng() % 3000;
  const auto bases = make_bases<G1Curve>(n, rng);
  const auto scalars = make_scalars(n, rng);
  set_msm_ifma_enabled(true);
  const auto fast = msm<G1Curve>(bases, scalars, pool2, {.split = MsmSplit::never});
  set_msm_ifma_enabled(false);
  const auto scalar = msm<G1Curve>(bases, scalars, pool2, {.split = MsmSplit::never});
  set_msm_ifma_enabled(prev);
  ASSERT_TRUE(fast.ok() && scalar.ok());
  EXPECT_TRUE(*fast == *scalar) << "n=" << n << " seed=" << seed;
}

// G2: the IFMA path (Fp2 on IFMA lanes, inversion over the norms) against the scalar batch-affine
// path and XYZZ buckets at random sizes that are not powers of two.
TEST(MsmIfma, G2AgreesWithScalarPathAtRandomSizes) {
  if (!ifma::ifma_kernel_available()) GTEST_SKIP() << "no AVX-512 IFMA on this CPU";
  const auto seed = fresh_seed();
  std::mt19937_64 rng(seed);
  ThreadPool pool1(1), pool2(2);
  const bool prev = set_msm_ifma_enabled(true);
  for (int round = 0; round < 4; ++round) {
    std::size_t n = 700 + rng() % 2500;
    if ((n & (n - 1)) == 0) ++n;
    const auto bases = make_bases<G2Curve>(n, rng);
    const auto scalars = make_scalars(n, rng);
    ThreadPool& pool = round % 2 ? pool2 : pool1;
    MsmConfig cfg{.split = MsmSplit::never};
    cfg.pippenger = {.window_bits = 10 + static_cast<unsigned>(rng() % 4),
                     .chunks = 1 + static_cast<unsigned>(rng() % 2),
                     .accumulation = PippengerAccumulation::batch_affine,
                     .endomorphism = round % 2 ? MsmEndomorphism::on : MsmEndomorphism::off};
    set_msm_ifma_enabled(true);
    const auto fast = msm<G2Curve>(bases, scalars, pool, cfg);
    set_msm_ifma_enabled(false);
    const auto scalar = msm<G2Curve>(bases, scalars, pool, cfg);
    cfg.pippenger.accumulation = PippengerAccumulation::xyzz;
    const auto xyzz = msm<G2Curve>(bases, scalars, pool, cfg);
    ASSERT_TRUE(fast.ok() && scalar.ok() && xyzz.ok());
    EXPECT_TRUE(*fast == *scalar && *fast == *xyzz)
        << "n=" << n << " c=" << cfg.pippenger.window_bits << " chunks=" << cfg.pippenger.chunks
        << " endo=" << static_cast<int>(cfg.pippenger.endomorphism) << " threads=" << pool.size()
        << " seed=" << seed;
  }
  set_msm_ifma_enabled(prev);
}

// The R' = 2^416 form: to_rp / from_rp invert each other and scale by 2^32.
TEST(MsmIfma, RPrimeFormRoundTrips) {
  const auto seed = fresh_seed();
  std::mt19937_64 rng(seed);
  const Fp two32 = Fp::from_u64(std::uint64_t{1} << 32);
  for (int i = 0; i < 100; ++i) {
    Limbs<6> raw{};
    for (auto& w : raw) w = rng();
    const Fp x = Fp::from_limbs_reduce(raw);
    EXPECT_TRUE(ifma::from_rp(ifma::to_rp(x)) == x) << "seed=" << seed;
    // x·R' as raw limbs is the Fp element (x·2^32)·R.
    EXPECT_TRUE(ifma::to_rp(x) == x * two32) << "seed=" << seed;
  }
}

TEST(MsmBitSplit, PartsKeepOrderAndCounts) {
  const auto seed = fresh_seed();
  std::mt19937_64 rng(seed);
  const std::size_t n = 1000 + rng() % 500;
  const auto scalars = make_scalars(n, rng);
  std::vector<Limbs<4>> canon(n);
  for (std::size_t i = 0; i < n; ++i) canon[i] = scalars[i].to_canonical();
  const auto parts = bit_split(canon, {});
  std::size_t z = 0;
  std::vector<std::uint32_t> ones, tail;
  for (std::size_t i = 0; i < n; ++i) {
    if (scalars[i].is_zero())
      ++z;
    else if (scalars[i].is_one())
      ones.push_back(static_cast<std::uint32_t>(i));
    else
      tail.push_back(static_cast<std::uint32_t>(i));
  }
  EXPECT_EQ(parts.zeros, z) << "seed=" << seed;
  EXPECT_EQ(parts.ones, ones) << "seed=" << seed;
  EXPECT_EQ(parts.tail_indices, tail) << "seed=" << seed;
  ASSERT_EQ(parts.tail_scalars.size(), tail.size());
  for (std::size_t i = 0; i < tail.size(); ++i) EXPECT_EQ(parts.tail_scalars[i], canon[tail[i]]);
}

TEST(MsmShape, WindowGrowsWithSize) {
  unsigned prev = 0;
  for (std::size_t lg = 4; lg <= 26; lg += 2) {
    const auto s = pippenger_shape(std::size_t{1} << lg, 1, sizeof(G1Xyzz));
    EXPECT_GE(s.window_bits, prev) << "log n=" << lg;
    EXPECT_EQ(s.chunks, 1u);
    prev = s.window_bits;
  }
  // Many threads on few windows split the points.
  EXPECT_GT(pippenger_shape(std::size_t{1} << 22, 64, sizeof(G1Xyzz)).chunks, 1u);
}

}  // namespace
}  // namespace cuzk
