#include "cuzk/server/bench.hpp"

#include <grpcpp/grpcpp.h>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <random>
#include <sstream>
#include <thread>

#include "cuzk/engine/fake_prover.hpp"
#include "cuzk/server/client_channel.hpp"
#include "cuzk/server/prover.grpc.pb.h"

namespace cuzk::server {
namespace {

namespace pb = ::cuzk::v1;
using Clock = std::chrono::steady_clock;

Result<std::shared_ptr<grpc::Channel>> try_channel(const BenchOptions& o) {
  return make_client_channel(ClientChannelOptions{.addr = o.addr,
                                                  .tls_ca = o.tls_ca,
                                                  .tls_cert = o.tls_cert,
                                                  .tls_key = o.tls_key,
                                                  .max_message_bytes = o.max_message_bytes});
}

// Each client its own channel (connection). run_bench checked the TLS files first; one that has
// become unreadable since gives a channel to no address, whose calls fail as unreachable.
std::shared_ptr<grpc::Channel> make_channel(const BenchOptions& o) {
  auto ch = try_channel(o);
  if (ch) return *ch;
  std::fprintf(stderr, "cuzk bench: %s\n", ch.status().to_string().c_str());
  return grpc::CreateChannel("unix:/nonexistent/cuzk-bench", grpc::InsecureChannelCredentials());
}

struct JobRecord {
  std::string circuit;
  std::uint32_t priority = 0;
  bool ok = false;
  std::string error;
  double wall_ms = 0;
  Clock::time_point submitted{}, done{};  ///< SubmitProof answered; AwaitProof answered
  pb::AwaitProofResponse r;
};

class Client {
 public:
  explicit Client(const BenchOptions& o)
      : o_(o), stub_(pb::ProvingEngine::NewStub(make_channel(o))) {}

  void prep(grpc::ClientContext& ctx) const {
    if (!o_.client_id.empty()) ctx.AddMetadata("cuzk-client", o_.client_id);
  }

  JobRecord run_job(const std::string& circuit, std::uint32_t priority, std::uint64_t seed) {
    JobRecord rec;
    rec.circuit = circuit;
    rec.priority = priority;
    auto t0 = Clock::now();
    pb::SubmitProofRequest req;
    req.set_circuit_id(circuit);
    req.set_num_partitions(o_.partitions);
    req.set_priority(static_cast<pb::Priority>(priority));
    req.set_vanilla_proof(engine::fake_input(seed));
    pb::SubmitProofResponse sr;
    {
      grpc::ClientContext ctx;
      prep(ctx);
      auto st = stub_->SubmitProof(&ctx, req, &sr);
      if (!st.ok()) {
        rec.error = "submit: " + st.error_message();
        return rec;
      }
    }
    rec.submitted = Clock::now();
    pb::AwaitProofRequest ar;
    ar.set_job_id(sr.job_id());
    ar.set_timeout_ms(o_.timeout_ms);
    grpc::ClientContext ctx;
    prep(ctx);
    auto st = stub_->AwaitProof(&ctx, ar, &rec.r);
    rec.done = Clock::now();
    rec.wall_ms = std::chrono::duration<double, std::milli>(rec.done - t0).count();
    if (!st.ok()) {
      rec.error = "await: " + st.error_message();
      return rec;
    }
    rec.ok = rec.r.status() == pb::AwaitProofResponse::COMPLETED;
    if (!rec.ok)
      rec.error =
          pb::AwaitProofResponse::Status_Name(rec.r.status()) + ": " + rec.r.error_message();
    return rec;
  }

  bool status(pb::GetStatusResponse* out, std::string* err) {
    grpc::ClientContext ctx;
    prep(ctx);
    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(5));
    auto st = stub_->GetStatus(&ctx, pb::GetStatusRequest(), out);
    if (!st.ok() && err) *err = st.error_message();
    return st.ok();
  }

  pb::ProvingEngine::Stub& stub() { return *stub_; }

