// See compact_partition.cuh.
#include "cuzk/gpu/pce/compact_partition.cuh"

#include <string>

#include "cuzk/gpu/cuda_check.cuh"

namespace cuzk::gpu {

void compact_partition_vectors(const DeviceCompactR1cs& m, const DeviceCompactWitness& w, Fr* z,
                               Fr* a, Fr* b, Fr* c, std::size_t n, cudaStream_t stream) {
  if (w.num_variables != m.num_columns() || n < m.num_constraints)
    throw CudaError(cudaErrorInvalidValue,
                    ("compact partition: witness of " + std::to_string(w.num_variables) +
                     " variables for an R1CS of " + std::to_string(m.num_columns()) + " and " +
                     std::to_string(m.num_constraints) + " rows, domain " + std::to_string(n))
                        .c_str(),
                    __FILE__, __LINE__);
  expand_compact_witness_device(w, z, stream);
  compact_spmv_device(m, z, a, b, c, stream);
  const std::size_t tail = (n - m.num_constraints) * sizeof(Fr);
  for (Fr* v : {a, b, c})
    if (tail) CUZK_CUDA_CHECK(cudaMemsetAsync(v + m.num_constraints, 0, tail, stream));
}

}  // namespace cuzk::gpu
