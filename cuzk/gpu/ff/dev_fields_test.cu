// Device Fp, Fr, Fp2 against the host types: mul, square, add, sub on random inputs plus the edge
// values 0, 1, p − 1 (which exercise the final conditional subtraction and the borrow paths).
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "cuzk/gpu/cuda_check.cuh"
#include "cuzk/gpu/device_context.hpp"
#include "cuzk/gpu/ff/dev_fields.cuh"
#include "cuzk/gpu/gpu_test_util.cuh"

namespace cuzk::gpu {
namespace {

template <class D>
__global__ void field_ops_kernel(const D* a, const D* b, D* out, std::size_t n) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i >= n) return;
  const D x = a[i], y = b[i];
  out[4 * i + 0] = x * y;
  out[4 * i + 1] = x.square();
  out[4 * i + 2] = x + y;
  out[4 * i + 3] = x - y;
}

template <class H, class D, class Gen>
void check_field(Gen gen, H minus_one, const char* name) {
  const std::uint64_t seed = test::fresh_seed();
  std::mt19937_64 rng(seed);
  const std::size_t n = 1000 + rng() % 3000;  // not a power of two
  std::vector<H> a(n), b(n);
  for (std::size_t i = 0; i < n; ++i) {
    a[i] = gen(rng);
    b[i] = gen(rng);
  }
  const H edge[3] = {H::zero(), H::one(), minus_one};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      a[3 * i + j] = edge[i];
      b[3 * i + j] = edge[j];
    }
  auto ctx = DeviceContext::create({.arena_bytes = std::size_t{64} << 20});
  ASSERT_TRUE(ctx.ok()) << ctx.status().to_string();
  auto& c = **ctx;
  auto da = c.alloc(n * sizeof(H), "a"), db = c.alloc(n * sizeof(H), "b"),
       dout = c.alloc(4 * n * sizeof(H), "out");
  ASSERT_TRUE(da.ok() && db.ok() && dout.ok());
  cudaStream_t s = c.stream();
  c.upload(da->data(), a.data(), n * sizeof(H), s);
  c.upload(db->data(), b.data(), n * sizeof(H), s);
  field_ops_kernel<D><<<(n + 127) / 128, 128, 0, s>>>(da->as<D>(), db->as<D>(), dout->as<D>(), n);
  CUZK_CUDA_CHECK_LAUNCH();
  std::vector<H> out(4 * n);
  c.download(out.data(), dout->data(), 4 * n * sizeof(H), s);
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(out[4 * i + 0], a[i] * b[i]) << name << " mul, i=" << i << " seed=" << seed;
    ASSERT_EQ(out[4 * i + 1], a[i].square()) << name << " square, i=" << i << " seed=" << seed;
    ASSERT_EQ(out[4 * i + 2], a[i] + b[i]) << name << " add, i=" << i << " seed=" << seed;
    ASSERT_EQ(out[4 * i + 3], a[i] - b[i]) << name << " sub, i=" << i << " seed=" << seed;
  }
}

TEST(GpuField, FpMatchesHost) {
  CUZK_REQUIRE_GPU();
  check_field<Fp, DevFp>(test::random_fp, -Fp::one(), "Fp");
}

TEST(GpuField, FrMatchesHost) {
  CUZK_REQUIRE_GPU();
  check_field<Fr, DevFr>(test::random_fr, -Fr::one(), "Fr");
}

TEST(GpuField, Fp2MatchesHost) {
  CUZK_REQUIRE_GPU();
  check_field<Fp2, DevFp2>(test::random_fp2, -Fp2::one(), "Fp2");
}

__global__ void inverse_kernel(const DevFp* a, DevFp* out, std::size_t n) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i < n) out[i] = a[i].inverse();
}

TEST(GpuField, FpInverseMatchesHost) {
  CUZK_REQUIRE_GPU();
  const std::uint64_t seed = test::fresh_seed();
  std::mt19937_64 rng(seed);
  const std::size_t n = 100 + rng() % 200;
  std::vector<Fp> a(n), out(n);
  for (auto& v : a) v = test::random_fp(rng);
  a[0] = Fp::zero();
  a[1] = Fp::one();
  auto ctx = DeviceContext::create({.arena_bytes = std::size_t{16} << 20});
  ASSERT_TRUE(ctx.ok()) << ctx.status().to_string();
  auto& c = **ctx;
  auto da = c.alloc(n * sizeof(Fp), "a"), dout = c.alloc(n * sizeof(Fp), "out");
  ASSERT_TRUE(da.ok() && dout.ok());
  c.upload(da->data(), a.data(), n * sizeof(Fp), c.stream());
  inverse_kernel<<<(n + 63) / 64, 64, 0, c.stream()>>>(da->as<DevFp>(), dout->as<DevFp>(), n);
  CUZK_CUDA_CHECK_LAUNCH();
  c.download(out.data(), dout->data(), n * sizeof(Fp), c.stream());
  for (std::size_t i = 0; i < n; ++i)
    ASSERT_EQ(out[i], a[i].inverse()) << "i=" << i << " seed=" << seed;
}

}  // namespace
}  // namespace cuzk::gpu