 private:
  const BenchOptions& o_;
  std::unique_ptr<pb::ProvingEngine::Stub> stub_;
};

std::map<std::uint32_t, double> busy_any(const pb::GetStatusResponse& s) {
  std::map<std::uint32_t, double> m;
  for (auto& g : s.gpus()) m[g.ordinal()] = g.busy_any_seconds();
  return m;
}

std::map<std::uint32_t, std::uint64_t> proved(const pb::GetStatusResponse& s) {
  std::map<std::uint32_t, std::uint64_t> m;
  for (auto& g : s.gpus()) m[g.ordinal()] = g.partitions_proved();
  return m;
}

// Samples GetStatus every |period_ms| on its own channel from construction to stop().
class BusySampler {
 public:
  BusySampler(const BenchOptions& o, Clock::time_point t0) : t0_(t0) {
    if (o.sample_ms <= 0) return;
    th_ = std::thread([this, &o] {
      Client c(o);
      const auto period = std::chrono::duration_cast<Clock::duration>(
          std::chrono::duration<double, std::milli>(o.sample_ms));
      for (auto next = Clock::now();; next += period) {
        pb::GetStatusResponse s;
        if (c.status(&s, nullptr)) {
          BusySample b;
          b.t = std::chrono::duration<double>(Clock::now() - t0_).count();
          b.busy_any = busy_any(s);
          std::lock_guard lock(mu_);
          samples_.push_back(std::move(b));
        }
        std::unique_lock lock(mu_);
        if (cv_.wait_until(lock, next + period, [this] { return stop_; })) return;
      }
    });
  }
  ~BusySampler() { stop(); }
  std::vector<BusySample> stop() {
    {
      std::lock_guard lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    if (th_.joinable()) th_.join();
    std::lock_guard lock(mu_);
    return samples_;
  }

 private:
  Clock::time_point t0_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::vector<BusySample> samples_;
  std::thread th_;
};

void print_summary(const std::vector<JobRecord>& recs, double wall_s,
                   const pb::GetStatusResponse& before, const pb::GetStatusResponse& after,
                   Clock::time_point t0, const std::vector<BusySample>& samples) {
  std::size_t ok = 0;
  double q = 0, srs = 0, syn = 0, gpu = 0, tot = 0;
  std::vector<double> lat;
  for (auto& r : recs) {
    if (!r.ok) continue;
    ++ok;
    q += r.r.queue_wait_ms();
    srs += r.r.srs_load_ms();
    syn += r.r.synthesis_ms();
    gpu += r.r.gpu_compute_ms();
    tot += r.r.total_ms();
    lat.push_back(r.wall_ms);
  }
  std::sort(lat.begin(), lat.end());
  auto pct = [&](double p) {
    return lat.empty() ? 0.0
                       : lat[std::min(lat.size() - 1, static_cast<std::size_t>(p * lat.size()))];
  };
  double n = ok ? static_cast<double>(ok) : 1.0;
  std::printf("\n%-28s %12s\n", "summary", "value");
  std::printf("%-28s %12zu\n", "jobs completed", ok);
  std::printf("%-28s %12zu\n", "jobs failed", recs.size() - ok);
  std::printf("%-28s %12.3f\n", "wall time (s)", wall_s);
  std::printf("%-28s %12.3f\n", "throughput (jobs/s)", ok / wall_s);
  std::printf("%-28s %12.3f\n", "seconds per job", ok ? wall_s / ok : 0.0);
  std::printf("%-28s %12.1f\n", "avg queue wait (ms)", q / n);
  std::printf("%-28s %12.1f\n", "avg key load wait (ms)", srs / n);
  std::printf("%-28s %12.1f\n", "avg synthesis (ms, sum)", syn / n);
  std::printf("%-28s %12.1f\n", "avg device stage (ms, sum)", gpu / n);
  std::printf("%-28s %12.1f\n", "avg server total (ms)", tot / n);
  std::printf("%-28s %12.1f\n", "client latency p50 (ms)", pct(0.5));
  std::printf("%-28s %12.1f\n", "client latency p99 (ms)", pct(0.99));
  std::printf("%-28s %12.1f\n", "daemon budget peak (MiB)", after.memory_peak_bytes() / 1048576.0);
  std::printf("%-28s %12.1f\n", "daemon peak RSS (MiB)",
              after.process_peak_rss_bytes() / 1048576.0);
  // Per partition over the run (GetStatus sums, after − before).
  const std::uint64_t synthesized =
      after.partitions_synthesized() - before.partitions_synthesized();
  std::uint64_t device_proved = 0;
  for (auto& [dev, v] : proved(after)) device_proved += v - proved(before)[dev];
  if (synthesized > 0)
    std::printf(
        "%-28s %12.3f  (%llu partitions, %llu compact)\n", "synthesis CPU s/partition",
        (after.synthesis_cpu_seconds() - before.synthesis_cpu_seconds()) /
            static_cast<double>(synthesized),
        static_cast<unsigned long long>(synthesized),
        static_cast<unsigned long long>(after.partitions_compact() - before.partitions_compact()));
  if (device_proved > 0)
    std::printf(
        "%-28s %12.1f\n", "uploaded MB/partition",
        static_cast<double>(after.partition_upload_bytes() - before.partition_upload_bytes()) /
            1e6 / static_cast<double>(device_proved));
  // Steady state: from the first completion to the last submission (steady_window).
  std::vector<double> sub, fin;
  for (auto& r : recs) {
    if (!r.ok) continue;
    sub.push_back(std::chrono::duration<double>(r.submitted - t0).count());
    fin.push_back(std::chrono::duration<double>(r.done - t0).count());
  }
  SteadyWindow sw = steady_window(samples, sub, fin);
  if (sw.valid) {
    std::printf("%-28s %5.2f..%.2f s\n", "steady window (samples)", sw.t0, sw.t1);
    if (sw.completions >= 2)
      std::printf("%-28s %12.3f  (%zu completions)\n", "steady seconds per job", sw.seconds_per_job,
                  sw.completions);
  } else {
    std::printf("%-28s %12s  (needs more jobs than in flight; %zu samples)\n", "steady window",
                "n/a", samples.size());
  }
  // Per device: busy fraction over the whole run (the union of its workers' device stages over the
  // wall time, pipeline fill and drain included), over the steady window, and the partitions it
  // proved during the run.
  auto b0 = busy_any(before), b1 = busy_any(after);
  auto p0 = proved(before), p1 = proved(after);
  for (auto& [dev, v] : b1) {
    double frac = wall_s > 0 ? (v - b0[dev]) / wall_s : 0;
    char steady[32] = "n/a";
    if (sw.valid && sw.busy_fraction.count(dev))
      std::snprintf(steady, sizeof steady, "%.1f%%", 100.0 * sw.busy_fraction.at(dev));
    std::printf("device %-21u %11.1f%%  whole run, %s steady, %llu partitions\n", dev, 100.0 * frac,
                steady, static_cast<unsigned long long>(p1[dev] - p0[dev]));
  }
}

int run_jobs(const BenchOptions& o, std::uint32_t count, std::uint32_t concurrency) {
  Client c(o);
  pb::GetStatusResponse before, after;
  std::string err;
  if (!c.status(&before, &err)) {
    std::fprintf(stderr, "cannot reach the daemon at %s: %s\n", o.addr.c_str(), err.c_str());
    return 2;
  }
  std::vector<JobRecord> recs(count);
  std::atomic<std::uint32_t> next{0}, done{0};
  std::mutex print_mu;
  auto t0 = Clock::now();
  BusySampler sampler(o, t0);
  std::vector<std::thread> ts;
  for (std::uint32_t w = 0; w < std::max<std::uint32_t>(1, concurrency); ++w) {
    ts.emplace_back([&] {
      Client cc(o);
      for (std::uint32_t i; (i = next++) < count;) {
        recs[i] = cc.run_job(o.circuit, o.priority, o.seed + i);
        std::lock_guard lock(print_mu);
        auto& r = recs[i];
        std::printf(
            "[%u/%u] %s %s wall %.0f ms (queue %llu, key %llu, synth %llu, device %llu, total "
            "%llu)%s%s\n",
            ++done, count, r.r.job_id().c_str(), r.ok ? "COMPLETED" : "FAILED", r.wall_ms,
            static_cast<unsigned long long>(r.r.queue_wait_ms()),
            static_cast<unsigned long long>(r.r.srs_load_ms()),
            static_cast<unsigned long long>(r.r.synthesis_ms()),
            static_cast<unsigned long long>(r.r.gpu_compute_ms()),
            static_cast<unsigned long long>(r.r.total_ms()), r.ok ? "" : " — ", r.error.c_str());
        std::fflush(stdout);
      }
    });
  }
  for (auto& t : ts) t.join();
  double wall = std::chrono::duration<double>(Clock::now() - t0).count();
  c.status(&after, nullptr);
  print_summary(recs, wall, before, after, t0, sampler.stop());
  if (o.command == "single" && !o.proof_out.empty() && !recs.empty() && recs[0].ok) {
    std::ofstream(o.proof_out, std::ios::binary) << recs[0].r.proof();
    std::printf("proof (%zu bytes) written to %s\n", recs[0].r.proof().size(), o.proof_out.c_str());
  }
  for (auto& r : recs)
    if (!r.ok) return 1;
  return 0;
}

int run_stress(const BenchOptions& o) {
  Client c(o);
  pb::GetStatusResponse before, after;
  std::string err;
  if (!c.status(&before, &err)) {
    std::fprintf(stderr, "cannot reach the daemon at %s: %s\n", o.addr.c_str(), err.c_str());
    return 2;
  }
  std::vector<std::string> mix = o.mix.empty() ? std::vector<std::string>{o.circuit} : o.mix;
  std::mt19937_64 rng(o.seed);
  std::vector<JobRecord> recs;
  std::mutex mu;
  std::vector<std::thread> ts;
  auto t0 = Clock::now();
  auto end =
      t0 + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(o.duration_s));
  double gap = o.rate > 0 ? 1.0 / o.rate : 1.0;
  std::uint64_t i = 0;
  std::atomic<std::uint32_t> in_flight{0};
  BusySampler sampler(o, t0);
  for (auto next = t0; next < end;
       next += std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(gap)),
            ++i) {
    std::this_thread::sleep_until(next);
    if (o.concurrency && in_flight.load() >= o.concurrency) continue;  // bounded: skip a slot
    std::string circuit = mix[rng() % mix.size()];
    std::uint32_t prio = o.priority ? o.priority : static_cast<std::uint32_t>(1 + rng() % 4);
    ++in_flight;
    ts.emplace_back([&, circuit, prio, i] {
      Client cc(o);
      auto r = cc.run_job(circuit, prio, o.seed + i);
      --in_flight;
      std::lock_guard lock(mu);
      std::printf("[%zu] %-10s prio %u %s %.0f ms%s%s\n", recs.size() + 1, circuit.c_str(), prio,
                  r.ok ? "COMPLETED" : "FAILED", r.wall_ms, r.ok ? "" : " — ", r.error.c_str());
      std::fflush(stdout);
      recs.push_back(std::move(r));
    });
  }
  for (auto& t : ts) t.join();
  double wall = std::chrono::duration<double>(Clock::now() - t0).count();
  c.status(&after, nullptr);
  print_summary(recs, wall, before, after, t0, sampler.stop());
  std::printf("\n%-10s %8s %14s %14s\n", "priority", "jobs", "avg ms", "max ms");
  for (std::uint32_t p = 1; p <= 4; ++p) {
    double sum = 0, mx = 0;
    int n = 0;
    for (auto& r : recs)
      if (r.ok && r.priority == p) sum += r.wall_ms, mx = std::max(mx, r.wall_ms), ++n;
    if (n)
      std::printf("%-10s %8d %14.1f %14.1f\n",
                  pb::Priority_Name(static_cast<pb::Priority>(p)).c_str(), n, sum / n, mx);
  }
  for (auto& r : recs)
    if (!r.ok) return 1;
  return 0;
}

