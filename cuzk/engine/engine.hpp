// Engine: jobs, memory, devices and concurrency (DESIGN.md §3). Transport-free: the gRPC server
// (server/) and the tests drive it through submit/await/cancel/status.
//
// Pipeline of one partition, every stage ordered by (priority, job sequence, partition):
//   admission  — one thread takes the most urgent job's next partition and reserves its exact
//                bytes (and, first, a lease on the job's proving key) from the MemoryBudget;
//                head-of-line: nothing less urgent is admitted while the head does not fit.
//   synthesis  — pw workers run PartitionProver::synthesize (bounded queue in front).
//                The partition is bound to one of the devices its circuit may use (affinity,
//                EngineOptions::circuit_devices): the one with the fewest partitions bound and not
//                yet through its device stage; a device holding its full share is skipped, and a
//                job whose devices are all full lets a job for other devices be admitted first.
//                A device worker takes the most urgent partition it may prove: bound to its
//                device, or bound to another (busy) device and allowed here by its job (the
//                binding moves); between equally urgent ones, its own.
//   device     — gw workers per device (and one for HIGH/CRITICAL work only) run prove_partition
//                at their job's priority, then give a/b/c back at once.
//   finalize   — off the device: concatenate partition proofs in order, self-verify, complete.
// Cancellation and failure set the job's flag (polled by running stages), drop its queued
// partitions and free their memory. Accepted jobs are journaled and resume after a restart;
// each finished partition proof is journaled too, so a resumed job proves only what is missing.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "cuzk/base/status.hpp"
#include "cuzk/engine/job_types.hpp"
#include "cuzk/engine/journal.hpp"
#include "cuzk/engine/memory_budget.hpp"
#include "cuzk/engine/partition_prover.hpp"
#include "cuzk/engine/priority_channel.hpp"
#include "cuzk/engine/srs_manager.hpp"

namespace cuzk::engine {

/// A device the engine schedules on (the CPU backend counts as one device named "cpu").
struct DeviceInfo {
  int ordinal = 0;
  std::string name = "cpu";
  std::uint64_t vram_total_bytes = 0;
  std::uint64_t vram_free_bytes = 0;
};

struct EngineOptions {
  std::uint64_t memory_limit = std::uint64_t{8} << 30;
  /// Bytes only CRITICAL work may use (0 = none).
  std::uint64_t critical_headroom = 0;
  /// Part of the budget that queued and running jobs' inputs may hold (charged from submit until
  /// the last stage lets go of them); a submit beyond it is out_of_memory. 0 = inputs uncharged.
  std::uint64_t input_budget = 0;
  std::uint32_t synthesis_workers = 2;       ///< pw
  std::uint32_t gpu_workers_per_device = 2;  ///< gw
  /// One more device worker per device that takes only HIGH and CRITICAL partitions (PoSt), so
  /// one is always free to wait at the device's compute section, which admits the most urgent
  /// waiter first (base/priority_section.hpp): a PoSt then waits for at most the partition
  /// inside, not for the PoRep partitions every worker holds.
  bool urgent_worker = true;
  std::vector<DeviceInfo> devices;          ///< empty: one CPU device
  std::uint32_t synthesis_queue_depth = 0;  ///< admitted partitions waiting for a worker; 0 = pw
  std::uint32_t gpu_queue_depth = 0;        ///< synthesized partitions waiting; 0 = gw × devices
  std::uint32_t max_batch_size = 1;         ///< partitions of one circuit per device call
  std::chrono::milliseconds batch_wait{0};  ///< how long a device worker waits to fill a batch
  bool self_verify = true;
  std::chrono::milliseconds retention{std::chrono::minutes(5)};  ///< finished jobs kept this long
  std::uint32_t max_pending_per_client = 0;  ///< unfinished jobs per client; 0 = unlimited
  std::uint32_t max_pending_total = 0;       ///< unfinished jobs in all; 0 = unlimited
  std::string journal_path;                  ///< SQLite file; empty = no journal
  /// Bytes of each device's VRAM arena that placing proving keys leaves free for the device
  /// stages' working buffers (idle keys' copies are demoted to keep it); 0 = none.
  std::uint64_t device_reserve_bytes = 0;
  /// Device affinity: circuit id → ordinals (of |devices|) that may prove it. A circuit not
  /// named here may use every device. An ordinal that is not a device is an error at create().
  std::map<std::string, std::vector<int>> circuit_devices;
};

/// Bytes of a request charged to the input budget (EngineOptions::input_budget) before the
/// request is parsed: the server charges a message as soon as it has arrived, so one the budget
/// cannot hold is refused before it is copied, and the bytes are counted from then on. submit()
/// keeps what the job's input needs; dropping a charge gives its bytes back.
class InputCharge {
 public:
  InputCharge() = default;
  InputCharge(InputCharge&& o) noexcept;
  InputCharge& operator=(InputCharge&& o) noexcept;
  InputCharge(const InputCharge&) = delete;
  InputCharge& operator=(const InputCharge&) = delete;
  ~InputCharge() { reset(); }
  std::uint64_t bytes() const { return res_.bytes(); }
  /// Gives back all but |n| bytes.
  void shrink_to(std::uint64_t n);
  void reset();

