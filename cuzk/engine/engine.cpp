#include "cuzk/engine/engine.hpp"

#include <spdlog/spdlog.h>
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <random>
#include <sstream>
#include <utility>

#include "cuzk/base/escape.hpp"
#include "cuzk/base/process_memory.hpp"

namespace cuzk::engine {
namespace {

std::int64_t unix_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::uint64_t ms_between(Clock::time_point a, Clock::time_point b) {
  return b <= a ? 0
                : static_cast<std::uint64_t>(
                      std::chrono::duration_cast<std::chrono::milliseconds>(b - a).count());
}

std::string random_job_id() {
  static thread_local std::mt19937_64 rng{std::random_device{}()};
  char buf[40];
  std::snprintf(buf, sizeof buf, "job-%016llx%08llx", static_cast<unsigned long long>(rng()),
                static_cast<unsigned long long>(rng() & 0xffffffffULL));
  return buf;
}

std::string kind_label(const JobRequest& r) {
  return r.kind == ProofKind::unspecified ? r.circuit_id : std::string(proof_kind_name(r.kind));
}

}  // namespace

std::string_view proof_kind_name(ProofKind k) {
  switch (k) {
    case ProofKind::unspecified:
      return "unspecified";
    case ProofKind::porep_seal_commit:
      return "porep_seal_commit";
    case ProofKind::snap_deals_update:
      return "snap_deals_update";
    case ProofKind::window_post_partition:
      return "window_post_partition";
    case ProofKind::winning_post:
      return "winning_post";
  }
  return "unknown";
}

std::string_view priority_name(Priority p) {
  switch (p) {
    case Priority::unspecified:
      return "unspecified";
    case Priority::low:
      return "low";
    case Priority::normal:
      return "normal";
    case Priority::high:
      return "high";
    case Priority::critical:
      return "critical";
  }
  return "unknown";
}

std::string_view job_state_name(JobState s) {
  switch (s) {
    case JobState::queued:
      return "queued";
    case JobState::running:
      return "running";
    case JobState::completed:
      return "completed";
    case JobState::failed:
      return "failed";
    case JobState::cancelled:
      return "cancelled";
  }
  return "unknown";
}

// A job's request, shared by the job and every queued or running stage: its bytes (and their
// reservation) are freed when the last holder lets go, not while a worker still reads them.
struct Engine::JobInput {
  JobRequest req;
  InputCharge charge;
};

InputCharge::InputCharge(InputCharge&& o) noexcept
    : res_(std::move(o.res_)), counter_(std::exchange(o.counter_, nullptr)) {}

InputCharge& InputCharge::operator=(InputCharge&& o) noexcept {
  if (this != &o) {
    reset();
    res_ = std::move(o.res_);
    counter_ = std::exchange(o.counter_, nullptr);
  }
  return *this;
}

void InputCharge::shrink_to(std::uint64_t n) {
  const std::uint64_t held = res_.bytes();
  if (n >= held) return;
  if (counter_) *counter_ -= held - n;
  res_.release(held - n);
}

void InputCharge::reset() {
  if (counter_) *counter_ -= res_.bytes();
  counter_ = nullptr;
  res_.reset();
}

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

Engine::DeviceTicket::DeviceTicket(Engine* e, std::size_t device) : e_(e), device_(device) {
  ++e_->timelines_[device_]->assigned;
}

void Engine::DeviceTicket::release() {
  if (!e_) return;
  --e_->timelines_[device_]->assigned;
  e_->wake();  // the device has room again: admission may continue
  e_ = nullptr;
}

Engine::Engine(EngineOptions opt, std::vector<std::shared_ptr<PartitionProver>> provers)
    : opt_(std::move(opt)),
      provers_(std::move(provers)),
      budget_(opt_.memory_limit, opt_.critical_headroom),
      srs_(budget_, opt_.device_reserve_bytes),
      synth_q_(opt_.synthesis_queue_depth ? opt_.synthesis_queue_depth
                                          : std::max<std::uint32_t>(1, opt_.synthesis_workers)),
      // Admission bounds what reaches the device queue (each device's share, below), so the queue
      // itself never blocks a synthesis worker holding one device's partition behind another's.
      gpu_q_(1u << 20),
      fin_q_(1u << 20) {
  if (opt_.devices.empty()) opt_.devices.push_back(DeviceInfo{});
  if (opt_.synthesis_workers == 0) opt_.synthesis_workers = 1;
  if (opt_.gpu_workers_per_device == 0) opt_.gpu_workers_per_device = 1;
  // Each device's share of the pipeline: the synthesis queue and workers, the device queue and
  // every device worker, divided evenly (one device: the whole pipeline, as without binding).
  std::size_t n = opt_.devices.size();
  std::size_t gpu_depth =
      opt_.gpu_queue_depth ? opt_.gpu_queue_depth : opt_.gpu_workers_per_device * n;
  std::size_t total =
      synth_q_.capacity() + opt_.synthesis_workers + gpu_depth + opt_.gpu_workers_per_device * n;
  device_depth_ = static_cast<std::uint32_t>(
      std::max<std::size_t>(opt_.gpu_workers_per_device + 1, (total + n - 1) / n));
}

Result<std::unique_ptr<Engine>> Engine::create(
    EngineOptions opt, std::vector<std::shared_ptr<PartitionProver>> provers) {
  if (provers.empty())
    return Status(Errc::invalid_argument, "the engine needs at least one prover");
  std::unique_ptr<Engine> e(new Engine(std::move(opt), std::move(provers)));
  CUZK_RETURN_IF_ERROR(e->start());
  return e;
}

Status Engine::start() {
  budget_.set_on_release([this] { wake(); });
  for (auto& p : provers_) p->attach_budget(&budget_);
  for (std::size_t d = 0; d < opt_.devices.size(); ++d)
    for (std::size_t e = 0; e < d; ++e)
      if (opt_.devices[d].ordinal == opt_.devices[e].ordinal)
        return Status(Errc::invalid_argument,
                      "device " + std::to_string(opt_.devices[d].ordinal) + " is listed twice");
  for (const auto& [circuit, ordinals] : opt_.circuit_devices) {
    if (ordinals.empty())
      return Status(Errc::invalid_argument, "circuit '" + circuit + "': the device list is empty");
    std::vector<std::size_t> idx;
    for (int o : ordinals) {
      std::size_t d = 0;
      while (d < opt_.devices.size() && opt_.devices[d].ordinal != o) ++d;
      if (d == opt_.devices.size()) {
        std::string have;
        for (auto& dev : opt_.devices)
          have += (have.empty() ? "" : ", ") + std::to_string(dev.ordinal);
        return Status(Errc::invalid_argument,
                      "circuit '" + circuit + "' names device " + std::to_string(o) +
                          ", which the engine does not drive (devices: " + have + ")");
      }
      if (std::find(idx.begin(), idx.end(), d) == idx.end()) idx.push_back(d);
    }
    affinity_[circuit] = std::move(idx);
  }
  for (std::size_t d = 0; d < opt_.devices.size(); ++d) {
    timelines_.push_back(std::make_unique<DeviceTimeline>());
    for (std::uint32_t w = 0; w < opt_.gpu_workers_per_device; ++w) {
      slots_.push_back(std::make_unique<WorkerSlot>());
      slots_.back()->device = d;
    }
  }
  if (!opt_.journal_path.empty()) {
    auto j = Journal::open(opt_.journal_path);
    if (!j) return j.status();
    journal_ = std::move(*j);
    auto rows = journal_->load();
    if (!rows) return rows.status();
    auto part_rows = journal_->load_partitions();
    if (!part_rows) return part_rows.status();
    std::lock_guard lock(mu_);
    for (auto& r : *rows) {
      auto job = std::make_shared<Job>();
      job->id = r.job_id;
      job->seq = r.seq;
      job->client = r.client;
      job->owner = r.owner;
      job->prio =
          r.req.priority == Priority::unspecified ? default_priority(r.req.kind) : r.req.priority;
      job->label = kind_label(r.req);
      job->submitted_unix_ms = r.submitted_unix_ms;
      next_seq_ = std::max(next_seq_, r.seq + 1);
      if (is_terminal(r.state)) {  // its answer (proof or error) is in the row
        job->circuit_id = r.req.circuit_id;
        job->state = r.state;
        job->proof = std::move(r.proof);
        job->error = std::move(r.error);
        job->finished = Clock::now();
        job->stop = true;
        jobs_[job->id] = job;
        continue;
      }
      // Resume: plan again (the prover set may have changed) and queue the partitions that have
      // no journaled proof.
      std::string load_error = r.load_error;
      PartitionProver* prover = nullptr;
      auto plan = load_error.empty() ? validate(r.req, &prover)
                                     : Result<JobPlan>(Status(Errc::bad_encoding, load_error));
      job->circuit_id = r.req.circuit_id;
      // A resumed job's input is charged when it fits; it runs either way (it was accepted).
      job->input = make_input(std::move(r.req), job->prio, /*required=*/false);
      jobs_[job->id] = job;
      ++client_pending_[job->client];
      ++pending_total_;
      if (!plan) {
        finish_locked(job, JobState::failed, "on resume: " + plan.status().to_string(), "");
        continue;
      }
      job->prover = prover;
      job->plan = *plan;
      job->parts.resize(job->plan.partitions);
      job->have.assign(job->plan.partitions, false);
      job->devices = devices_for(job->circuit_id);
      enqueue_locked(job);
    }
    std::size_t resumed = admit_q_.size();
    restore_partitions_locked(*part_rows);
    spdlog::info("journal {}: {} job(s) loaded, {} resumed with {} partition proof(s) journaled",
                 opt_.journal_path, rows->size(), resumed, partitions_resumed_);
  }
  threads_.emplace_back([this] { admission_loop(); });
  for (std::uint32_t i = 0; i < opt_.synthesis_workers; ++i)
    threads_.emplace_back([this] { synthesis_loop(); });
  for (std::size_t s = 0; s < slots_.size(); ++s)
    threads_.emplace_back([this, s] { device_loop(slots_[s]->device, s); });
  threads_.emplace_back([this] { finalize_loop(); });
  threads_.emplace_back([this] { prune_loop(); });
  return {};
}

void Engine::restore_partitions_locked(const std::vector<JournalPartition>& rows) {
  for (const auto& p : rows) {
    auto it = jobs_.find(p.job_id);
    if (it == jobs_.end()) continue;  // a stray row (its job was pruned); ignored
    auto job = it->second;
    if (is_terminal(job->state)) continue;
    std::string bad;
    if (p.seq != job->seq)
      bad = "belongs to an earlier job with this id (sequence " + std::to_string(p.seq) + ", job " +
            std::to_string(job->seq) + ")";
    else if (p.partition >= job->plan.partitions)
      bad = "names partition " + std::to_string(p.partition) + " of a job with " +
            std::to_string(job->plan.partitions);
    else if (!p.digest_ok || p.proof.empty())
      bad = "is corrupt (its digest does not match its bytes)";
    if (!bad.empty()) {
      finish_locked(
          job, JobState::failed,
          "on resume: the journaled proof of partition " + std::to_string(p.partition) + " " + bad,
          "");
      continue;
    }
    if (job->have[p.partition]) continue;
    job->have[p.partition] = true;
    job->parts[p.partition] = p.proof;
    ++job->done;
    ++partitions_resumed_;
  }
}

std::vector<std::size_t> Engine::devices_for(const std::string& circuit_id) const {
  if (auto it = affinity_.find(circuit_id); it != affinity_.end()) return it->second;
  std::vector<std::size_t> all(opt_.devices.size());
  for (std::size_t d = 0; d < all.size(); ++d) all[d] = d;
  return all;
}

std::optional<std::size_t> Engine::pick_device_locked(const Job& job) {
  bool critical = job.prio == Priority::critical;
  std::optional<std::size_t> best;
  std::uint32_t best_load = 0;
  std::size_t n = job.devices.size();
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t d = job.devices[(i + rr_) % n];
    std::uint32_t load = timelines_[d]->assigned.load();
    if (load >= device_depth_ && !critical) continue;
    if (!best || load < best_load) {
      best = d;
      best_load = load;
    }
  }
  if (best) ++rr_;
  return best;
}

