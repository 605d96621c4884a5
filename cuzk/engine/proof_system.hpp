// Groth16 as a prover uses it, knowing nothing of circuits (circuits/circuit_family.hpp) or of
// where keys live (engine/key_store.hpp): a partition's vectors, a/b/c from z by the circuit's
// form (plain matrices or the compact form), a partition's 192-byte proof from a key resident on
// a backend, and the verification of a job's partition proofs against the verifying key.
#pragma once

#include <bit>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "cuzk/base/pinned_host.hpp"
#include "cuzk/base/thread_pool.hpp"
#include "cuzk/circuits/circuit_family.hpp"
#include "cuzk/engine/buffer_pool.hpp"
#include "cuzk/engine/partition_prover.hpp"
#include "cuzk/groth16/prove.hpp"
#include "cuzk/groth16/verify.hpp"
#include "cuzk/r1cs/compact_witness.hpp"
#include "cuzk/r1cs/compact_witness_bound.hpp"
#include "cuzk/r1cs/pce.hpp"

namespace cuzk::engine {

// A partition's vectors come from the prover's FrBufferPool and go back to it: a, b, c when
// released after the device stage (if the stage handed them back), z when the partition ends.
// A partition whose family writes a/b/c itself first tries a pinned pool (base/pinned_host.hpp,
// reserved at start-up by a CUDA device context) for all four: then they live in pz/pa/pb/pc
// (z and abc stay empty) and the device copies them by DMA with no staging; when no pool has
// room it uses the buffer pool.
class PartitionVectors final : public SynthesizedPartition {
 public:
  explicit PartitionVectors(std::shared_ptr<FrBufferPool> buffers) : buffers_(std::move(buffers)) {}
  ~PartitionVectors() override {
    release_abc();
    buffers_->give(std::move(plain_z));
  }
  void release_abc() override {
    buffers_->give(std::move(abc.a));
    buffers_->give(std::move(abc.b));
    buffers_->give(std::move(abc.c));
    abc = AbcVectors{};
    pa.reset();
    pb.reset();
    pc.reset();
  }
  /// z of |cols| and a, b, c of |rows| entries from the pinned pools: all four or none.
  bool take_pinned(std::size_t cols, std::size_t rows) {
    if (!PinnedHostPools::any()) return false;
    pz = PinnedArray<Fr>::take(cols);
    pa = PinnedArray<Fr>::take(rows);
    pb = PinnedArray<Fr>::take(rows);
    pc = PinnedArray<Fr>::take(rows);
    if (pz.empty() || pa.empty() || pb.empty() || pc.empty()) {
      pz.reset(), pa.reset(), pb.reset(), pc.reset();
      return false;
    }
    return true;
  }
  bool pinned() const { return !pz.empty(); }
  /// Pinned z, a, b, c are bytes of the pool the daemon took out of the budget at start-up. a/b/c
  /// count only while they are the whole domain (|rows| a power of two, as every bench circuit's):
  /// otherwise the device stage copies them into plain vectors the reservation must cover.
  PooledBytes pooled_bytes() const override {
    if (!pinned()) return {};
    const std::uint64_t abc_bytes = std::has_single_bit(pa.size()) ? 3 * sizeof(Fr) * pa.size() : 0;
    return {.abc = abc_bytes, .other = sizeof(Fr) * pz.size()};
  }
  std::span<const Fr> z() const {
    return pinned() ? std::span<const Fr>(pz.data(), pz.size()) : std::span<const Fr>(plain_z);
  }
  bool has_abc() const { return pinned() ? !pa.empty() : !abc.a.empty(); }
  /// z of |cols| entries from the buffer pool.
  void take_z(std::size_t cols) {
    plain_z = buffers_->take(cols);
    plain_z.resize(cols);
  }
  /// a, b, c of |rows| entries in buffers of capacity |capacity| (≥ rows: the H step extends
  /// them to the domain in place).
  void take_abc(std::size_t rows, std::size_t capacity) {
    for (std::vector<Fr>* v : {&abc.a, &abc.b, &abc.c}) {
      *v = buffers_->take(capacity);
      v->resize(rows);
    }
  }
  /// The fast path's buffers: pinned when a pool has room, else from the buffer pool.
  circuits::WitnessAbc witness_abc(std::size_t cols, std::size_t rows) {
    if (take_pinned(cols, rows))
      return {.z = {pz.data(), cols},
              .a = {pa.data(), rows},
              .b = {pb.data(), rows},
              .c = {pc.data(), rows}};
    take_z(cols);
    take_abc(rows, rows);
    return {.z = plain_z, .a = abc.a, .b = abc.b, .c = abc.c};
  }

