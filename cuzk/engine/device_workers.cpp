// The workers: synthesis (pw) and device workers (gw per device: partitions bound to the device
// or taken over from a busy one, batches of one key, journaled partition proofs).
#include "cuzk/engine/engine.hpp"

#include <spdlog/spdlog.h>
#include <algorithm>

#include "cuzk/base/priority_section.hpp"
#include "cuzk/engine/engine_parts.hpp"

namespace cuzk::engine {

using detail::ms_between;

Engine::DeviceTicket::DeviceTicket(Engine* e, std::size_t device) : e_(e), device_(device) {
  ++e_->timelines_[device_]->assigned;
}

void Engine::DeviceTicket::release() {
  if (!e_) return;
  --e_->timelines_[device_]->assigned;
  e_->wake();  // the device has room again: admission may continue
  e_ = nullptr;
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
    const double cpu0 = detail::thread_cpu_seconds();
    auto r = job->prover->synthesize(item.in->req, item.in->plan_for(job->plan), item.k, job->stop);
    const double cpu = detail::thread_cpu_seconds() - cpu0;
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
    // A partition that knows what it holds (a compact witness) keeps only that and the device
    // stage's vectors of its reservation (made for its synthesis's peak).
    const std::optional<std::uint64_t> held = (*r)->held_bytes();
    if (held) {
      const std::uint64_t keep = *held + (job->plan.abc_bytes - pooled_abc);
      if (item.res.bytes() > keep) item.res.release(item.res.bytes() - keep);
    }
    ++(held                            ? partitions_compact_
       : pooled_abc + pooled.other > 0 ? partitions_pooled_
                                       : partitions_plain_);
    ++partitions_synthesized_;
    synthesis_cpu_ns_ += static_cast<std::uint64_t>((cpu + (*r)->pool_cpu_seconds()) * 1e9);
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
  // The ready lane: with several workers per device, the last one never waits for a key's load
  // or its placement on this device for work below HIGH priority. Such a partition is put back
  // and the lane waits up to kReadyPoll for urgent work before looking again, so a PoSt is
  // proved while the other workers wait for a large PoRep key (47 GB at 32 GiB: a minute).
  const std::uint32_t gw = opt_.gpu_workers_per_device;
  const std::uint32_t per_device = gw + (opt_.urgent_worker ? 1 : 0);
  const bool ready_lane = gw > 1 && slot_index % per_device == gw - 1;
  constexpr auto kReadyPoll = std::chrono::milliseconds(100);
  auto urgent = [&](const WorkKey& k, const GpuItem& g) {
    return k.priority >= Priority::high && (mine(k, g) || stealable(k, g));
  };
  auto next = [&] {
    return slot.urgent ? gpu_q_.pop_if(urgent) : gpu_q_.pop_prefer(mine, stealable);
  };
  while (auto popped = next()) {
    if (ready_lane && !slot.urgent && popped->first.priority < Priority::high) {
      auto l = lease_of(*popped->second.job);
      if (l && !l->ready_on(ordinal)) {
        l.reset();
        if (!gpu_q_.put_back(popped->first, std::move(popped->second))) return;
        auto u = gpu_q_.pop_matching(urgent, Clock::now() + kReadyPoll);
        if (!u) continue;
        popped = std::move(u);
      }
    }
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
    // The device call at the batch's most urgent priority: the backend's compute section admits
    // its waiters by it (base/priority_section.hpp).
    Priority prio = live[0].job->prio;
    for (const auto& item : live) prio = std::max(prio, item.job->prio);
    std::vector<Result<std::string>> results;
    {
      ScopedWorkPriority work_priority(static_cast<std::uint32_t>(prio));
      results = live[0].job->prover->prove_batch(ordinal, *key, items);
    }
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
      partition_upload_bytes_ += item.part->upload_bytes();
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

}  // namespace cuzk::engine