Engine::~Engine() { shutdown(std::chrono::milliseconds(0)); }

void Engine::shutdown(std::chrono::milliseconds grace) {
  {
    std::unique_lock lock(mu_);
    if (stopping_ && threads_.empty()) return;
    accepting_ = false;
    auto deadline = Clock::now() + grace;
    // Let running work finish within the grace period.
    done_cv_.wait_until(lock, deadline, [&] {
      for (auto& [id, j] : jobs_)
        if (j->state == JobState::running) return false;
      return true;
    });
    stopping_ = true;
    for (auto& [id, j] : jobs_)
      if (!is_terminal(j->state)) j->stop = true;  // abort; the journal keeps them unfinished
    done_cv_.notify_all();
  }
  wake();
  synth_q_.close();
  gpu_q_.close();
  fin_q_.close();
  for (auto& t : threads_)
    if (t.joinable()) t.join();
  threads_.clear();
  // Drop remaining queued work (reservations, leases) before the budget goes away.
  synth_q_.remove_if([](const WorkKey&, const SynthItem&) { return true; });
  gpu_q_.remove_if([](const WorkKey&, const GpuItem&) { return true; });
  std::lock_guard lock(mu_);
  admit_q_.clear();
  for (auto& [id, j] : jobs_) j->key.reset();
  for (auto& p : provers_)
    p->detach_budget(&budget_);  // kept buffers freed, their charges released
}

std::uint64_t Engine::release_kept_buffers() {
  std::uint64_t bytes = 0;
  for (auto& p : provers_) bytes += p->release_kept_buffers();
  return bytes;
}

void Engine::wake() {
  {
    std::lock_guard lock(wake_mu_);
    ++wake_epoch_;
  }
  wake_cv_.notify_all();
}

PartitionProver* Engine::find_prover(const std::string& circuit_id) const {
  for (auto& p : provers_)
    if (p->supports(circuit_id)) return p.get();
  return nullptr;
}

namespace {

// Client-chosen names reach logs, metrics labels, the journal and error messages: they are kept
// to printable, unambiguous characters and a bounded length.
constexpr std::size_t kMaxNameBytes = 128;

bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         std::string_view("._:@/+=-").find(c) != std::string_view::npos;
}

