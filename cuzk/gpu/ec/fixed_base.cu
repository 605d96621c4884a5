#include <algorithm>
#include <cstring>
#include <vector>

#include "cuzk/ec/fixed_base.hpp"
#include "cuzk/gpu/cuda_check.cuh"
#include "cuzk/gpu/ec/dev_curves.cuh"
#include "cuzk/gpu/ec/fixed_base.cuh"

namespace cuzk::gpu {

namespace {

constexpr unsigned kBlock = 256;  // threads per block (the kernels' launch bound)
constexpr std::size_t kPointsPerNormaliser = 32;

template <class H>
struct DevCurveOf;
template <>
struct DevCurveOf<G1Curve> {
  using type = DevG1Curve;
};
template <>
struct DevCurveOf<G2Curve> {
  using type = DevG2Curve;
};

// Bits [pos, pos + w) of the 256-bit little-endian integer |k| (zeros beyond bit 255), w ≤ 16:
// at most two 32-bit limbs (the twin of ec_detail::window_bits).
__device__ __forceinline__ std::uint32_t window_bits(const std::uint32_t k[8], unsigned pos,
                                                     unsigned w) {
  if (pos >= 256) return 0;
  const unsigned limb = pos / 32, off = pos % 32;
  std::uint64_t v = k[limb] >> off;
  if (limb + 1 < 8) v |= static_cast<std::uint64_t>(k[limb + 1]) << (32 - off);
  return static_cast<std::uint32_t>(v & ((std::uint64_t{1} << w) - 1));
}

// [k]G from the table (entry j·2^(w−1) + d − 1 = d·2^(wj)·G): signed digits d_j ∈ [−2^(w−1),
// 2^(w−1)), one mixed addition per non-zero digit, as FixedBaseTable::mul.
template <class C>
__device__ Jacobian<C> mul_fixed(const DevAffine<typename C::Field>* table, unsigned w,
                                 unsigned windows, const DevFr& k) {
  const DevFr e = k.to_canonical();
  const unsigned per = 1u << (w - 1);
  const int full = 1 << w, half = full >> 1;
  Jacobian<C> acc = Jacobian<C>::identity();
  int carry = 0;
#pragma unroll 1
  for (unsigned j = 0; j < windows; ++j) {
    int d = static_cast<int>(window_bits(e.l, j * w, w)) + carry;
    carry = 0;
    if (d >= half) {
      d -= full;
      carry = 1;
    }
    if (d == 0) continue;
    Affine<C> p = unpack<C>(table[j * per + static_cast<unsigned>((d > 0 ? d : -d) - 1)]);
    if (d < 0) p.y = -p.y;
    acc.add_mixed(p);
  }
  return acc;
}

template <class C>
__global__ void __launch_bounds__(kBlock)
    mul_fixed_kernel(const DevAffine<typename C::Field>* table, unsigned w, unsigned windows,
                     const DevFr* ks, std::size_t n, Jacobian<C>* out) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = mul_fixed<C>(table, w, windows, ks[i]);
}

// Thread t normalises points t, t + stride, …: Montgomery's trick over their Z with |prefix| as
// scratch (prefix[i] = product of the Z before i in the thread's sequence), one inversion.
template <class C>
__global__ void __launch_bounds__(kBlock)
    normalise_kernel(const Jacobian<C>* jac, typename C::Field* prefix, std::size_t n,
                     std::size_t stride, DevAffine<typename C::Field>* out) {
  using F = typename C::Field;
  const std::size_t t = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= stride || t >= n) return;
  F acc = F::one();
  for (std::size_t i = t; i < n; i += stride) {
    prefix[i] = acc;
    if (!jac[i].is_identity()) acc *= jac[i].Z;
  }
  F inv = acc.inverse();
  for (std::size_t i = t + ((n - 1 - t) / stride) * stride;; i -= stride) {
    const Jacobian<C> p = jac[i];
    if (p.is_identity()) {
      out[i] = {F::zero(), F::zero()};
    } else {
      const F zi = inv * prefix[i];
      inv *= p.Z;
      const Affine<C> a = p.with_z_inverse(zi);
      out[i] = {a.x, a.y};
    }
    if (i < stride) break;
  }
}

}  // namespace

