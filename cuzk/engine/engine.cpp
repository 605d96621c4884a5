// The engine: start-up (workers, the journal's jobs resumed), shutdown, the prover of a
// request, preload and evict of keys. The other stages: engine_parts.hpp.
#include "cuzk/engine/engine.hpp"

#include <spdlog/spdlog.h>
#include <algorithm>
#include <ctime>
#include <thread>

#include "cuzk/engine/engine_parts.hpp"

namespace cuzk::engine {

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

namespace detail {

double thread_cpu_seconds() {
  timespec ts{};
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return 0;
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

std::uint64_t ms_between(Clock::time_point a, Clock::time_point b) {
  return b <= a ? 0
                : static_cast<std::uint64_t>(
                      std::chrono::duration_cast<std::chrono::milliseconds>(b - a).count());
}

std::string kind_label(const JobRequest& r) {
  return r.kind == ProofKind::unspecified ? r.circuit_id : std::string(proof_kind_name(r.kind));
}

namespace {

// Client-chosen names reach logs, metrics labels, the journal and error messages: they are kept
// to printable, unambiguous characters and a bounded length.
constexpr std::size_t kMaxNameBytes = 128;

bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         std::string_view("._:@/+=-").find(c) != std::string_view::npos;
}

}  // namespace

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

}  // namespace detail

using detail::kind_label;
using detail::ms_between;
using detail::shown;

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
    const std::uint32_t workers = opt_.gpu_workers_per_device + (opt_.urgent_worker ? 1 : 0);
    for (std::uint32_t w = 0; w < workers; ++w) {
      slots_.push_back(std::make_unique<WorkerSlot>());
      slots_.back()->device = d;
      slots_.back()->urgent = w == opt_.gpu_workers_per_device;
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
      job->input = make_input(std::move(r.req), job->prio, /*required=*/false, {},
                              plan ? plan->parsed : nullptr);
      jobs_[job->id] = job;
      ++client_pending_[job->client];
      ++pending_total_;
      if (!plan) {
        finish_locked(job, JobState::failed, "on resume: " + plan.status().to_string(), "");
        continue;
      }
      job->prover = prover;
      job->plan = *plan;
      job->plan.parsed = nullptr;  // held by job->input
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

PartitionProver* Engine::find_prover(const JobRequest& req) const {
  for (auto& p : provers_)
    if (p->accepts(req)) return p.get();
  return nullptr;
}

Result<Engine::PreloadResult> Engine::preload(const std::string& circuit_id) {
  PartitionProver* p = find_prover(circuit_id);
  if (!p) return Status(Errc::not_found, "no registered circuit " + shown(circuit_id));
  auto key_id = p->key_of(circuit_id);
  if (!key_id) return key_id.status();
  PreloadResult r;
  r.already_loaded = srs_.is_loaded(*key_id);
  std::shared_ptr<SrsLease> lease;
  auto deadline = Clock::now() + std::chrono::seconds(60);
  for (;;) {
    {
      std::lock_guard lock(mu_);
      if (stopping_) return Status(Errc::cancelled, "the daemon is shutting down");
    }
    auto l = srs_.acquire(*key_id, *p, Priority::high);
    if (l) {
      lease = *l;
      break;
    }
    if (l.status().code() != Errc::out_of_memory) return l.status();
    if (Clock::now() > deadline)
      return Status(Errc::out_of_memory, "no room in the memory budget for key " + *key_id);
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
  auto key_id = p->key_of(circuit_id);
  if (!key_id) return key_id.status();
  return srs_.evict(*key_id);
}

}  // namespace cuzk::engine
