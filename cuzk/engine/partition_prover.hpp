// PartitionProver: what the engine needs from a proof system, one circuit family at a time.
// A job is split into partitions; each partition is synthesized on a CPU worker (witness and
// a/b/c), then proved on a device worker (NTT + MSMs → 192-byte partition proof); the job's
// partition proofs are concatenated in order and self-verified off the device.
//
// The engine reserves plan().partition_bytes before synthesize() allocates, gives back what the
// partition holds in pre-charged pools (SynthesizedPartition::pooled_bytes) when it returns, the
// rest of plan().abc_bytes as soon as prove_partition() returns (after calling release_abc()), and
// the rest when the partition is done. key_bytes() is reserved before load_key() runs.
//
// Implementations: FakeProver (fake_prover.hpp, deterministic, for scheduling tests and the
// bench tool) and Groth16Prover (groth16_prover.hpp: Groth16 for the circuit families of a
// registry, circuits/circuit_family.hpp).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cuzk/base/status.hpp"
#include "cuzk/engine/job_types.hpp"
#include "cuzk/engine/memory_budget.hpp"

namespace cuzk::circuits {
class ParsedJob;
}  // namespace cuzk::circuits

namespace cuzk::engine {

using circuits::CancelFlag;

/// Shape of one job, from its circuit and inputs. Sizes are exact for the circuit.
struct JobPlan {
  std::string key_id;  ///< proving key the job needs (SRS manager entry)
  std::uint32_t partitions = 1;
  /// Host bytes of one partition at its peak, a/b/c included (a compact partition: its
  /// synthesis, or its compact witness beside the device stage's host vectors).
  std::uint64_t partition_bytes = 0;
  /// Of which the device stage's vectors (a/b/c; a compact partition on a host-expanding backend:
  /// z, a, b, c), freed right after the device stage.
  std::uint64_t abc_bytes = 0;
  /// partition_bytes and abc_bytes are not known yet: the circuit's form is still to be made
  /// (its first recording; the family did not wait for it). The engine queues the job without
  /// the can-ever-fit check, has the SRS manager prepare the key off the admission thread
  /// (prepare_key), and admission completes the plan (complete_plan) and checks it then.
  bool dimensions_pending = false;
  /// Whether the finalizer verifies the job's proof before answering; unset: the engine's
  /// EngineOptions::self_verify.
  std::optional<bool> self_verify;
  /// The prover's per-job state (the input parsed once at plan time); opaque to the engine, which
  /// keeps it with the job and hands it back to synthesize and verify_job.
  std::shared_ptr<const circuits::ParsedJob> parsed;
};

/// A loaded proving key (opaque to the engine). size_bytes is what the budget is charged.
class ProvingKeyData {
 public:
  virtual ~ProvingKeyData() = default;
  virtual std::uint64_t size_bytes() const = 0;
};

/// A device's memory as the backend's arena reports it (bytes).
struct DeviceArena {
  std::uint64_t total = 0;
  std::uint64_t used = 0;
  /// The small-card path: the device's pinned host pool (reserved at start) and the host bytes
  /// of base tables that stream from host memory instead of being resident.
  std::uint64_t pinned_total = 0, pinned_used = 0, streamed_bytes = 0;
};

/// A proving key file on disk that nothing has loaded (the SRS manager's "disk" tier).
struct DiskKey {
  std::string key_id;
  std::string path;
  std::uint64_t bytes = 0;
};

/// The output of synthesis for one partition (witness + a/b/c evaluations).
class SynthesizedPartition {
 public:
  virtual ~SynthesizedPartition() = default;
  /// Frees the a/b/c evaluations (the device stage has consumed them).
  virtual void release_abc() = 0;
  /// Bytes of this partition held in memory the budget was charged for at start-up (a device's
  /// pinned pool for partition vectors, taken out of the memory limit by the daemon): the engine
  /// gives them back from the partition's reservation when synthesis returns, so they are not
  /// counted twice. |abc| of them are a/b/c (the device stage then frees only the rest of abc_bytes).
  struct PooledBytes {
    std::uint64_t abc = 0, other = 0;
  };
  virtual PooledBytes pooled_bytes() const { return {}; }
  /// Host bytes the partition holds once synthesized, when known; the engine then keeps only
  /// these (and the device stage's plan().abc_bytes) of its reservation and gives back the rest
  /// (a compact partition reserves its synthesis peak, then holds its compact witness). nullopt:
  /// the reservation stays as planned.
  virtual std::optional<std::uint64_t> held_bytes() const { return std::nullopt; }
  /// Bytes its device stage moved from host memory to the device (0 before it ran, and on a
  /// device that reads host memory in place: the CPU backend).
  virtual std::uint64_t upload_bytes() const { return 0; }
  /// CPU seconds its synthesis spent on threads other than the one that called synthesize() (a
  /// prover's pool); the engine adds the calling thread's own CPU time.
  virtual double pool_cpu_seconds() const { return 0; }
};

class PartitionProver {
 public:
  virtual ~PartitionProver() = default;
  /// A short name for logs and status ("fake", "groth16-cpu").
  virtual std::string name() const = 0;
  /// Whether this prover handles jobs of this circuit id ("bench-20").
  virtual bool supports(const std::string& circuit_id) const = 0;
  /// Whether this prover handles |req| (its proof kind, or its circuit id when it names none).
  virtual bool accepts(const JobRequest& req) const {
    return req.kind == ProofKind::unspecified && supports(req.circuit_id);
  }
  /// Validates a request and returns its plan; errors are the client's (INVALID_ARGUMENT).
  virtual Result<JobPlan> plan(const JobRequest& req) = 0;
  /// The proving key |circuit_id| names (PreloadSRS, EvictSRS): by default the key of a plan of
  /// a request naming it and nothing else.
  virtual Result<std::string> key_of(const std::string& circuit_id) {
    JobRequest probe;
    probe.circuit_id = circuit_id;
    auto p = plan(probe);
    if (!p) return p.status();
    return p->key_id;
  }
  /// Bytes that load_key(key_id) will occupy.
  virtual Result<std::uint64_t> key_bytes(const std::string& key_id) = 0;
  /// Whether key_bytes(|key_id|) and complete_plan() of its jobs answer at once (never block);
  /// false while the key's circuit is still to be made. The default: always.
  virtual bool key_ready(const std::string& key_id) {
    (void)key_id;
    return true;
  }
  /// The slow work key_ready() waits for (the key's circuit recorded or loaded, and what plans
  /// of its jobs need from it); blocking, run by the SRS manager on a task of its own. The
  /// default: key_bytes().
  virtual Status prepare_key(const std::string& key_id) { return key_bytes(key_id).status(); }
  /// A plan with dimensions_pending (its parsed input in plan.parsed): completed in place once
  /// key_ready(plan.key_id) (true; plan.parsed may be replaced), false while not ready (never
  /// blocks); errors are final. true at once for a plan with nothing pending.
  virtual Result<bool> complete_plan(JobPlan& plan) {
    if (!plan.dimensions_pending) return true;
    return Status(Errc::unimplemented, name() + ": no pending plans");
  }
  /// Loads (or generates and caches) a proving key.
  virtual Result<std::shared_ptr<const ProvingKeyData>> load_key(const std::string& key_id) = 0;
  /// CPU stage: synthesize partition |k| of |req|.
  virtual Result<std::unique_ptr<SynthesizedPartition>> synthesize(const JobRequest& req,
                                                                   const JobPlan& plan,
                                                                   std::uint32_t k,
                                                                   const CancelFlag& cancel) = 0;
  /// Device stage on device |device|: the partition's proof bytes.
  virtual Result<std::string> prove_partition(int device, const ProvingKeyData& key,
                                              const JobRequest& req, std::uint32_t k,
                                              SynthesizedPartition& part,
                                              const CancelFlag& cancel) = 0;
  /// One partition of a device batch.
  struct BatchItem {
    const JobRequest* req;
    std::uint32_t k;
    SynthesizedPartition* part;
    const CancelFlag* cancel;
  };
  /// Device stage for several partitions of one key at once (the engine's batch collector);
  /// one result per item, in order. The default proves them one by one.
  virtual std::vector<Result<std::string>> prove_batch(int device, const ProvingKeyData& key,
                                                       std::span<const BatchItem> items) {
    std::vector<Result<std::string>> out;
    out.reserve(items.size());
    for (const auto& it : items)
      out.push_back(prove_partition(device, key, *it.req, it.k, *it.part, *it.cancel));
    return out;
  }
  /// Finalization off the device: checks the assembled proof (partition proofs in order).
  virtual Status verify(const ProvingKeyData& key, const JobRequest& req,
                        const std::string& proof) = 0;
  /// The same with the job's plan (and so its parsed input); the engine's finalizer calls this.
  virtual Status verify_job(const ProvingKeyData& key, const JobRequest& req, const JobPlan& plan,
                            const std::string& proof) {
    (void)plan;
    return verify(key, req, proof);
  }