 private:
  friend class Engine;
  Reservation res_;
  std::atomic<std::uint64_t>* counter_ = nullptr;  // the engine's input bytes, while held
};

/// Who calls the engine. The server fills it from the connection (docs/api.md, Clients): limits
/// and job ownership key on |identity|, which the client cannot choose.
struct Caller {
  /// The connection's verified identity ("uid:1000", "x509:CN=curio", "ip:10.0.0.5"). Empty: an
  /// in-process caller; its jobs belong to no one (every caller may await and cancel them).
  std::string identity;
  std::string tag;     ///< the client's own label (cuzk-client metadata): logs only
  bool admin = false;  ///< may await, cancel and resubmit every identity's jobs
  /// The engine's own user (tests, the CLI in-process): sees every job.
  static Caller local() { return Caller{.identity = "", .tag = "", .admin = true}; }
};

struct SubmitResult {
  std::string job_id;
  std::uint32_t queue_position = 0;  ///< jobs ahead of it in the admission order
  bool existing = false;             ///< request_id matched a job already known
};

struct DeviceStatus {
  DeviceInfo info;
  std::vector<std::string> current_jobs;  ///< one per busy worker
  std::string current_circuit;
  double busy_seconds = 0;  ///< sum over workers of time inside the device stage
  double busy_any_seconds =
      0;  ///< time with at least one worker in the device stage (timeline union)
  std::uint64_t partitions_proved = 0;
  std::uint32_t workers = 0;  ///< device workers (gw, and the urgent worker)
  SrsDeviceStatus vram;       ///< arena figures and resident proving keys (has_arena false: none)
  std::uint32_t assigned =
      0;  ///< partitions bound to this device and not yet through its device stage
  std::uint32_t depth = 0;  ///< most partitions bound to it at once (its share of the pipeline)
  std::uint64_t partitions_taken =
      0;  ///< partitions it took over from another device's queue (it was idle)
};

struct QueueFigures {
  std::string kind;  ///< circuit id, or the proof kind name
  std::uint32_t queued_jobs = 0;
  std::uint32_t running_jobs = 0;
};

struct EngineStatus {
  std::vector<DeviceStatus> devices;
  std::vector<SrsEntryStatus> keys;
  std::vector<QueueFigures> queues;
  std::uint32_t partitions_awaiting_admission = 0;
  std::uint32_t partitions_awaiting_synthesis = 0;
  std::uint32_t partitions_synthesizing = 0;
  std::uint32_t partitions_awaiting_device = 0;
  std::uint32_t partitions_on_device = 0;
  std::uint32_t jobs_finalizing = 0;
  std::uint64_t completed = 0, failed = 0, cancelled = 0;
  std::uint64_t partitions_resumed = 0;  ///< partition proofs taken from the journal at start
  /// Synthesized partitions whose vectors sit in a pre-charged pool (the pinned partition pool),
  /// those in plain memory (the pool had no room, or there is none), and those held as a compact
  /// witness (SynthesizedPartition::held_bytes).
  std::uint64_t partitions_pooled = 0, partitions_plain = 0, partitions_compact = 0;
  /// Partitions synthesized since start, the CPU seconds of their synthesis (the synthesis
  /// worker's thread CPU time, CLOCK_THREAD_CPUTIME_ID, plus what the prover reports for its own
  /// pool: SynthesizedPartition::pool_cpu_seconds), and the bytes the device stages uploaded
  /// (SynthesizedPartition::upload_bytes; per partition: divide by the devices' partitions proved).
  std::uint64_t partitions_synthesized = 0;
  double synthesis_cpu_seconds = 0;
  std::uint64_t partition_upload_bytes = 0;
  std::uint64_t memory_used = 0, memory_limit = 0, memory_peak = 0, memory_headroom = 0;
  std::uint64_t input_bytes = 0, input_budget = 0;  ///< job inputs held (part of memory_used)
  std::uint64_t process_rss = 0,
                process_peak_rss = 0;  ///< the process as the kernel counts it (VmRSS, VmHWM)
  double uptime_seconds = 0;
  std::uint32_t jobs_known = 0;
};

class Engine {
 public:
  /// Starts the workers; loads the journal and resumes its unfinished jobs.
  static Result<std::unique_ptr<Engine>> create(
      EngineOptions opt, std::vector<std::shared_ptr<PartitionProver>> provers);
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  /// Accepts a job (or returns the existing one with the same request_id). Errors: unimplemented
  /// (a proof kind no prover serves), invalid_argument / bad_encoding / out_of_range (the request; a request_id
  /// of another identity's job), not_found (unknown circuit), out_of_memory (pending-job limits,
  /// or a partition larger than the budget), cancelled (shutting down), io_error (journal).
  /// The job belongs to |caller|'s identity, and counts in its pending-job limit.
  /// |charge| (from charge_input) pays for the input when it holds enough; what it holds
  /// beyond the input is given back.
  Result<SubmitResult> submit(JobRequest req, const Caller& caller = {}, InputCharge charge = {});
  /// Charges a received request's |bytes| to the input budget now (from the budget's CRITICAL
  /// part: the priority is not known before parsing; submit() holds a non-CRITICAL job to the
  /// rest). out_of_memory naming the sizes when they do not fit now, or ever. With no input
  /// budget (0) the charge is empty and nothing is refused.
  Result<InputCharge> charge_input(std::uint64_t bytes);
  /// Waits for the job's end; timeout 0 = no limit. not_found for an unknown (or pruned) job,
  /// and for another identity's job unless |caller| is an admin (the same answer: nothing is
  /// revealed about other identities' jobs).
  Result<JobOutcome> await(const std::string& job_id,
                           std::chrono::milliseconds timeout = std::chrono::milliseconds(0),
                           const Caller& caller = Caller::local());
  /// Cancels a queued or running job; returns whether it was running. Finished: false.
  /// not_found as await().
  Result<bool> cancel(const std::string& job_id, const Caller& caller = Caller::local());

