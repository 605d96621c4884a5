// Backend's circuit table and the host path of prove_partition_compact (backend.hpp): the loaded
// circuits are kept by id; a compact partition is expanded on the host (z, then a = A·z, b = B·z,
// c = C·z by the compact SpMV, zero-padded to the domain: r1cs/compact_partition.hpp) and proved by
// prove_partition. Host memory: z and the three n-long vectors, 32 bytes a value (4.3 GB each at
// 2^27) — the fallback for the CPU backend and devices without room for the circuit. Taken from
// the caller's HostVectorPool when it lends one (CompactPartitionInputs::host_vectors) and given
// back after, so a partition after the first writes pages already mapped (a fresh 4 KiB page
// costs 10–15 µs on the development VM, docs/perf/synthesis.md: the 4.2 M pages of a 2^27
// partition's 17 GB ≈ 40–60 CPU-s of page faults saved per partition).
#include <bit>
#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include "cuzk/backend/backend.hpp"
#include "cuzk/base/clock.hpp"
#include "cuzk/r1cs/compact_partition.hpp"

namespace cuzk {

Result<CircuitId> Backend::load_circuit(std::shared_ptr<const CompactR1cs> circuit) {
  if (circuit == nullptr) return Status(Errc::invalid_argument, "load_circuit: no circuit");
  std::lock_guard<std::mutex> lock(circuits_mu_);
  const std::uint64_t id = next_circuit_++;
  circuits_.emplace(id, std::move(circuit));
  return CircuitId{id};
}

Status Backend::release_circuit(CircuitId id) {
  std::shared_ptr<const CompactR1cs> gone;  // freed outside the lock
  std::lock_guard<std::mutex> lock(circuits_mu_);
  auto it = circuits_.find(id.value);
  if (it == circuits_.end())
    return Status(Errc::not_found, "circuit " + std::to_string(id.value) + " is not loaded");
  gone = std::move(it->second);
  circuits_.erase(it);
  return {};
}

std::shared_ptr<const CompactR1cs> Backend::loaded_circuit(CircuitId id) const {
  std::lock_guard<std::mutex> lock(circuits_mu_);
  auto it = circuits_.find(id.value);
  return it == circuits_.end() ? nullptr : it->second;
}

Result<std::shared_ptr<const CompactR1cs>> Backend::check_compact_partition_inputs(
    const CompactPartitionInputs& in) const {
  if (in.witness == nullptr)
    return Status(Errc::invalid_argument, "compact partition without a witness");
  std::shared_ptr<const CompactR1cs> m = loaded_circuit(in.circuit);
  if (m == nullptr)
    return Status(Errc::not_found,
                  "circuit " + std::to_string(in.circuit.value) + " is not loaded on " + name());
  const CompactWitness& w = *in.witness;
  if (w.num_variables() != m->num_columns() || w.num_inputs != m->num_inputs)
    return Status(Errc::size_mismatch,
                  "compact witness of " + std::to_string(w.num_inputs) + " inputs and " +
                      std::to_string(w.num_aux) + " aux variables for a circuit of " +
                      std::to_string(m->num_inputs) + " and " + std::to_string(m->num_aux));
  const std::uint64_t n = in.domain_size;
  if (n < m->num_constraints || n < 2)
    return Status(Errc::size_mismatch, "domain of " + std::to_string(n) + " rows for " +
                                           std::to_string(m->num_constraints) + " constraints");
  if (!std::has_single_bit(n) || n > (std::uint64_t{1} << 32))
    return Status(Errc::invalid_argument,
                  "domain size " + std::to_string(n) + " is not a power of two ≤ 2^32");
  return m;
}

Result<PartitionSums> Backend::prove_partition_compact(const CompactPartitionInputs& in,
                                                       PartitionTimings* timings) {
  auto m = check_compact_partition_inputs(in);
  if (!m.ok()) return m.status();
  if (in.host_pool == nullptr)
    return Status(Errc::invalid_argument,
                  "prove_partition_compact on the host needs a thread pool (host_pool)");
  const auto t0 = std::chrono::steady_clock::now();
  const std::size_t n = static_cast<std::size_t>(in.domain_size);
  const std::size_t columns = static_cast<std::size_t>((*m)->num_columns());
  // z and a, b, c: lent by the caller's pool (given back on every return) or fresh.
  auto take = [&](std::size_t len) {
    std::vector<Fr> v = in.host_vectors != nullptr ? in.host_vectors->take(len) : std::vector<Fr>();
    v.resize(len);  // every entry is written by compact_partition_vectors_host
    return v;
  };
  struct Lent {
    HostVectorPool* pool;
    std::vector<Fr> z, a, b, c;
    ~Lent() {
      if (pool == nullptr) return;
      for (std::vector<Fr>* v : {&z, &a, &b, &c}) pool->give(std::move(*v));
    }
  } v{in.host_vectors, take(columns), take(n), take(n), take(n)};
  CUZK_RETURN_IF_ERROR(
      compact_partition_vectors_host(*in.host_pool, **m, *in.witness, v.z, v.a, v.b, v.c));
  const double t_abc = seconds_since(t0);
  auto sums = prove_partition(partition_inputs_of(in, v.a, v.b, v.c, v.z), timings);
  if (sums.ok() && timings != nullptr) timings->abc = t_abc;
  return sums;
}

}  // namespace cuzk
