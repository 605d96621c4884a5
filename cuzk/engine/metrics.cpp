// Status and metrics: GetStatus figures and the Prometheus text exposition.
#include "cuzk/engine/engine.hpp"

#include <algorithm>
#include <sstream>

#include "cuzk/base/escape.hpp"
#include "cuzk/base/process_memory.hpp"

#include "cuzk/engine/engine_parts.hpp"

namespace cuzk::engine {

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
    s.partitions_compact = partitions_compact_.load();
    s.completed = completed_;
    s.failed = failed_;
    s.cancelled = cancelled_;
    s.jobs_known = static_cast<std::uint32_t>(jobs_.size());
  }
  s.partitions_synthesized = partitions_synthesized_.load();
  s.synthesis_cpu_seconds = static_cast<double>(synthesis_cpu_ns_.load()) * 1e-9;
  s.partition_upload_bytes = partition_upload_bytes_.load();
  // Stages read from the last to the first: a partition moving on between two reads is then
  // counted at most once (read in flow order, one popped from the device queue after its size was
  // read and counted on the device next showed twice).
  s.partitions_on_device = on_device_.load();
  s.partitions_awaiting_device = static_cast<std::uint32_t>(gpu_q_.size());
  s.partitions_synthesizing = synthesizing_.load();
  s.partitions_awaiting_synthesis = static_cast<std::uint32_t>(synth_q_.size());
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
  // One line per device: name{device="ordinal"} value.
  const auto per_device = [&](const char* name, const char* type, const char* help, auto value) {
    metric(name, type, help);
    for (auto& d : s.devices)
      o << name << "{device=\"" << d.info.ordinal << "\"} " << value(d) << '\n';
  };
  per_device("cuzk_device_busy_seconds_total", "counter",
             "Time device workers spent in the device stage.",
             [](const auto& d) { return d.busy_seconds; });
  per_device("cuzk_device_busy_any_seconds_total", "counter",
             "Time with at least one worker in the device stage (busy fraction = rate).",
             [](const auto& d) { return d.busy_any_seconds; });
  per_device("cuzk_device_partitions_total", "counter", "Partitions proved per device.",
             [](const auto& d) { return d.partitions_proved; });
  per_device("cuzk_device_busy_fraction", "gauge",
             "Busy-any time over uptime, per device (from its timeline).", [&](const auto& d) {
               return s.uptime_seconds > 0 ? d.busy_any_seconds / s.uptime_seconds : 0.0;
             });
  per_device("cuzk_device_assigned_partitions", "gauge",
             "Partitions bound to a device and not yet through its device stage.",
             [](const auto& d) { return d.assigned; });
  per_device("cuzk_device_partitions_taken_total", "counter",
             "Partitions a device took over from another device's queue while idle.",
             [](const auto& d) { return d.partitions_taken; });
  per_device("cuzk_device_busy_workers", "gauge", "Device workers inside the device stage now.",
             [](const auto& d) { return d.current_jobs.size(); });
  metric("cuzk_device_current_job", "gauge", "1 for each job a device worker is proving now.");
  for (auto& d : s.devices)
    for (auto& j : d.current_jobs)
      o << "cuzk_device_current_job{device=\"" << d.info.ordinal << "\",job_id=\""
        << prometheus_label(j) << "\",proof_kind=\"" << d.current_circuit << "\"} 1\n";
  metric("cuzk_partitions_resumed_total", "counter",
         "Partition proofs taken from the journal at start (not proved again).");
  o << "cuzk_partitions_resumed_total " << s.partitions_resumed << '\n';
  metric("cuzk_partition_vectors_total", "counter",
         "Synthesized partitions by where their vectors live: the pinned partition pool, plain "
         "memory (the pool had no room), or none: a compact witness.");
  o << "cuzk_partition_vectors_total{memory=\"pinned_pool\"} " << s.partitions_pooled << '\n'
    << "cuzk_partition_vectors_total{memory=\"plain\"} " << s.partitions_plain << '\n'
    << "cuzk_partition_vectors_total{memory=\"compact\"} " << s.partitions_compact << '\n';
  metric("cuzk_partitions_synthesized_total", "counter", "Partitions synthesized since start.");
  o << "cuzk_partitions_synthesized_total " << s.partitions_synthesized << '\n';
  metric("cuzk_synthesis_cpu_seconds_total", "counter",
         "CPU seconds of partition synthesis (the synthesis worker's thread CPU time plus the "
         "prover's pool work for it); per partition: divide by "
         "cuzk_partitions_synthesized_total.");
  o << "cuzk_synthesis_cpu_seconds_total " << s.synthesis_cpu_seconds << '\n';
  metric("cuzk_partition_upload_bytes_total", "counter",
         "Bytes the device stages moved from host memory to a device (z, a, b, c; or the compact "
         "witness); 0 on the CPU backend.");
  o << "cuzk_partition_upload_bytes_total " << s.partition_upload_bytes << '\n';
  metric("cuzk_srs_bytes", "gauge",
         "Proving keys by key and tier: host bytes (budget), mapped key-image bytes (mmap) or "
         "mapped .params bytes (params: decoded on the device only), VRAM "
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
      o << "cuzk_srs_bytes{key=\"" << prometheus_label(k.key_id) << "\",tier=\""
        << (k.backing == "params" ? "params" : "mmap") << "\"} " << k.mapped_bytes << '\n';
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
