// The G2 MSM's kernels with each point addition split over a lane pair (gpu/ec/dev_g2_pair.cuh):
// the segment accumulation of Pippenger's tail, the batch addition of the 1-scalars, the bucket
// fix-up and the window sums. Same work split, same outputs (whole Xyzz points, each lane writing
// its components) as the one-thread kernels of pippenger_impl.cuh, so each can replace its twin
// alone.
// Included by pippenger_impl.cuh inside pippenger_detail's anonymous namespace.
#pragma once

#include "cuzk/gpu/ec/dev_g2_pair.cuh"

// Three blocks of 128 threads per SM: ptxas caps the pair kernels at 168 registers (12 warps per SM,
// against 8 for the one-thread kernels at 255). Four (128 registers) spilled ≈ 190 bytes a thread.
#ifndef CUZK_G2_PAIR_MIN_BLOCKS
#define CUZK_G2_PAIR_MIN_BLOCKS 3
#endif

namespace cuzk::gpu {
namespace pippenger_detail {
namespace {

/// This lane's components of a resident base; |inf| when it is the (0, 0) identity marker.
__device__ __forceinline__ void load_base_half(const DevAffine<DevFp2>& b, const LanePair& lp,
                                               DevFp& x, DevFp& y, bool& inf) {
  x = PairXyzz::half(b.x, lp.odd);
  y = PairXyzz::half(b.y, lp.odd);
  inf = lp.both(x.is_zero() && y.is_zero());
}

/// segment_accumulate_kernel (pippenger_impl.cuh) with two lanes per segment: pair t / 2 sums
/// segment t / 2. |kP|: the Fp2 product form. Blocks of 128 threads (64 pairs).
template <PairProduct kP>
__global__ void __launch_bounds__(128, CUZK_G2_PAIR_MIN_BLOCKS)
    segment_accumulate_pair_kernel(const DevAffine<DevFp2>* bases, const std::uint32_t* keys,
                                   const std::uint32_t* vals, std::size_t count,
                                   std::uint32_t sentinel, std::uint32_t S,
                                   const std::uint32_t* start, const std::uint32_t* end,
                                   DevG2Xyzz* out, DevG2Xyzz* slot_a, DevG2Xyzz* slot_b) {
  const std::size_t t = (blockIdx.x * std::size_t{blockDim.x} + threadIdx.x) >> 1;
  const LanePair lp = LanePair::of_this_thread();
  const std::size_t lo = t * S;
  if (lo >= count) return;  // both lanes of a pair leave together (same t)
  const std::size_t hi = min(count, lo + S);
  std::uint32_t cur = keys[lo];
  if (cur == sentinel) return;
  std::size_t a = lo, j = lo;
  bool first = true;
  PairXyzz acc = PairXyzz::identity(lp);
  auto flush = [&](std::uint32_t k, std::size_t b) {
    if (a == start[k] && b == end[k])
      acc.store(out[k], lp);
    else if (first)
      acc.store(slot_a[t], lp);
    else
      acc.store(slot_b[t], lp);
    first = false;
  };
  for (; j < hi; ++j) {
    const std::uint32_t k = keys[j];
    if (k != cur) {
      flush(cur, j);
      cur = k;
      if (k == sentinel) break;
      a = j;
      acc = PairXyzz::identity(lp);
    }
    const std::uint32_t v = vals[j];
    DevFp x, y;
    bool inf;
    load_base_half(bases[v >> 1], lp, x, y, inf);
    if (inf) continue;
    if (v & 1) y = -y;
    acc.add_mixed<kP>(x, y, lp);
  }
  if (cur != sentinel) flush(cur, j);
}

/// batch_add_kernel (pippenger_impl.cuh) with two lanes per chunk: partial[t / 2] = Σ bases[idx[j]]
/// over the pair's chunk.
template <PairProduct kP>
__global__ void __launch_bounds__(128, CUZK_G2_PAIR_MIN_BLOCKS)
    batch_add_pair_kernel(const DevAffine<DevFp2>* bases, const std::uint32_t* idx, std::size_t n,
                          std::size_t per_pair, DevG2Xyzz* partial, std::size_t partials) {
  const std::size_t t = (blockIdx.x * std::size_t{blockDim.x} + threadIdx.x) >> 1;
  if (t >= partials) return;
  const LanePair lp = LanePair::of_this_thread();
  PairXyzz acc = PairXyzz::identity(lp);
  const std::size_t lo = t * per_pair, hi = min(n, lo + per_pair);
  for (std::size_t j = lo; j < hi; ++j) {
    DevFp x, y;
    bool inf;
    load_base_half(bases[idx[j]], lp, x, y, inf);
    if (!inf) acc.add_mixed<kP>(x, y, lp);
  }
  acc.store(partial[t], lp);
}

/// segment_fixup_kernel with a pair per bucket (no register cap: a full addition's operands spill
/// 140–180 bytes under 168 registers; this kernel does a few additions per bucket).
template <PairProduct kP>
__global__ void __launch_bounds__(128)
    segment_fixup_pair_kernel(const std::uint32_t* start, const std::uint32_t* end,
                              std::size_t buckets, std::uint32_t S, const DevG2Xyzz* slot_a,
                              const DevG2Xyzz* slot_b, DevG2Xyzz* out) {
  const std::size_t b = (blockIdx.x * std::size_t{blockDim.x} + threadIdx.x) >> 1;
  if (b >= buckets) return;
  const LanePair lp = LanePair::of_this_thread();
  const std::uint32_t s = start[b], e = end[b];
  if (s == e) {
    PairXyzz::identity(lp).store(out[b], lp);
    return;
  }
  const std::size_t s0 = s / S, s1 = (e - 1) / S;
  if (s0 == s1) return;
  PairXyzz acc = PairXyzz::load(s == s0 * S ? slot_a[s0] : slot_b[s0], lp);
  for (std::size_t q = s0 + 1; q <= s1; ++q) acc.add<kP>(PairXyzz::load(slot_a[q], lp), lp);
  acc.store(out[b], lp);
}

/// window_chunks_kernel with a pair per chunk: Σ (j + 1)·S_j over the chunk's buckets = acc + lo·run.
template <PairProduct kP>
__global__ void __launch_bounds__(64)
    window_chunks_pair_kernel(const DevG2Xyzz* buckets, int windows, std::uint32_t B,
                              std::uint32_t chunks, DevG2Xyzz* out) {
  const std::size_t t = (blockIdx.x * std::size_t{blockDim.x} + threadIdx.x) >> 1;
  if (t >= static_cast<std::size_t>(windows) * chunks) return;
  const LanePair lp = LanePair::of_this_thread();
  const std::size_t w = t / chunks, ch = t % chunks;
  const std::uint32_t per = B / chunks;
  const std::uint32_t lo = static_cast<std::uint32_t>(ch) * per;
  const DevG2Xyzz* s = buckets + w * B;
  PairXyzz run = PairXyzz::identity(lp), acc = PairXyzz::identity(lp);
  for (std::uint32_t j = lo + per; j-- > lo;) {
    run.add<kP>(PairXyzz::load(s[j], lp), lp);
    acc.add<kP>(run, lp);
  }
  if (lo != 0) {
    PairXyzz m = run;
    for (int bit = 30 - __clz(lo); bit >= 0; --bit) {
      m.dbl_out_of_line<kP>(lp);
      if ((lo >> bit) & 1) m.add<kP>(run, lp);
    }
    acc.add<kP>(m, lp);
  }
  acc.store(out[t], lp);
}

/// reduce_kernel with a pair per output: out[t] = Σ in[t·per .. t·per + per).
template <PairProduct kP>
__global__ void __launch_bounds__(64)
    reduce_pair_kernel(const DevG2Xyzz* in, std::size_t n, std::size_t per, DevG2Xyzz* out,
                       std::size_t out_n) {
  const std::size_t t = (blockIdx.x * std::size_t{blockDim.x} + threadIdx.x) >> 1;
  if (t >= out_n) return;
  const LanePair lp = LanePair::of_this_thread();
  PairXyzz acc = PairXyzz::identity(lp);
  const std::size_t lo = t * per, hi = min(n, lo + per);
  for (std::size_t j = lo; j < hi; ++j) acc.add<kP>(PairXyzz::load(in[j], lp), lp);
  acc.store(out[t], lp);
}

}  // namespace
}  // namespace pippenger_detail
}  // namespace cuzk::gpu
