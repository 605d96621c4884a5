// The templates of the GPU MSM (see pippenger.cuh), included by pippenger_g1.cu and pippenger_g2.cu
// so the two curves compile in parallel translation units.
#pragma once

#include "cuzk/gpu/msm/pippenger.cuh"

#include <algorithm>
#include <bit>
#include <cstring>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <type_traits>
#include <vector>

#include "cuzk/gpu/cuda_check.cuh"
#include "cuzk/gpu/ec/dev_curves.cuh"
#include "cuzk/gpu/msm/pippenger_g2_pair.cuh"
#include "cuzk/gpu/trace.cuh"
#include "cuzk/msm/density.hpp"
#include "cuzk/msm/digits.hpp"
#include "cuzk/msm/msm_plan.hpp"
#include "cuzk/msm/precomputed_windows.hpp"

namespace cuzk::gpu {
namespace pippenger_detail {
namespace {  // internal linkage: each curve's translation unit has its own copy

constexpr std::uint32_t kFull = 0xffffffffu;

unsigned blocks_for(std::size_t n, unsigned threads) {
  return static_cast<unsigned>((n + threads - 1) / threads);
}

// ---------------------------------------------------------------------------------------------
// Bases

/// Packs host Affine records (|stride| bytes: x, y, infinity flag) into compact (x, y), identity (0, 0).
template <class F>
__global__ void pack_bases_kernel(DevAffine<F>* out, const unsigned char* raw, std::size_t stride,
                                  std::size_t n) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i >= n) return;
  const unsigned char* rec = raw + i * stride;
  DevAffine<F> p;
  std::memcpy(&p.x, rec, sizeof(F));
  std::memcpy(&p.y, rec + sizeof(F), sizeof(F));
  if (rec[2 * sizeof(F)] != 0) {
    p.x = F::zero();
    p.y = F::zero();
  }
  out[i] = p;
}

template <class F, class HostAffine>
ResidentBases upload_bases(DeviceContext& ctx, std::span<const HostAffine> bases,
                           cudaStream_t stream, bool g2) {
  static_assert(sizeof(HostAffine) >= 2 * sizeof(F) + 1);
  ResidentBases r;
  r.g2 = g2;
  r.count = bases.size();
  r.points = ctx.alloc_or_throw(std::max<std::size_t>(1, bases.size()) * sizeof(DevAffine<F>),
                                "resident bases");
  const std::size_t chunk = std::max<std::size_t>(1, (std::size_t{256} << 20) / sizeof(HostAffine));
  DeviceBuffer staging = ctx.alloc_or_throw(
      std::min(chunk, std::max<std::size_t>(1, bases.size())) * sizeof(HostAffine),
      "bases staging");
  for (std::size_t off = 0; off < bases.size(); off += chunk) {
    const std::size_t n = std::min(chunk, bases.size() - off);
    ctx.upload(staging.data(), bases.data() + off, n * sizeof(HostAffine), stream);
    pack_bases_kernel<F><<<blocks_for(n, 256), 256, 0, stream>>>(
        r.points.as<DevAffine<F>>() + off, staging.as<unsigned char>(), sizeof(HostAffine), n);
    CUZK_CUDA_CHECK_LAUNCH();
    CUZK_CUDA_CHECK(cudaStreamSynchronize(stream));  // staging is reused
  }
  return r;
}

// ---------------------------------------------------------------------------------------------
// Classification

__global__ void popcount_words_kernel(const std::uint64_t* bits, std::uint32_t* counts,
                                      std::size_t words) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i < words) counts[i] = static_cast<std::uint32_t>(__popcll(bits[i]));
}

struct Lists {
  DevFr* tail_scalars;      // canonical
  std::uint32_t* tail_idx;  // base index
  std::uint32_t* ones_idx;
  unsigned long long* counters;  // [0] ones, [1] tail, [2] zeros
};

/// Appends |take| lanes to a list with one atomic per warp; returns each lane's slot.
__device__ __forceinline__ std::uint32_t warp_append(bool take, unsigned long long* counter) {
  const unsigned mask = __ballot_sync(kFull, take);
  const int lane = threadIdx.x & 31;
  unsigned long long base = 0;
  if (mask != 0) {
    const int leader = __ffs(mask) - 1;
    if (lane == leader) base = atomicAdd(counter, static_cast<unsigned long long>(__popc(mask)));
    base = __shfl_sync(kFull, base, leader);
  }
  return static_cast<std::uint32_t>(base + __popc(mask & ((1u << lane) - 1)));
}

__global__ void classify_kernel(const DevFr* scalars, std::size_t n, const std::uint64_t* bits,
                                const std::uint32_t* word_prefix, std::size_t base_offset,
                                bool bit_split, Lists out) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  bool is_one = false, is_tail = false, is_zero = false;
  std::uint32_t base = 0;
  DevFr c;
  if (i < n) {
    // bellperson's density rule (msm/density.hpp): the rank among the scalars taking part.
    if (density_takes_part(bits, i)) {
      base = static_cast<std::uint32_t>(base_offset + density_rank(bits, word_prefix, i));
      c = scalars[i].to_canonical();
      std::uint32_t hi = 0;
#pragma unroll
      for (int k = 1; k < DevFr::N; ++k) hi |= c.l[k];
      if (hi == 0 && c.l[0] == 0)
        is_zero = true;
      else if (bit_split && hi == 0 && c.l[0] == 1)
        is_one = true;
      else
        is_tail = true;
    }
  }
  const std::uint32_t s1 = warp_append(is_one, &out.counters[0]);
  const std::uint32_t s2 = warp_append(is_tail, &out.counters[1]);
  const unsigned zmask = __ballot_sync(kFull, is_zero);
  if ((threadIdx.x & 31) == 0 && zmask)
    atomicAdd(&out.counters[2], static_cast<unsigned long long>(__popc(zmask)));
  if (is_one) out.ones_idx[s1] = base;
  if (is_tail) {
    out.tail_scalars[s2] = c;
    out.tail_idx[s2] = base;
  }
}

// ---------------------------------------------------------------------------------------------
// Sums

// The cold kernels (reductions, window sums) call the full addition and doubling out of line: one
// copy each per curve instead of one per kernel keeps ptxas time and code size down; only the hot
// accumulation loops inline the mixed addition.
template <class C>
__device__ __noinline__ void add_ool(Xyzz<C>& a, const Xyzz<C>& b) {
  a.add(b);
}
template <class C>
__device__ __noinline__ void dbl_ool(Xyzz<C>& a) {
  a.dbl();
}

