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

// DevFp's twin with square() by the product (DevFp squares by the square rows).
TEST(GpuField, FpProductSquaresMatchHost) {
  CUZK_REQUIRE_GPU();
  check_field<Fp, DevFpProductSquares>(test::random_fp, -Fp::one(), "Fp (product squares)");
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

// The fused a·b + c·d (DevMont::mul_add: one reduction for both products) and the lazy form
// (values in [0, 2p): DevFpRolled<3, true>, the G1 accumulation's option) against the host Fp.
using LazyFp = DevFpRolled<3, true>;
constexpr int kLazyOps = 8;
constexpr int kChainSteps = 32;

/// v, or v + p (a lazy value ≥ p standing for the same element) when |plus_p|.
__device__ LazyFp lift(const DevFp& v, bool plus_p) {
  LazyFp r;
  std::uint64_t carry = 0;
  for (int i = 0; i < LazyFp::N; ++i) {
    const std::uint64_t t = std::uint64_t{v.l[i]} + (plus_p ? LazyFp::p32(i) : 0u) + carry;
    r.l[i] = static_cast<std::uint32_t>(t);
    carry = t >> 32;
  }
  return r;
}
__device__ DevFp lower(const LazyFp& v) {
  const LazyFp c = v.canonical();
  DevFp r;
  for (int i = 0; i < DevFp::N; ++i) r.l[i] = c.l[i];
  return r;
}

/// Per i: the lazy ops on a, b lifted by bits 0 and 1 of lift_bits[i] (canonical results), the
/// fused products of the three reduced forms, and is_zero of 0, p and 1 + p (bits of zeros[i]).
__global__ void lazy_ops_kernel(const DevFp* a, const DevFp* b, const std::uint32_t* lift_bits,
                                DevFp* out, std::uint32_t* zeros, std::size_t n) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i >= n) return;
  const LazyFp x = lift(a[i], lift_bits[i] & 1u), y = lift(b[i], lift_bits[i] & 2u);
  DevFp* o = out + kLazyOps * i;
  o[0] = lower(x * y);
  o[1] = lower(x.square());
  o[2] = lower(x + y);
  o[3] = lower(x - y);
  o[4] = lower(-x);
  LazyFp t = x;  // t ← (t·y + t²) − y + (t·y + t²)², the lazy values fed back
  for (int k = 0; k < kChainSteps; ++k) {
    const LazyFp u = LazyFp::mul_add(t, y, t, t);
    t = u - y + u.square();
  }
  o[5] = lower(t);
  o[6] = DevFp::mul_add(a[i], b[i], b[i], a[i]);
  const DevFpRolled<3> ra = reinterpret_cast<const DevFpRolled<3>&>(a[i]),
                       rb = reinterpret_cast<const DevFpRolled<3>&>(b[i]);
  const DevFpRolled<3> fused = DevFpRolled<3>::mul_add(ra, ra, rb, -rb);
  o[7] = reinterpret_cast<const DevFp&>(fused);
  zeros[i] = (lift(DevFp::zero(), false).is_zero() ? 1u : 0u) |
             (lift(DevFp::zero(), true).is_zero() ? 2u : 0u) |
             (lift(DevFp::one(), true).is_zero() ? 4u : 0u) | (x.is_zero() ? 8u : 0u);
}

TEST(GpuField, FusedAndLazyFpMatchHost) {
  CUZK_REQUIRE_GPU();
  const std::uint64_t seed = test::fresh_seed();
  std::mt19937_64 rng(seed);
  const std::size_t n = 1000 + rng() % 3000;
  std::vector<Fp> a(n), b(n);
  std::vector<std::uint32_t> bits(n);
  for (std::size_t i = 0; i < n; ++i) {
    a[i] = test::random_fp(rng);
    b[i] = test::random_fp(rng);
    bits[i] = static_cast<std::uint32_t>(rng() & 3u);
  }
  // Edge values, each lifted and not: 0, 1, p − 1 (p − 1 + p = 2p − 1, the largest lazy value).
  const Fp edge[3] = {Fp::zero(), Fp::one(), -Fp::one()};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      for (std::uint32_t l = 0; l < 4; ++l) {
        const std::size_t k = 12 * i + 4 * j + l;
        a[k] = edge[i];
        b[k] = edge[j];
        bits[k] = l;
      }
  auto ctx = DeviceContext::create({.arena_bytes = std::size_t{64} << 20});
  ASSERT_TRUE(ctx.ok()) << ctx.status().to_string();
  auto& c = **ctx;
  auto da = c.alloc(n * sizeof(Fp), "a"), db = c.alloc(n * sizeof(Fp), "b"),
       dbits = c.alloc(n * 4, "lift bits"), dout = c.alloc(kLazyOps * n * sizeof(Fp), "out"),
       dz = c.alloc(n * 4, "zeros");
  ASSERT_TRUE(da.ok() && db.ok() && dbits.ok() && dout.ok() && dz.ok());
  cudaStream_t s = c.stream();
  c.upload(da->data(), a.data(), n * sizeof(Fp), s);
  c.upload(db->data(), b.data(), n * sizeof(Fp), s);
  c.upload(dbits->data(), bits.data(), n * 4, s);
  lazy_ops_kernel<<<(n + 127) / 128, 128, 0, s>>>(da->as<DevFp>(), db->as<DevFp>(),
                                                  dbits->as<std::uint32_t>(), dout->as<DevFp>(),
                                                  dz->as<std::uint32_t>(), n);
  CUZK_CUDA_CHECK_LAUNCH();
  std::vector<Fp> out(kLazyOps * n);
  std::vector<std::uint32_t> zeros(n);
  c.download(out.data(), dout->data(), kLazyOps * n * sizeof(Fp), s);
  c.download(zeros.data(), dz->data(), n * 4, s);
  for (std::size_t i = 0; i < n; ++i) {
    const Fp x = a[i], y = b[i];
    Fp t = x;
    for (int k = 0; k < kChainSteps; ++k) {
      const Fp u = t * y + t * t;
      t = u - y + u.square();
    }
    const Fp want[kLazyOps] = {x * y, x.square(), x + y,         x - y,
                               -x,    t,          x * y + y * x, x.square() - y.square()};
    static const char* const names[kLazyOps] = {
        "lazy mul", "lazy square", "lazy add",      "lazy sub",
        "lazy neg", "lazy chain",  "fused mul_add", "fused rolled mul_add"};
    for (int k = 0; k < kLazyOps; ++k)
      ASSERT_EQ(out[kLazyOps * i + k], want[k])
          << names[k] << ", i=" << i << " lift=" << bits[i] << " seed=" << seed;
    ASSERT_EQ(zeros[i] & 7u, 3u) << "lazy is_zero of 0, p, 1 + p";
    ASSERT_EQ((zeros[i] >> 3) & 1u, x.is_zero() ? 1u : 0u) << "lazy is_zero, i=" << i;
  }
}

}  // namespace
}  // namespace cuzk::gpu