  // Device residency (the SRS manager's "vram" tier). load_key() makes a key ready in host
  // memory; a device with memory of its own (a CUDA arena) gets its copy from make_resident()
  // before its first device stage and gives it back in release_resident() when the SRS manager
  // demotes it. The defaults describe a prover whose devices keep nothing (the CPU backend).

  /// The arena of |device|, or nullopt when the device keeps no memory of its own.
  virtual std::optional<DeviceArena> device_arena(int device) const {
    (void)device;
    return std::nullopt;
  }
  /// Bytes |key| occupies on |device| once resident; 0 = nothing to place there.
  virtual std::uint64_t device_key_bytes(const ProvingKeyData& key, int device) const {
    (void)key, (void)device;
    return 0;
  }
  /// Host memory |key|'s copy on |device| holds (the small-card path: tables that stream from
  /// host memory): in plain memory — charged to the budget by the SRS manager — and in the
  /// device's pinned pool (reserved at start, charged then).
  struct DeviceHostBytes {
    std::uint64_t plain = 0, pinned = 0;
  };
  virtual DeviceHostBytes device_host_bytes(const ProvingKeyData& key, int device) const {
    (void)key, (void)device;
    return {};
  }
  /// Upper bound of the host bytes a copy of |key| on |device| will hold (every streamed table
  /// in plain memory); reserved before make_resident, trimmed to device_host_bytes().plain after.
  virtual std::uint64_t device_host_bytes_bound(const ProvingKeyData& key, int device) const {
    (void)key, (void)device;
    return 0;
  }
  /// Copies |key| to |device| (no-op when already there); out_of_memory when it does not fit now.
  virtual Status make_resident(const ProvingKeyData& key, int device) {
    (void)key, (void)device;
    return {};
  }
  /// Frees |device|'s copy of |key| (no-op when absent). Never called while a device stage uses it.
  virtual void release_resident(const ProvingKeyData& key, int device) { (void)key, (void)device; }