/// partial[t] = Σ bases[idx[j]] over thread t's contiguous chunk of the list.
template <class C>
__global__ void batch_add_kernel(const DevAffine<typename C::Field>* bases,
                                 const std::uint32_t* idx, std::size_t n, std::size_t per_thread,
                                 Xyzz<C>* partial, std::size_t partials) {
  const std::size_t t = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (t >= partials) return;
  Xyzz<C> acc = Xyzz<C>::identity();
  const std::size_t lo = t * per_thread, hi = min(n, lo + per_thread);
  for (std::size_t j = lo; j < hi; ++j) acc.add_mixed(unpack<C>(bases[idx[j]]));
  partial[t] = acc;
}

/// out[t] = Σ in[t·per .. t·per + per) (full additions).
template <class C>
__global__ void reduce_kernel(const Xyzz<C>* in, std::size_t n, std::size_t per, Xyzz<C>* out,
                              std::size_t out_n) {
  const std::size_t t = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (t >= out_n) return;
  Xyzz<C> acc = Xyzz<C>::identity();
  const std::size_t lo = t * per, hi = min(n, lo + per);
  for (std::size_t j = lo; j < hi; ++j) add_ool<C>(acc, in[j]);
  out[t] = acc;
}

/// Whether |acc| takes the lane-pair kernels (pippenger_g2_pair.cuh): G2 only.
template <class C>
constexpr bool g2_pairs(G2Accumulation acc) {
  return std::is_same_v<C, DevG2Curve> && acc != G2Accumulation::one_thread;
}

/// Calls |f| with std::integral_constant<PairProduct, ·> for the lane-pair form |acc|, so one
/// launch site instantiates every product form.
template <class F>
void with_pair_product(G2Accumulation acc, F&& f) {
  using Form = PairProduct;
  switch (acc) {
    case G2Accumulation::lane_pair:
      f(std::integral_constant<Form, Form::separate>{});
      return;
    case G2Accumulation::lane_pair_rolled:
      f(std::integral_constant<Form, Form::fused_rolled>{});
      return;
    case G2Accumulation::lane_pair_rolled2_ahead:
      f(std::integral_constant<Form, Form::fused_rolled2_ahead>{});
      return;
    default:
      f(std::integral_constant<Form, Form::fused>{});
      return;
  }
}

/// reduce_kernel, or its lane-pair twin.
template <class C>
void launch_reduce(const Xyzz<C>* in, std::size_t n, std::size_t per, Xyzz<C>* out,
                   std::size_t out_n, G2Accumulation acc, cudaStream_t stream) {
  if constexpr (std::is_same_v<C, DevG2Curve>) {
    if (g2_pairs<C>(acc)) {
      with_pair_product(acc, [&](auto kp) {
        reduce_pair_kernel<kp.value>
            <<<blocks_for(2 * out_n, 64), 64, 0, stream>>>(in, n, per, out, out_n);
      });
      return;
    }
  }
  reduce_kernel<C><<<blocks_for(out_n, 64), 64, 0, stream>>>(in, n, per, out, out_n);
}

/// Sums |n| device points into one, in place in |buf| (which is overwritten); returns its address.
template <class C>
Xyzz<C>* reduce_all(DeviceContext& ctx, Xyzz<C>* buf, std::size_t n, G2Accumulation acc,
                    cudaStream_t stream) {
  // The first round writes ⌈n/per⌉ sums with per ≥ 16 (or one sum for n ≤ 64); later rounds write
  // fewer. (Sized for per = 32 before, so 64 < n ≤ 4096 wrote past the scratch into whatever the
  // arena held next: wrong Groth16 proofs at 2^10, no sanitizer report inside the one arena.)
  DeviceBuffer tmp = ctx.alloc_or_throw(std::max<std::size_t>(1, (n + 15) / 16) * sizeof(Xyzz<C>),
                                        "reduce scratch");
  Xyzz<C>* src = buf;
  Xyzz<C>* dst = tmp.as<Xyzz<C>>();
  while (n > 1) {
    const std::size_t per = n > 4096 ? 32 : (n > 64 ? 16 : n);
    const std::size_t out_n = (n + per - 1) / per;
    launch_reduce<C>(src, n, per, dst, out_n, acc, stream);
    CUZK_CUDA_CHECK_LAUNCH();
    std::swap(src, dst);
    n = out_n;
  }
  if (src != buf)
    CUZK_CUDA_CHECK(cudaMemcpyAsync(buf, src, sizeof(Xyzz<C>), cudaMemcpyDeviceToDevice, stream));
  CUZK_CUDA_CHECK(cudaStreamSynchronize(stream));  // |tmp| is freed on return
  return buf;
}

// ---------------------------------------------------------------------------------------------
// Pippenger

/// Signed c-bit digits of windows [w0, w0 + g) of each tail scalar → (key, value) pairs, window-major.
/// key = (w − w0)·B + |d| − 1, or |sentinel| for d = 0; value = base index·2 + (d < 0). The digits
/// are the CPU's (msm/digits.hpp): k' = k + H once, then each window's digit from k' alone.
/// With precomputed copies (msm/precomputed_windows.hpp) bucket windows [w0, w0 + g) of K', each
/// with |pre|.copies pairs per scalar, laid out (window, copy)-major; copy j of bucket window w'
/// carries scalar window j·K' + w' (none past K) on base j·table_n + idx. Without copies
/// (PrecomputedWindowPlan::make(c, 1)) K' = K and every pair is copy 0: the plain layout.
/// |idx| null (GpuMsmConfig::dense_scalars): |scalars| are the MSM's own in Montgomery form (one
/// product each to canonical), scalar t on base |base_offset| + t.
__global__ void digits_kernel(const DevFr* scalars, const std::uint32_t* idx,
                              std::uint32_t base_offset, std::size_t m, SignedWindowPlan plan,
                              PrecomputedWindowPlan pre, std::uint32_t table_n, int w0, int g,
                              std::uint32_t* keys, std::uint32_t* vals, std::uint32_t sentinel) {
  const std::size_t t = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (t >= m) return;
  const DevFr s = idx != nullptr ? scalars[t] : scalars[t].to_canonical();
  std::uint64_t k[kMsmScalarLimbs], kr[kMsmScalarLimbs];
#pragma unroll
  for (unsigned i = 0; i < kMsmScalarLimbs; ++i)
    k[i] = s.l[2 * i] | (static_cast<std::uint64_t>(s.l[2 * i + 1]) << 32);
  msm_recode(plan, k, kr);
  const std::uint32_t base = idx != nullptr ? idx[t] : base_offset + static_cast<std::uint32_t>(t);
  const std::uint32_t B = plan.buckets();
  for (int w = w0; w < w0 + g; ++w) {
    for (unsigned j = 0; j < pre.copies; ++j) {
      const int src = pre.source_window(j, static_cast<unsigned>(w));
      const std::int32_t d = src < 0 ? 0 : msm_signed_digit(plan, kr, static_cast<unsigned>(src));
      const std::uint32_t mag = static_cast<std::uint32_t>(d < 0 ? -d : d);
      const std::size_t pos = (static_cast<std::size_t>(w - w0) * pre.copies + j) * m + t;
      keys[pos] = mag == 0 ? sentinel : static_cast<std::uint32_t>(w - w0) * B + mag - 1;
      vals[pos] = ((j * table_n + base) << 1) | (d < 0 ? 1u : 0u);
    }
  }
}

