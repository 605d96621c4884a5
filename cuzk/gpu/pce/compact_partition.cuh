// A partition's device vectors from its compact witness (issue 22): z expanded on the device, then
// a = A·z, b = B·z, c = C·z over the circuit's resident compact R1CS, zero past the constraints up
// to the domain size n (the H step's input, backend.hpp HInputs). Only the compact witness has
// crossed PCIe; this is what replaces the upload of z, a, b, c (stage_partition, partition.cuh)
// once the backend takes compact witnesses (the proposed interface: docs/perf/gpu.md).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "cuzk/gpu/pce/device_compact_r1cs.cuh"
#include "cuzk/gpu/pce/device_compact_witness.cuh"

namespace cuzk::gpu {

/// Queues on |stream|: z (m.num_columns() values) from |w|, then a, b, c (|n| values each, n ≥
/// m.num_constraints; the rows past the constraints zeroed). Device pointers. Throws CudaError:
/// cudaErrorInvalidValue when |w| and |m| disagree on the variable count or n is too small.
void compact_partition_vectors(const DeviceCompactR1cs& m, const DeviceCompactWitness& w, Fr* z,
                               Fr* a, Fr* b, Fr* c, std::size_t n, cudaStream_t stream);

}  // namespace cuzk::gpu