  // The "mmap" tier: a key whose query tables can be served from a mapped image of itself
  // (Groth16Prover: formats/key_image.hpp) instead of owned host memory. The SRS manager maps
  // idle keys under host-budget pressure, and a key whose device copy is made when no host
  // backend proves from its tables; it unmaps (promotes) a key again on use when a host backend
  // proves from the tables and the budget has room. The defaults: no image, no mmap tier.

  /// |key|'s figures in the mmap tier; nullopt when it has no image (it leaves host memory only
  /// by eviction).
  struct KeyMapping {
    std::uint64_t charged_bytes = 0;  ///< host bytes still charged while mapped (≤ size_bytes())
    std::uint64_t image_bytes = 0;    ///< the mapped file
    /// The mapped file is the key's .params itself (no image, no decoded host copy: the device
    /// copies are decoded from it on the device); status tier "params".
    bool params = false;
  };
  virtual std::optional<KeyMapping> key_mapping(const ProvingKeyData& key) const {
    (void)key;
    return std::nullopt;
  }
  /// Whether |key|'s tables are mapped now (load_key may return a key already mapped).
  virtual bool key_is_mapped(const ProvingKeyData& key) const {
    (void)key;
    return false;
  }
  /// Whether a host backend (the CPU) proves from |key|'s tables in host memory.
  virtual bool host_tables_used(const ProvingKeyData& key) const {
    (void)key;
    return false;
  }
  /// Moves |key|'s tables to views of its image (map) or back to owned memory (unmap). Called
  /// only while no device stage on a host backend uses the key; unimplemented without an image.
  virtual Status map_key(const ProvingKeyData& key) {
    (void)key;
    return Status(Errc::unimplemented, "no key image");
  }
  /// When the budget has no room for a key's host copy: the bytes |key_id| would be charged if
  /// loaded straight into the mmap tier (nullopt: no image to load from), and that load, which
  /// fails (out_of_memory) rather than decode when the image turns out unusable.
  virtual std::optional<std::uint64_t> mapped_load_bytes(const std::string& key_id) {
    (void)key_id;
    return std::nullopt;
  }
  virtual Result<std::shared_ptr<const ProvingKeyData>> load_key_mapped(const std::string& key_id) {
    return Status(Errc::unimplemented, "no key image for " + key_id);
  }
  virtual Status unmap_key(const ProvingKeyData& key) {
    (void)key;
    return Status(Errc::unimplemented, "no key image");
  }

  /// Key files on disk (cached or registered) this prover could load.
  virtual std::vector<DiskKey> disk_keys() const { return {}; }

  // Buffers kept between partitions (reused capacity: the witness and a/b/c of the previous
  // partition, already mapped). The engine attaches its budget at start: a prover keeps a buffer
  // only under a reservation of its own in that budget (engine/buffer_pool.hpp), so the budget
  // stays exact; release_kept_buffers() frees them when the engine needs the room; the engine
  // detaches before its budget goes away. The defaults keep nothing.
  virtual void attach_budget(MemoryBudget* budget) { (void)budget; }
  virtual void detach_budget(MemoryBudget* budget) { (void)budget; }
  /// Frees every kept buffer; the bytes given back to the budget.
  virtual std::uint64_t release_kept_buffers() { return 0; }
};

}  // namespace cuzk::engine
