#include "cuzk/r1cs/compact_partition.hpp"

#include <algorithm>
#include <string>

namespace cuzk {

Status compact_partition_vectors_host(ThreadPool& pool, const CompactR1cs& m,
                                      const CompactWitness& w, std::span<Fr> z, std::span<Fr> a,
                                      std::span<Fr> b, std::span<Fr> c) {
  if (w.num_variables() != m.num_columns())
    return Status(Errc::size_mismatch, "compact witness of " + std::to_string(w.num_variables()) +
                                           " variables for an R1CS of " +
                                           std::to_string(m.num_columns()));
  const std::size_t rows = m.num_constraints, n = a.size();
  if (b.size() != n || c.size() != n || n < rows)
    return Status(Errc::size_mismatch, "a, b, c of " + std::to_string(a.size()) + ", " +
                                           std::to_string(b.size()) + ", " +
                                           std::to_string(c.size()) + " values for " +
                                           std::to_string(rows) + " constraints");
  CUZK_RETURN_IF_ERROR(compact_witness_expand(pool, w, z));
  CUZK_RETURN_IF_ERROR(
      pce_compact_evaluate_into(pool, m, z, a.first(rows), b.first(rows), c.first(rows)));
  for (std::span<Fr> v : {a, b, c})
    std::fill(v.begin() + static_cast<std::ptrdiff_t>(rows), v.end(), Fr::zero());
  return {};
}

}  // namespace cuzk