Status check_client_name(const std::string& value, const char* field) {
  if (value.size() > kMaxNameBytes)
    return Status(Errc::invalid_argument, std::string(field) + " is " +
                                              std::to_string(value.size()) + " bytes (at most " +
                                              std::to_string(kMaxNameBytes) + ")");
  for (std::size_t i = 0; i < value.size(); ++i)
    if (!is_name_char(value[i]))
      return Status(Errc::invalid_argument,
                    std::string(field) +
                        " has a character other than A-Z a-z 0-9 . _ : @ / + = - "
                        "(byte " +
                        std::to_string(i) + ")");
  return {};
}

// A client-chosen name as error messages show it: as is when valid, else described.
std::string shown(const std::string& value) {
  if (check_client_name(value, "").ok()) return "'" + value + "'";
  return "(a " + std::to_string(value.size()) + "-byte name with characters not allowed)";
}

}  // namespace

Result<JobPlan> Engine::validate(const JobRequest& req, PartitionProver** prover) const {
  CUZK_RETURN_IF_ERROR(check_client_name(req.request_id, "request_id"));
  CUZK_RETURN_IF_ERROR(check_client_name(req.circuit_id, "circuit_id"));
  if (req.kind != ProofKind::unspecified) {
    if (static_cast<std::uint32_t>(req.kind) > 4)
      return Status(Errc::invalid_argument,
                    "unknown proof_kind " + std::to_string(static_cast<std::uint32_t>(req.kind)));
    return Status(Errc::unimplemented,
                  std::string("proof kind ") + std::string(proof_kind_name(req.kind)) +
                      " is not available yet (the Filecoin circuits arrive later); "
                      "name a registered circuit in circuit_id instead");
  }
  if (static_cast<std::uint32_t>(req.priority) > 4)
    return Status(Errc::invalid_argument,
                  "unknown priority " + std::to_string(static_cast<std::uint32_t>(req.priority)));
  if (req.circuit_id.empty())
    return Status(Errc::invalid_argument, "circuit_id is empty and proof_kind is unspecified");
  PartitionProver* p = find_prover(req.circuit_id);
  if (!p) return Status(Errc::not_found, "no registered circuit " + shown(req.circuit_id));
  auto plan = p->plan(req);
  if (!plan) return plan.status();
  if (plan->partitions == 0)
    return Status(Errc::invalid_argument, "a job needs at least one partition");
  Priority prio = req.priority == Priority::unspecified ? default_priority(req.kind) : req.priority;
  auto key = p->key_bytes(plan->key_id);
  if (!key) return key.status();
  if (!budget_.can_ever_fit(plan->partition_bytes + *key + opt_.input_budget, prio))
    return Status(Errc::out_of_memory, "one partition (" + std::to_string(plan->partition_bytes) +
                                           " bytes) plus its key (" + std::to_string(*key) +
                                           " bytes) exceed the memory budget (" +
                                           std::to_string(budget_.limit()) + " bytes)");
  *prover = p;
  return plan;
}

void Engine::enqueue_locked(const std::shared_ptr<Job>& job) {
  admit_q_.emplace(job->key_of(0), job);
  wake();
}

InputCharge Engine::try_charge(std::uint64_t n, Priority p) {
  InputCharge c;
  // The input count first (compare-exchange: concurrent charges cannot pass the budget together),
  // then the memory budget.
  std::uint64_t cur = input_bytes_.load();
  do {
    if (n > opt_.input_budget || cur > opt_.input_budget - n) return c;
  } while (!input_bytes_.compare_exchange_weak(cur, cur + n));
  if (budget_.try_reserve(n, p) || (release_kept_buffers() > 0 && budget_.try_reserve(n, p))) {
    c.res_ = Reservation(&budget_, n);
    c.counter_ = &input_bytes_;
  } else {
    input_bytes_ -= n;
  }
  return c;
}

Result<InputCharge> Engine::charge_input(std::uint64_t n) {
  if (opt_.input_budget == 0 || n == 0) return InputCharge();
  if (n > opt_.input_budget)
    return Status(Errc::out_of_memory,
                  "a request of " + std::to_string(n) + " bytes is larger than the input budget (" +
                      std::to_string(opt_.input_budget) + " bytes, memory.input_budget)");
  InputCharge c = try_charge(n, Priority::critical);
  if (c.bytes() == n) return c;
  return Status(Errc::out_of_memory,
                "no room for a request of " + std::to_string(n) + " bytes now (" +
                    std::to_string(input_bytes_.load()) + " bytes of inputs held, input budget " +
                    std::to_string(opt_.input_budget) + "; memory budget " +
                    std::to_string(budget_.used()) + " of " + std::to_string(budget_.limit()) +
                    " bytes used); retry later");
}

std::shared_ptr<const Engine::JobInput> Engine::make_input(JobRequest req, Priority p,
                                                           bool required, InputCharge charge) {
  auto in = std::make_shared<JobInput>();
  std::uint64_t n = req.payload_bytes();
  in->req = std::move(req);
  if (opt_.input_budget == 0 || n == 0) return in;
  if (charge.bytes() >= n) {
    charge.shrink_to(n);
    // The charge may have used the CRITICAL headroom; other jobs may not keep it there.
    const bool in_headroom = budget_.used() > budget_.limit() - budget_.headroom();
    if (p == Priority::critical || !in_headroom) {
      in->charge = std::move(charge);
      return in;
    }
    charge.reset();
  }
  charge.reset();
  in->charge = try_charge(n, p);
  if (in->charge.bytes() == n) return in;
  if (required) return nullptr;
  spdlog::warn(
      "resumed job input ({} bytes) does not fit the input budget now; running it uncharged", n);
  return in;
}

namespace {

// An identity as messages show it (a certificate subject may hold spaces and commas): quoted,
// control bytes escaped.
std::string shown_identity(const std::string& identity) {
  std::string out = "'";
  append_control_escaped(identity, out);
  return out + "'";
}

bool may_see(const Caller& caller, const std::string& owner) {
  return caller.admin || owner.empty() || owner == caller.identity;
}

std::string no_job(const std::string& id) {
  return "no job " + shown(id) + " (unknown, or finished and pruned)";
}

}  // namespace

