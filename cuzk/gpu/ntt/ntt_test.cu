// GPU NTT against the CPU NTT of poly/: the O(n²) definition at small sizes, the fast CPU transform
// at larger ones; forward, inverse, both coset variants, round trips, and the whole H step.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "cuzk/base/thread_pool.hpp"
#include "cuzk/gpu/cuda_check.cuh"
#include "cuzk/gpu/device_context.hpp"
#include "cuzk/gpu/gpu_test_util.cuh"
#include "cuzk/gpu/ntt/ntt.cuh"
#include "cuzk/poly/domain.hpp"
#include "cuzk/poly/ntt.hpp"

namespace cuzk::gpu {
namespace {

struct Fixture {
  std::unique_ptr<DeviceContext> ctx;
  std::unique_ptr<NttTables> tables;
  Fixture() {
    auto c = DeviceContext::create({.arena_bytes = std::size_t{1} << 30});
    EXPECT_TRUE(c.ok()) << c.status().to_string();
    if (c.ok()) {
      ctx = std::move(c).value();
      tables = std::make_unique<NttTables>(*ctx);
    }
  }
};

std::vector<Fr> gpu_ntt(Fixture& f, std::vector<Fr> v, unsigned log_n, GpuNttMode mode) {
  const std::size_t bytes = v.size() * sizeof(Fr);
  auto dv = f.ctx->alloc(bytes, "values");
  auto ds = f.ctx->alloc(bytes, "scratch");
  EXPECT_TRUE(dv.ok() && ds.ok());
  cudaStream_t s = f.ctx->stream();
  f.ctx->upload(dv->data(), v.data(), bytes, s);
  ntt_device(*f.ctx, *f.tables, dv->as<Fr>(), ds->as<Fr>(), log_n, mode, s);
  f.ctx->download(v.data(), dv->data(), bytes, s);
  return v;
}

void check_sizes(const std::vector<unsigned>& logs, bool naive) {
  Fixture f;
  ASSERT_TRUE(f.ctx);
  ThreadPool pool(2);
  const std::uint64_t seed = test::fresh_seed();
  std::mt19937_64 rng(seed);
  for (unsigned log_n : logs) {
    auto domain = Domain::from_log_size(log_n);
    ASSERT_TRUE(domain.ok());
    const std::size_t n = std::size_t{1} << log_n;
    std::vector<Fr> x(n);
    for (auto& v : x) v = test::random_fr(rng);
    for (int variant = 0; variant < 4; ++variant) {
      const bool inverse = variant & 1, coset = variant & 2;
      std::vector<Fr> want = x;
      const NttMode mode{.direction = inverse ? NttDirection::inverse : NttDirection::forward,
                         .coset = coset};
      Status st = naive ? ntt_naive(want, *domain, mode) : ntt(want, *domain, mode, pool);
      ASSERT_TRUE(st.ok()) << st.to_string();
      const auto got = gpu_ntt(f, x, log_n, {.inverse = inverse, .coset = coset});
      for (std::size_t i = 0; i < n; ++i)
        ASSERT_EQ(got[i], want[i]) << "log_n=" << log_n << " inverse=" << inverse
                                   << " coset=" << coset << " i=" << i << " seed=" << seed;
    }
    // Round trip on the device alone.
    const auto fwd = gpu_ntt(f, x, log_n, {.coset = true});
    const auto back = gpu_ntt(f, fwd, log_n, {.inverse = true, .coset = true});
    ASSERT_EQ(back, x) << "round trip log_n=" << log_n << " seed=" << seed;
  }
}

TEST(GpuNtt, MatchesNaiveSmall) {
  CUZK_REQUIRE_GPU();
  check_sizes({0, 1, 2, 3, 5, 8, 10, 11}, true);
}

TEST(GpuNtt, MatchesCpuNttLarger) {
  CUZK_REQUIRE_GPU();
  check_sizes({12, 15, 17, 19}, false);
}

TEST(GpuNtt, ComputeHMatchesCpu) {
  CUZK_REQUIRE_GPU();
  Fixture f;
  ASSERT_TRUE(f.ctx);
  ThreadPool pool(2);
  const std::uint64_t seed = test::fresh_seed();
  std::mt19937_64 rng(seed);
  for (unsigned log_n : {3u, 10u, 13u, 16u}) {
    const std::size_t n = std::size_t{1} << log_n;
    const std::size_t m = n - 1 - rng() % (n / 2);  // constraint count below n: zero padding
    std::vector<Fr> a(n), b(n), c(n);
    for (std::size_t i = 0; i < m; ++i) {
      a[i] = test::random_fr(rng);
      b[i] = test::random_fr(rng);
      c[i] = a[i] * b[i];  // a satisfied system: H has degree < n − 1
    }
    if (log_n == 10) c[3] = test::random_fr(rng);  // and one that is not
    auto plan = NttPlan(*Domain::from_log_size(log_n));
    std::vector<Fr> wa = a, wb = b, wc = c;
    ASSERT_TRUE(cuzk::compute_h(wa, wb, wc, plan, pool).ok());
    const std::size_t bytes = n * sizeof(Fr);
    auto da = f.ctx->alloc(bytes, "a"), db = f.ctx->alloc(bytes, "b"),
         dc = f.ctx->alloc(bytes, "c"), ds = f.ctx->alloc(bytes, "s");
    ASSERT_TRUE(da.ok() && db.ok() && dc.ok() && ds.ok());
    cudaStream_t s = f.ctx->stream();
    f.ctx->upload(da->data(), a.data(), bytes, s);
    f.ctx->upload(db->data(), b.data(), bytes, s);
    f.ctx->upload(dc->data(), c.data(), bytes, s);
    compute_h_device(*f.ctx, *f.tables, da->as<Fr>(), db->as<Fr>(), dc->as<Fr>(), ds->as<Fr>(),
                     log_n, s);
    std::vector<Fr> h(n);
    f.ctx->download(h.data(), da->data(), bytes, s);
    for (std::size_t i = 0; i < n; ++i)
      ASSERT_EQ(h[i], wa[i]) << "log_n=" << log_n << " i=" << i << " seed=" << seed;
    if (log_n != 10) EXPECT_TRUE(h[n - 1].is_zero());
  }
}

}  // namespace
}  // namespace cuzk::gpu
