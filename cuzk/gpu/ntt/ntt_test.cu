// GPU NTT against the CPU NTT of poly/: the O(n²) definition at small sizes, the fast CPU transform
// at larger ones (to 2^21); forward, inverse, both coset variants, round trips, both H steps, for
// the default pass shape, the legacy kernels and other tile shapes; fr_mul against DevFr's product.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "cuzk/base/thread_pool.hpp"
#include "cuzk/gpu/cuda_check.cuh"
#include "cuzk/gpu/device_context.hpp"
#include "cuzk/gpu/ff/dev_fields.cuh"
#include "cuzk/gpu/gpu_test_util.cuh"
#include "cuzk/gpu/ntt/fr_mul.cuh"
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

void check_sizes_one_shape(const std::vector<unsigned>& logs, bool naive) {
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

/// Sets the pass shape for one test and restores the default after.
struct TuningScope {
  explicit TuningScope(const NttTuning& t) { set_ntt_tuning(t); }
  ~TuningScope() { set_ntt_tuning(NttTuning{}); }
};
const NttTuning kShapes[] = {NttTuning{}, {.legacy = true}, {11, 2}, {9, 1}, {4, 1}};

void check_sizes(const std::vector<unsigned>& logs, bool naive) {
  for (const NttTuning& t : kShapes) {
    SCOPED_TRACE("tile " + std::to_string(t.log_tile) + " run " + std::to_string(t.min_log_run) +
                 (t.legacy ? " legacy" : ""));
    TuningScope scope(t);
    check_sizes_one_shape(logs, naive);
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

TEST(GpuNtt, MatchesCpuNttLarge) {
  CUZK_REQUIRE_GPU();
  TuningScope scope(NttTuning{});
  check_sizes_one_shape({20, 21}, false);
}

__global__ void fr_mul_pairs_kernel(DevFr* out, const DevFr* a, const DevFr* b, std::size_t n) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i < n) out[2 * i] = fr_mul(a[i], b[i]), out[2 * i + 1] = a[i] * b[i];
}

TEST(GpuNtt, FrMulMatchesDevFrProduct) {
  CUZK_REQUIRE_GPU();
  Fixture f;
  ASSERT_TRUE(f.ctx);
  const std::uint64_t seed = test::fresh_seed();
  std::mt19937_64 rng(seed);
  const std::size_t n = 1 << 20;
  std::vector<Fr> a(n), b(n), out(2 * n);
  for (std::size_t i = 0; i < n; ++i) a[i] = test::random_fr(rng), b[i] = test::random_fr(rng);
  a[0] = Fr::zero(), a[1] = -Fr::one(), b[1] = -Fr::one(), b[2] = Fr::one();
  auto da = f.ctx->alloc(n * sizeof(Fr), "a"), db = f.ctx->alloc(n * sizeof(Fr), "b"),
       dout = f.ctx->alloc(2 * n * sizeof(Fr), "out");
  ASSERT_TRUE(da.ok() && db.ok() && dout.ok());
  cudaStream_t s = f.ctx->stream();
  f.ctx->upload(da->data(), a.data(), n * sizeof(Fr), s);
  f.ctx->upload(db->data(), b.data(), n * sizeof(Fr), s);
  fr_mul_pairs_kernel<<<static_cast<unsigned>(n / 256), 256, 0, s>>>(
      dout->as<DevFr>(), da->as<DevFr>(), db->as<DevFr>(), n);
  CUZK_CUDA_CHECK_LAUNCH();
  f.ctx->download(out.data(), dout->data(), 2 * n * sizeof(Fr), s);
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(out[2 * i], out[2 * i + 1]) << "i=" << i << " seed=" << seed;
    if (i % 4096 == 0) ASSERT_EQ(out[2 * i], a[i] * b[i]) << "i=" << i << " seed=" << seed;
  }
}

void check_h(const std::vector<unsigned>& logs) {
  Fixture f;
  ASSERT_TRUE(f.ctx);
  ThreadPool pool(2);
  const std::uint64_t seed = test::fresh_seed();
  std::mt19937_64 rng(seed);
  for (unsigned log_n : logs) {
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

    // snarkjs: c ← a∘b on the device, ffjs roots, shift ω_2n, no division by Z.
    auto sdom = Domain::from_log_size(log_n, snarkjs_domain_options(log_n));
    ASSERT_TRUE(sdom.ok());
    std::vector<Fr> sa = a, sb = b, sc(n);
    ASSERT_TRUE(cuzk::compute_h_snarkjs(sa, sb, sc, NttPlan(*sdom), pool).ok());
    f.ctx->upload(da->data(), a.data(), bytes, s);
    f.ctx->upload(db->data(), b.data(), bytes, s);
    compute_h_snarkjs_device(*f.ctx, *f.tables, da->as<Fr>(), db->as<Fr>(), dc->as<Fr>(),
                             ds->as<Fr>(), log_n, s);
    f.ctx->download(h.data(), da->data(), bytes, s);
    for (std::size_t i = 0; i < n; ++i)
      ASSERT_EQ(h[i], sa[i]) << "snarkjs log_n=" << log_n << " i=" << i << " seed=" << seed;
  }
}

TEST(GpuNtt, ComputeHMatchesCpu) {
  CUZK_REQUIRE_GPU();
  std::vector<NttTuning> shapes(std::begin(kShapes), std::end(kShapes));
  shapes.push_back({.h_c_coset = true});  // bellperson's 7 transforms: the slow twin
  shapes.push_back({.log_tile = 4, .min_log_run = 1, .h_c_coset = true});
  for (const NttTuning& t : shapes) {
    SCOPED_TRACE("tile " + std::to_string(t.log_tile) + (t.legacy ? " legacy" : "") +
                 (t.h_c_coset ? " c to the coset" : ""));
    TuningScope scope(t);
    check_h({3, 10, 13, 16});
  }
}

TEST(GpuNtt, ComputeHMatchesCpuLarge) {
  CUZK_REQUIRE_GPU();
  check_h({20});
}

}  // namespace
}  // namespace cuzk::gpu