Result<SubmitResult> Engine::submit(JobRequest req, const Caller& caller, InputCharge charge) {
  const std::string& client = caller.identity;
  PartitionProver* prover = nullptr;
  auto plan = validate(req, &prover);
  if (!plan) return plan.status();
  std::lock_guard lock(mu_);
  if (!accepting_) return Status(Errc::cancelled, "the daemon is shutting down");
  if (!req.request_id.empty()) {
    auto it = jobs_.find(req.request_id);
    // Job ids are one namespace: another identity's job is neither returned nor retried.
    if (it != jobs_.end() && !may_see(caller, it->second->owner))
      return Status(Errc::invalid_argument, "request_id " + shown(req.request_id) +
                                                " is in use by another client; choose another");
    if (it != jobs_.end() &&
        (it->second->state != JobState::failed && it->second->state != JobState::cancelled)) {
      SubmitResult r{it->second->id, 0, true};
      for (auto& [k, j] : admit_q_) {
        if (j == it->second) break;
        ++r.queue_position;
      }
      return r;
    }
  }
  if (opt_.max_pending_per_client && client_pending_[client] >= opt_.max_pending_per_client)
    return Status(Errc::out_of_memory, "client " + shown_identity(client) + " already has " +
                                           std::to_string(client_pending_[client]) +
                                           " unfinished jobs (limit " +
                                           std::to_string(opt_.max_pending_per_client) + ")");
  if (opt_.max_pending_total && pending_total_ >= opt_.max_pending_total)
    return Status(Errc::out_of_memory, "the daemon already has " + std::to_string(pending_total_) +
                                           " unfinished jobs (limit " +
                                           std::to_string(opt_.max_pending_total) + ")");
  auto job = std::make_shared<Job>();
  job->id = req.request_id.empty() ? random_job_id() : req.request_id;
  job->seq = next_seq_++;
  job->client = client;
  job->owner = caller.identity;
  job->prio = req.priority == Priority::unspecified ? default_priority(req.kind) : req.priority;
  job->prover = prover;
  job->plan = *plan;
  job->parts.resize(plan->partitions);
  job->have.assign(plan->partitions, false);
  job->devices = devices_for(req.circuit_id);
  job->submitted_unix_ms = unix_ms();
  job->label = kind_label(req);
  job->circuit_id = req.circuit_id;
  job->input = make_input(std::move(req), job->prio, /*required=*/true, std::move(charge));
  if (!job->input)
    return Status(Errc::out_of_memory, "no room for this job's input now (" +
                                           std::to_string(input_bytes_.load()) +
                                           " bytes of queued inputs, input budget " +
                                           std::to_string(opt_.input_budget) + "); retry later");
  if (journal_) {
    JournalRecord rec;
    rec.job_id = job->id;
    rec.seq = job->seq;
    rec.client = client;
    rec.owner = job->owner;
    rec.submitted_unix_ms = job->submitted_unix_ms;
    CUZK_RETURN_IF_ERROR(journal_->record_submit(rec, job->input->req));  // no copy of the input
  }
  jobs_[job->id] = job;
  ++client_pending_[client];
  ++pending_total_;
  enqueue_locked(job);
  spdlog::debug("job {} accepted: {} x{} partitions, priority {}, client '{}'{}", job->id,
                job->circuit_id, job->plan.partitions, priority_name(job->prio), client,
                caller.tag.empty() ? std::string() : " (" + shown(caller.tag) + ")");
  SubmitResult r{job->id, 0, false};
  for (auto& [k, j] : admit_q_) {
    if (j == job) break;
    ++r.queue_position;
  }
  return r;
}

JobOutcome Engine::outcome_locked(const Job& job) const {
  JobOutcome o;
  o.job_id = job.id;
  switch (job.state) {
    case JobState::completed:
      o.status = AwaitStatus::completed;
      break;
    case JobState::failed:
      o.status = AwaitStatus::failed;
      break;
    case JobState::cancelled:
      o.status = AwaitStatus::cancelled;
      break;
    default:
      o.status = AwaitStatus::timeout;
      break;
  }
  o.proof = job.proof;
  o.error = job.error;
  auto end =
      is_terminal(job.state) && job.finished != Clock::time_point{} ? job.finished : Clock::now();
  o.timings.queue_wait_ms = ms_between(job.submitted, job.admitted_any ? job.first_admit : end);
  o.timings.srs_load_ms = job.srs_wait_ms.load();
  o.timings.synthesis_ms = job.synth_ms.load();
  o.timings.gpu_compute_ms = job.gpu_ms.load();
  o.timings.total_ms = ms_between(job.submitted, end);
  return o;
}

Result<JobOutcome> Engine::await(const std::string& job_id, std::chrono::milliseconds timeout,
                                 const Caller& caller) {
  std::unique_lock lock(mu_);
  auto it = jobs_.find(job_id);
  if (it == jobs_.end() || !may_see(caller, it->second->owner))
    return Status(Errc::not_found, no_job(job_id));
  auto job = it->second;
  auto pred = [&] { return is_terminal(job->state) || stopping_; };
  if (timeout.count() > 0) {
    done_cv_.wait_for(lock, timeout, pred);
  } else {
    done_cv_.wait(lock, pred);
  }
  JobOutcome o = outcome_locked(*job);
  if (!is_terminal(job->state) && stopping_) {
    o.status = AwaitStatus::unknown;
    o.error = "the daemon is shutting down; the job is journaled and resumes at the next start";
  }
  return o;
}

Result<bool> Engine::cancel(const std::string& job_id, const Caller& caller) {
  std::shared_ptr<Job> job;
  bool was_running = false;
  {
    std::lock_guard lock(mu_);
    auto it = jobs_.find(job_id);
    if (it == jobs_.end() || !may_see(caller, it->second->owner))
      return Status(Errc::not_found, no_job(job_id));
    job = it->second;
    if (is_terminal(job->state)) return false;
    was_running = job->state == JobState::running;
    finish_locked(job, JobState::cancelled, "cancelled by request", "");
  }
  purge(job);
  return was_running;
}

bool Engine::finish_locked(const std::shared_ptr<Job>& job, JobState state, std::string error,
                           std::string proof) {
  if (is_terminal(job->state)) return false;
  job->state = state;
  job->stop = true;
  job->error = std::move(error);
  job->proof = std::move(proof);
  job->finished = Clock::now();
  const std::string& label = job->label;
  if (state == JobState::completed) {
    ++completed_;
    ++completed_by_kind_[label];
    proof_seconds_sum_ += std::chrono::duration<double>(job->finished - job->submitted).count();
  } else if (state == JobState::failed) {
    ++failed_;
    ++failed_by_kind_[label];
  } else {
    ++cancelled_;
  }
  auto total_ms = ms_between(job->submitted, job->finished);
  if (state == JobState::completed)
    spdlog::info("job {} completed in {} ms ({} partitions)", job->id, total_ms,
                 job->plan.partitions);
  else if (state == JobState::failed)
    spdlog::warn("job {} failed after {} ms: {}", job->id, total_ms, job->error);
  else
    spdlog::info("job {} cancelled after {} ms", job->id, total_ms);
  auto c = client_pending_.find(job->client);
  if (c != client_pending_.end() && c->second) --c->second;
  if (pending_total_) --pending_total_;
  admit_q_.erase(job->key_of(0));
  job->key.reset();
  job->input.reset();  // freed once no stage holds it
  if (journal_) {
    // A journal write failure must not take the job's result away; it is logged by the caller's
    // status and the job is answered from memory.
    (void)journal_->record_finish(job->id, state, job->proof, job->error, unix_ms());
  }
  done_cv_.notify_all();
  wake();
  return true;
}

std::shared_ptr<SrsLease> Engine::lease_of(const Job& job) const {
  std::lock_guard lock(mu_);
  return job.key;
}

void Engine::finish(const std::shared_ptr<Job>& job, JobState state, std::string error,
                    std::string proof) {
  {
    std::lock_guard lock(mu_);
    if (!finish_locked(job, state, std::move(error), std::move(proof))) return;
  }
  purge(job);
}

