// The engine's private parts, shared by its source files (engine.cpp: start, resume, shutdown,
// keys; job_table.cpp: submit, await, cancel, terminal states, pruning; admission.cpp: input
// charges, device binding, the admission thread; device_workers.cpp: synthesis and device
// workers; finalizer.cpp; metrics.cpp: status and the Prometheus text). Not part of the API.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "cuzk/engine/engine.hpp"

namespace cuzk::engine {

// A job's request, shared by the job and every queued or running stage: its bytes (and their
// reservation) are freed when the last holder lets go, not while a worker still reads them.
struct Engine::JobInput {
  JobRequest req;
  InputCharge charge;
  /// The prover's parsed input (JobPlan::parsed, moved here from the job's plan at submit): it
  /// lives and is charged as long as the request, not as long as the finished job is kept.
  std::shared_ptr<const circuits::ParsedJob> parsed;
  /// |plan| with the parsed input, for the stages that hand it to the prover.
  JobPlan plan_for(const JobPlan& plan) const {
    JobPlan p = plan;
    p.parsed = parsed;
    return p;
  }
};

struct Engine::Job {
  std::string id;
  std::uint64_t seq = 0;
  std::string client;  // the pending-job limit's key: the owner (a journal row from before
                       // owners: the client key it was recorded with)
  std::string owner;   // Caller::identity of the submitter; empty = no one's
  std::shared_ptr<const JobInput> input;  // reset when the job ends (under mu_)
  std::string label;                      // circuit id or proof kind, for status and metrics
  std::string circuit_id;
  Priority prio = Priority::normal;
  PartitionProver* prover = nullptr;
  JobPlan plan;
  CancelFlag stop{false};
  JobState state = JobState::queued;
  std::string error, proof;
  std::uint32_t next_partition = 0;  // next to admit
  std::uint32_t done = 0;
  std::vector<std::string> parts;
  std::vector<bool> have;            // partition proved (this run, or journaled by an earlier one)
  std::vector<std::size_t> devices;  // device indices it may use
  std::shared_ptr<SrsLease> key;
  Clock::time_point submitted = Clock::now(), first_admit{}, finished{};
  bool admitted_any = false;
  std::int64_t submitted_unix_ms = 0;
  std::atomic<std::uint64_t> synth_ms{0}, gpu_ms{0}, srs_wait_ms{0};

  WorkKey key_of(std::uint32_t k) const { return WorkKey{prio, seq, k}; }
};

// A partition's place on its device: counted in the device's bound partitions from admission
// until its device stage ends, or until the partition is dropped (cancel, failure, shutdown).
class Engine::DeviceTicket {
 public:
  DeviceTicket() = default;
  DeviceTicket(Engine* e, std::size_t device);
  DeviceTicket(DeviceTicket&& o) noexcept : e_(std::exchange(o.e_, nullptr)), device_(o.device_) {}
  DeviceTicket& operator=(DeviceTicket&& o) noexcept {
    if (this != &o) {
      release();
      e_ = std::exchange(o.e_, nullptr);
      device_ = o.device_;
    }
    return *this;
  }
  ~DeviceTicket() { release(); }
  void release();
  std::size_t device() const { return device_; }

 private:
  Engine* e_ = nullptr;
  std::size_t device_ = 0;
};

struct Engine::SynthItem {
  std::shared_ptr<Job> job;
  std::shared_ptr<const JobInput> in;
  std::uint32_t k = 0;
  Reservation res;
  DeviceTicket ticket;
};

struct Engine::GpuItem {
  std::shared_ptr<Job> job;
  std::shared_ptr<const JobInput> in;
  std::uint32_t k = 0;
  Reservation res;
  std::unique_ptr<SynthesizedPartition> part;
  DeviceTicket ticket;
  std::uint64_t abc_reserved = 0;  ///< of res, the a/b/c bytes freed after the device stage
};

struct Engine::FinalItem {
  std::shared_ptr<Job> job;
  std::shared_ptr<const JobInput> in;
};

struct Engine::WorkerSlot {
  std::size_t device = 0;
  bool urgent = false;  // takes only HIGH and CRITICAL partitions (EngineOptions::urgent_worker)
  std::mutex mu;
  std::string job_id, circuit;
  std::atomic<std::uint64_t> busy_ns{0}, proved{0};
  std::atomic<std::uint64_t> taken{0};  // partitions taken over from another (busy) device
};

// Busy time of a device as the union of its workers' device stages.
struct Engine::DeviceTimeline {
  std::atomic<std::uint32_t> assigned{
      0};  // partitions bound here, not yet through the device stage
  std::mutex mu;
  std::uint32_t active = 0;
  Clock::time_point since{};
  std::uint64_t busy_ns = 0;
  void enter() {
    std::lock_guard lock(mu);
    if (active++ == 0) since = Clock::now();
  }
  void leave() {
    std::lock_guard lock(mu);
    if (--active == 0)
      busy_ns += static_cast<std::uint64_t>(
          std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - since).count());
  }
  double seconds() {
    std::lock_guard lock(mu);
    std::uint64_t ns = busy_ns;
    if (active)
      ns += static_cast<std::uint64_t>(
          std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - since).count());
    return static_cast<double>(ns) * 1e-9;
  }
};

namespace detail {

/// CPU seconds the calling thread has used (CLOCK_THREAD_CPUTIME_ID).
double thread_cpu_seconds();
/// Milliseconds from |a| to |b| (0 when b ≤ a).
std::uint64_t ms_between(Clock::time_point a, Clock::time_point b);
/// A job's kind as status and metrics show it: its circuit id, or the proof kind's name.
std::string kind_label(const JobRequest& r);
/// Client-chosen names (request_id, circuit_id) are printable, unambiguous and bounded.
Status check_client_name(const std::string& value, const char* field);
/// A client-chosen name as error messages show it: as is when valid, else described.
std::string shown(const std::string& value);

}  // namespace detail
}  // namespace cuzk::engine