int run_status(const BenchOptions& o) {
  Client c(o);
  pb::GetStatusResponse s;
  std::string err;
  if (!c.status(&s, &err)) {
    std::fprintf(stderr, "GetStatus: %s\n", err.c_str());
    return 2;
  }
  std::printf("uptime %llu s, completed %llu, failed %llu, cancelled %llu\n",
              static_cast<unsigned long long>(s.uptime_seconds()),
              static_cast<unsigned long long>(s.total_proofs_completed()),
              static_cast<unsigned long long>(s.total_proofs_failed()),
              static_cast<unsigned long long>(s.total_proofs_cancelled()));
  std::printf(
      "memory budget: used %.1f MiB of %.1f MiB (peak %.1f MiB, critical headroom %.1f MiB)\n",
      s.pinned_memory_bytes() / 1048576.0, s.pinned_memory_limit_bytes() / 1048576.0,
      s.memory_peak_bytes() / 1048576.0, s.memory_critical_headroom_bytes() / 1048576.0);
  std::printf("daemon resident memory: %.1f MiB (peak %.1f MiB)\n",
              s.process_rss_bytes() / 1048576.0, s.process_peak_rss_bytes() / 1048576.0);
  const std::uint64_t synthesized = s.partitions_synthesized();
  std::printf(
      "partitions synthesized %llu (%llu compact), synthesis CPU %.2f s/partition, uploaded %.1f "
      "MB/partition\n",
      static_cast<unsigned long long>(synthesized),
      static_cast<unsigned long long>(s.partitions_compact()),
      synthesized ? s.synthesis_cpu_seconds() / synthesized : 0.0,
      synthesized ? static_cast<double>(s.partition_upload_bytes()) / synthesized / 1e6 : 0.0);
  auto& p = s.pipeline();
  std::printf(
      "partitions: admission %u, synth queue %u, synthesizing %u, device queue %u, on device %u; "
      "finalizing jobs %u\n",
      p.awaiting_admission(), p.awaiting_synthesis(), p.synthesizing(), p.awaiting_device(),
      p.on_device(), p.finalizing_jobs());
  std::printf("\n%-8s %-16s %12s %12s %10s %11s %11s %11s  %s\n", "device", "name", "busy s",
              "busy-any s", "proved", "vram MiB", "used MiB", "keys MiB", "current jobs");
  for (auto& g : s.gpus())
    std::printf("%-8u %-16s %12.2f %12.2f %10llu %11.1f %11.1f %11.1f  %s\n", g.ordinal(),
                g.name().c_str(), g.busy_seconds(), g.busy_any_seconds(),
                static_cast<unsigned long long>(g.partitions_proved()),
                g.vram_total_bytes() / 1048576.0, g.vram_arena_used_bytes() / 1048576.0,
                g.vram_srs_bytes() / 1048576.0, g.current_job_id().c_str());
  std::printf("\n%-16s %-12s %14s %14s %14s %6s %10s  %s\n", "key", "tier", "MiB", "host MiB",
              "mapped MiB", "refs", "idle s", "vram MiB by device");
  for (auto& k : s.loaded_srs()) {
    std::string vram;
    for (auto& v : k.vram())
      vram += (vram.empty() ? "" : " ") + std::to_string(v.ordinal()) + ":" +
              std::to_string(v.bytes() >> 20);
    // "vram/params": resident, made from the mapped .params (the tier under vram).
    std::string tier = k.tier_name();
    if (tier == "vram" && !k.backing_tier().empty()) tier += "/" + k.backing_tier();
    std::printf("%-16s %-12s %14.2f %14.2f %14.2f %6u %10.1f  %s\n", k.circuit_id().c_str(),
                tier.c_str(), k.size_bytes() / 1048576.0, k.host_bytes() / 1048576.0,
                k.mapped_bytes() / 1048576.0, k.ref_count(), k.idle_seconds(), vram.c_str());
  }
  std::printf("\n%-16s %8s %12s\n", "kind", "pending", "in progress");
  for (auto& q : s.queues())
    std::printf("%-16s %8u %12u\n", q.proof_kind().c_str(), q.pending(), q.in_progress());
  return 0;
}

}  // namespace