  struct PreloadResult {
    bool already_loaded = false;
    std::uint64_t load_ms = 0;
  };
  Result<PreloadResult> preload(const std::string& circuit_id);
  Result<std::uint64_t> evict(const std::string& circuit_id);

  EngineStatus status() const;
  /// Prometheus text exposition of the counters and gauges.
  std::string metrics_text() const;

  /// Stops accepting jobs, lets running jobs finish for up to |grace|, then stops the workers;
  /// unfinished jobs stay in the journal and resume at the next start.
  void shutdown(std::chrono::milliseconds grace);

  MemoryBudget& budget() { return budget_; }

 private:
  struct Job;
  struct JobInput;
  struct FinalItem;
  struct SynthItem;
  struct GpuItem;
  struct WorkerSlot;
  struct DeviceTimeline;
  class DeviceTicket;

  explicit Engine(EngineOptions opt, std::vector<std::shared_ptr<PartitionProver>> provers);
  Status start();
  PartitionProver* find_prover(const std::string& circuit_id) const;
  /// The prover that accepts |req| (its proof kind, or its circuit id); null when none.
  PartitionProver* find_prover(const JobRequest& req) const;
  Result<JobPlan> validate(const JobRequest& req, PartitionProver** prover) const;
  void enqueue_locked(const std::shared_ptr<Job>& job);
  /// Device indices a circuit may use (affinity, else all).
  std::vector<std::size_t> devices_for(const std::string& circuit_id) const;
  /// The allowed device with the fewest bound partitions and room (any, for CRITICAL); none when full.
  std::optional<std::size_t> pick_device_locked(const Job& job);
  /// Puts the journaled partition proofs of resumed jobs back; a bad row fails its job.
  void restore_partitions_locked(const std::vector<JournalPartition>& rows);
  /// Reserves |bytes| of inputs at priority |p| (freeing kept buffers when that helps); an empty
  /// charge when they do not fit.
  InputCharge try_charge(std::uint64_t bytes, Priority p);
  /// Wraps a request and its parsed input with their input reservation (the request's bytes
  /// and the parsed job's, ParsedJob::bytes), taken from |charge| when it holds enough; nullptr
  /// when |required| and it does not fit.
  std::shared_ptr<const JobInput> make_input(
      JobRequest req, Priority p, bool required, InputCharge charge = {},
      std::shared_ptr<const circuits::ParsedJob> parsed = nullptr);
  void wake();
  /// Frees the buffers every prover keeps for reuse; the bytes given back to the budget.
  std::uint64_t release_kept_buffers();
  bool admit_one_locked();
  void admission_loop();
  void synthesis_loop();
  void device_loop(std::size_t device, std::size_t slot);
  void finalize_loop();
  void prune_loop();
  /// Sets a terminal state (false if already terminal); call purge() after unlocking.
  bool finish_locked(const std::shared_ptr<Job>& job, JobState state, std::string error,
                     std::string proof);
  void finish(const std::shared_ptr<Job>& job, JobState state, std::string error,
              std::string proof);
  void purge(const std::shared_ptr<Job>& job);
  /// The job's key lease, copied under mu_ (null once the job has ended: finish_locked resets it).
  std::shared_ptr<SrsLease> lease_of(const Job& job) const;
  JobOutcome outcome_locked(const Job& job) const;

