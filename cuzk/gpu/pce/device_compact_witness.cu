// See device_compact_witness.cuh.
#include "cuzk/gpu/pce/device_compact_witness.cuh"

#include <algorithm>
#include <vector>

#include "cuzk/gpu/cuda_check.cuh"
#include "cuzk/gpu/ff/dev_fields.cuh"
#include "cuzk/gpu/pce/arena_arrays.cuh"
#include "cuzk/gpu/pce/dev_fr_io.cuh"

namespace cuzk::gpu {

namespace {

constexpr unsigned kThreads = 256;

unsigned grid_for(std::uint64_t n) {
  const std::uint64_t blocks = (n + kThreads - 1) / kThreads;
  return static_cast<unsigned>(std::min<std::uint64_t>(blocks, std::uint64_t{1} << 20));
}

// z_i = bit i (grid-stride: 2^20 blocks of 256 threads cover 2^28 variables per pass).
__global__ void expand_bits_kernel(const std::uint64_t* bits, std::uint64_t n, DevFr* z) {
  for (std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x; i < n;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    // The Montgomery one masked by the bit (no select between two structs: that goes to the stack).
    const std::uint32_t mask =
        0u - static_cast<std::uint32_t>((__ldg(bits + i / 64) >> (i % 64)) & 1);
    DevFr v;
#pragma unroll
    for (int k = 0; k < DevFr::N; ++k) v.l[k] = DevFr::one32(k) & mask;
    store_fr_streaming(z + i, v);
  }
}

// z[run_first[r] + j − run_value[r]] = values[j], r the run holding value j.
__global__ void expand_runs_kernel(const std::uint32_t* run_first, const std::uint32_t* run_value,
                                   std::uint32_t runs, const DevFr* values, std::uint64_t count,
                                   DevFr* z) {
  for (std::uint64_t j = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x; j < count;
       j += std::uint64_t{gridDim.x} * blockDim.x) {
    std::uint32_t lo = 0, hi = runs;  // the last r with run_value[r] ≤ j lies in [lo, hi)
    while (hi - lo > 1) {
      const std::uint32_t mid = (lo + hi) / 2;
      if (__ldg(run_value + mid) <= j)
        lo = mid;
      else
        hi = mid;
    }
    store_fr_streaming(z + __ldg(run_first + lo) + (j - __ldg(run_value + lo)),
                       load_fr(values + j));
  }
}

}  // namespace

std::size_t device_compact_witness_bytes(const CompactWitness& w) {
  return arena_bytes_of(w.bits) + arena_bytes_of(w.run_first) + arena_bytes_of(w.run_value) +
         arena_bytes_of(w.values);
}

DeviceCompactWitness upload_compact_witness(DeviceContext& ctx, const CompactWitness& w,
                                            cudaStream_t stream) {
  DeviceCompactWitness d;
  d.num_variables = w.num_variables();
  d.num_runs = w.num_runs();
  d.num_values = w.values.size();
  d.bits = upload_array(ctx, w.bits, "compact witness bits", stream);
  d.run_first = upload_array(ctx, w.run_first, "compact witness runs", stream);
  d.run_value = upload_array(ctx, w.run_value, "compact witness runs", stream);
  d.values = upload_array(ctx, w.values, "compact witness values", stream);
  return d;
}

void expand_compact_witness_device(const DeviceCompactWitness& w, Fr* z, cudaStream_t stream) {
  DevFr* dz = reinterpret_cast<DevFr*>(z);
  if (w.num_variables > 0) {
    expand_bits_kernel<<<grid_for(w.num_variables), kThreads, 0, stream>>>(
        w.bits.as<std::uint64_t>(), w.num_variables, dz);
    CUZK_CUDA_CHECK_LAUNCH();
  }
  if (w.num_values > 0) {
    expand_runs_kernel<<<grid_for(w.num_values), kThreads, 0, stream>>>(
        w.run_first.as<std::uint32_t>(), w.run_value.as<std::uint32_t>(),
        static_cast<std::uint32_t>(w.num_runs), w.values.as<DevFr>(), w.num_values, dz);
    CUZK_CUDA_CHECK_LAUNCH();
  }
}

}  // namespace cuzk::gpu