__global__ void bucket_ranges_kernel(const std::uint32_t* keys, std::size_t count,
                                     std::uint32_t sentinel, std::uint32_t* start,
                                     std::uint32_t* end) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i >= count) return;
  const std::uint32_t k = keys[i];
  if (k == sentinel) return;
  if (i == 0 || keys[i - 1] != k) start[k] = static_cast<std::uint32_t>(i);
  if (i + 1 == count || keys[i + 1] != k) end[k] = static_cast<std::uint32_t>(i + 1);
}

/// Bucket accumulation split into segments of |S| sorted pairs (one thread each), so a bucket that
/// collects many points (repeated scalars: a witness's small integers and their negatives put
/// thousands of points in one bucket per window) is summed by many threads, not one. A run of equal
/// keys that is its whole bucket is written to |out|; a piece of a bucket that crosses a segment
/// boundary goes to the segment's slot: |slot_a| for the segment's first run, |slot_b| for its last.
/// |kCopies| (the precomputed-window MSM): a pair's base index b < |table_n| reads bases[b], a larger
/// one the shifted copies, copies[b − table_n] (copy j of point i is b = j·table_n + i).
/// The kernels below share this body; they differ in the register cap ptxas works under.
template <class C, bool kCopies>
__device__ __forceinline__ void segment_accumulate(
    const DevAffine<typename C::Field>* bases, const std::uint32_t* keys, const std::uint32_t* vals,
    std::size_t count, std::uint32_t sentinel, std::uint32_t S, const std::uint32_t* start,
    const std::uint32_t* end, Xyzz<C>* out, Xyzz<C>* slot_a, Xyzz<C>* slot_b,
    const DevAffine<typename C::Field>* copies, std::uint32_t table_n) {
  const std::size_t t = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  const std::size_t lo = t * S;
  if (lo >= count) return;
  const std::size_t hi = min(count, lo + S);
  // One flat loop: every lane runs the same number of mixed additions in step; only the short
  // flush at a key change diverges (nested per-run loops made lanes at different runs serialize
  // the additions: 1.8x slower on uniform buckets, measured).
  std::uint32_t cur = keys[lo];
  if (cur == sentinel) return;
  std::size_t a = lo, j = lo;
  bool first = true;
  Xyzz<C> acc = Xyzz<C>::identity();
  auto flush = [&](std::uint32_t k, std::size_t b) {
    Xyzz<C> v = acc;
    if constexpr (is_lazy_field<typename C::Field>) {  // the buckets are read reduced
      v.X = v.X.canonical();
      v.Y = v.Y.canonical();
      v.ZZ = v.ZZ.canonical();
      v.ZZZ = v.ZZZ.canonical();
    }
    if (a == start[k] && b == end[k])
      out[k] = v;
    else if (first)
      slot_a[t] = v;
    else
      slot_b[t] = v;
    first = false;
  };
  for (; j < hi; ++j) {
    const std::uint32_t k = keys[j];
    if (k != cur) {
      flush(cur, j);
      cur = k;
      if (k == sentinel) break;
      a = j;
      acc = Xyzz<C>::identity();
    }
    const std::uint32_t v = vals[j];
    Affine<C> p;
    if constexpr (kCopies) {
      const std::uint32_t b = v >> 1;
      p = unpack<C>(b < table_n ? bases[b] : copies[b - table_n]);
    } else {
      p = unpack<C>(bases[v >> 1]);
    }
    if (v & 1) p.y = -p.y;
    acc.add_mixed(p);
  }
  if (cur != sentinel) flush(cur, j);
}

#define CUZK_SEGMENT_ACCUMULATE_PARAMS                                                            \
  const DevAffine<typename C::Field>*bases, const std::uint32_t *keys, const std::uint32_t *vals, \
      std::size_t count, std::uint32_t sentinel, std::uint32_t S, const std::uint32_t *start,     \
      const std::uint32_t *end, Xyzz<C>*out, Xyzz<C>*slot_a, Xyzz<C>*slot_b,                      \
      const DevAffine<typename C::Field>*copies, std::uint32_t table_n
#define CUZK_SEGMENT_ACCUMULATE_ARGS \
  bases, keys, vals, count, sentinel, S, start, end, out, slot_a, slot_b, copies, table_n

/// segment_accumulate with ptxas free to take every register it wants (172 for G1 on sm_90: two
/// blocks of 128 an SM, 12.5 % occupancy).
template <class C, bool kCopies = false>
__global__ void segment_accumulate_kernel(CUZK_SEGMENT_ACCUMULATE_PARAMS) {
  segment_accumulate<C, kCopies>(CUZK_SEGMENT_ACCUMULATE_ARGS);
}

/// segment_accumulate capped for three blocks of 128 an SM (≤ 168 registers): 18.75 % occupancy
/// against the latency-bound multiply chains ncu measured (GpuMsmConfig::accumulate_min_blocks).
template <class C, bool kCopies = false>
__global__ void __launch_bounds__(128, 3)
    segment_accumulate_3_blocks_kernel(CUZK_SEGMENT_ACCUMULATE_PARAMS) {
  segment_accumulate<C, kCopies>(CUZK_SEGMENT_ACCUMULATE_ARGS);
}
#undef CUZK_SEGMENT_ACCUMULATE_PARAMS
#undef CUZK_SEGMENT_ACCUMULATE_ARGS

/// Buckets that segment_accumulate_kernel left: empty ones become the identity; one that crosses
/// segments s0 < s1 sums its pieces (s0's last run, whole segments, s1's first run).
template <class C>
__global__ void segment_fixup_kernel(const std::uint32_t* start, const std::uint32_t* end,
                                     std::size_t buckets, std::uint32_t S, const Xyzz<C>* slot_a,
                                     const Xyzz<C>* slot_b, Xyzz<C>* out) {
  const std::size_t b = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (b >= buckets) return;
  const std::uint32_t s = start[b], e = end[b];
  if (s == e) {
    out[b] = Xyzz<C>::identity();
    return;
  }
  const std::size_t s0 = s / S, s1 = (e - 1) / S;
  if (s0 == s1) return;
  Xyzz<C> acc = s == s0 * S ? slot_a[s0] : slot_b[s0];
  for (std::size_t q = s0 + 1; q <= s1; ++q) add_ool<C>(acc, slot_a[q]);
  out[b] = acc;
}

