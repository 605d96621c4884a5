// Groth16Prover: the engine's PartitionProver for the circuit families of a registry
// (circuits/circuit_family.hpp; by default bench-<K> and the circom circuits registered in
// options.circom, circuits/builtin_families.hpp). It joins three parts and knows no circuit:
//   * the family of a request, found in the registry: plan, witness, public inputs, key source;
//   * the key store (engine/key_store.hpp): keys loaded, cached, imaged, moved between tiers and
//     placed on devices;
//   * the proof system (engine/proof_system.hpp): a/b/c, the partition proof, verification.
//
// Stages: plan = the family's plan (validated input, partitions, key id; the job's parsed input
// kept opaque in JobPlan::parsed), sized by what the proof system holds per partition: a/b/c over
// the domain (the H step writes h over a) and the witness z. synthesize = the family's one-pass
// witness with a/b/c where it has one (into pinned vectors when a pool has room, else into
// buffers reused from earlier partitions), else its witness z and the PCE's a/b/c (from the
// circuit's compiled plan, r1cs/pce_plan); for a circuit in the compact form (the Filecoin
// families) with compact_witness on, the family's compact witness alone (CompactPartition), sized
// in the plan by the circuit's bound. prove_partition = prove_with_abc on the backend of the
// engine device (CpuBackend "cpu" as device 0, or "cuda:N" as device N), or prove_compact with
// the key copy's circuit (z and a, b, c made on the device, or on the host by the CPU backend).
// verify = each 192-byte partition proof against the VK with the partition's public inputs,
// derived by the family from the request.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "cuzk/backend/backend.hpp"
#include "cuzk/backend_factory/make_backend.hpp"
#include "cuzk/base/thread_pool.hpp"
#include "cuzk/circuits/builtin_families.hpp"
#include "cuzk/circuits/circuit_family.hpp"
#include "cuzk/engine/buffer_pool.hpp"
#include "cuzk/engine/engine.hpp"
#include "cuzk/engine/key_store.hpp"
#include "cuzk/engine/partition_prover.hpp"
#include "cuzk/engine/proof_system.hpp"
#include "cuzk/r1cs/compact_witness_bound.hpp"
#include "cuzk/r1cs/matrices.hpp"
#include "cuzk/r1cs/pce.hpp"

namespace cuzk::engine {

/// The built-in families' options (cache_dir, default_partitions, circom, seeds) and the
/// prover's own.
struct Groth16ProverOptions : circuits::FamilyOptions {
  /// Backends by name ("cpu", "cuda:N"); "cpu" serves engine device 0, "cuda:N" device N.
  /// "auto": every CUDA device this build and machine have (cuda:0, cuda:1, ... until one fails),
  /// else the CPU.
  std::vector<std::string> backends = {"cpu"};
  /// Arena size, fraction and VRAM cap of the "cuda:N" backends (config [gpu]).
  DeviceBackendOptions device;
  /// Makes a backend from its name instead of make_backend (tests: a backend with a small fake
  /// arena). Null = make_backend(spec, pool, device).
  std::function<Result<std::unique_ptr<Backend>>(const std::string& spec, ThreadPool& pool)>
      backend_factory;
  /// Threads of the prover's pool (0 = all cores).
  std::size_t threads = 0;
  /// Key images (formats/key_image.hpp) in cache_dir: written after a key's first decode or
  /// generation, then mapped instead of decoded; they back the SRS manager's mmap tier.
  bool key_images = true;
  /// Self-verification of jobs with a proof kind (cuzk.v1's Filecoin kinds; config
  /// [filecoin] self_check): true verifies every such proof before it is answered, false never,
  /// unset follows the engine's self_verify. Jobs naming a circuit_id follow the engine.
  std::optional<bool> proof_kind_self_verify = true;
  /// The families to serve instead of the built-in ones (null: circuits::builtin_families).
  std::shared_ptr<const circuits::Registry> families;
  /// Partitions of circuits in the compact form (the Filecoin families) are synthesized as
  /// compact witnesses (issue 22; config [gpu] compact_witness): each holds only its compact
  /// witness until its device stage, which makes z and a, b, c from it — on the device where the
  /// backend holds the circuit (CUDA), else on the host (the CPU backend). Off: z and a, b, c on
  /// the host, as for plain-matrix circuits (bench, circom), which always take that path.
  bool compact_witness = true;
  /// Most copies of a key's H table each device keeps beside it for the H MSM (wider windows,
  /// fewer to reduce: msm/precomputed_windows.hpp), as many as fit beside the key and a
  /// partition (key placement rule 3), for keys of a 2^26 domain or more; 1: none. Config [gpu]
  /// h_window_copies.
  unsigned h_window_copies = 4;
};

class Groth16Prover final : public PartitionProver {
 public:
  static Result<std::unique_ptr<Groth16Prover>> create(Groth16ProverOptions opt);
  ~Groth16Prover() override;

