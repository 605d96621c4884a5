// The GPU NTT's host-side parts, checked on the CPU (no GPU needed): fr_mul's algorithm through its
// carry-flag emulation against the host Fr, and the pass programs of ntt_program.cuh run by a CPU
// emulation of ntt_step_kernel (same tile, butterfly and scaling indices, block after block) against
// poly/ntt: forward, inverse, both cosets, both H conventions, for many sizes and tile shapes (small
// tiles make many passes at small sizes).
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "cuzk/base/thread_pool.hpp"
#include "cuzk/gpu/ntt/fr_rows.cuh"
#include "cuzk/gpu/ntt/ntt_program.cuh"
#include "cuzk/poly/domain.hpp"
#include "cuzk/poly/ntt.hpp"
#include "tests/support/seed.hpp"

namespace cuzk::gpu {
namespace {

Fr emulated_fr_mul(const Fr& a, const Fr& b) {
  std::uint32_t la[8], lb[8], lr[8];
  std::memcpy(la, &a, sizeof(Fr));
  std::memcpy(lb, &b, sizeof(Fr));
  HostOps ops;
  fr_mul_detail::fr_mul_limbs(ops, lr, la, lb);
  Fr r;
  std::memcpy(&r, lr, sizeof(Fr));
  return r;
}

TEST(FrMul, MatchesHostProduct) {
  const std::uint64_t seed = test::fresh_seed();
  std::mt19937_64 rng(seed);
  std::vector<Fr> edge = {Fr::zero(),
                          Fr::one(),
                          -Fr::one(),
                          Fr::from_u64(2),
                          -Fr::from_u64(2),
                          Fr::from_u64(0xffffffffu),
                          Fr::from_u64(std::uint64_t{1} << 32)};
  // Montgomery forms whose low limb is 0 (t0 = 0 in the first row) and all-ones.
  for (std::uint64_t lo : {0ULL, 0xffffffffULL, 0xffffffff00000000ULL}) {
    Limbs<4> l{lo, rng(), rng(), rng() >> 2};
    Fr x;
    std::memcpy(static_cast<void*>(&x), l.data(), sizeof(l));
    edge.push_back(x);
  }
  for (const Fr& a : edge)
    for (const Fr& b : edge) ASSERT_EQ(emulated_fr_mul(a, b), a * b);
  for (int i = 0; i < 200000; ++i) {
    const Fr a = test::random_fr(rng), b = test::random_fr(rng);
    ASSERT_EQ(emulated_fr_mul(a, b), a * b) << "seed=" << seed << " i=" << i;
  }
}

/// Runs |steps| on |bufs| as the kernels do, one tile after another.
void emulate(const std::vector<NttStep>& steps, std::vector<Fr>* bufs[4], unsigned log_n,
             const Domain& dom) {
  const std::size_t n = std::size_t{1} << log_n;
  std::vector<Fr> tw[2];  // ω^j, ω^{-j}, j < n/2
  for (int d = 0; d < 2; ++d) {
    Fr w = Fr::one();
    for (std::size_t j = 0; j < std::max<std::size_t>(1, n / 2); ++j) {
      tw[d].push_back(w);
      w *= d ? dom.omega_inv() : dom.omega();
    }
  }
  auto factor = [&](const NttScale& s, std::uint64_t gi) {
    if (s.kind == NttScale::Kind::constant) return s.c;
    const std::uint64_t idx = s.rev_index ? bit_reverse(gi, log_n) : gi;
    return s.c * s.g.pow_u64(idx);
  };
  for (const NttStep& s : steps) {
    const std::uint64_t blocks = pass_blocks(s.pass, log_n);
    const bool scatter = s.store == NttStore::scatter || s.store == NttStore::scatter_sub;
    const bool moves = s.load == NttLoad::gather || scatter;
    if (moves && blocks > 1) {  // a tile's permuted reads or writes cross other tiles
      ASSERT_NE(s.out, s.in);
      ASSERT_NE(s.out, s.in_b);
      ASSERT_NE(s.out, s.in_c);
    }
    const int E = 1 << (s.pass.S + s.pass.l);
    ASSERT_LE(E, 1 << 12);
    std::vector<Fr> tile(E);
    for (std::uint64_t block = 0; block < blocks; ++block) {
      const NttTileOrigin o = tile_origin(s.pass, block);
      for (int e = 0; e < E; ++e) {
        const std::uint64_t gi = tile_element_index(s.pass, o, e);
        ASSERT_LT(gi, n);
        Fr v;
        if (s.load == NttLoad::gather)
          v = (*bufs[s.in])[bit_reverse(gi, log_n)];
        else if (s.load == NttLoad::product)
          v = (*bufs[s.in])[gi] * (*bufs[s.in_b])[gi] - (s.in_c >= 0 ? (*bufs[s.in_c])[gi] : Fr{});
        else
          v = (*bufs[s.in])[gi];
        if (s.load_scale.kind != NttScale::Kind::none) v *= factor(s.load_scale, gi);
        tile[e] = v;
      }
      auto stages = [&](bool dif, bool inverse) {
        for (int kk = 0; kk < s.pass.S; ++kk) {
          const int k = dif ? s.pass.S - 1 - kk : kk;
          for (int t = 0; t < E / 2; ++t) {
            const NttButterfly b = tile_butterfly(s.pass, log_n, o, k, t);
            ASSERT_LT(b.tw, std::max<std::size_t>(1, n / 2));
            const Fr w = tw[inverse][b.tw];
            if (s.pass.s0 + k == 0) {
              ASSERT_EQ(w, Fr::one());
            }
            Fr u = tile[b.ia], v = tile[b.ib];
            if (dif) {
              tile[b.ia] = u + v;
              tile[b.ib] = (u - v) * w;
            } else {
              v *= w;
              tile[b.ia] = u + v;
              tile[b.ib] = u - v;
            }
          }
        }
      };
      stages(s.dif, s.inverse);
      if (s.round_trip) {
        ASSERT_TRUE(s.dif && s.inverse && s.pass.s0 == 0 && s.pass.l == 0);
        for (int e = 0; e < E; ++e)
          tile[e] *= factor(s.mid_scale, tile_element_index(s.pass, o, e));
        stages(false, false);
      }
      for (int e = 0; e < E; ++e) {
        const std::uint64_t gi = tile_element_index(s.pass, o, e);
        Fr v = tile[e];
        if (s.store_scale.kind != NttScale::Kind::none) v *= factor(s.store_scale, gi);
        if (s.store == NttStore::combine) v = (*bufs[s.out])[gi] * v - (*bufs[s.aux])[gi];
        if (s.store == NttStore::scatter_sub) {
          ASSERT_NE(s.aux, s.out);
          v -= (*bufs[s.aux])[gi];
        }
        (*bufs[s.out])[scatter ? bit_reverse(gi, log_n) : gi] = v;
      }
    }
  }
}

const NttTuning kTunings[] = {{11, 2}, {10, 1}, {9, 1}, {4, 1}, {3, 1}, {3, 2}};

TEST(NttProgram, PassPlansCoverEveryStageOnce) {
  for (const NttTuning& t : kTunings)
    for (unsigned lg = 0; lg <= 30; ++lg) {
      const auto passes = plan_dit_passes(lg, t);
      int s0 = 0;
      for (const auto& p : passes) {
        EXPECT_EQ(p.s0, s0);
        EXPECT_LE(p.S + p.l, t.log_tile);
        EXPECT_LE(p.l, p.s0);
        if (p.s0 > 0) {
          EXPECT_GE(p.l, std::min(p.s0, t.min_log_run));
        }
        s0 += p.S;
      }
      EXPECT_EQ(s0, static_cast<int>(lg));
    }
  // The default shape (10:1, the fastest measured): 2^27 and 2^20 in 3 passes; 11:2 takes 2^20
  // in 2.
  EXPECT_EQ(plan_dit_passes(27, NttTuning{}).size(), 3u);
  EXPECT_EQ(plan_dit_passes(20, NttTuning{}).size(), 3u);
  EXPECT_EQ(plan_dit_passes(20, NttTuning{.log_tile = 11, .min_log_run = 2}).size(), 2u);
}

TEST(NttProgram, TransformsMatchCpuNtt) {
  ThreadPool pool(2);
  const std::uint64_t seed = test::fresh_seed();
  std::mt19937_64 rng(seed);
  for (const NttTuning& t : kTunings)
    for (unsigned lg : {0u, 1u, 2u, 3u, 4u, 5u, 7u, 9u, 12u, 13u}) {
      const auto dom = Domain::from_log_size(lg);
      ASSERT_TRUE(dom.ok());
      std::vector<Fr> x(std::size_t{1} << lg);
      for (auto& v : x) v = test::random_fr(rng);
      for (int variant = 0; variant < 4; ++variant) {
        const bool inverse = variant & 1, coset = variant & 2;
        std::vector<Fr> want = x;
        ASSERT_TRUE(ntt(want, *dom,
                        {.direction = inverse ? NttDirection::inverse : NttDirection::forward,
                         .coset = coset},
                        pool)
                        .ok());
        std::vector<Fr> got = x, scratch(x.size());
        std::vector<Fr>* bufs[4] = {&got, nullptr, nullptr, &scratch};
        emulate(plan_ntt_program(lg, inverse, coset, Fr::from_u64(kFrGenerator), t), bufs, lg,
                *dom);
        ASSERT_EQ(got, want) << "log_n=" << lg << " tile=" << t.log_tile << " run=" << t.min_log_run
                             << " inverse=" << inverse << " coset=" << coset << " seed=" << seed;
      }
    }
}

TEST(NttProgram, HStepsMatchCpu) {
  ThreadPool pool(2);
  const std::uint64_t seed = test::fresh_seed();
  std::mt19937_64 rng(seed);
  for (const NttTuning& t : kTunings)
    for (unsigned lg : {1u, 2u, 3u, 5u, 8u, 11u, 12u}) {
      const std::size_t n = std::size_t{1} << lg;
      std::vector<Fr> a(n), b(n), c(n);
      for (std::size_t i = 0; i + 1 < n; ++i) {
        a[i] = test::random_fr(rng);
        b[i] = test::random_fr(rng);
        c[i] = a[i] * b[i];
      }
      c[0] = test::random_fr(rng);  // one unsatisfied constraint: H of full degree
      {
        const auto dom = Domain::from_log_size(lg);
        std::vector<Fr> wa = a, wb = b, wc = c;
        ASSERT_TRUE(compute_h(wa, wb, wc, NttPlan(*dom), pool).ok());
        for (const bool c_coset : {false, true}) {  // 6 transforms, and bellperson's 7
          NttTuning tc = t;
          tc.h_c_coset = c_coset;
          std::vector<Fr> ga = a, gb = b, gc = c, gs(n);
          std::vector<Fr>* bufs[4] = {&ga, &gb, &gc, &gs};
          const auto steps = plan_h_program(lg, Fr::from_u64(kFrGenerator), tc);
          const std::size_t np = plan_dit_passes(lg, t).size();
          EXPECT_EQ(steps.size(), c_coset ? 7 * np - 3 : 6 * np - 2);
          emulate(steps, bufs, lg, *dom);
          ASSERT_EQ(ga, wa) << "bellperson log_n=" << lg << " tile=" << t.log_tile
                            << " c_coset=" << c_coset << " seed=" << seed;
        }
      }
      {
        const auto dom = Domain::from_log_size(lg, snarkjs_domain_options(lg));
        std::vector<Fr> wa = a, wb = b, wc(n);
        ASSERT_TRUE(compute_h_snarkjs(wa, wb, wc, NttPlan(*dom), pool).ok());
        std::vector<Fr> ga = a, gb = b, gc(n), gs(n);
        std::vector<Fr>* bufs[4] = {&ga, &gb, &gc, &gs};
        emulate(plan_h_snarkjs_program(lg, snarkjs_coset_shift(lg), t), bufs, lg, *dom);
        ASSERT_EQ(ga, wa) << "snarkjs log_n=" << lg << " tile=" << t.log_tile << " seed=" << seed;
      }
    }
}

}  // namespace
}  // namespace cuzk::gpu
