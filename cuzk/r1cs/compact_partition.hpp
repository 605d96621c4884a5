// A partition's vectors from its compact witness on the host: z expanded (compact_witness.hpp),
// a = A·z, b = B·z, c = C·z by the compact SpMV (pce_compact.hpp), zero past the constraints up to
// the domain size n (the H step's input). The host twin of gpu/pce/compact_partition.cuh and the
// fallback where the circuit's matrices are not on the device (the CPU backend, small cards):
// both give the same z, a, b, c (gpu_pce_test).
#pragma once

#include <span>

#include "cuzk/base/status.hpp"
#include "cuzk/base/thread_pool.hpp"
#include "cuzk/r1cs/compact_witness.hpp"
#include "cuzk/r1cs/pce_compact.hpp"

namespace cuzk {

/// Writes z (m.num_columns() values) and a, b, c (n ≥ m.num_constraints values each) from |w|.
/// size_mismatch when |w| has another variable count than |m|, z another length, or a, b, c
/// differ in length or are shorter than the constraints; the errors of compact_witness_expand.
Status compact_partition_vectors_host(ThreadPool& pool, const CompactR1cs& m,
                                      const CompactWitness& w, std::span<Fr> z, std::span<Fr> a,
                                      std::span<Fr> b, std::span<Fr> c);

}  // namespace cuzk