  std::uint64_t upload_bytes() const override { return uploaded; }
  double pool_cpu_seconds() const override { return pool_cpu; }

  PinnedArray<Fr> pz, pa, pb, pc;
  std::vector<Fr> plain_z;
  AbcVectors abc;
  std::uint64_t uploaded = 0;  ///< by the device stage (ProveTimings::upload_bytes)
  double pool_cpu = 0;         ///< synthesis work on the prover's pool (the SpMV)

 private:
  std::shared_ptr<FrBufferPool> buffers_;
};

// A partition synthesized as its compact witness (r1cs/compact_witness.hpp, issue 22): nothing
// else is held between the stages; the device stage makes z and a, b, c from it — on the device
// where the backend holds the circuit, else on the host (Backend::prove_partition_compact).
class CompactPartition final : public SynthesizedPartition {
 public:
  /// |buffers|: where a backend that expands the witness on the host takes z, a, b, c (kept from
  /// partition to partition; engine/buffer_pool.hpp); null: fresh vectors each time.
  explicit CompactPartition(std::shared_ptr<FrBufferPool> buffers = nullptr)
      : buffers_(std::move(buffers)) {}
  void release_abc() override {}
  std::optional<std::uint64_t> held_bytes() const override {
    return compact_witness_capacity_bytes(witness);
  }
  std::uint64_t upload_bytes() const override { return uploaded; }

  HostVectorPool* host_vectors() const { return buffers_.get(); }

  CompactWitness witness;
  std::uint64_t uploaded = 0;  ///< by the device stage (ProveTimings::upload_bytes)

 private:
  std::shared_ptr<FrBufferPool> buffers_;
};

class Groth16ProofSystem {
 public:
  explicit Groth16ProofSystem(ThreadPool& pool) : pool_(pool) {}

  /// a = A·z, b = B·z, c = C·z of |part|'s z by |shape|'s compact form (pce_compact_evaluate_into)
  /// when it has one, else its matrices (their compiled plan when it has one), into buffers of
  /// the domain's capacity. invalid_argument for a shape with neither.
  Status evaluate_abc(const circuits::CircuitShape& shape, PartitionVectors& part);
  /// The 192-byte proof of partition |k| under |key| (its tables on |rk|'s backend), whose
  /// circuit has the counts and densities |m|; a/b/c are scratch afterwards (release_abc gives
  /// them back).
  Result<std::string> prove(const ResidentKey& rk, const ProvingKey& key, const R1csDims& m,
                            std::uint32_t k, PartitionVectors& part);
  /// The same from |part|'s compact witness, |circuit| the circuit's compact form loaded on |rk|'s
  /// backend (prove_compact).
  Result<std::string> prove_compact(const ResidentKey& rk, const R1csDims& m, CircuitId circuit,
                                    std::uint32_t k, CompactPartition& part);
  /// Public inputs of one partition (ONE excluded).
  using PartitionInputs = std::function<Result<std::vector<Fr>>(std::uint32_t k)>;
  /// Checks |proof| — |partitions| proofs in partition order — against |pvk|, each with its
  /// partition's public inputs; errors name the partition.
  Status verify(const PreparedVerifyingKey& pvk, const std::string& proof, std::uint32_t partitions,
                const PartitionInputs& inputs);

 private:
  ThreadPool& pool_;
};

}  // namespace cuzk::engine
