// One Groth16 partition on the device (Backend::prove_partition of CudaBackend): the inputs cross
// the bus once and the intermediate h never leaves the device.
//
//   1. staging, before the backend's compute section (so it overlaps another partition's kernels
//      when two device workers share the device): the H step's four arena buffers, and a, b (c for
//      bellperson) uploaded on the copy stream (DeviceContext::upload: the pinned staging copies
//      run on several host threads);
//   2. inside the compute section, the H step runs on the compute stream while a second host thread
//      uploads the witness z (inputs ‖ aux) on the copy stream;
//   3. the H step's spare buffers (b, c, scratch) go back to the arena, h stays where it was
//      computed, and the MSMs (A, B_G1, B_G2, L, H; bellperson's inputs/aux pairs) run back to back
//      on the resident scalars (msm_*_device_resident): no scalar crosses the bus again.
// Device memory: 4·n + |z| scalars (32 bytes each) during the H step, n + |z| plus the MSM working
// set afterwards. When the arena has no room for the staging, step 1 runs inside the compute
// section; when it cannot hold the partition at all, CudaBackend takes the step-wise calls.
#pragma once

#include <cuda_runtime.h>

#include "cuzk/backend/backend.hpp"
#include "cuzk/base/status.hpp"
#include "cuzk/gpu/device_context.hpp"
#include "cuzk/gpu/msm/pippenger.cuh"
#include "cuzk/gpu/ntt/ntt.cuh"

namespace cuzk::gpu {

/// The resident tables a partition's MSMs read (PartitionInputs names them by BasesId).
struct PartitionTables {
  const ResidentBases *a = nullptr, *b_g1 = nullptr, *b_g2 = nullptr, *l = nullptr, *h = nullptr;
};

/// invalid_argument / size_mismatch unless a, b, c and z have lengths the device H step takes.
Status check_partition_lengths(const PartitionInputs& in);
/// The same, and |t| fits |in|: G1/G2 tables, densities that cover the scalars, tables that cover
/// the densities.
Status check_partition(const PartitionInputs& in, const PartitionTables& t);

/// The H step's inputs on the device: buf[0..2] = a, b, c (c unset for snarkjs), buf[3] scratch.
struct StagedPartition {
  DeviceBuffer buf[4];
  double upload_seconds = 0;
  explicit operator bool() const { return static_cast<bool>(buf[0]); }
};

/// Step 1 (after check_partition_lengths): allocates the four buffers and uploads a, b (and c) on
/// the copy stream. Throws CudaError; cudaErrorMemoryAllocation when the arena has no room now.
StagedPartition stage_partition(DeviceContext& ctx, const PartitionInputs& in);

/// Steps 2–3 (after check_partition), staging first when |staged| is empty. Throws CudaError; its
/// code is cudaErrorMemoryAllocation when the arena cannot hold the working set. Uses streams 0
/// (compute) and 1 (copy).
PartitionSums prove_partition_device(DeviceContext& ctx, NttTables& tables, const PartitionInputs& in,
                                     const PartitionTables& t, StagedPartition staged,
                                     PartitionTimings* timings = nullptr);

}  // namespace cuzk::gpu