SteadyWindow steady_window(const std::vector<BusySample>& samples,
                           const std::vector<double>& submit_s, const std::vector<double>& done_s) {
  SteadyWindow w;
  if (done_s.empty() || submit_s.empty()) return w;
  w.open = *std::min_element(done_s.begin(), done_s.end());
  w.close = *std::max_element(submit_s.begin(), submit_s.end());
  std::vector<double> inside;
  for (double d : done_s)
    if (d >= w.open && d <= w.close) inside.push_back(d);
  std::sort(inside.begin(), inside.end());
  w.completions = inside.size();
  if (inside.size() >= 2)
    w.seconds_per_job = (inside.back() - inside.front()) / static_cast<double>(inside.size() - 1);
  // Snap inward: the first sample at or after open, the last at or before close.
  const BusySample* a = nullptr;
  const BusySample* b = nullptr;
  for (const auto& s : samples) {
    if (!a && s.t >= w.open) a = &s;
    if (s.t <= w.close) b = &s;
  }
  if (!a || !b || b->t <= a->t) return w;
  w.valid = true;
  w.t0 = a->t;
  w.t1 = b->t;
  for (const auto& [dev, v1] : b->busy_any) {
    auto it = a->busy_any.find(dev);
    if (it != a->busy_any.end()) w.busy_fraction[dev] = (v1 - it->second) / (w.t1 - w.t0);
  }
  return w;
}