void Engine::purge(const std::shared_ptr<Job>& job) {
  // Queued partitions of the job are dropped here; their destructors free the reservations.
  auto a = synth_q_.remove_if([&](const WorkKey&, const SynthItem& it) { return it.job == job; });
  auto b = gpu_q_.remove_if([&](const WorkKey&, const GpuItem& it) { return it.job == job; });
}

bool Engine::admit_one_locked() {
  for (auto it = admit_q_.begin(); it != admit_q_.end(); ++it) {
    std::shared_ptr<Job> job = it->second;
    // Draining for shutdown: finish the jobs already started, start no new one.
    if (!accepting_ && !job->admitted_any) continue;
    if (is_terminal(job->state) || job->stop) {
      admit_q_.erase(it);
      return true;
    }
    if (synth_q_.size() >= synth_q_.capacity() && job->prio != Priority::critical) return false;
    if (!job->key) {
      auto lease = srs_.acquire(job->plan.key_id, *job->prover, job->prio);
      if (!lease) {
        // Buffers the provers keep for reuse give way first (then this is tried again).
        if (lease.status().code() == Errc::out_of_memory) return release_kept_buffers() > 0;
        finish_locked(job, JobState::failed, lease.status().to_string(), "");
        return true;
      }
      job->key = *lease;
    }
    // Partitions proved before a restart (journaled) are not admitted again.
    while (job->next_partition < job->plan.partitions && job->have[job->next_partition])
      ++job->next_partition;
    if (job->next_partition >= job->plan.partitions) {
      admit_q_.erase(it);
      if (!job->admitted_any) {
        job->admitted_any = true;
        job->first_admit = Clock::now();
        job->state = JobState::running;
      }
      if (job->done == job->plan.partitions)
        fin_q_.push(WorkKey{job->prio, job->seq, 0}, FinalItem{job, job->input});
      return true;
    }
    // Every device this job may use holds its full share: a job for other devices may go first.
    auto device = pick_device_locked(*job);
    if (!device) continue;
    std::uint64_t bytes = job->plan.partition_bytes;
    if (!budget_.try_reserve(bytes, job->prio)) {
      if (release_kept_buffers() == 0 || !budget_.try_reserve(bytes, job->prio))
        if (srs_.evict_idle(bytes, job->plan.key_id) == 0 || !budget_.try_reserve(bytes, job->prio))
          return false;
    }
    SynthItem item{job, job->input, job->next_partition, Reservation(&budget_, bytes),
                   DeviceTicket(this, *device)};
    WorkKey key = job->key_of(job->next_partition);
    ++job->next_partition;
    if (!job->admitted_any) {
      job->admitted_any = true;
      job->first_admit = Clock::now();
      job->state = JobState::running;
    }
    while (job->next_partition < job->plan.partitions && job->have[job->next_partition])
      ++job->next_partition;
    if (job->next_partition >= job->plan.partitions) admit_q_.erase(it);
    synth_q_.push(key, std::move(item));
    return true;
  }
  return false;
}

void Engine::admission_loop() {
  for (;;) {
    std::uint64_t epoch;
    {
      std::lock_guard lock(wake_mu_);
      epoch = wake_epoch_;
    }
    bool progressed;
    {
      std::lock_guard lock(mu_);
      if (stopping_) return;
      progressed = admit_one_locked();
    }
    if (progressed) continue;
    std::unique_lock lock(wake_mu_);
    wake_cv_.wait_for(lock, std::chrono::milliseconds(200), [&] { return wake_epoch_ != epoch; });
  }
}

void Engine::synthesis_loop() {
  while (auto popped = synth_q_.pop()) {
    WorkKey key = popped->first;
    SynthItem item = std::move(popped->second);
    wake();  // a queue slot freed: admission may continue
    auto job = item.job;
    if (job->stop) continue;
    ++synthesizing_;
    auto t0 = Clock::now();
    auto r = job->prover->synthesize(item.in->req, job->plan, item.k, job->stop);
    job->synth_ms += ms_between(t0, Clock::now());
    --synthesizing_;
    if (!r) {
      if (!job->stop)
        finish(job, JobState::failed,
               "partition " + std::to_string(item.k) + " synthesis: " + r.status().to_string(), "");
      continue;
    }
    if (job->stop) continue;
    // Bytes in a pool the budget already holds (the pinned partition pool) leave the reservation.
    const SynthesizedPartition::PooledBytes pooled = (*r)->pooled_bytes();
    const std::uint64_t pooled_abc = std::min(pooled.abc, job->plan.abc_bytes);
    item.res.release(pooled_abc + pooled.other);
    ++(pooled_abc + pooled.other > 0 ? partitions_pooled_ : partitions_plain_);
    GpuItem g{job,
              std::move(item.in),
              item.k,
              std::move(item.res),
              std::move(*r),
              std::move(item.ticket),
              job->plan.abc_bytes - pooled_abc};
    if (!gpu_q_.push(key, std::move(g))) return;
  }
}

