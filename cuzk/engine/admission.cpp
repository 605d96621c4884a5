// Admission: input charges, device binding, and the thread that admits the most urgent job's
// next partition once its key is leased and its bytes are reserved.
#include "cuzk/engine/engine.hpp"

#include <spdlog/spdlog.h>

#include "cuzk/circuits/circuit_family.hpp"
#include "cuzk/engine/engine_parts.hpp"

namespace cuzk::engine {

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

std::shared_ptr<Engine::JobInput> Engine::make_input(
    JobRequest req, Priority p, bool required, InputCharge charge,
    std::shared_ptr<const circuits::ParsedJob> parsed) {
  auto in = std::make_shared<JobInput>();
  std::uint64_t n = req.payload_bytes() + (parsed ? parsed->bytes() : 0);
  in->req = std::move(req);
  in->parsed = std::move(parsed);
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

std::uint64_t Engine::release_kept_buffers() {
  std::uint64_t bytes = 0;
  for (auto& p : provers_) bytes += p->release_kept_buffers();
  return bytes;
}

Result<bool> Engine::complete_plan_locked(Job& job) {
  // No partition is admitted yet: no stage holds the job's input, which may change here.
  JobPlan plan = job.input->plan_for(job.plan);
  auto done = job.prover->complete_plan(plan);
  if (!done) return done.status();
  if (!*done) return false;
  auto key = job.prover->key_bytes(plan.key_id);
  if (!key) return key.status();
  CUZK_RETURN_IF_ERROR(check_fits(plan, *key, job.prio));
  job.input->parsed = std::move(plan.parsed);
  job.plan = std::move(plan);
  job.plan.parsed = nullptr;  // held by job.input
  return true;
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
      // The key's slow preparation (a circuit's first recording) runs on a task of the SRS
      // manager, never here: meanwhile jobs of other keys go first.
      auto ready = srs_.prepare(job->plan.key_id, *job->prover, job->submitted);
      if (!ready) {
        finish_locked(job, JobState::failed, ready.status().to_string(), "");
        return true;
      }
      if (!*ready) continue;
      if (job->plan.dimensions_pending) {
        auto sized = complete_plan_locked(*job);
        if (!sized) {
          finish_locked(job, JobState::failed, sized.status().to_string(), "");
          return true;
        }
        if (!*sized) continue;
      }
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

}  // namespace cuzk::engine
