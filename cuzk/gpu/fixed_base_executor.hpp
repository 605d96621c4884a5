// The CUDA FixedBaseExecutor (backend/fixed_base.hpp) for Groth16 setup: one DeviceContext of its
// own (a modest arena: setup runs alone, not beside a proving engine), the G1 and G2 generator
// tables resident in it (gpu/ec/fixed_base.cuh, built on first use), chunks of scalars bounded by
// the arena. CUDA errors become device_failure / out_of_memory here (STYLE rule 4).
#pragma once

#include <cstddef>
#include <memory>

#include "cuzk/backend/fixed_base.hpp"
#include "cuzk/base/status.hpp"
#include "cuzk/base/thread_pool.hpp"

namespace cuzk::gpu {

struct CudaFixedBaseOptions {
  int device = 0;
  /// The context's VRAM arena: the two tables (≈ 14 MB at w = 12) and one chunk's working set
  /// (320 B per G1 point, 608 B per G2 point).
  std::size_t arena_bytes = std::size_t{4} << 30;
  /// Scalars per device pass; lowered to what the arena holds.
  std::size_t chunk = std::size_t{1} << 22;
  /// Window bits of the tables.
  unsigned window = 12;
};

/// The executor on device |o.device|; |pool| (which must outlive it) unpacks the downloaded
/// points. device_failure when there is no such device, out_of_memory when the arena cannot be
/// reserved.
Result<std::unique_ptr<FixedBaseExecutor>> make_cuda_fixed_base(const CudaFixedBaseOptions& o,
                                                                ThreadPool& pool);

}  // namespace cuzk::gpu
