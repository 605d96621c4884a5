// CpuBackend: the Backend interface on the host CPU, the reference every other backend is tested
// against (tests/conformance). MSMs run msm/ (Pippenger, density, 0/1 split), transforms and the H
// step run poly/ (four-step NTT, one plan per domain size, root family and coset shift, built once,
// cached); the H step in either convention (bellperson or snarkjs, HInputs::convention).
// Work is spread over a ThreadPool the caller owns; the backend never creates threads.
// Thread-safe: the tables and plan cache are guarded; concurrent calls share the pool (a call that
// finds it busy runs on its own thread, see ThreadPool).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

#include "cuzk/backend/backend.hpp"
#include "cuzk/base/thread_pool.hpp"
#include "cuzk/poly/ntt.hpp"

namespace cuzk {

class CpuBackend final : public Backend {
 public:
  /// A backend running on |pool|, which must outlive it.
  explicit CpuBackend(ThreadPool& pool);

  std::string name() const override { return "cpu"; }

  Result<BasesId> load_bases_g1(std::span<const G1Affine> bases) override;
  Result<BasesId> load_bases_g2(std::span<const G2Affine> bases) override;
  /// In place: the table is a view of |bases| holding |owner| (no copy).
  Result<BasesId> load_bases_g1_shared(std::span<const G1Affine> bases,
                                       std::shared_ptr<const void> owner) override;
  Result<BasesId> load_bases_g2_shared(std::span<const G2Affine> bases,
                                       std::shared_ptr<const void> owner) override;
  Status release_bases(BasesId id) override;

  Status ntt(std::span<Fr> values, const NttOptions& options) override;

  Result<G1Jacobian> msm_g1(BasesId bases, std::span<const Fr> scalars,
                            const MsmOptions& options) override;
  Result<G2Jacobian> msm_g2(BasesId bases, std::span<const Fr> scalars,
                            const MsmOptions& options) override;

  Status compute_h(HInputs inputs, std::span<Fr> h) override;

  /// The H step on the whole pool, then the partition's MSMs. On a pool of 2 or 3 threads the MSMs
  /// run as concurrent one-thread tasks, longest first (a one-thread Pippenger has no split or
  /// merge cost: 2^16 snarkjs, 2 threads, the five MSMs 0.56 s one after another on the pool
  /// against ≈ 0.45 s as tasks, docs/perf/groth16.md Version 6); otherwise as
  /// prove_partition_steps. The same sums either way; each stage time is its own task's span.
  Result<PartitionSums> prove_partition(const PartitionInputs& in,
                                        PartitionTimings* timings = nullptr) override;

  /// Tables currently loaded (for tests and status reports).
  std::size_t loaded_tables() const;

 private:
  // A table: points and what keeps them alive (a copy the backend made, or the caller's storage).
  template <class P>
  struct View {
    std::span<const P> points;
    std::shared_ptr<const void> owner;
  };
  using G1Table = View<G1Affine>;
  using G2Table = View<G2Affine>;
  using Table = std::variant<G1Table, G2Table>;

  // The table of |id|, shared so a concurrent release cannot free it under a running MSM.
  std::shared_ptr<const Table> find(BasesId id) const;
  Result<BasesId> insert(Table table);
  // One MSM over table |bases| on |pool| (the backend's pool, or a one-thread pool of a task).
  template <class C>
  Result<Jacobian<C>> msm_on(ThreadPool& pool, BasesId bases, std::span<const Fr> scalars,
                             const MsmOptions& options);
  // The cached plan of the domain of size 2^|log_n| with |options| (roots, coset shift).
  Result<std::shared_ptr<const NttPlan>> plan(unsigned log_n, const DomainOptions& options);
  using PlanKey =
      std::tuple<unsigned, RootFamily, Fr::Repr>;  // log n, roots, shift (Montgomery limbs)

  ThreadPool& pool_;
  mutable std::mutex mu_;
  std::uint64_t next_id_ = 1;
  std::map<std::uint64_t, std::shared_ptr<const Table>> tables_;
  std::map<PlanKey, std::shared_ptr<const NttPlan>> plans_;
};

}  // namespace cuzk
