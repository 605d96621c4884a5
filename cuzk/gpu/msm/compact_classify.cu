// See compact_classify.cuh.
#include "cuzk/gpu/msm/compact_classify.cuh"

#include <algorithm>

#include "cuzk/backend/compact_msm_split.hpp"
#include "cuzk/gpu/cuda_check.cuh"
#include "cuzk/gpu/ff/dev_fields.cuh"
#include "cuzk/gpu/pce/dev_fr_io.cuh"
#include "cuzk/msm/density.hpp"

namespace cuzk::gpu {

namespace {

constexpr unsigned kThreads = 256;
constexpr std::uint32_t kFull = 0xffffffffu;

unsigned blocks_for(std::uint64_t n) {
  return static_cast<unsigned>((n + kThreads - 1) / kThreads);
}

/// Reserves |count| consecutive slots of a list for this lane with one atomic per warp (every lane
/// of the warp calls it); returns the lane's first slot.
__device__ __forceinline__ unsigned long long warp_reserve(std::uint32_t count,
                                                           unsigned long long* counter) {
  const unsigned lane = threadIdx.x & 31;
  std::uint32_t inclusive = count;
#pragma unroll
  for (unsigned d = 1; d < 32; d <<= 1) {
    const std::uint32_t v = __shfl_up_sync(kFull, inclusive, d);
    if (lane >= d) inclusive += v;
  }
  const std::uint32_t total = __shfl_sync(kFull, inclusive, 31);
  unsigned long long base = 0;
  if (lane == 31 && total != 0) base = atomicAdd(counter, static_cast<unsigned long long>(total));
  base = __shfl_sync(kFull, base, 31);
  return base + (inclusive - count);
}

/// One thread per 64-scalar word: the scalars taking part are counted into counters[2], the ones
/// listed (in the ones list with the split, else in the tail as the value 1). Each lane reserves
/// its word's slots, then the warp writes the 32 words' entries together, word by word (two bits
/// per lane), so the stores of a warp fall in one stretch of the list.
__global__ void compact_ones_kernel(const std::uint64_t* witness_bits, std::uint64_t offset,
                                    std::size_t n, const std::uint64_t* density,
                                    const std::uint32_t* word_prefix, std::size_t base_offset,
                                    bool bit_split, MsmClassLists out) {
  const std::size_t w = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  const unsigned lane = threadIdx.x & 31;
  CompactSplitWord s;
  std::size_t rank_before = 0;
  if (w < (n + 63) / 64) {
    s = compact_split_word(witness_bits, offset, n, density, w);
    rank_before = density != nullptr ? word_prefix[w] : w * 64;
  }
  const std::uint32_t taking = __reduce_add_sync(kFull, density_popcount(s.take));
  if (lane == 0 && taking != 0)
    atomicAdd(&out.counters[2], static_cast<unsigned long long>(taking));
  const unsigned long long slot =
      warp_reserve(density_popcount(s.ones), bit_split ? &out.counters[0] : &out.counters[1]);
  DevFr* tail = reinterpret_cast<DevFr*>(out.tail_scalars);
  for (unsigned src = 0; src < 32; ++src) {
    const std::uint64_t ones = __shfl_sync(kFull, s.ones, src);
    if (ones == 0) continue;  // the same for every lane
    const std::uint64_t take = __shfl_sync(kFull, s.take, src);
    const unsigned long long first = __shfl_sync(kFull, slot, src);
    const std::size_t before = __shfl_sync(kFull, rank_before, src);
    for (unsigned j = lane; j < 64; j += 32) {
      if (((ones >> j) & 1) == 0) continue;
      const unsigned long long at = first + density_popcount(ones & ((std::uint64_t{1} << j) - 1));
      const auto base =
          static_cast<std::uint32_t>(compact_split_base(base_offset, before, take, j));
      if (bit_split) {
        out.ones_idx[at] = base;
      } else {
        DevFr one;  // canonical 1
#pragma unroll
        for (int k = 0; k < DevFr::N; ++k) one.l[k] = k == 0 ? 1u : 0u;
        tail[at] = one;
        out.tail_idx[at] = base;
      }
    }
  }
}

/// One thread per run value: listed in the tail (canonical) when its variable lies in the term and
/// takes part.
__global__ void compact_tail_kernel(const std::uint32_t* run_first, const std::uint32_t* run_value,
                                    std::uint32_t runs, const DevFr* values,
                                    std::uint64_t num_values, std::uint64_t offset, std::size_t n,
                                    const std::uint64_t* density, const std::uint32_t* word_prefix,
                                    std::size_t base_offset, MsmClassLists out) {
  const std::uint64_t j = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x;
  bool take = false;
  std::uint32_t base = 0;
  if (j < num_values) {
    const std::uint32_t r = compact_run_of_value(run_value, runs, j);
    const std::uint64_t v = __ldg(run_first + r) + (j - __ldg(run_value + r));
    if (v >= offset && v - offset < n && density_takes_part(density, v - offset)) {
      take = true;
      base =
          static_cast<std::uint32_t>(base_offset + density_rank(density, word_prefix, v - offset));
    }
  }
  const unsigned long long slot = warp_reserve(take ? 1u : 0u, &out.counters[1]);
  if (take) {
    reinterpret_cast<DevFr*>(out.tail_scalars)[slot] = load_fr(values + j).to_canonical();
    out.tail_idx[slot] = base;
  }
}

/// counters[2]: the scalars taking part less the ones and the tail.
__global__ void compact_zeros_kernel(unsigned long long* counters) {
  if (blockIdx.x == 0 && threadIdx.x == 0) counters[2] -= counters[0] + counters[1];
}

}  // namespace

MsmCompactScalars msm_compact_scalars(const DeviceCompactWitness& w, std::uint64_t offset) {
  return {.present = true,
          .bits = w.bits.as<std::uint64_t>(),
          .run_first = w.run_first.as<std::uint32_t>(),
          .run_value = w.run_value.as<std::uint32_t>(),
          .values = w.values.as<Fr>(),
          .num_variables = w.num_variables,
          .num_values = w.num_values,
          .num_runs = static_cast<std::uint32_t>(w.num_runs),
          .offset = offset};
}

void classify_compact_device(const MsmCompactScalars& src, std::size_t n,
                             const std::uint64_t* density, const std::uint32_t* word_prefix,
                             std::size_t base_offset, bool bit_split, const MsmClassLists& out,
                             cudaStream_t stream) {
  if (n == 0) return;
  if (src.offset > src.num_variables || src.num_variables - src.offset < n)
    throw CudaError(cudaErrorInvalidValue, "MSM over variables past the compact witness", __FILE__,
                    __LINE__);
  compact_ones_kernel<<<blocks_for((n + 63) / 64), kThreads, 0, stream>>>(
      src.bits, src.offset, n, density, word_prefix, base_offset, bit_split, out);
  CUZK_CUDA_CHECK_LAUNCH();
  if (src.num_values > 0) {
    compact_tail_kernel<<<blocks_for(src.num_values), kThreads, 0, stream>>>(
        src.run_first, src.run_value, src.num_runs, reinterpret_cast<const DevFr*>(src.values),
        src.num_values, src.offset, n, density, word_prefix, base_offset, out);
    CUZK_CUDA_CHECK_LAUNCH();
  }
  compact_zeros_kernel<<<1, 1, 0, stream>>>(out.counters);
  CUZK_CUDA_CHECK_LAUNCH();
}

}  // namespace cuzk::gpu
