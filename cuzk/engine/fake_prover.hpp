// FakeProver: a deterministic stand-in for the Groth16 prover, for scheduling tests and for
// exercising the daemon without a proof system. It is NOT a proof system: each "proof" is 192
// bytes of a keyed pseudo-random stream of (circuit, seed, partition), and verify() recomputes it.
//
// Circuits: "bench-<K>" (K in 10..27), partitions from num_partitions (default 10, at most 64).
// Sizes follow the real prover's shape: a/b/c = 3·32·2^K bytes, witness 32·2^K more, key
// 576·2^K bytes. Input (vanilla_proof): empty, or "cuzkfake" ‖ seed (u64 LE) [‖ fault stage (u8:
// 1 synthesis, 2 device, 3 verify) ‖ fault partition (u8)]; anything else is rejected as garbage.
// Delays are injectable per stage; cancellation is polled every millisecond. Tests may also hold
// a stage of one job (or one key's load) until they release it (FakeProver::hold), to act while
// the job is known to be in that stage instead of guessing a delay. The prover counts
// the bytes it really holds (live_bytes/peak_live_bytes) so tests can check that the engine
// reserved them first, and logs the order of device stages.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "cuzk/base/priority_section.hpp"
#include "cuzk/engine/partition_prover.hpp"

namespace cuzk::engine {

struct FakeProverOptions {
  std::uint32_t synth_ms = 5;
  std::uint32_t gpu_ms = 5;
  std::uint32_t key_load_ms = 5;
  std::uint32_t verify_ms = 0;
  std::uint32_t default_partitions = 10;
  /// When non-zero, replaces the size rule: every partition holds this many bytes (abc 3/4).
  std::uint64_t partition_bytes_override = 0;
  /// Device-stage time per device ordinal (a slower or faster device); absent or 0 = gpu_ms.
  std::vector<std::uint32_t> device_gpu_ms = {};
  /// Bytes of every partition's a/b/c and of the rest that it reports as held in a pre-charged
  /// pool (SynthesizedPartition::pooled_bytes; capped at the partition's); they are not counted
  /// in live_bytes().
  std::uint64_t pooled_abc_bytes = 0, pooled_other_bytes = 0;
  /// When non-zero, partitions behave as compact witnesses: no a/b/c (abc_bytes 0), the whole
  /// partition_bytes held while synthesizing, then only this many (capped at the partition's),
  /// reported as SynthesizedPartition::held_bytes.
  std::uint64_t held_bytes = 0;
  /// Key load time by key id (a large key beside small ones); absent = key_load_ms.
  std::map<std::string, std::uint32_t> key_load_ms_by_key = {};
  /// Each device's stages run one at a time inside its compute section (a PrioritySection at the
  /// calling thread's work priority, as CudaBackend's); device stages are then logged in the order
  /// they entered it. Tests hold a section with compute_section(device).
  bool compute_section = false;
};

/// Stages a test may hold (FakeProver::hold).
enum class FakeStage {
  key_load,   ///< load_key of one key id
  synthesis,  ///< synthesize of one request id's partitions
};

/// Builds a fake input: "cuzkfake" ‖ seed ‖ optional fault.
std::string fake_input(std::uint64_t seed, std::uint8_t fault_stage = 0,
                       std::uint8_t fault_partition = 0);
/// A request for |circuit| with fake_input(|seed|) and |parts| partitions (for tests).
JobRequest fake_job(const std::string& id, const std::string& circuit, std::uint64_t seed,
                    std::uint32_t parts, Priority priority = Priority::unspecified);
/// The proof FakeProver produces for this circuit, seed and partition count (for tests).
std::string fake_expected_proof(const std::string& circuit_id, std::uint64_t seed,
                                std::uint32_t partitions);

class FakeProver final : public PartitionProver {
 public:
  explicit FakeProver(FakeProverOptions opt = {}) : opt_(opt) {}

