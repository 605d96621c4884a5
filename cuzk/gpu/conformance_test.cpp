// Conformance: the CUDA backend equals the CPU backend (the reference) through the Backend
// interface on random inputs: NTT (forward, inverse, coset) at sizes 2^1..2^14, the H step (satisfied
// and unsatisfied systems), G1/G2 MSM with identity and duplicated bases, 0/1-heavy scalars (the 70 %
// PoRep mix among them), repeated small and negated scalars (buckets that cross accumulation
// segments), all-zero scalars, density bitmaps with offsets, each bit-split mode, lengths
// that are not powers of two (also past 2^17, where the window is 16 bits). Prints the seed;
// skips with a message where no GPU is present.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "cuzk/backend_factory/make_backend.hpp"
#include "cuzk/base/thread_pool.hpp"
#include "cuzk/ec/batch_affine.hpp"
#include "cuzk/ec/scalar_mul.hpp"
#include "cuzk/gpu/cuda_backend.hpp"
#include "tests/support/seed.hpp"

namespace cuzk {
namespace {
using cuzk::test::fresh_seed;
using cuzk::test::random_fr;

struct Pair {
  ThreadPool pool{2};
  std::unique_ptr<Backend> cpu, gpu;
  Pair() {
    auto c = make_backend("cpu", pool);
    auto g = make_cuda_backend("cuda:0", {.arena_bytes = std::size_t{2} << 30});
    EXPECT_TRUE(c.ok()) << c.status().to_string();
    EXPECT_TRUE(g.ok()) << g.status().to_string();
    if (c.ok() && g.ok()) cpu = std::move(c).value(), gpu = std::move(g).value();
  }
};

#define REQUIRE_GPU()                                                                         \
  do {                                                                                        \
    if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device present: GPU test skipped"; \
  } while (0)

TEST(GpuConformance, Ntt) {
  REQUIRE_GPU();
  Pair p;
  ASSERT_TRUE(p.gpu);
  const std::uint64_t seed = fresh_seed();
  std::mt19937_64 rng(seed);
  for (unsigned lg = 1; lg <= 14; ++lg) {
    std::vector<Fr> x(std::size_t{1} << lg);
    for (auto& v : x) v = random_fr(rng);
    for (int variant = 0; variant < 4; ++variant) {
      const NttOptions o{.direction = (variant & 1) ? NttDirection::inverse : NttDirection::forward,
                         .coset = (variant & 2) != 0};
      auto a = x, b = x;
      ASSERT_TRUE(p.cpu->ntt(a, o).ok());
      ASSERT_TRUE(p.gpu->ntt(b, o).ok());
      ASSERT_EQ(a, b) << "lg=" << lg << " variant=" << variant << " seed=" << seed;
    }
  }
}

TEST(GpuConformance, ComputeH) {
  REQUIRE_GPU();
  Pair p;
  ASSERT_TRUE(p.gpu);
  const std::uint64_t seed = fresh_seed();
  std::mt19937_64 rng(seed);
  for (unsigned lg : {1u, 4u, 9u, 12u, 15u}) {
    const std::size_t n = std::size_t{1} << lg;
    for (bool satisfied : {true, false}) {
      std::vector<Fr> a(n), b(n), c(n);
      const std::size_t m = n - rng() % (n / 2 + 1);
      for (std::size_t i = 0; i < m; ++i) {
        a[i] = random_fr(rng);
        b[i] = random_fr(rng);
        c[i] = satisfied ? a[i] * b[i] : random_fr(rng);
      }
      auto a2 = a, b2 = b, c2 = c;
      std::vector<Fr> h1(n - 1), h2(n - 1);
      ASSERT_TRUE(p.cpu->compute_h({a, b, c}, h1).ok());
      ASSERT_TRUE(p.gpu->compute_h({a2, b2, c2}, h2).ok());
      ASSERT_EQ(h1, h2) << "lg=" << lg << " satisfied=" << satisfied << " seed=" << seed;
    }
  }
}

template <class C>
std::vector<Affine<C>> make_points(std::size_t n, std::mt19937_64& rng) {
  const Jacobian<C> g = Jacobian<C>::generator();
  const Jacobian<C> q = mul_vartime(g, random_fr(rng));
  Jacobian<C> x = mul_vartime(g, random_fr(rng));
  std::vector<Jacobian<C>> j(n);
  for (auto& v : j) v = x, x.add(q);
  for (std::size_t k = 0; k < n / 40 + 1; ++k)
    j[rng() % n] = (rng() & 1) ? Jacobian<C>::identity() : j[rng() % n];
  return batch_to_affine_vartime<C>(j);
}

/// Scalar mixes of one round: 0 uniform; 1 40 % zero, 40 % one (bit split off); 2 the PoRep mix
/// (35 % zero, 35 % one, 30 % random); 3 all zero; 4 zeros and ones only; 5 a witness's repeats
/// (30 % zero, 30 % one, 20 % of 2..4, 20 % of −1..−3: a few buckets per window hold most points).
Fr round_scalar(int mode, std::mt19937_64& rng) {
  const unsigned r = rng() % 20;
  switch (mode) {
    case 0:
      return random_fr(rng);
    case 1:
      return r < 8 ? Fr::zero() : r < 16 ? Fr::one() : random_fr(rng);
    case 2:
      return r < 7 ? Fr::zero() : r < 14 ? Fr::one() : random_fr(rng);
    case 3:
      return Fr::zero();
    case 5:
      return r < 6    ? Fr::zero()
             : r < 12 ? Fr::one()
             : r < 16 ? Fr::from_u64(2 + rng() % 3)
                      : Fr::zero() - Fr::from_u64(1 + rng() % 3);
    default:
      return r < 10 ? Fr::zero() : Fr::one();
  }
}

template <class C, class Load, class Msm>
void compare_msm(Pair& p, std::size_t n_min, std::size_t n_span, Load load, Msm msm) {
  const std::uint64_t seed = fresh_seed();
  std::mt19937_64 rng(seed);
  const std::size_t nb = n_min + rng() % n_span;
  const auto pts = make_points<C>(nb, rng);
  auto idc = load(*p.cpu, pts), idg = load(*p.gpu, pts);
  ASSERT_TRUE(idc.ok() && idg.ok());
  for (int round = 0; round < 12; ++round) {
    const bool density = round >= 6;
    const int mode = round % 6;
    const std::size_t n = density ? nb + rng() % nb : nb - rng() % (nb / 3);
    std::vector<Fr> s(n);
    for (auto& v : s) v = round_scalar(mode, rng);
    std::vector<std::uint64_t> bits;
    std::size_t offset = 0;
    if (density) {
      bits.assign((n + 63) / 64 + 1, 0);  // longer than needed, as bellperson's trackers may be
      std::size_t used = 0;
      for (std::size_t i = 0; i < n; ++i)
        if (used < nb && rng() % 4 != 0) bits[i / 64] |= std::uint64_t{1} << (i % 64), ++used;
      offset = rng() % (nb - used + 1);
    }
    const MsmOptions o{.density = {.bits = bits, .base_offset = offset},
                       .bit_split = mode == 1   ? BitSplit::never
                                    : mode == 4 ? BitSplit::always
                                                : BitSplit::automatic};
    auto rc = msm(*p.cpu, *idc, s, o), rg = msm(*p.gpu, *idg, s, o);
    ASSERT_TRUE(rc.ok()) << rc.status().to_string();
    ASSERT_TRUE(rg.ok()) << rg.status().to_string();
    EXPECT_EQ(rc->to_affine_vartime(), rg->to_affine_vartime())
        << C::name << " n=" << n << " round=" << round << " seed=" << seed;
  }
}

TEST(GpuConformance, MsmG1) {
  REQUIRE_GPU();
  Pair p;
  ASSERT_TRUE(p.gpu);
  compare_msm<G1Curve>(
      p, 2000, 3000, [](Backend& b, const auto& pts) { return b.load_bases_g1(pts); },
      [](Backend& b, BasesId id, std::span<const Fr> s, const MsmOptions& o) {
        return b.msm_g1(id, s, o);
      });
}

TEST(GpuConformance, MsmG2) {
  REQUIRE_GPU();
  Pair p;
  ASSERT_TRUE(p.gpu);
  compare_msm<G2Curve>(
      p, 600, 800, [](Backend& b, const auto& pts) { return b.load_bases_g2(pts); },
      [](Backend& b, BasesId id, std::span<const Fr> s, const MsmOptions& o) {
        return b.msm_g2(id, s, o);
      });
}

// Past 2^17 scalars the device takes windows of 16 bits (8 below): the large-window path with a
// length that is not a power of two.
TEST(GpuConformance, MsmG1LargeWindow) {
  REQUIRE_GPU();
  Pair p;
  ASSERT_TRUE(p.gpu);
  compare_msm<G1Curve>(
      p, (1u << 17) + 3000, 1u << 15,
      [](Backend& b, const auto& pts) { return b.load_bases_g1(pts); },
      [](Backend& b, BasesId id, std::span<const Fr> s, const MsmOptions& o) {
        return b.msm_g1(id, s, o);
      });
}

}  // namespace
}  // namespace cuzk