void Engine::device_loop(std::size_t device, std::size_t slot_index) {
  WorkerSlot& slot = *slots_[slot_index];
  int ordinal = opt_.devices[device].ordinal;
  // The most urgent partition bound to this device, or bound to another (busy) device and allowed
  // here by its job — the binding then moves here; between equally urgent ones, its own.
  auto mine = [device](const WorkKey&, const GpuItem& g) { return g.ticket.device() == device; };
  auto stealable = [device](const WorkKey&, const GpuItem& g) {
    return std::find(g.job->devices.begin(), g.job->devices.end(), device) != g.job->devices.end();
  };
  while (auto popped = gpu_q_.pop_prefer(mine, stealable)) {
    if (popped->second.ticket.device() != device) {
      popped->second.ticket = DeviceTicket(this, device);
      ++slot.taken;
    }
    std::vector<GpuItem> batch;
    batch.push_back(std::move(popped->second));
    // Batch collector: more partitions of the same circuit (same prover and key), in priority
    // order, until the batch is full or the wait ends.
    if (opt_.max_batch_size > 1) {
      const PartitionProver* prover = batch[0].job->prover;
      const std::string key_id = batch[0].job->plan.key_id;
      auto deadline = Clock::now() + opt_.batch_wait;
      while (batch.size() < opt_.max_batch_size) {
        auto more = gpu_q_.pop_matching(
            [&](const WorkKey&, const GpuItem& g) {
              return g.ticket.device() == device && g.job->prover == prover &&
                     g.job->plan.key_id == key_id;
            },
            deadline);
        if (!more) break;
        batch.push_back(std::move(more->second));
      }
    }
    // Drop partitions of jobs that ended; wait for the key (one entry for the whole batch).
    std::vector<GpuItem> live;
    std::shared_ptr<const ProvingKeyData> key;
    // The lease is copied under the lock: a cancel resets job->key at any moment (finish_locked),
    // and the copy keeps the key leased until the device call returns.
    std::shared_ptr<SrsLease> lease;
    for (auto& item : batch) {
      auto job = item.job;
      if (job->stop) continue;
      std::uint64_t waited = 0;
      auto job_lease = lease_of(*job);
      auto k =
          job_lease
              ? job_lease->wait(&waited)
              : Result<std::shared_ptr<const ProvingKeyData>>(Status(Errc::cancelled, "job ended"));
      job->srs_wait_ms += waited;
      if (!k) {
        if (!job->stop) finish(job, JobState::failed, k.status().to_string(), "");
        continue;
      }
      key = *k;
      if (!lease) lease = std::move(job_lease);
      live.push_back(std::move(item));
    }
    batch.clear();
    if (live.empty()) continue;
    // The key's copy on this device: placed on first use (idle keys' copies there demoted, LRU),
    // pinned until the device call returns.
    std::uint64_t placed_ms = 0;
    auto pinned = lease->on_device(ordinal, &placed_ms);
    if (!pinned) {
      for (auto& item : live)
        if (!item.job->stop)
          finish(item.job, JobState::failed,
                 "partition " + std::to_string(item.k) +
                     " device stage: " + pinned.status().to_string(),
                 "");
      continue;
    }
    std::unique_ptr<SrsDevicePin> device_pin = std::move(*pinned);
    live[0].job->srs_wait_ms += placed_ms;
    {
      std::lock_guard lock(slot.mu);
      slot.job_id.clear();
      for (auto& item : live) slot.job_id += (slot.job_id.empty() ? "" : "+") + item.job->id;
      slot.circuit = live[0].job->label;
    }
    std::vector<PartitionProver::BatchItem> items;
    for (auto& item : live)
      items.push_back({&item.in->req, item.k, item.part.get(), &item.job->stop});
    on_device_ += static_cast<std::uint32_t>(live.size());
    timelines_[device]->enter();
    auto t0 = Clock::now();
    auto results = live[0].job->prover->prove_batch(ordinal, *key, items);
    auto t1 = Clock::now();
    device_pin.reset();
    key.reset();  // the key's memory is the SRS manager's to free from here on
    lease.reset();
    timelines_[device]->leave();
    for (auto& item : live) item.ticket.release();
    on_device_ -= static_cast<std::uint32_t>(live.size());
    slot.busy_ns += static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count());
    {
      std::lock_guard lock(slot.mu);
      slot.job_id.clear();
      slot.circuit.clear();
    }
    for (std::size_t i = 0; i < live.size(); ++i) {
      GpuItem& item = live[i];
      auto job = item.job;
      job->gpu_ms += ms_between(t0, t1);
      // a/b/c are consumed: free and un-reserve them now, before anything else.
      item.part->release_abc();
      item.res.release(item.abc_reserved);
      Result<std::string> r =
          i < results.size() ? std::move(results[i])
                             : Result<std::string>(Status(Errc::device_failure,
                                                          "the prover returned too few results"));
      if (!r) {
        if (!job->stop)
          finish(job, JobState::failed,
                 "partition " + std::to_string(item.k) + " device stage: " + r.status().to_string(),
                 "");
        continue;
      }
      ++slot.proved;
      item.part.reset();
      item.res.reset();
      // Journaled before it counts, so a restart after this point does not prove it again. A
      // failed write costs only that: the partition is proved again after a restart.
      if (journal_ && !job->stop) {
        if (auto st = journal_->record_partition(job->id, job->seq, item.k, *r); !st.ok())
          spdlog::warn("job {} partition {}: {}", job->id, item.k, st.to_string());
      }
      bool complete = false;
      {
        std::lock_guard lock(mu_);
        if (is_terminal(job->state) || job->have[item.k]) continue;
        job->parts[item.k] = std::move(*r);
        job->have[item.k] = true;
        complete = ++job->done == job->plan.partitions;
      }
      if (complete) fin_q_.push(WorkKey{job->prio, job->seq, 0}, FinalItem{job, item.in});
    }
  }
}

void Engine::finalize_loop() {
  while (auto popped = fin_q_.pop()) {
    auto job = popped->second.job;
    auto in = std::move(popped->second.in);
    if (job->stop) continue;
    ++finalizing_;
    std::string proof;
    for (auto& p : job->parts) proof += p;
    Status st;
    if (opt_.self_verify) {
      auto lease = lease_of(*job);
      auto key =
          lease
              ? lease->wait()
              : Result<std::shared_ptr<const ProvingKeyData>>(Status(Errc::cancelled, "job ended"));
      st = key ? job->prover->verify(**key, in->req, proof) : key.status();
    }
    in.reset();
    --finalizing_;
    if (st.ok()) {
      finish(job, JobState::completed, "", std::move(proof));
    } else {
      finish(job, JobState::failed, "finalize: " + st.to_string(), "");
    }
  }
}

void Engine::prune_loop() {
  auto period = std::clamp(opt_.retention / 4, std::chrono::milliseconds(10),
                           std::chrono::milliseconds(1000));
  for (;;) {
    {
      std::unique_lock lock(mu_);
      if (done_cv_.wait_for(lock, period, [&] { return stopping_; })) return;
      auto now = Clock::now();
      for (auto it = jobs_.begin(); it != jobs_.end();) {
        auto& j = it->second;
        if (is_terminal(j->state) && now - j->finished >= opt_.retention) {
          if (journal_) (void)journal_->erase(j->id);
          it = jobs_.erase(it);
        } else {
          ++it;
        }
      }
    }
  }
}

