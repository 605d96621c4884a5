// Groth16Prover: the real proof system behind the engine's PartitionProver interface, for the
// synthetic benchmark circuits "bench-<K>" (K = 10..27, r1cs/bench_circuit).
//
// circom circuits (options.circom: id → .zkey): the key is the zkey (snarkjs layout, points
// range/curve/subgroup-checked on load), its A/B rows the circuit; a job is one partition whose
// witness is the .wtns bytes in vanilla_proof (wire count and ONE checked at plan()); the proof is
// the 192-byte encoding, verified against the zkey's VK with the witness's public signals.
//
// Circuit: every partition of bench-K shares one topology (the bench circuit drawn from a fixed
// structure seed), so there is one proving key per K. Partition k of a job gets its own witness:
// the bench circuit allocates one fresh variable per row, and every value except the booleans'
// follows from earlier ones, so the witness is solved row by row from the recorded matrices with
// the booleans drawn from splitmix64(witness seed, variable) (solve_bench_witness below). The
// witness seed is derived from the job's seed and k.
//
// Input (vanilla_proof): empty (job seed from the request_id), or the bench client's 16 bytes
// "cuzkfake" ‖ seed (u64 LE) (server/bench.cpp sends it); anything else is bad_encoding.
//
// Keys: generated on first use with setup() from SeededRng(key seed, K) — a benchmark key, its
// toxic waste is reproducible and it must never guard anything — then cached in
// <cache_dir>/bench-<K>.params (bellperson .params) with a sidecar <...>.sum (format version,
// K, seeds, a fingerprint of the circuit's matrices, byte count, a 64-bit hash of the file).
// A later load checks the sidecar first (any mismatch or a hash failure: the file is
// regenerated), then decodes with the VK checked
// and the queries unchecked (our own cache, hash-protected), then checks the key against the
// circuit. The matrices are cached on disk too (r1cs/pce_cache: <cache_dir>/bench-<K>.r1cs).
//
// Tiers (engine/srs_manager.hpp): load_key decodes the key into host memory and loads it onto
// the backends that keep tables in host memory (the CPU backend); a backend with device memory
// (DeviceMemoryReport: the CUDA arena) gets its copy only from make_resident, which the SRS
// manager calls before a device stage and undoes (release_resident) to demote an idle key.
// device_key_bytes is the backend's own prediction of the resident tables' bytes. disk_keys lists
// the cached bench keys (.params with their .sum) and the registered zkeys.
//
// Stages: synthesize = one pass that solves the witness and writes a/b/c (bench_solve.hpp, with
// the topology's solve plan; circom: the .wtns witness + PCE a/b/c, parallel SpMV from the
// compiled plan r1cs/pce_plan, built once per circuit with its matrices); prove_partition = prove_with_abc
// on the backend of the engine device (CpuBackend "cpu" as device 0, or "cuda:N" as device N);
// verify = each 192-byte partition proof against the VK with the partition's public inputs
// (kept from synthesis, recomputed when absent).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "cuzk/backend/backend.hpp"
#include "cuzk/backend_factory/make_backend.hpp"
#include "cuzk/base/thread_pool.hpp"
#include "cuzk/engine/bench_solve.hpp"
#include "cuzk/engine/buffer_pool.hpp"
#include "cuzk/engine/engine.hpp"
#include "cuzk/engine/partition_prover.hpp"
#include "cuzk/ff/fr.hpp"
#include "cuzk/r1cs/matrices.hpp"
#include "cuzk/r1cs/pce.hpp"

namespace cuzk::engine {

struct Groth16ProverOptions {
  std::string cache_dir = "cuzk-cache";
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
  std::uint32_t default_partitions = 10;
  /// Threads of the prover's pool (0 = all cores).
  std::size_t threads = 0;
  /// circom circuits: id → snarkjs .zkey (its A/B rows are the circuit; a job's vanilla_proof is
  /// the .wtns witness; one partition per job).
  std::map<std::string, std::string> circom;
  std::uint64_t structure_seed = 1;  ///< topology of every bench-K circuit
  std::uint64_t key_seed = 0x6b65792d62656e63ULL;
  /// Key images (formats/key_image.hpp) in cache_dir: written after a key's first decode or
  /// generation, then mapped instead of decoded; they back the SRS manager's mmap tier.
  bool key_images = true;
};

/// Public inputs of a partition (ONE excluded) and the full assignment z = (inputs ‖ aux).
struct BenchWitness {
  std::vector<Fr> z;
  std::vector<Fr> public_inputs;
};

/// Solves a witness of a one-fresh-variable-per-row circuit (the bench circuit) from its
/// matrices: row by row, the one unknown variable is either a boolean ((ONE − b)·b = 0 shape:
/// drawn from |seed|) or appears in C only and is solved as (a·b − c_rest)/coeff. Errors name the
/// row when a row has two unknowns, an unknown it cannot solve, or does not hold.
/// |storage|: a vector whose capacity z may reuse (e.g. a previous partition's witness).
Result<BenchWitness> solve_bench_witness(const R1csMatrices& m, std::uint64_t seed,
                                         const CancelFlag* cancel = nullptr,
                                         std::vector<Fr> storage = {});

/// The bench-circuit job seed of a request (see the file comment) and a partition's witness seed.
Result<std::uint64_t> bench_job_seed(const JobRequest& req);
std::uint64_t bench_partition_seed(std::uint64_t job_seed, std::uint32_t k);

class Groth16Prover final : public PartitionProver {
 public:
  static Result<std::unique_ptr<Groth16Prover>> create(Groth16ProverOptions opt);
  ~Groth16Prover() override;

