// CudaBackend through the Backend interface, against oracles written here: the O(n²) DFT, the
// H polynomial by schoolbook product and division by X^n − 1, and MSM as a sum of host scalar
// multiplications; plus the error paths. Skips with a message where no GPU is present.
#include "cuzk/gpu/cuda_backend.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "cuzk/base/pinned_host.hpp"
#include "cuzk/ec/batch_affine.hpp"
#include "cuzk/ec/scalar_mul.hpp"
#include "tests/support/seed.hpp"

namespace cuzk {
namespace {
using cuzk::test::fresh_seed;
using cuzk::test::random_fr;

#define REQUIRE_GPU()                                                                         \
  do {                                                                                        \
    if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device present: GPU test skipped"; \
  } while (0)

std::unique_ptr<Backend> make() {
  auto b = make_cuda_backend("cuda:0", {.arena_bytes = std::size_t{1} << 30});
  EXPECT_TRUE(b.ok()) << b.status().to_string();
  return b.ok() ? std::move(b).value() : nullptr;
}

Fr omega(unsigned log_n) {
  Fr w = Fr::from_canonical_unchecked(kFrRootOfUnity32);
  for (unsigned i = log_n; i < 32; ++i) w = w.square();
  return w;
}

/// X_j = Σ_i x_i·(g^i)·ω^(ij) (forward); the inverse with ω^{-1}, n^{-1} and g^{-i} after.
std::vector<Fr> dft(const std::vector<Fr>& x, unsigned log_n, bool inverse, const Fr& g) {
  const std::size_t n = x.size();
  Fr w = omega(log_n);
  if (inverse) w = w.inverse();
  std::vector<Fr> in = x, out(n);
  if (!inverse) {
    Fr gi = Fr::one();
    for (auto& v : in) v *= gi, gi *= g;
  }
  for (std::size_t j = 0; j < n; ++j) {
    Fr acc = Fr::zero(), wj = w.pow_u64(j), p = Fr::one();
    for (std::size_t i = 0; i < n; ++i) acc += in[i] * p, p *= wj;
    out[j] = acc;
  }
  if (inverse) {
    const Fr ninv = Fr::from_u64(n).inverse(), ginv = g.inverse();
    Fr gi = Fr::one();
    for (auto& v : out) v *= ninv * gi, gi *= ginv;
  }
  return out;
}

TEST(CudaBackend, SpecsAndName) {
  EXPECT_EQ(make_cuda_backend("cpu").status().code(), Errc::invalid_argument);
  EXPECT_EQ(make_cuda_backend("cuda:x").status().code(), Errc::invalid_argument);
  REQUIRE_GPU();
  auto b = make();
  ASSERT_TRUE(b);
  EXPECT_EQ(b->name(), "cuda:0");
  EXPECT_EQ(make_cuda_backend("cuda:999").status().code(), Errc::invalid_argument);
}

TEST(CudaBackend, NttMatchesDft) {
  REQUIRE_GPU();
  auto b = make();
  ASSERT_TRUE(b);
  const std::uint64_t seed = fresh_seed();
  std::mt19937_64 rng(seed);
  for (unsigned lg : {1u, 4u, 7u, 9u}) {
    std::vector<Fr> x(std::size_t{1} << lg);
    for (auto& v : x) v = random_fr(rng);
    for (int variant = 0; variant < 4; ++variant) {
      const bool inv = variant & 1, coset = variant & 2;
      const std::uint64_t shift = coset ? 5 + rng() % 100 : kFrGenerator;
      auto got = x;
      ASSERT_TRUE(b->ntt(got, {.direction = inv ? NttDirection::inverse : NttDirection::forward,
                               .coset = coset,
                               .coset_shift = shift})
                      .ok());
      EXPECT_EQ(got, dft(x, lg, inv, coset ? Fr::from_u64(shift) : Fr::one()))
          << "lg=" << lg << " variant=" << variant << " seed=" << seed;
    }
  }
  std::vector<Fr> bad(6);
  EXPECT_EQ(b->ntt(bad, {}).code(), Errc::invalid_argument);
}

// A backend made with partition_pinned_bytes registers a pinned pool; values drawn from it are
// copied by DMA without staging. An NTT over 2^18 pinned values (8 MiB: above the 4 MiB direct
// copy of plain memory) both ways equals the same over a plain vector; a block larger than the
// pool's free room is refused (the caller falls back), and freed blocks return to the pool.
TEST(CudaBackend, PinnedPartitionPoolCopiesDirectly) {
  REQUIRE_GPU();
  const std::size_t n = std::size_t{1} << 18;
  auto b = make_cuda_backend("cuda:0", {.arena_bytes = std::size_t{1} << 30,
                                        .partition_pinned_bytes = std::size_t{12} << 20});
  ASSERT_TRUE(b.ok()) << b.status().to_string();
  const std::uint64_t seed = fresh_seed();
  std::mt19937_64 rng(seed);
  {
    auto p = PinnedArray<Fr>::take(n);
    ASSERT_FALSE(p.empty());
    EXPECT_TRUE(PinnedHostPools::contains(p.data(), n * sizeof(Fr)));
    EXPECT_TRUE(PinnedArray<Fr>::take(n).empty());  // 8 of 12 MiB taken: no second block
    std::vector<Fr> v(n);
    for (std::size_t i = 0; i < n; ++i) p.data()[i] = v[i] = random_fr(rng);
    for (auto dir : {NttDirection::forward, NttDirection::inverse}) {
      ASSERT_TRUE((*b)->ntt(std::span<Fr>(p.data(), n), {.direction = dir, .coset = true}).ok());
      ASSERT_TRUE((*b)->ntt(v, {.direction = dir, .coset = true}).ok());
      EXPECT_TRUE(std::equal(v.begin(), v.end(), p.data())) << "seed=" << seed;
    }
  }
  EXPECT_FALSE(PinnedArray<Fr>::take(n).empty());  // given back
  b->reset();
  EXPECT_FALSE(PinnedHostPools::any());
}

TEST(CudaBackend, ComputeHMatchesPolynomialDivision) {
  REQUIRE_GPU();
  auto b = make();
  ASSERT_TRUE(b);
  const std::uint64_t seed = fresh_seed();
  std::mt19937_64 rng(seed);
  for (unsigned lg : {2u, 5u, 6u}) {
    const std::size_t n = std::size_t{1} << lg;
    std::vector<Fr> a(n), bb(n), c(n);
    for (std::size_t i = 0; i + 1 < n; ++i)
      a[i] = random_fr(rng), bb[i] = random_fr(rng), c[i] = a[i] * bb[i];
    // Oracle: coefficients, product, division by X^n − 1 (quotient of degree ≤ n − 2).
    const auto pa = dft(a, lg, true, Fr::one()), pb = dft(bb, lg, true, Fr::one()),
               pc = dft(c, lg, true, Fr::one());
    std::vector<Fr> prod(2 * n, Fr::zero());
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) prod[i + j] += pa[i] * pb[j];
    for (std::size_t i = 0; i < n; ++i) prod[i] -= pc[i];
    std::vector<Fr> q(n, Fr::zero());
    for (std::size_t d = 2 * n - 1; d >= n; --d) {  // X^d = X^(d−n)·(X^n − 1) + X^(d−n)
      q[d - n] = prod[d];
      prod[d - n] += prod[d];
      prod[d] = Fr::zero();
    }
    for (std::size_t i = 0; i < n; ++i)
      ASSERT_TRUE(prod[i].is_zero()) << "oracle: not divisible, seed=" << seed;
    std::vector<Fr> h(n - 1);
    ASSERT_TRUE(b->compute_h({a, bb, c}, h).ok());
    for (std::size_t i = 0; i + 1 < n; ++i)
      EXPECT_EQ(h[i], q[i]) << "lg=" << lg << " i=" << i << " seed=" << seed;
  }
  std::vector<Fr> a(8), bb(8), c(4), h(7);
  EXPECT_EQ(b->compute_h({a, bb, c}, h).code(), Errc::size_mismatch);
}

template <class C>
std::vector<Affine<C>> points(std::size_t n, std::mt19937_64& rng) {
  std::vector<Jacobian<C>> j(n);
  for (auto& p : j) p = mul_vartime(Jacobian<C>::generator(), random_fr(rng));
  j[n / 3] = Jacobian<C>::identity();
  j[n / 2] = j[1];
  return batch_to_affine_vartime<C>(j);
}

template <class C, class Load, class Msm>
void check_msm(Backend& b, Load load, Msm msm) {
  const std::uint64_t seed = fresh_seed();
  std::mt19937_64 rng(seed);
  const std::size_t nb = 150 + rng() % 100;
  const auto pts = points<C>(nb, rng);
  auto id = load(pts);
  ASSERT_TRUE(id.ok()) << id.status().to_string();
  const std::size_t n = nb + 40;
  std::vector<Fr> s(n);
  for (auto& v : s) {
    const unsigned r = rng() % 4;
    v = r == 0 ? Fr::zero() : r == 1 ? Fr::one() : random_fr(rng);
  }
  std::vector<std::uint64_t> bits((n + 63) / 64, 0);
  std::size_t used = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (used < nb - 10 && rng() % 3 != 0) bits[i / 64] |= std::uint64_t{1} << (i % 64), ++used;
  const std::size_t offset = rng() % (nb - used + 1);
  for (BitSplit split : {BitSplit::automatic, BitSplit::never}) {
    auto got = msm(
        *id, s, MsmOptions{.density = {.bits = bits, .base_offset = offset}, .bit_split = split});
    ASSERT_TRUE(got.ok()) << got.status().to_string();
    Jacobian<C> want = Jacobian<C>::identity();
    for (std::size_t i = 0, k = 0; i < n; ++i)
      if ((bits[i / 64] >> (i % 64)) & 1)
        want.add(mul_vartime(Jacobian<C>::from_affine(pts[offset + k++]), s[i]));
    EXPECT_EQ(got->to_affine_vartime(), want.to_affine_vartime()) << C::name << " seed=" << seed;
  }
  // Without density, more scalars than bases: size_mismatch.
  EXPECT_EQ(msm(*id, s, MsmOptions{}).status().code(), Errc::size_mismatch);
  EXPECT_TRUE(b.release_bases(*id).ok());
  EXPECT_EQ(b.release_bases(*id).code(), Errc::not_found);
}

TEST(CudaBackend, MsmG1AndG2MatchNaive) {
  REQUIRE_GPU();
  auto b = make();
  ASSERT_TRUE(b);
  check_msm<G1Curve>(
      *b, [&](const auto& p) { return b->load_bases_g1(p); },
      [&](BasesId id, std::span<const Fr> s, const MsmOptions& o) { return b->msm_g1(id, s, o); });
  check_msm<G2Curve>(
      *b, [&](const auto& p) { return b->load_bases_g2(p); },
      [&](BasesId id, std::span<const Fr> s, const MsmOptions& o) { return b->msm_g2(id, s, o); });
  // A G2 table used as G1.
  std::mt19937_64 rng(1);
  auto id2 = b->load_bases_g2(points<G2Curve>(4, rng));
  ASSERT_TRUE(id2.ok());
  std::vector<Fr> s(2, Fr::one());
  EXPECT_EQ(b->msm_g1(*id2, s, {}).status().code(), Errc::invalid_argument);
}

// Window copies of a G1 table (add_window_copies, the H table's under key placement rule 3): an
// MSM over the whole table then runs on the copies' wide windows, one with a density rule on the
// plan's path; both equal the naive sum. The error paths name what is wrong.
TEST(CudaBackend, WindowCopiesGiveTheSameSums) {
  REQUIRE_GPU();
  auto b = make();
  ASSERT_TRUE(b);
  const std::uint64_t seed = fresh_seed();
  std::mt19937_64 rng(seed);
  const std::size_t n = 300 + rng() % 200;
  const auto pts = points<G1Curve>(n, rng);
  auto id = b->load_bases_g1(pts);
  ASSERT_TRUE(id.ok()) << id.status().to_string();
  std::vector<Fr> s(n);
  for (auto& v : s) {
    const unsigned r = rng() % 4;
    v = r == 0 ? Fr::zero() : r == 1 ? Fr::one() : random_fr(rng);
  }
  G1Jacobian want = G1Jacobian::identity();
  for (std::size_t i = 0; i < n; ++i) want.add(mul_vartime(G1Jacobian::from_affine(pts[i]), s[i]));
  std::vector<std::uint64_t> bits((n + 63) / 64, 0);
  G1Jacobian want_dense = G1Jacobian::identity();
  for (std::size_t i = 0, k = 0; i < n; ++i)
    if (rng() % 2) {
      bits[i / 64] |= std::uint64_t{1} << (i % 64);
      want_dense.add(mul_vartime(G1Jacobian::from_affine(pts[k++]), s[i]));
    }

  EXPECT_EQ(b->add_window_copies(*id, 1).status().code(), Errc::out_of_range);
  EXPECT_EQ(b->add_window_copies(*id, 9).status().code(), Errc::out_of_range);
  EXPECT_EQ(b->add_window_copies(BasesId{id->value + 1000}, 2).status().code(), Errc::not_found);
  auto id2 = b->load_bases_g2(points<G2Curve>(4, rng));
  ASSERT_TRUE(id2.ok());
  EXPECT_EQ(b->add_window_copies(*id2, 2).status().code(), Errc::invalid_argument);
  for (unsigned copies : {2u, 4u}) {
    auto made = b->add_window_copies(*id, copies);
    ASSERT_TRUE(made.ok()) << made.status().to_string();
    // The copies' points (96 B each), in arena blocks of 256 B.
    EXPECT_GE(*made, (copies - 1) * n * 96) << "copies=" << copies;
    EXPECT_LT(*made, (copies - 1) * n * 96 + 256) << "copies=" << copies;
    for (BitSplit split : {BitSplit::automatic, BitSplit::never}) {
      auto got = b->msm_g1(*id, s, {.bit_split = split});
      ASSERT_TRUE(got.ok()) << got.status().to_string();
      EXPECT_EQ(got->to_affine_vartime(), want.to_affine_vartime())
          << "copies=" << copies << " seed=" << seed;
    }
    auto dense = b->msm_g1(*id, s, {.density = {.bits = bits}});
    ASSERT_TRUE(dense.ok()) << dense.status().to_string();
    EXPECT_EQ(dense->to_affine_vartime(), want_dense.to_affine_vartime()) << "seed=" << seed;
  }
  EXPECT_TRUE(b->release_bases(*id).ok());
  EXPECT_EQ(b->add_window_copies(*id, 2).status().code(), Errc::not_found);
}

}  // namespace
}  // namespace cuzk