  std::string name() const override { return name_; }
  bool supports(const std::string& circuit_id) const override;
  bool accepts(const JobRequest& req) const override;
  Result<JobPlan> plan(const JobRequest& req) override;
  /// Every family's circuit ids are key ids (bench-<K>, a circom id, a Filecoin "v28-…").
  Result<std::string> key_of(const std::string& circuit_id) override;
  Result<std::uint64_t> key_bytes(const std::string& key_id) override;
  /// The family's shape is made (CircuitFamily::ready_shape) and, for a compact partition, its
  /// compact-witness bound computed.
  bool key_ready(const std::string& key_id) override;
  /// The family's shape (recorded now, the first time), the bound, the key's bytes.
  Status prepare_key(const std::string& key_id) override;
  /// The family's plan completed (CircuitFamily::complete_plan) and sized as plan() sizes it.
  Result<bool> complete_plan(JobPlan& plan) override;
  Result<std::shared_ptr<const ProvingKeyData>> load_key(const std::string& key_id) override;
  Result<std::unique_ptr<SynthesizedPartition>> synthesize(const JobRequest& req,
                                                           const JobPlan& plan, std::uint32_t k,
                                                           const CancelFlag& cancel) override;
  Result<std::string> prove_partition(int device, const ProvingKeyData& key, const JobRequest& req,
                                      std::uint32_t k, SynthesizedPartition& part,
                                      const CancelFlag& cancel) override;
  /// Verifies with the public inputs of a plan made again from |req|.
  Status verify(const ProvingKeyData& key, const JobRequest& req,
                const std::string& proof) override;
  Status verify_job(const ProvingKeyData& key, const JobRequest& req, const JobPlan& plan,
                    const std::string& proof) override;
  std::optional<DeviceArena> device_arena(int device) const override;
  std::uint64_t device_key_bytes(const ProvingKeyData& key, int device) const override;
  Status make_resident(const ProvingKeyData& key, int device) override;
  DeviceHostBytes device_host_bytes(const ProvingKeyData& key, int device) const override;
  std::uint64_t device_host_bytes_bound(const ProvingKeyData& key, int device) const override;
  void release_resident(const ProvingKeyData& key, int device) override;
  std::vector<DiskKey> disk_keys() const override;
  std::optional<KeyMapping> key_mapping(const ProvingKeyData& key) const override;
  bool key_is_mapped(const ProvingKeyData& key) const override;
  bool host_tables_used(const ProvingKeyData& key) const override;
  Status map_key(const ProvingKeyData& key) override;
  std::optional<std::uint64_t> mapped_load_bytes(const std::string& key_id) override;
  Result<std::shared_ptr<const ProvingKeyData>> load_key_mapped(const std::string& key_id) override;
  Status unmap_key(const ProvingKeyData& key) override;
  /// The key image path of a key id.
  std::string image_path(const std::string& key_id) const { return keys_->image_path(key_id); }
  void attach_budget(MemoryBudget* budget) override { buffers_->attach(budget); }
  void detach_budget(MemoryBudget* budget) override { buffers_->detach(budget); }
  std::uint64_t release_kept_buffers() override { return buffers_->trim(); }
  /// The witness and a/b/c buffers kept between partitions (tests, statistics).
  const FrBufferPool& kept_buffers() const { return *buffers_; }