template <class H>
DeviceFixedBaseTable<H>::DeviceFixedBaseTable(DeviceContext& ctx, const Affine<H>& base,
                                              unsigned window)
    : ctx_(ctx) {
  using C = typename DevCurveOf<H>::type;
  using DF = typename C::Field;
  const auto host = FixedBaseTable<H>::build(base, window);
  w_ = host.window_bits();
  windows_ = host.windows();
  const auto pts = host.points();
  std::vector<DevAffine<DF>> packed(pts.size());
  static_assert(sizeof(DF) == sizeof(typename H::Field));
  for (std::size_t i = 0; i < pts.size(); ++i) {
    std::memcpy(static_cast<void*>(&packed[i].x), &pts[i].x, sizeof(DF));
    std::memcpy(static_cast<void*>(&packed[i].y), &pts[i].y, sizeof(DF));
  }
  const std::size_t bytes = packed.size() * sizeof(DevAffine<DF>);
  table_ = ctx_.alloc_or_throw(bytes, "fixed-base table");
  ctx_.upload(table_.data(), packed.data(), bytes, ctx_.stream());
}

template <class H>
std::size_t DeviceFixedBaseTable<H>::bytes_per_point() {
  using C = typename DevCurveOf<H>::type;
  using DF = typename C::Field;
  return sizeof(Fr) + sizeof(Jacobian<C>) + sizeof(DF) + sizeof(DevAffine<DF>);
}

template <class H>
void DeviceFixedBaseTable<H>::mul_many(std::span<const Fr> ks, std::span<Affine<H>> out,
                                       std::size_t chunk, ThreadPool& pool) {
  using C = typename DevCurveOf<H>::type;
  using DF = typename C::Field;
  using HF = typename H::Field;
  if (ks.empty()) return;
  chunk = std::max<std::size_t>(1, std::min(chunk, ks.size()));
  DeviceBuffer d_ks = ctx_.alloc_or_throw(chunk * sizeof(Fr), "fixed-base scalars");
  DeviceBuffer d_jac =
      ctx_.alloc_or_throw(chunk * sizeof(Jacobian<C>), "fixed-base Jacobian points");
  DeviceBuffer d_prefix = ctx_.alloc_or_throw(chunk * sizeof(DF), "fixed-base prefix products");
  DeviceBuffer d_out =
      ctx_.alloc_or_throw(chunk * sizeof(DevAffine<DF>), "fixed-base affine points");
  // The downloaded (x, y) pairs, byte-identical to DevAffine.
  struct Packed {
    HF x, y;
  };
  static_assert(sizeof(Packed) == sizeof(DevAffine<DF>));
  std::vector<Packed> host(chunk);
  const cudaStream_t st = ctx_.stream();
  for (std::size_t off = 0; off < ks.size(); off += chunk) {
    const std::size_t n = std::min(chunk, ks.size() - off);
    ctx_.upload(d_ks.data(), ks.data() + off, n * sizeof(Fr), st);
    mul_fixed_kernel<C><<<static_cast<unsigned>((n + kBlock - 1) / kBlock), kBlock, 0, st>>>(
        table_.as<DevAffine<DF>>(), w_, windows_, d_ks.as<DevFr>(), n, d_jac.as<Jacobian<C>>());
    CUZK_CUDA_CHECK_LAUNCH();
    const std::size_t stride = (n + kPointsPerNormaliser - 1) / kPointsPerNormaliser;
    normalise_kernel<C><<<static_cast<unsigned>((stride + kBlock - 1) / kBlock), kBlock, 0, st>>>(
        d_jac.as<Jacobian<C>>(), d_prefix.as<DF>(), n, stride, d_out.as<DevAffine<DF>>());
    CUZK_CUDA_CHECK_LAUNCH();
    ctx_.download(host.data(), d_out.data(), n * sizeof(Packed), st);
    pool.parallel_for(
        n,
        [&](std::size_t b, std::size_t e) {
          for (std::size_t i = b; i < e; ++i) {
            Affine<H>& a = out[off + i];
            a.x = host[i].x;
            a.y = host[i].y;
            a.infinity = a.x.is_zero() && a.y.is_zero();
          }
        },
        4096);
  }
}

template class DeviceFixedBaseTable<G1Curve>;
template class DeviceFixedBaseTable<G2Curve>;

}  // namespace cuzk::gpu