int run_bench(const BenchOptions& o) {
  if (auto ch = try_channel(o); !ch) {
    std::fprintf(stderr, "cuzk bench: %s\n", ch.status().to_string().c_str());
    return 2;
  }
  if (o.command == "single") return run_jobs(o, 1, 1);
  if (o.command == "batch") return run_jobs(o, o.count, o.concurrency);
  if (o.command == "stress") return run_stress(o);
  if (o.command == "status") return run_status(o);
  Client c(o);
  grpc::ClientContext ctx;
  c.prep(ctx);
  if (o.command == "preload") {
    pb::PreloadSrsRequest req;
    req.set_circuit_id(o.circuit);
    pb::PreloadSrsResponse resp;
    auto st = c.stub().PreloadSRS(&ctx, req, &resp);
    if (!st.ok()) return std::fprintf(stderr, "PreloadSRS: %s\n", st.error_message().c_str()), 1;
    std::printf("%s: %s, %llu ms\n", o.circuit.c_str(),
                resp.already_loaded() ? "already loaded" : "loaded",
                static_cast<unsigned long long>(resp.load_time_ms()));
    return 0;
  }
  if (o.command == "evict") {
    pb::EvictSrsRequest req;
    req.set_circuit_id(o.circuit);
    pb::EvictSrsResponse resp;
    auto st = c.stub().EvictSRS(&ctx, req, &resp);
    if (!st.ok()) return std::fprintf(stderr, "EvictSRS: %s\n", st.error_message().c_str()), 1;
    std::printf("%s: %s, %llu bytes freed\n", o.circuit.c_str(),
                resp.was_loaded() ? "evicted" : "was not loaded",
                static_cast<unsigned long long>(resp.freed_bytes()));
    return 0;
  }
  if (o.command == "metrics") {
    pb::GetMetricsResponse resp;
    auto st = c.stub().GetMetrics(&ctx, pb::GetMetricsRequest(), &resp);
    if (!st.ok()) return std::fprintf(stderr, "GetMetrics: %s\n", st.error_message().c_str()), 1;
    std::fputs(resp.prometheus_text().c_str(), stdout);
    return 0;
  }
  std::fprintf(stderr, "unknown bench command '%s'\n", o.command.c_str());
  return 2;
}

}  // namespace cuzk::server