  std::string name() const override { return "fake"; }
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
  std::vector<Result<std::string>> prove_batch(int device, const ProvingKeyData& key,
                                               std::span<const BatchItem> items) override {
    std::uint32_t n = static_cast<std::uint32_t>(items.size()), m = max_batch_.load();
    while (n > m && !max_batch_.compare_exchange_weak(m, n)) {
    }
    for (const auto& it : items)
      if (it.req->circuit_id != items[0].req->circuit_id) ++mixed_batches_;
    return PartitionProver::prove_batch(device, key, items);
  }
  Status verify(const ProvingKeyData& key, const JobRequest& req,
                const std::string& proof) override;

  std::uint64_t live_bytes() const { return live_.load(); }
  std::uint64_t peak_live_bytes() const { return peak_.load(); }
  std::uint32_t max_concurrent_device_stages() const { return max_dev_.load(); }
  std::uint32_t max_batch_seen() const { return max_batch_.load(); }
  /// Batches that mixed circuits (the engine must never build one).
  std::uint32_t mixed_batches() const { return mixed_batches_.load(); }
  std::uint64_t keys_loaded() const { return keys_loaded_.load(); }
  /// (request_id, partition) in the order device stages started.
  std::vector<std::pair<std::string, std::uint32_t>> device_order() const {
    std::lock_guard lock(mu_);
    std::vector<std::pair<std::string, std::uint32_t>> out;
    for (auto& s : stages_) out.emplace_back(s.request_id, s.partition);
    return out;
  }
  struct DeviceStage {
    std::string request_id;
    std::uint32_t partition = 0;
    int device = 0;
  };
  /// Every device stage started, in order, with the device it ran on.
  std::vector<DeviceStage> device_stages() const {
    std::lock_guard lock(mu_);
    return stages_;
  }

  class Hold;
  /// Holds |stage| for |id| (a request id; for key_load a key id) until the returned Hold is
  /// released or destroyed: the stage's calls wait at its start (a synthesis after taking its
  /// bytes) and then run as usual. A held synthesis still ends, cancelled, when its job's cancel
  /// flag is set; a held key load waits for the release only. An id may be held before its job
  /// is submitted. Test hook: without a hold nothing waits.
  [[nodiscard]] Hold hold(FakeStage stage, const std::string& id);
  /// Calls of |stage| for |id| waiting at a hold now.
  std::uint32_t held_waiting(FakeStage stage, const std::string& id) const;

  /// Device |device|'s compute section (FakeProverOptions::compute_section).
  PrioritySection& compute_section(int device) {
    std::lock_guard lock(mu_);
    return sections_[device];
  }

  // Internal accounting, used by the fake key and partition objects.
  void add_live(std::int64_t delta);

 private:
  using HoldKey = std::pair<FakeStage, std::string>;
  struct HoldState {
    std::uint32_t holds = 0, waiting = 0;
  };
  /// Waits while |stage| is held for |id|; false when |cancel| (may be null) is set first.
  bool wait_while_held(FakeStage stage, const std::string& id, const CancelFlag* cancel);
  void release_hold(const HoldKey& key);

  FakeProverOptions opt_;
  std::atomic<std::uint64_t> live_{0}, peak_{0}, keys_loaded_{0};
  std::atomic<std::uint32_t> dev_now_{0}, max_dev_{0}, max_batch_{0}, mixed_batches_{0};
  mutable std::mutex mu_;
  std::vector<DeviceStage> stages_;
  std::map<int, PrioritySection> sections_;
  mutable std::mutex hold_mu_;
  std::condition_variable hold_cv_;
  std::map<HoldKey, HoldState> holds_;
};

/// A hold on a stage of the fake (FakeProver::hold); releases it when destroyed.
class FakeProver::Hold {
 public:
  Hold(Hold&& o) noexcept : fake_(std::exchange(o.fake_, nullptr)), key_(std::move(o.key_)) {}
  Hold& operator=(Hold&&) = delete;
  Hold(const Hold&) = delete;
  Hold& operator=(const Hold&) = delete;
  ~Hold() { release(); }
  /// Lets the held calls (and later ones) run; a second call does nothing.
  void release() {
    if (fake_) std::exchange(fake_, nullptr)->release_hold(key_);
  }

 private:
  friend class FakeProver;
  Hold(FakeProver* fake, HoldKey key) : fake_(fake), key_(std::move(key)) {}
  FakeProver* fake_;
  HoldKey key_;
};

}  // namespace cuzk::engine