  /// The engine devices this prover serves (ordinal and backend name), one per backend.
  std::vector<DeviceInfo> devices() const;
  /// The path of a key's file (its cache, zkey or .params).
  std::string key_path(const std::string& key_id) const;
  /// Keys generated (not read from a cache) since start, for tests.
  std::uint64_t keys_generated() const { return keys_->keys_generated(); }
  /// The circuit behind a key (built or read once by its family, then shared).
  Result<std::shared_ptr<const circuits::CircuitShape>> shape(const std::string& key_id);
  /// The plain matrices of a circuit (built or read once by its family, then shared); null for
  /// a circuit its family gives only in the compact form (the Filecoin circuits).
  Result<std::shared_ptr<const R1csMatrices>> matrices(const std::string& key_id);
  /// The compiled SpMV plan of a circuit whose a/b/c come from its matrices (null: from the rows).
  Result<std::shared_ptr<const PcePlan>> pce_plan(const std::string& key_id);
  /// The families this prover serves.
  const circuits::Registry& families() const { return *families_; }

 private:
  explicit Groth16Prover(Groth16ProverOptions opt);
  Result<std::unique_ptr<Backend>> new_backend(const std::string& spec);
  /// The family of a key or circuit id.
  Result<circuits::CircuitFamily*> family_of(const std::string& circuit_id) const;
  /// The family's plan of |req| as the engine holds it (pending when the family's is).
  Result<JobPlan> plan_of(circuits::CircuitFamily& family, const JobRequest& req) const;
  /// The engine's plan of a family plan with its dimensions: the partition's bytes.
  Result<JobPlan> sized_plan(circuits::CircuitFamily& family, circuits::PartitionPlan fp,
                             std::optional<bool> self_verify) const;
  /// Whether |family|'s partitions are synthesized as compact witnesses.
  bool uses_compact(const circuits::CircuitFamily& family) const {
    return opt_.compact_witness && family.has_compact_form();
  }
  /// The bound of |shape|'s compact witnesses (computed once per circuit, then kept).
  CompactWitnessBound compact_bound(const circuits::CircuitShape& shape) const;
  /// Host bytes of z and a, b, c over the domain that a backend expanding compact witnesses on
  /// the host holds during a device stage (no device copy of the circuit: the CPU backend; or a
  /// key table streamed by the backend's own size rule, where CudaBackend's device path rarely
  /// finds room); 0 when every backend expands on its device.
  std::uint64_t host_expansion_bytes(const circuits::CircuitShape& shape,
                                     std::uint64_t columns) const;

  Groth16ProverOptions opt_;
  std::string name_;
  std::unique_ptr<ThreadPool> pool_;
  Backends backends_;  // by engine device ordinal
  std::shared_ptr<const circuits::Registry> families_;
  std::unique_ptr<KeyStore> keys_;
  std::unique_ptr<Groth16ProofSystem> system_;
  // z and a/b/c reused from partition to partition, charged to the engine's budget while kept.
  // Room for every buffer the pipeline circulates (4 per partition held by a synthesis worker, a
  // queue or a device worker): a buffer the pool cannot keep is freed by the thread giving it
  // back, the device worker, which then idles (on the H200 about 10 ms per 2^22 partition and
  // 42 ms per 2^24 one, docs/perf/engine.md Version 3). The budget still bounds what is kept.
  std::shared_ptr<FrBufferPool> buffers_ = std::make_shared<FrBufferPool>(256);
  mutable std::mutex compact_mu_;  // bounds_
  mutable std::map<const CompactR1cs*, CompactWitnessBound> bounds_;
};

}  // namespace cuzk::engine
