// The job table: validation and submission (idempotent by request_id, owners and pending-job
// limits, the journal row before the answer), await, cancel, terminal states, pruning.
#include "cuzk/engine/engine.hpp"

#include <spdlog/spdlog.h>
#include <algorithm>
#include <cstdio>
#include <random>

#include "cuzk/base/escape.hpp"

#include "cuzk/engine/engine_parts.hpp"

namespace cuzk::engine {

using detail::check_client_name;
using detail::kind_label;
using detail::ms_between;
using detail::shown;

namespace {

std::int64_t unix_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string random_job_id() {
  static thread_local std::mt19937_64 rng{std::random_device{}()};
  char buf[40];
  std::snprintf(buf, sizeof buf, "job-%016llx%08llx", static_cast<unsigned long long>(rng()),
                static_cast<unsigned long long>(rng() & 0xffffffffULL));
  return buf;
}

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

Result<JobPlan> Engine::validate(const JobRequest& req, PartitionProver** prover) const {
  CUZK_RETURN_IF_ERROR(check_client_name(req.request_id, "request_id"));
  CUZK_RETURN_IF_ERROR(check_client_name(req.circuit_id, "circuit_id"));
  if (static_cast<std::uint32_t>(req.kind) > 4)
    return Status(Errc::invalid_argument,
                  "unknown proof_kind " + std::to_string(static_cast<std::uint32_t>(req.kind)));
  if (static_cast<std::uint32_t>(req.priority) > 4)
    return Status(Errc::invalid_argument,
                  "unknown priority " + std::to_string(static_cast<std::uint32_t>(req.priority)));
  if (req.kind == ProofKind::unspecified && req.circuit_id.empty())
    return Status(Errc::invalid_argument, "circuit_id is empty and proof_kind is unspecified");
  PartitionProver* p = find_prover(req);
  if (!p && req.kind != ProofKind::unspecified)
    return Status(Errc::unimplemented, std::string("proof kind ") +
                                           std::string(proof_kind_name(req.kind)) +
                                           " is not served by any registered circuit family; "
                                           "name a registered circuit in circuit_id instead");
  if (!p) return Status(Errc::not_found, "no registered circuit " + shown(req.circuit_id));
  auto plan = p->plan(req);
  if (!plan) return plan.status();
  if (plan->partitions == 0)
    return Status(Errc::invalid_argument, "a job needs at least one partition");
  *prover = p;
  // Pending dimensions: the circuit is still to be made (tens of seconds); admission checks the
  // fit once it is, and fails the job then rather than this call.
  if (plan->dimensions_pending) return plan;
  Priority prio = req.priority == Priority::unspecified ? default_priority(req.kind) : req.priority;
  auto key = p->key_bytes(plan->key_id);
  if (!key) return key.status();
  CUZK_RETURN_IF_ERROR(check_fits(*plan, *key, prio));
  return plan;
}

Status Engine::check_fits(const JobPlan& plan, std::uint64_t key_bytes, Priority p) const {
  if (budget_.can_ever_fit(plan.partition_bytes + key_bytes + opt_.input_budget, p)) return {};
  return Status(Errc::out_of_memory, "one partition (" + std::to_string(plan.partition_bytes) +
                                         " bytes) plus its key (" + std::to_string(key_bytes) +
                                         " bytes) exceed the memory budget (" +
                                         std::to_string(budget_.limit()) + " bytes)");
}

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
  // The parsed input goes with the request (charged with it, freed when the last stage lets go).
  job->input = make_input(std::move(req), job->prio, /*required=*/true, std::move(charge),
                          std::move(job->plan.parsed));
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

}  // namespace cuzk::engine
