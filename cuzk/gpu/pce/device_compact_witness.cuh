// A partition's compact witness (r1cs/compact_witness.hpp: one bit per variable, runs of the other
// values) uploaded to the device and expanded there into z = (inputs ‖ aux), so that only the
// compact bytes cross PCIe (issue 22 item 1: ≈ 70 MB for the 32 GiB PoRep partition instead of
// z's 4.17 GB). Buffers come from the device's arena (DESIGN.md §3).
//
// Expansion, two kernels on one stream: every z_i from its bit (0 or the Montgomery one; one
// thread per variable, 32-byte streaming stores: n·32 bytes written, n/8 read), then every run's
// values over their variables (one thread per value; its run found by binary search in the runs'
// value offsets, ≤ 13 steps for the PoRep's 7,608 runs). Equal to compact_witness_expand's z.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "cuzk/gpu/device_context.hpp"
#include "cuzk/r1cs/compact_witness.hpp"

namespace cuzk::gpu {

/// The compact witness in device memory (arena buffers, freed with the object).
struct DeviceCompactWitness {
  std::uint64_t num_variables = 0;
  std::size_t num_runs = 0, num_values = 0;
  DeviceBuffer bits, run_first, run_value, values;
  /// Arena bytes held.
  std::size_t bytes() const {
    return bits.size() + run_first.size() + run_value.size() + values.size();
  }
};

/// The arena bytes upload_compact_witness takes for |w|.
std::size_t device_compact_witness_bytes(const CompactWitness& w);

/// Copies |w| (validated by the caller: compact_witness_from_z's output, or validate()) into arena
/// buffers on |stream|; returns when the data is on the device. Throws CudaError
/// (cudaErrorMemoryAllocation when the arena has no room).
DeviceCompactWitness upload_compact_witness(DeviceContext& ctx, const CompactWitness& w,
                                            cudaStream_t stream);

/// Queues the expansion of |w| into |z| (num_variables values, device memory) on |stream|.
/// Asynchronous; throws CudaError on a launch failure.
void expand_compact_witness_device(const DeviceCompactWitness& w, Fr* z, cudaStream_t stream);

}  // namespace cuzk::gpu