  std::string name() const override { return name_; }
  bool supports(const std::string& circuit_id) const override;
  Result<JobPlan> plan(const JobRequest& req) override;
  Result<std::uint64_t> key_bytes(const std::string& key_id) override;
  Result<std::shared_ptr<const ProvingKeyData>> load_key(const std::string& key_id) override;
  Result<std::unique_ptr<SynthesizedPartition>> synthesize(const JobRequest& req,
                                                           const JobPlan& plan, std::uint32_t k,
                                                           const CancelFlag& cancel) override;
  Result<std::string> prove_partition(int device, const ProvingKeyData& key, const JobRequest& req,
                                      std::uint32_t k, SynthesizedPartition& part,
                                      const CancelFlag& cancel) override;
  Status verify(const ProvingKeyData& key, const JobRequest& req,
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
  /// The key image path of a key id (bench-<K> or a circom id).
  std::string image_path(const std::string& key_id) const;
  void attach_budget(MemoryBudget* budget) override { buffers_->attach(budget); }
  void detach_budget(MemoryBudget* budget) override { buffers_->detach(budget); }
  std::uint64_t release_kept_buffers() override { return buffers_->trim(); }
  /// The witness and a/b/c buffers kept between partitions (tests, statistics).
  const FrBufferPool& kept_buffers() const { return *buffers_; }

  /// The engine devices this prover serves (ordinal and backend name), one per backend.
  std::vector<DeviceInfo> devices() const;
  /// Paths of the key cache for bench-<K>.
  std::string key_path(int log_rows) const;
  /// Keys generated (not read from the cache) since start, for tests.
  std::uint64_t keys_generated() const { return keys_generated_; }
  /// The matrices of bench-<K> (built or read from the disk cache once, then shared).
  Result<std::shared_ptr<const R1csMatrices>> matrices(int log_rows);
  /// The solve plan of bench-<K> (engine/bench_solve.hpp), built once from its matrices.
  Result<std::shared_ptr<const BenchSolvePlan>> solve_plan(int log_rows);
  /// The compiled SpMV plan of a registered circom circuit (built once with its matrices; the
  /// circom synthesis evaluates a/b/c from it).
  Result<std::shared_ptr<const PcePlan>> circom_plan(const std::string& id);

 private:
  explicit Groth16Prover(Groth16ProverOptions opt);

  /// A registered circom circuit's shape, read once from its zkey (the points are read again by
  /// load_key, so they are held only while the key is resident).
  struct CircomShape {
    std::shared_ptr<const R1csMatrices> m;
    /// The SpMV's compiled form of |m| (pce_plan), built with the shape and held beside it.
    std::shared_ptr<const PcePlan> plan;
    std::uint64_t domain_size = 0, n_vars = 0, n_public = 0;
  };
  Result<std::shared_ptr<const CircomShape>> circom_shape(const std::string& id);
  Result<std::shared_ptr<const ProvingKeyData>> load_circom_key(const std::string& id,
                                                                bool mapped_only);
  /// load_key; with |mapped_only|, from the key image into the mmap tier or out_of_memory.
  Result<std::shared_ptr<const ProvingKeyData>> load(const std::string& key_id, bool mapped_only);
  Result<std::unique_ptr<Backend>> new_backend(const std::string& spec);
  /// Loads the key onto the backends that keep their tables in host memory (part of the host tier).
  Status load_host_resident(const ProvingKeyData& key, const std::string& what);
  /// Attaches the key's image (written now when absent) and puts its tables in the tier that
  /// fits the backends: mapped when no host backend proves from them, owned otherwise.
  void attach_image(ProvingKeyData& key, const std::string& key_id, std::uint64_t tag,
                    bool from_image, bool mapped_only = false);
  /// Moves the key's tables to views of its image (to_mapped) or to owned memory.
  Status switch_tables(const ProvingKeyData& key, bool to_mapped);

  Groth16ProverOptions opt_;
  std::map<std::string, std::shared_ptr<const CircomShape>> circom_;  // under build_mu_
  std::string name_;
  std::unique_ptr<ThreadPool> pool_;
  std::map<int, std::unique_ptr<Backend>> backends_;  // by engine device ordinal
  std::mutex mu_;                                     // matrices_, inputs_
  std::map<int, std::shared_ptr<const R1csMatrices>> matrices_;
  std::map<int, std::shared_ptr<const BenchSolvePlan>>
      solve_plans_;      // under mu_, built under build_mu_
  std::mutex build_mu_;  // one matrices build / key generation at a time
  // z and a/b/c reused from partition to partition, charged to the engine's budget while kept.
  // Room for every buffer the pipeline circulates (4 per partition held by a synthesis worker, a
  // queue or a device worker): a buffer the pool cannot keep is freed by the thread giving it
  // back, the device worker, which then idles (on the H200 about 10 ms per 2^22 partition and
  // 42 ms per 2^24 one, docs/perf/engine.md Version 3). The budget still bounds what is kept.
  std::shared_ptr<FrBufferPool> buffers_ = std::make_shared<FrBufferPool>(256);
  std::map<std::string, std::vector<Fr>> inputs_;  // "circuit/seed/k" → public inputs
  std::uint64_t keys_generated_ = 0;
};

}  // namespace cuzk::engine