  EngineOptions opt_;
  std::vector<std::shared_ptr<PartitionProver>> provers_;
  MemoryBudget budget_;
  SrsManager srs_;
  std::unique_ptr<Journal> journal_;
  Clock::time_point started_ = Clock::now();

  mutable std::mutex mu_;
  std::condition_variable done_cv_;
  std::unordered_map<std::string, std::shared_ptr<Job>> jobs_;
  std::map<WorkKey, std::shared_ptr<Job>> admit_q_;
  std::unordered_map<std::string, std::uint32_t> client_pending_;
  std::uint32_t pending_total_ = 0;
  std::uint64_t next_seq_ = 1;
  std::uint64_t completed_ = 0, failed_ = 0, cancelled_ = 0;
  std::map<std::string, std::uint64_t> completed_by_kind_, failed_by_kind_;
  double proof_seconds_sum_ = 0;
  bool accepting_ = true;
  bool stopping_ = false;

  std::mutex wake_mu_;
  std::condition_variable wake_cv_;
  std::uint64_t wake_epoch_ = 0;

  PriorityChannel<SynthItem> synth_q_;
  PriorityChannel<GpuItem> gpu_q_;
  PriorityChannel<FinalItem> fin_q_;
  std::atomic<std::uint64_t> input_bytes_{0};
  std::atomic<std::uint32_t> synthesizing_{0}, on_device_{0}, finalizing_{0};
  std::vector<std::unique_ptr<WorkerSlot>> slots_;            // per device worker
  std::vector<std::unique_ptr<DeviceTimeline>> timelines_;    // per device
  std::map<std::string, std::vector<std::size_t>> affinity_;  // circuit id → device indices
  std::uint32_t device_depth_ = 1;  // partitions bound to one device at most (non-CRITICAL)
  std::size_t rr_ = 0;              // rotates ties between equally loaded devices
  std::uint64_t partitions_resumed_ = 0;
  std::atomic<std::uint64_t> partitions_pooled_{0}, partitions_plain_{0}, partitions_compact_{0};
  // Per-partition figures, summed: partitions synthesized, their synthesis CPU time (ns) and the
  // bytes their device stages uploaded.
  std::atomic<std::uint64_t> partitions_synthesized_{0}, synthesis_cpu_ns_{0},
      partition_upload_bytes_{0};
  std::vector<std::thread> threads_;
};

}  // namespace cuzk::engine