/// Chunk t of window w: buckets [lo, lo + per) give Σ (j + 1)·S_j = acc + lo·run, with the running
/// sums run = Σ S_j and acc = Σ (j − lo + 1)·S_j taken from the top.
template <class C>
__global__ void window_chunks_kernel(const Xyzz<C>* buckets, int windows, std::uint32_t B,
                                     std::uint32_t chunks, Xyzz<C>* out) {
  const std::size_t t = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (t >= static_cast<std::size_t>(windows) * chunks) return;
  const std::size_t w = t / chunks, ch = t % chunks;
  const std::uint32_t per = B / chunks;
  const std::uint32_t lo = static_cast<std::uint32_t>(ch) * per;
  const Xyzz<C>* s = buckets + w * B;
  Xyzz<C> run = Xyzz<C>::identity(), acc = Xyzz<C>::identity();
  for (std::uint32_t j = lo + per; j-- > lo;) {
    add_ool<C>(run, s[j]);
    add_ool<C>(acc, run);
  }
  // acc += lo·run (double-and-add over the bits of lo, most significant first: ≤ c − 1 − log2(per)
  // doublings, not 32).
  if (lo != 0) {
    Xyzz<C> m = run;
    for (int bit = 30 - __clz(lo); bit >= 0; --bit) {
      dbl_ool<C>(m);
      if ((lo >> bit) & 1) add_ool<C>(m, run);
    }
    add_ool<C>(acc, m);
  }
  out[t] = acc;
}

// ---------------------------------------------------------------------------------------------
// Precomputed copies (GpuMsmConfig::precomputed, msm/precomputed_windows.hpp)

/// out[i] = 2^shift·src[i] in XYZZ: |shift| doublings (dbl-2008-s-1, 9 Fp products each); the
/// identity stays the identity (its ZZ stays 0).
template <class C>
__global__ void shift_points_kernel(const DevAffine<typename C::Field>* src, std::size_t n,
                                    unsigned shift, Xyzz<C>* out) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i >= n) return;
  Xyzz<C> p = Xyzz<C>::from_affine(unpack<C>(src[i]));
  for (unsigned k = 0; k < shift; ++k) p.dbl();
  out[i] = p;
}

/// Thread t makes points t, t + stride, … affine: Montgomery's trick over ZZ·ZZZ with |prefix| as
/// scratch and one inversion per thread; u = 1/(ZZ·ZZZ), x = X·ZZZ·u, y = Y·ZZ·u; the identity as
/// (0, 0).
template <class C>
__global__ void xyzz_to_affine_kernel(const Xyzz<C>* pts, typename C::Field* prefix, std::size_t n,
                                      std::size_t stride, DevAffine<typename C::Field>* out) {
  using F = typename C::Field;
  const std::size_t t = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (t >= stride || t >= n) return;
  F acc = F::one();
  for (std::size_t i = t; i < n; i += stride) {
    prefix[i] = acc;
    if (!pts[i].is_identity()) acc *= pts[i].ZZ * pts[i].ZZZ;
  }
  F inv = acc.inverse();
  for (std::size_t i = t + ((n - 1 - t) / stride) * stride;; i -= stride) {
    const Xyzz<C> p = pts[i];
    if (p.is_identity()) {
      out[i] = {F::zero(), F::zero()};
    } else {
      const F zz_zzz = p.ZZ * p.ZZZ;
      const F u = inv * prefix[i];
      inv *= zz_zzz;
      out[i] = {p.X * p.ZZZ * u, p.Y * p.ZZ * u};
    }
    if (i < stride) break;
  }
}

/// Copy j = 2^S·(copy j − 1), chunk by chunk (XYZZ scratch of ≤ 2^22 points, 0.8 GB for G1).
template <class C>
PrecomputedBases precompute_bases(DeviceContext& ctx, const ResidentBases& bases, unsigned c,
                                  unsigned copies, cudaStream_t stream) {
  using F = typename C::Field;
  const PrecomputedWindowPlan plan = PrecomputedWindowPlan::make(c, copies);
  if (plan.invalid() || bases.count * copies >= (std::size_t{1} << 31))
    throw CudaError(cudaErrorInvalidValue,
                    "precomputed copies: window width, copies or table size out of range", __FILE__,
                    __LINE__);
  PrecomputedBases r;
  r.count = bases.count;
  r.window_bits = c;
  r.copies = copies;
  if (copies == 1 || bases.count == 0) return r;
  const std::size_t n = bases.count;
  r.points = ctx.alloc_or_throw((copies - 1) * n * sizeof(DevAffine<F>), "precomputed copies");
  const std::size_t chunk = std::min<std::size_t>(n, std::size_t{1} << 22);
  DeviceBuffer tmp = ctx.alloc_or_throw(chunk * sizeof(Xyzz<C>), "precompute scratch");
  DeviceBuffer prefix = ctx.alloc_or_throw(chunk * sizeof(F), "precompute prefix");
  for (unsigned j = 1; j < copies; ++j) {
    const DevAffine<F>* src =
        j == 1 ? bases.points.as<DevAffine<F>>() : r.points.as<DevAffine<F>>() + (j - 2) * n;
    DevAffine<F>* dst = r.points.as<DevAffine<F>>() + (j - 1) * n;
    for (std::size_t off = 0; off < n; off += chunk) {
      const std::size_t len = std::min(chunk, n - off);
      shift_points_kernel<C><<<blocks_for(len, 128), 128, 0, stream>>>(
          src + off, len, plan.shift_bits, tmp.as<Xyzz<C>>());
      CUZK_CUDA_CHECK_LAUNCH();
      const std::size_t stride = std::max<std::size_t>(1, len / 32);
      xyzz_to_affine_kernel<C><<<blocks_for(stride, 128), 128, 0, stream>>>(
          tmp.as<Xyzz<C>>(), prefix.as<F>(), len, stride, dst + off);
      CUZK_CUDA_CHECK_LAUNCH();
    }
  }
  CUZK_CUDA_CHECK(cudaStreamSynchronize(stream));  // the scratch is freed on return
  return r;
}

template <class C>
__global__ void set_identity_kernel(Xyzz<C>* p) {
  if (blockIdx.x == 0 && threadIdx.x == 0) *p = Xyzz<C>::identity();
}

template <class C>
__global__ void add_point_kernel(Xyzz<C>* acc, const Xyzz<C>* p) {
  if (blockIdx.x == 0 && threadIdx.x == 0) add_ool<C>(*acc, *p);
}