Result<Engine::PreloadResult> Engine::preload(const std::string& circuit_id) {
  PartitionProver* p = find_prover(circuit_id);
  if (!p) return Status(Errc::not_found, "no registered circuit " + shown(circuit_id));
  JobRequest probe;
  probe.circuit_id = circuit_id;
  auto plan = p->plan(probe);
  if (!plan) return plan.status();
  PreloadResult r;
  r.already_loaded = srs_.is_loaded(plan->key_id);
  std::shared_ptr<SrsLease> lease;
  auto deadline = Clock::now() + std::chrono::seconds(60);
  for (;;) {
    {
      std::lock_guard lock(mu_);
      if (stopping_) return Status(Errc::cancelled, "the daemon is shutting down");
    }
    auto l = srs_.acquire(plan->key_id, *p, Priority::high);
    if (l) {
      lease = *l;
      break;
    }
    if (l.status().code() != Errc::out_of_memory) return l.status();
    if (Clock::now() > deadline)
      return Status(Errc::out_of_memory, "no room in the memory budget for key " + plan->key_id);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  auto t0 = Clock::now();
  auto key = lease->wait();
  if (!key) return key.status();
  // The top tier: a copy on every device that keeps one and may prove this circuit (affinity),
  // pinned only while placing it.
  for (std::size_t d : devices_for(circuit_id)) {
    auto pin = lease->on_device(opt_.devices[d].ordinal);
    if (!pin) return pin.status();
  }
  r.load_ms = ms_between(t0, Clock::now());
  return r;
}

Result<std::uint64_t> Engine::evict(const std::string& circuit_id) {
  PartitionProver* p = find_prover(circuit_id);
  if (!p) return Status(Errc::not_found, "no registered circuit " + shown(circuit_id));
  JobRequest probe;
  probe.circuit_id = circuit_id;
  auto plan = p->plan(probe);
  if (!plan) return plan.status();
  return srs_.evict(plan->key_id);
}

EngineStatus Engine::status() const {
  EngineStatus s;
  {
    std::lock_guard lock(mu_);
    std::map<std::string, QueueFigures> q;
    for (auto& [id, j] : jobs_) {
      if (is_terminal(j->state)) continue;
      auto& f = q[j->label];
      f.kind = j->label;
      (j->state == JobState::queued ? f.queued_jobs : f.running_jobs)++;
    }
    for (auto& [k, f] : q) s.queues.push_back(f);
    for (auto& [k, j] : admit_q_)
      for (std::uint32_t p = j->next_partition; p < j->plan.partitions; ++p)
        s.partitions_awaiting_admission += j->have[p] ? 0 : 1;
    s.partitions_resumed = partitions_resumed_;
    s.partitions_pooled = partitions_pooled_.load();
    s.partitions_plain = partitions_plain_.load();
    s.completed = completed_;
    s.failed = failed_;
    s.cancelled = cancelled_;
    s.jobs_known = static_cast<std::uint32_t>(jobs_.size());
  }
  s.partitions_awaiting_synthesis = static_cast<std::uint32_t>(synth_q_.size());
  s.partitions_synthesizing = synthesizing_.load();
  s.partitions_awaiting_device = static_cast<std::uint32_t>(gpu_q_.size());
  s.partitions_on_device = on_device_.load();
  s.jobs_finalizing = finalizing_.load() + static_cast<std::uint32_t>(fin_q_.size());
  for (std::size_t d = 0; d < opt_.devices.size(); ++d) {
    DeviceStatus ds;
    ds.info = opt_.devices[d];
    ds.vram = srs_.device_status(ds.info.ordinal, provers_.empty() ? nullptr : provers_[0].get());
    if (ds.vram.has_arena) {
      ds.info.vram_total_bytes = ds.vram.arena_total;
      ds.info.vram_free_bytes =
          ds.vram.arena_total - std::min(ds.vram.arena_used, ds.vram.arena_total);
    }
    ds.busy_any_seconds = timelines_[d]->seconds();
    ds.assigned = timelines_[d]->assigned.load();
    ds.depth = device_depth_;
    for (auto& slot : slots_) {
      if (slot->device != d) continue;
      ds.busy_seconds += static_cast<double>(slot->busy_ns.load()) * 1e-9;
      ds.partitions_proved += slot->proved.load();
      ds.partitions_taken += slot->taken.load();
      ++ds.workers;
      std::lock_guard lock(slot->mu);
      if (!slot->job_id.empty()) {
        ds.current_jobs.push_back(slot->job_id);
        ds.current_circuit = slot->circuit;
      }
    }
    s.devices.push_back(std::move(ds));
  }
  {
    std::vector<PartitionProver*> provers;
    for (auto& p : provers_) provers.push_back(p.get());
    s.keys = srs_.status(provers);
  }
  s.memory_used = budget_.used();
  s.memory_limit = budget_.limit();
  s.memory_peak = budget_.peak();
  s.memory_headroom = budget_.headroom();
  s.input_bytes = input_bytes_.load();
  s.input_budget = opt_.input_budget;
  s.uptime_seconds = std::chrono::duration<double>(Clock::now() - started_).count();
  const ProcessMemory pm = read_process_memory();
  s.process_rss = pm.rss_bytes;
  s.process_peak_rss = pm.peak_rss_bytes;
  return s;
}

std::string Engine::metrics_text() const {
  EngineStatus s = status();
  std::map<std::string, std::uint64_t> done_kind, fail_kind;
  double sum = 0;
  {
    std::lock_guard lock(mu_);
    done_kind = completed_by_kind_;
    fail_kind = failed_by_kind_;
    sum = proof_seconds_sum_;
  }
  std::ostringstream o;
  auto metric = [&](const char* name, const char* type, const char* help) {
    o << "# HELP " << name << ' ' << help << "\n# TYPE " << name << ' ' << type << '\n';
  };
  metric("cuzk_proofs_completed_total", "counter", "Jobs completed.");
  o << "cuzk_proofs_completed_total " << s.completed << '\n';
  metric("cuzk_proofs_failed_total", "counter", "Jobs failed.");
  o << "cuzk_proofs_failed_total " << s.failed << '\n';
  metric("cuzk_proofs_cancelled_total", "counter", "Jobs cancelled.");
  o << "cuzk_proofs_cancelled_total " << s.cancelled << '\n';
  metric("cuzk_proofs_completed", "counter", "Jobs completed per kind (circuit id or proof kind).");
  for (auto& [k, v] : done_kind)
    o << "cuzk_proofs_completed{proof_kind=\"" << prometheus_label(k) << "\"} " << v << '\n';
  metric("cuzk_proofs_failed", "counter", "Jobs failed per kind.");
  for (auto& [k, v] : fail_kind)
    o << "cuzk_proofs_failed{proof_kind=\"" << prometheus_label(k) << "\"} " << v << '\n';
  metric("cuzk_proof_duration_seconds", "summary", "Submit-to-completion time of completed jobs.");
  o << "cuzk_proof_duration_seconds_count " << s.completed << "\ncuzk_proof_duration_seconds_sum "
    << sum << '\n';
  metric("cuzk_uptime_seconds", "gauge", "Seconds since the engine started.");
  o << "cuzk_uptime_seconds " << s.uptime_seconds << '\n';
  metric("cuzk_jobs", "gauge", "Unfinished jobs per kind and state.");
  std::uint32_t depth = 0, running = 0;
  for (auto& q : s.queues) {
    o << "cuzk_jobs{proof_kind=\"" << prometheus_label(q.kind) << "\",state=\"queued\"} "
      << q.queued_jobs << '\n';
    o << "cuzk_jobs{proof_kind=\"" << prometheus_label(q.kind) << "\",state=\"running\"} "
      << q.running_jobs << '\n';
    depth += q.queued_jobs;
    running += q.running_jobs;
  }
  metric("cuzk_queue_depth", "gauge", "Jobs accepted and not yet started.");
  o << "cuzk_queue_depth " << depth << '\n';
  metric("cuzk_running_jobs", "gauge", "Jobs with at least one partition admitted.");
  o << "cuzk_running_jobs " << running << '\n';
  metric("cuzk_partitions", "gauge", "Partitions per pipeline stage.");
  o << "cuzk_partitions{stage=\"admission\"} " << s.partitions_awaiting_admission << '\n'
    << "cuzk_partitions{stage=\"synthesis_queue\"} " << s.partitions_awaiting_synthesis << '\n'
    << "cuzk_partitions{stage=\"synthesizing\"} " << s.partitions_synthesizing << '\n'
    << "cuzk_partitions{stage=\"device_queue\"} " << s.partitions_awaiting_device << '\n'
    << "cuzk_partitions{stage=\"on_device\"} " << s.partitions_on_device << '\n';
  metric("cuzk_memory_budget_bytes", "gauge",
         "Memory budget: limit, used, peak, critical headroom.");
  o << "cuzk_memory_budget_bytes{kind=\"limit\"} " << s.memory_limit << '\n'
    << "cuzk_memory_budget_bytes{kind=\"used\"} " << s.memory_used << '\n'
    << "cuzk_memory_budget_bytes{kind=\"peak\"} " << s.memory_peak << '\n'
    << "cuzk_memory_budget_bytes{kind=\"headroom\"} " << s.memory_headroom << '\n'
    << "cuzk_memory_budget_bytes{kind=\"inputs\"} " << s.input_bytes << '\n'
    << "cuzk_memory_budget_bytes{kind=\"input_budget\"} " << s.input_budget << '\n';
  metric("process_resident_memory_bytes", "gauge", "Resident memory of the daemon (VmRSS).");
  o << "process_resident_memory_bytes " << s.process_rss << '\n';
  metric("cuzk_process_peak_resident_memory_bytes", "gauge",
         "Peak resident memory of the daemon since start (VmHWM).");
  o << "cuzk_process_peak_resident_memory_bytes " << s.process_peak_rss << '\n';
  metric("cuzk_gpu_workers", "gauge", "Device workers.");
  o << "cuzk_gpu_workers " << slots_.size() << '\n';
  metric("cuzk_device_busy_seconds_total", "counter",
         "Time device workers spent in the device stage.");
  for (auto& d : s.devices)
    o << "cuzk_device_busy_seconds_total{device=\"" << d.info.ordinal << "\"} " << d.busy_seconds
      << '\n';
  metric("cuzk_device_busy_any_seconds_total", "counter",
         "Time with at least one worker in the device stage (busy fraction = rate).");
  for (auto& d : s.devices)
    o << "cuzk_device_busy_any_seconds_total{device=\"" << d.info.ordinal << "\"} "
      << d.busy_any_seconds << '\n';
  metric("cuzk_device_partitions_total", "counter", "Partitions proved per device.");
  for (auto& d : s.devices)
    o << "cuzk_device_partitions_total{device=\"" << d.info.ordinal << "\"} " << d.partitions_proved
      << '\n';
  metric("cuzk_device_busy_fraction", "gauge",
         "Busy-any time over uptime, per device (from its timeline).");
  for (auto& d : s.devices)
    o << "cuzk_device_busy_fraction{device=\"" << d.info.ordinal << "\"} "
      << (s.uptime_seconds > 0 ? d.busy_any_seconds / s.uptime_seconds : 0.0) << '\n';
  metric("cuzk_device_assigned_partitions", "gauge",
         "Partitions bound to a device and not yet through its device stage.");
  for (auto& d : s.devices)
    o << "cuzk_device_assigned_partitions{device=\"" << d.info.ordinal << "\"} " << d.assigned
      << '\n';
  metric("cuzk_device_partitions_taken_total", "counter",
         "Partitions a device took over from another device's queue while idle.");
  for (auto& d : s.devices)
    o << "cuzk_device_partitions_taken_total{device=\"" << d.info.ordinal << "\"} "
      << d.partitions_taken << '\n';
  metric("cuzk_device_busy_workers", "gauge", "Device workers inside the device stage now.");
  for (auto& d : s.devices)
    o << "cuzk_device_busy_workers{device=\"" << d.info.ordinal << "\"} " << d.current_jobs.size()
      << '\n';
  metric("cuzk_device_current_job", "gauge", "1 for each job a device worker is proving now.");
  for (auto& d : s.devices)
    for (auto& j : d.current_jobs)
      o << "cuzk_device_current_job{device=\"" << d.info.ordinal << "\",job_id=\""
        << prometheus_label(j) << "\",proof_kind=\"" << d.current_circuit << "\"} 1\n";
  metric("cuzk_partitions_resumed_total", "counter",
         "Partition proofs taken from the journal at start (not proved again).");
  o << "cuzk_partitions_resumed_total " << s.partitions_resumed << '\n';
  metric("cuzk_partition_vectors_total", "counter",
         "Synthesized partitions by where their vectors live: the pinned partition pool, or plain "
         "memory (the pool had no room).");
  o << "cuzk_partition_vectors_total{memory=\"pinned_pool\"} " << s.partitions_pooled << '\n'
    << "cuzk_partition_vectors_total{memory=\"plain\"} " << s.partitions_plain << '\n';
  metric("cuzk_srs_bytes", "gauge",
         "Proving keys by key and tier: host bytes (budget), mapped key-image bytes (mmap), VRAM "
         "bytes per device, streamed tables in plain host memory (streamed_host, budget) and in "
         "the pinned pool (pinned) per device, file bytes of keys on disk only.");
  for (auto& k : s.keys) {
    if (k.tier == "disk")
      o << "cuzk_srs_bytes{key=\"" << prometheus_label(k.key_id) << "\",tier=\"disk\"} "
        << k.size_bytes << '\n';
    if (k.loaded)
      o << "cuzk_srs_bytes{key=\"" << prometheus_label(k.key_id) << "\",tier=\"host\"} "
        << k.host_bytes << '\n';
    if (k.mapped_bytes)
      o << "cuzk_srs_bytes{key=\"" << prometheus_label(k.key_id) << "\",tier=\"mmap\"} "
        << k.mapped_bytes << '\n';
    for (auto& c : k.devices) {
      o << "cuzk_srs_bytes{key=\"" << prometheus_label(k.key_id) << "\",tier=\"vram\",device=\""
        << c.device << "\"} " << c.bytes << '\n';
      if (c.host_bytes)
        o << "cuzk_srs_bytes{key=\"" << prometheus_label(k.key_id)
          << "\",tier=\"streamed_host\",device=\"" << c.device << "\"} " << c.host_bytes << '\n';
      if (c.pinned_bytes)
        o << "cuzk_srs_bytes{key=\"" << prometheus_label(k.key_id) << "\",tier=\"pinned\",device=\""
          << c.device << "\"} " << c.pinned_bytes << '\n';
    }
  }
  metric("cuzk_srs_ref_count", "gauge", "Jobs holding each loaded proving key.");
  for (auto& k : s.keys)
    if (k.tier != "disk")
      o << "cuzk_srs_ref_count{key=\"" << prometheus_label(k.key_id) << "\"} " << k.ref_count
        << '\n';
  metric(
      "cuzk_device_vram_bytes", "gauge",
      "Device VRAM arena: total, used (keys and working buffers), keys (resident proving keys).");
  for (auto& d : s.devices) {
    if (!d.vram.has_arena) continue;
    o << "cuzk_device_vram_bytes{device=\"" << d.info.ordinal << "\",kind=\"total\"} "
      << d.vram.arena_total << '\n'
      << "cuzk_device_vram_bytes{device=\"" << d.info.ordinal << "\",kind=\"used\"} "
      << d.vram.arena_used << '\n'
      << "cuzk_device_vram_bytes{device=\"" << d.info.ordinal << "\",kind=\"keys\"} "
      << d.vram.keys_bytes << '\n';
  }
  metric("cuzk_device_host_bytes", "gauge",
         "Small-card path per device: pinned host pool (pinned_total, pinned_used) and host bytes "
         "of base tables streamed "
         "from host memory instead of resident (streamed).");
  for (auto& d : s.devices) {
    if (!d.vram.has_arena) continue;
    o << "cuzk_device_host_bytes{device=\"" << d.info.ordinal << "\",kind=\"pinned_total\"} "
      << d.vram.pinned_total << '\n'
      << "cuzk_device_host_bytes{device=\"" << d.info.ordinal << "\",kind=\"pinned_used\"} "
      << d.vram.pinned_used << '\n'
      << "cuzk_device_host_bytes{device=\"" << d.info.ordinal << "\",kind=\"streamed\"} "
      << d.vram.streamed_bytes << '\n';
  }
  return o.str();
}

}  // namespace cuzk::engine