template <class C, class HostXyzz>
HostXyzz msm_impl(DeviceContext& ctx, const ResidentBases& bases, const Fr* d_scalars_fr,
                  std::size_t n, const GpuMsmConfig& cfg, cudaStream_t stream, GpuMsmStats* stats) {
  using F = typename C::Field;
  using P = Xyzz<C>;
  static_assert(sizeof(P) == sizeof(HostXyzz));
  constexpr bool kG2 = std::is_same_v<C, DevG2Curve>;
  const auto use_pairs = [](const GpuMsmConfig& c) { return g2_pairs<C>(c.g2_accumulation); };
  const auto* d_bases = bases.points.as<DevAffine<F>>();
  const DevFr* d_scalars = reinterpret_cast<const DevFr*>(d_scalars_fr);
  GpuMsmStats st;
  st.scalars = n;
  auto mark = [&](const char* phase) {
    if (cfg.trace) cfg.trace->mark(stream, std::string(cfg.trace_name) + " " + phase);
  };

  DeviceBuffer result = ctx.alloc_or_throw(sizeof(P), "MSM result");
  set_identity_kernel<C><<<1, 1, 0, stream>>>(result.as<P>());
  CUZK_CUDA_CHECK_LAUNCH();

  // 1. classify: ones, zeros and the tail apart (one read-back of the counts), or with
  // dense_scalars every scalar in the tail as it lies (no pass, no lists, no host round trip).
  const bool dense = cfg.dense_scalars;
  if (dense && (!cfg.density_bits.empty() || cfg.compact.present || (n > 0 && !d_scalars) ||
                cfg.base_offset + n > (std::size_t{1} << 31)))
    throw CudaError(cudaErrorInvalidValue,
                    "MSM: dense_scalars takes device scalars in place, without density bits or a "
                    "compact witness, bases below 2^31",
                    __FILE__, __LINE__);
  const std::size_t words = (n + 63) / 64;
  DeviceBuffer d_bits, d_prefix, scan_tmp;
  if (!cfg.density_bits.empty()) {
    d_bits = ctx.alloc_or_throw(words * 8, "density bits");
    ctx.upload(d_bits.data(), cfg.density_bits.data(), words * 8, stream);
    d_prefix = ctx.alloc_or_throw(words * 4 + 4, "density prefix");
    DeviceBuffer counts = ctx.alloc_or_throw(words * 4, "density counts");
    popcount_words_kernel<<<blocks_for(words, 256), 256, 0, stream>>>(
        d_bits.as<std::uint64_t>(), counts.as<std::uint32_t>(), words);
    CUZK_CUDA_CHECK_LAUNCH();
    std::size_t tmp_bytes = 0;
    CUZK_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, tmp_bytes, counts.as<std::uint32_t>(),
                                                  d_prefix.as<std::uint32_t>(),
                                                  static_cast<int>(words), stream));
    scan_tmp = ctx.alloc_or_throw(tmp_bytes, "density scan");
    CUZK_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(
        scan_tmp.data(), tmp_bytes, counts.as<std::uint32_t>(), d_prefix.as<std::uint32_t>(),
        static_cast<int>(words), stream));
    CUZK_CUDA_CHECK(cudaStreamSynchronize(stream));
  }
  DeviceBuffer tail_scalars, tail_idx, ones_idx;
  unsigned long long h_counts[3] = {0, n, 0};  // ones, tail, zeros
  if (!dense) {
    const std::size_t len = std::max<std::size_t>(1, n);
    tail_scalars = ctx.alloc_or_throw(len * sizeof(DevFr), "tail scalars");
    tail_idx = ctx.alloc_or_throw(len * 4, "tail indices");
    ones_idx = ctx.alloc_or_throw(len * 4, "ones indices");
    DeviceBuffer counters = ctx.alloc_or_throw(3 * sizeof(unsigned long long), "counters");
    CUZK_CUDA_CHECK(cudaMemsetAsync(counters.data(), 0, 3 * sizeof(unsigned long long), stream));
    Lists lists{tail_scalars.as<DevFr>(), tail_idx.as<std::uint32_t>(),
                ones_idx.as<std::uint32_t>(), counters.as<unsigned long long>()};
    if (n > 0 && cfg.compact.present) {  // the split from the compact witness (not from z)
      classify_compact_device(cfg.compact, n, d_bits ? d_bits.as<std::uint64_t>() : nullptr,
                              d_prefix ? d_prefix.as<std::uint32_t>() : nullptr, cfg.base_offset,
                              cfg.bit_split,
                              {reinterpret_cast<Fr*>(lists.tail_scalars), lists.tail_idx,
                               lists.ones_idx, lists.counters},
                              stream);
    } else if (n > 0) {
      classify_kernel<<<blocks_for(n, 256), 256, 0, stream>>>(
          d_scalars, n, d_bits ? d_bits.as<std::uint64_t>() : nullptr,
          d_prefix ? d_prefix.as<std::uint32_t>() : nullptr, cfg.base_offset, cfg.bit_split, lists);
      CUZK_CUDA_CHECK_LAUNCH();
    }
    CUZK_CUDA_CHECK(cudaMemcpyAsync(h_counts, counters.data(), sizeof(h_counts),
                                    cudaMemcpyDeviceToHost, stream));
    CUZK_CUDA_CHECK(cudaStreamSynchronize(stream));
    mark("classify");
  }
  d_bits.reset();
  d_prefix.reset();
  scan_tmp.reset();
  const std::size_t ones = h_counts[0], m = h_counts[1];
  st.ones = ones;
  st.tail = m;
  st.zeros = h_counts[2];
  // The tail's scalars (canonical) and bases, or (dense) the caller's scalars (Montgomery form)
  // with no index list.
  const DevFr* tail_sc = dense ? d_scalars : tail_scalars.as<DevFr>();
  const std::uint32_t* tail_base = dense ? nullptr : tail_idx.as<std::uint32_t>();

  // 2. ones: batch addition
  if (ones > 0) {
    // One thread per chunk, or (G2, lane pairs) one pair per chunk with 192 pairs per SM: three
    // blocks of 64 pairs fit at the pair kernels' 168 registers.
    const bool pairs = use_pairs(cfg);
    const std::size_t threads =
        std::min<std::size_t>(ones, static_cast<std::size_t>(ctx.sm_count()) * (pairs ? 192 : 256));
    const std::size_t per = (ones + threads - 1) / threads;
    const std::size_t used = (ones + per - 1) / per;
    DeviceBuffer partial = ctx.alloc_or_throw(used * sizeof(P), "batch-add partials");
    if constexpr (kG2) {
      if (pairs) {
        with_pair_product(cfg.g2_accumulation, [&](auto kp) {
          batch_add_pair_kernel<kp.value><<<blocks_for(2 * used, 128), 128, 0, stream>>>(
              d_bases, ones_idx.as<std::uint32_t>(), ones, per, partial.as<P>(), used);
        });
      }
    }
    if (!pairs)
      batch_add_kernel<C><<<blocks_for(used, 128), 128, 0, stream>>>(
          d_bases, ones_idx.as<std::uint32_t>(), ones, per, partial.as<P>(), used);
    CUZK_CUDA_CHECK_LAUNCH();
    P* sum = reduce_all<C>(ctx, partial.as<P>(), used, cfg.g2_accumulation, stream);
    add_point_kernel<C><<<1, 1, 0, stream>>>(result.as<P>(), sum);
    CUZK_CUDA_CHECK_LAUNCH();
    CUZK_CUDA_CHECK(cudaStreamSynchronize(stream));
    mark("ones");
  }
  ones_idx.reset();

  // 3. tail: Pippenger
  DeviceBuffer window_sums;
  if (m > 0) {
    // The plan (msm/msm_plan.hpp, the GPU's price table): window width and count, reduction chunks.
    // With precomputed copies (G1): their width, K' = ⌈K/k⌉ bucket windows of k·m pairs.
    const PrecomputedBases* pre = kG2 ? nullptr : cfg.precomputed;
    if (cfg.precomputed != nullptr &&
        (kG2 || pre->count != bases.count ||
         (cfg.window_bits > 0 && static_cast<unsigned>(cfg.window_bits) != pre->window_bits)))
      throw CudaError(cudaErrorInvalidValue,
                      "MSM: precomputed copies are G1 only, of the same table and window width",
                      __FILE__, __LINE__);
    if (cfg.accumulate_min_blocks != 0 && cfg.accumulate_min_blocks != 3)
      throw CudaError(cudaErrorInvalidValue, "MSM: accumulate_min_blocks must be 0 or 3", __FILE__,
                      __LINE__);
    if ((cfg.accumulate_rows_per_step != 0 && cfg.accumulate_rows_per_step != 3) ||
        (cfg.accumulate_rows_per_step == 3 && cfg.accumulate_min_blocks != 3))
      throw CudaError(cudaErrorInvalidValue,
                      "MSM: accumulate_rows_per_step must be 0, or 3 with accumulate_min_blocks 3",
                      __FILE__, __LINE__);
    // The arena the windows may take.
    const std::size_t room = ctx.arena_largest_free();
    const std::size_t headroom =
        std::min(std::size_t{256} << 20, room / 8);  // sort scratch, reductions
    std::size_t budget = room - headroom;
    if (cfg.arena_budget > 0) {  // the tail lists are already taken from it
      const std::size_t lists = dense ? 0 : n * (sizeof(DevFr) + 8);
      budget = std::min(
          budget, cfg.arena_budget > lists + headroom ? cfg.arena_budget - lists - headroom : 0);
    }
    // Copies whose one window (k·m pairs of 16 B and 2^(c−1) buckets) does not fit take the
    // plan's path (same sums).
    if (pre != nullptr &&
        m * pre->copies * 16 + (std::size_t{1} << (pre->window_bits - 1)) * (sizeof(P) + 8) >
            budget)
      pre = nullptr;
    const unsigned forced_c =
        pre != nullptr ? pre->window_bits
                       : (cfg.window_bits > 0 ? static_cast<unsigned>(cfg.window_bits) : 0u);
    const MsmPlan plan = make_msm_plan(m, 0, sizeof(F) > 48 ? MsmCurve::g2 : MsmCurve::g1,
                                       cuda_msm_prices(), {.window_bits = forced_c});
    const PrecomputedWindowPlan pre_plan =
        PrecomputedWindowPlan::make(plan.window_bits, pre != nullptr ? pre->copies : 1);
    if (pre_plan.invalid() ||
        (pre != nullptr && pre->count * pre_plan.copies >= (std::size_t{1} << 31)))
      throw CudaError(cudaErrorInvalidValue, "MSM: window width or copies out of range", __FILE__,
                      __LINE__);
    const std::size_t copies = pre_plan.copies;
    const int c = static_cast<int>(plan.window_bits);
    const int K = static_cast<int>(pre_plan.bucket_windows);  // = plan.windows without copies
    const SignedWindowPlan digits = SignedWindowPlan::make(plan.window_bits);
    const std::uint32_t B = digits.buckets();
    st.window_bits = c;
    st.windows = K;
    // Reduction chunks: the plan's (with copies the prices' for them), or the caller's power of
    // two (≤ 2^(c−1)).
    std::uint32_t chunks =
        pre != nullptr ? std::min<std::uint32_t>(cuda_msm_prices().cuda.copies_reduction_chunks, B)
                       : plan.reduction_chunks;
    if (cfg.reduction_chunks > 0) {
      if (!std::has_single_bit(cfg.reduction_chunks))
        throw CudaError(cudaErrorInvalidValue, "MSM: reduction_chunks must be a power of two",
                        __FILE__, __LINE__);
      chunks = std::min<std::uint32_t>(cfg.reduction_chunks, B);
    }
    if (cfg.segment_pairs > (1u << 16))
      throw CudaError(cudaErrorInvalidValue, "MSM: segment_pairs must be 0 (the rule) or 1..65536",
                      __FILE__, __LINE__);
    // Per window: keys + values, sorted copies (16 bytes per pair; k·m pairs with copies),
    // buckets and ranges, two segment slots per segment (≥ 128 pairs under the rule), the
    // window's chunk sums and a sixteenth more.
    const std::size_t mk = m * copies;
    // Threads (segments) the accumulation keeps resident: three blocks of 128 an SM under the cap
    // (two without it; G2's lane pairs: 64 segments a block).
    const std::size_t resident =
        static_cast<std::size_t>(ctx.sm_count()) *
        (use_pairs(cfg) ? CUZK_G2_PAIR_MIN_BLOCKS * 64
                        : (!kG2 && cfg.accumulate_min_blocks == 3 ? 3 * 128 : 2 * 128));
    const std::uint32_t least_segment = least_segment_pairs(mk, B, resident, cfg.segment_pairs);
    const std::size_t per_window = mk * 16 + static_cast<std::size_t>(B) * (sizeof(P) + 8) +
                                   2 * ((mk + least_segment - 1) / least_segment + 1) * sizeof(P) +
                                   static_cast<std::size_t>(chunks) * sizeof(P) * 17 / 16;
    // A group of few windows may take more reduction chunks per window (chunks_for below): at
    // most 2·K·chunks chunk sums in all, kept out of the windows' budget.
    if (cfg.scale_group_chunks)
      budget -= std::min(budget, 2 * static_cast<std::size_t>(K) * chunks * sizeof(P));
    int G = static_cast<int>(std::min<std::size_t>(K, budget / per_window));
    if (cfg.max_windows_per_group > 0) G = std::min(G, cfg.max_windows_per_group);
    // With copies (wide windows): keys and the sentinel G·B below 2^24, so CUB sorts in three
    // 8-bit passes, not four (c = 24: one window per group, c = 22: seven).
    if (pre != nullptr)
      G = std::min(G, std::max(1, static_cast<int>(((std::uint32_t{1} << 24) - 1) / B)));
    if (G < 1)
      throw CudaError(cudaErrorMemoryAllocation,
                      "MSM: VRAM arena too small for one Pippenger window", __FILE__, __LINE__);
    G = (K + ((K + G - 1) / G) - 1) / ((K + G - 1) / G);  // even groups
    st.window_groups = (K + G - 1) / G;
    const std::size_t pairs = static_cast<std::size_t>(G) * mk;
    DeviceBuffer keys_a = ctx.alloc_or_throw(pairs * 4, "digit keys"),
                 keys_b = ctx.alloc_or_throw(pairs * 4, "digit keys (sorted)");
    DeviceBuffer vals_a = ctx.alloc_or_throw(pairs * 4, "digit values"),
                 vals_b = ctx.alloc_or_throw(pairs * 4, "digit values (sorted)");
    const std::size_t nb = static_cast<std::size_t>(G) * B;
    DeviceBuffer starts = ctx.alloc_or_throw(nb * 4, "bucket starts"),
                 ends = ctx.alloc_or_throw(nb * 4, "bucket ends");
    DeviceBuffer buckets = ctx.alloc_or_throw(nb * sizeof(P), "buckets");
    const std::size_t max_segments = (pairs + least_segment - 1) / least_segment;
    DeviceBuffer slot_a = ctx.alloc_or_throw(max_segments * sizeof(P), "segment slots");
    DeviceBuffer slot_b = ctx.alloc_or_throw(max_segments * sizeof(P), "segment slots");
    // Window sums: 2^11 chunks of 16 buckets per window (c = 16), so each thread's serial work is
    // 32 additions and a ≤ 11-bit multiple, then a tree of ≤ 16-point sums per window; the K window
    // sums are combined on the host (Horner: (K − 1)·c doublings, serial, faster there than in
    // one device thread). (256 chunks, one thread per window summing them and one thread
    // combining took ≈ 10.6 ms per G1 MSM and ≈ 26 ms per G2 one on the H200, at any size.)
    // A group's window sums run g·chunks threads: with few windows a group (a small arena: on
    // an H100 beside a 47 GB key the 2^27 H MSM's 13 windows go in several groups) the plan's
    // chunks leave most SMs idle (one window of 2048 chunks is 32 blocks of 64 threads on 132
    // SMs; window sums 59 ms in seven groups against 14 in one, measured). With
    // GpuMsmConfig::scale_group_chunks the chunks per window double until the group has as many
    // as all K windows at the plan's count (≤ B: a bucket a chunk).
    const auto chunks_for = [&](int g) {
      std::uint32_t gc = chunks;
      while (cfg.scale_group_chunks && gc < B &&
             static_cast<std::size_t>(g) * gc < static_cast<std::size_t>(K) * chunks)
        gc *= 2;
      return gc;
    };
    const int last_g = K - (st.window_groups - 1) * G;
    const std::size_t most_chunks = std::max(static_cast<std::size_t>(G) * chunks_for(G),
                                             static_cast<std::size_t>(last_g) * chunks_for(last_g));
    DeviceBuffer chunk_sums = ctx.alloc_or_throw(most_chunks * sizeof(P), "window chunks");
    DeviceBuffer chunk_tmp = ctx.alloc_or_throw(
        std::max<std::size_t>(1, most_chunks / 16) * sizeof(P), "window chunk sums");
    window_sums = ctx.alloc_or_throw(static_cast<std::size_t>(K) * sizeof(P), "window sums");
    const std::uint32_t sentinel = static_cast<std::uint32_t>(nb);
    const int end_bit = static_cast<int>(std::bit_width(static_cast<std::uint64_t>(sentinel)));
    std::size_t sort_bytes = 0;
    {
      cub::DoubleBuffer<std::uint32_t> kb(keys_a.as<std::uint32_t>(), keys_b.as<std::uint32_t>());
      cub::DoubleBuffer<std::uint32_t> vb(vals_a.as<std::uint32_t>(), vals_b.as<std::uint32_t>());
      CUZK_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(
          nullptr, sort_bytes, kb, vb, static_cast<std::int64_t>(pairs), 0, end_bit, stream));
    }
    DeviceBuffer sort_tmp = ctx.alloc_or_throw(sort_bytes, "radix sort scratch");
    for (int w0 = 0; w0 < K; w0 += G) {
      const int g = std::min(G, K - w0);
      const std::size_t cnt = static_cast<std::size_t>(g) * mk;
      const std::size_t gb = static_cast<std::size_t>(g) * B;
      const std::uint32_t sent = static_cast<std::uint32_t>(nb);
      digits_kernel<<<blocks_for(m, 256), 256, 0, stream>>>(
          tail_sc, tail_base, static_cast<std::uint32_t>(cfg.base_offset), m, digits, pre_plan,
          static_cast<std::uint32_t>(bases.count), w0, g, keys_a.as<std::uint32_t>(),
          vals_a.as<std::uint32_t>(), sent);
      CUZK_CUDA_CHECK_LAUNCH();
      cub::DoubleBuffer<std::uint32_t> kb(keys_a.as<std::uint32_t>(), keys_b.as<std::uint32_t>());
      cub::DoubleBuffer<std::uint32_t> vb(vals_a.as<std::uint32_t>(), vals_b.as<std::uint32_t>());
      CUZK_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(
          sort_tmp.data(), sort_bytes, kb, vb, static_cast<std::int64_t>(cnt), 0, end_bit, stream));
      mark("digits+sort");
      CUZK_CUDA_CHECK(cudaMemsetAsync(starts.data(), 0, gb * 4, stream));
      CUZK_CUDA_CHECK(cudaMemsetAsync(ends.data(), 0, gb * 4, stream));
      bucket_ranges_kernel<<<blocks_for(cnt, 256), 256, 0, stream>>>(
          kb.Current(), cnt, sent, starts.as<std::uint32_t>(), ends.as<std::uint32_t>());
      CUZK_CUDA_CHECK_LAUNCH();
      const std::uint32_t segment = segment_pairs_for(cnt, gb, resident, cfg.segment_pairs);
      st.segment_pairs = segment;
      const std::size_t segments = (cnt + segment - 1) / segment;
      if constexpr (kG2) {
        if (use_pairs(cfg)) {
          with_pair_product(cfg.g2_accumulation, [&](auto kp) {
            segment_accumulate_pair_kernel<kp.value>
                <<<blocks_for(2 * segments, 128), 128, 0, stream>>>(
                    d_bases, kb.Current(), vb.Current(), cnt, sent, segment,
                    starts.as<std::uint32_t>(), ends.as<std::uint32_t>(), buckets.as<P>(),
                    slot_a.as<P>(), slot_b.as<P>());
          });
        }
      }
      if (!use_pairs(cfg)) {
        const DevAffine<F>* copies_pts = pre != nullptr ? pre->points.as<DevAffine<F>>() : nullptr;
        const std::uint32_t table_n = pre != nullptr ? static_cast<std::uint32_t>(bases.count) : 0u;
        // One launch for every form: |kernel| reads the points as curve Q's, the same bytes as C's
        // (DevG1RolledCurve: the rolled products, dev_curves.cuh).
        const auto launch = [&](auto curve, auto* kernel) {
          using Q = typename decltype(curve)::type;
          using QA = DevAffine<typename Q::Field>;
          kernel<<<blocks_for(segments, 128), 128, 0, stream>>>(
              reinterpret_cast<const QA*>(d_bases), kb.Current(), vb.Current(), cnt, sent, segment,
              starts.as<std::uint32_t>(), ends.as<std::uint32_t>(), buckets.as<Xyzz<Q>>(),
              slot_a.as<Xyzz<Q>>(), slot_b.as<Xyzz<Q>>(), reinterpret_cast<const QA*>(copies_pts),
              table_n);
        };
        if constexpr (kG2) {
          launch(std::type_identity<C>{}, segment_accumulate_kernel<C>);
        } else {  // with or without the copies, capped or not, rolled products or not
          using R = DevG1RolledCurve<3>;
          using RL = DevG1RolledCurve<3, true>;
          using RLQ = DevG1RolledCurve<3, true, true>;  // squares by the square rows
          const bool copies = pre != nullptr;
          if (cfg.accumulate_rows_per_step == 3 && cfg.accumulate_lazy &&
              cfg.accumulate_square_rows)
            launch(std::type_identity<RLQ>{}, copies
                                                  ? segment_accumulate_3_blocks_kernel<RLQ, true>
                                                  : segment_accumulate_3_blocks_kernel<RLQ, false>);
          else if (cfg.accumulate_rows_per_step == 3 && cfg.accumulate_lazy)
            launch(std::type_identity<RL>{}, copies
                                                 ? segment_accumulate_3_blocks_kernel<RL, true>
                                                 : segment_accumulate_3_blocks_kernel<RL, false>);
          else if (cfg.accumulate_rows_per_step == 3)
            launch(std::type_identity<R>{}, copies ? segment_accumulate_3_blocks_kernel<R, true>
                                                   : segment_accumulate_3_blocks_kernel<R, false>);
          else if (cfg.accumulate_min_blocks == 3)
            launch(std::type_identity<C>{}, copies ? segment_accumulate_3_blocks_kernel<C, true>
                                                   : segment_accumulate_3_blocks_kernel<C, false>);
          else
            launch(std::type_identity<C>{}, copies ? segment_accumulate_kernel<C, true>
                                                   : segment_accumulate_kernel<C, false>);
        }
      }
      CUZK_CUDA_CHECK_LAUNCH();
      mark("accumulate");
      const std::uint32_t gc = chunks_for(g);
      const std::size_t nch = static_cast<std::size_t>(g) * gc;
      if constexpr (kG2) {
        if (use_pairs(cfg)) {
          with_pair_product(cfg.g2_accumulation, [&](auto kp) {
            segment_fixup_pair_kernel<kp.value><<<blocks_for(2 * gb, 128), 128, 0, stream>>>(
                starts.as<std::uint32_t>(), ends.as<std::uint32_t>(), gb, segment, slot_a.as<P>(),
                slot_b.as<P>(), buckets.as<P>());
          });
          CUZK_CUDA_CHECK_LAUNCH();
          mark("bucket fixup");
          with_pair_product(cfg.g2_accumulation, [&](auto kp) {
            window_chunks_pair_kernel<kp.value><<<blocks_for(2 * nch, 64), 64, 0, stream>>>(
                buckets.as<P>(), g, B, gc, chunk_sums.as<P>());
          });
        }
      }
      if (!use_pairs(cfg)) {
        segment_fixup_kernel<C><<<blocks_for(gb, 128), 128, 0, stream>>>(
            starts.as<std::uint32_t>(), ends.as<std::uint32_t>(), gb, segment, slot_a.as<P>(),
            slot_b.as<P>(), buckets.as<P>());
        CUZK_CUDA_CHECK_LAUNCH();
        mark("bucket fixup");
        window_chunks_kernel<C>
            <<<blocks_for(nch, 64), 64, 0, stream>>>(buckets.as<P>(), g, B, gc, chunk_sums.as<P>());
      }
      CUZK_CUDA_CHECK_LAUNCH();
      // chunks → 1 per window in rounds of ≤ 16 (chunks is a power of two, so each round's groups
      // stay inside their window); the last round writes window_sums[w0 .. w0 + g).
      P* src = chunk_sums.as<P>();
      for (std::size_t cpw = gc; cpw > 1;) {
        const std::size_t per = std::min<std::size_t>(16, cpw);
        const std::size_t out_n = static_cast<std::size_t>(g) * (cpw / per);
        P* dst = cpw == per                  ? window_sums.as<P>() + w0
                 : src == chunk_sums.as<P>() ? chunk_tmp.as<P>()
                                             : chunk_sums.as<P>();
        launch_reduce<C>(src, static_cast<std::size_t>(g) * cpw, per, dst, out_n,
                         cfg.g2_accumulation, stream);
        CUZK_CUDA_CHECK_LAUNCH();
        src = dst;
        cpw /= per;
      }
      if (gc == 1)
        CUZK_CUDA_CHECK(cudaMemcpyAsync(window_sums.as<P>() + w0, chunk_sums.data(),
                                        static_cast<std::size_t>(g) * sizeof(P),
                                        cudaMemcpyDeviceToDevice, stream));
      mark("window sums");
    }
    CUZK_CUDA_CHECK(cudaStreamSynchronize(stream));
  }
  HostXyzz out;
  CUZK_CUDA_CHECK(cudaMemcpyAsync(&out, result.data(), sizeof(P), cudaMemcpyDeviceToHost, stream));
  std::vector<HostXyzz> ws(window_sums ? static_cast<std::size_t>(st.windows) : 0);
  if (!ws.empty())
    CUZK_CUDA_CHECK(cudaMemcpyAsync(ws.data(), window_sums.data(), ws.size() * sizeof(P),
                                    cudaMemcpyDeviceToHost, stream));
  CUZK_CUDA_CHECK(cudaStreamSynchronize(stream));
  // Σ_w 2^(c·w)·W_w, Horner from the top window.
  HostXyzz acc = HostXyzz::identity();
  for (std::size_t w = ws.size(); w-- > 0;) {
    if (w + 1 < ws.size())
      for (int k = 0; k < st.window_bits; ++k) acc.dbl();
    acc.add(ws[w]);
  }
  out.add(acc);
  if (stats) *stats = st;
  return out;
}

template <class C, class HostXyzz>
HostXyzz msm_host_scalars(DeviceContext& ctx, const ResidentBases& bases,
                          std::span<const Fr> scalars, const GpuMsmConfig& cfg, cudaStream_t stream,
                          GpuMsmStats* stats) {
  DeviceBuffer d =
      ctx.alloc_or_throw(std::max<std::size_t>(1, scalars.size()) * sizeof(Fr), "MSM scalars");
  ctx.upload(d.data(), scalars.data(), scalars.size() * sizeof(Fr), stream);
  return msm_impl<C, HostXyzz>(ctx, bases, d.as<Fr>(), scalars.size(), cfg, stream, stats);
}

}  // namespace
}  // namespace pippenger_detail
}  // namespace cuzk::gpu
