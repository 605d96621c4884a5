// run_bench: the `cuzk bench` client. single / batch / stress drive the daemon with bench-<K>
// jobs through SubmitProof + AwaitProof and print progress lines and a summary table
// (throughput, per-phase times, device busy fraction from the daemon's per-device timeline);
// status / preload / evict / metrics wrap the corresponding RPCs.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace cuzk::server {

struct BenchOptions {
  std::string command;  ///< single | batch | stress | status | preload | evict | metrics
  std::string addr = "unix://cuzk.sock";
  std::string tls_ca, tls_cert, tls_key;  ///< PEM files; tls_ca turns TLS on
  std::string client_id;                  ///< sent as "cuzk-client" metadata (a label)
  std::string circuit = "bench-16";
  std::vector<std::string> mix;  ///< stress: circuits to draw from (default: circuit)
  std::uint32_t partitions = 0;  ///< 0 = the daemon's default
  std::uint32_t priority = 0;    ///< 0 = default; stress draws 1..4 when 0
  std::uint64_t seed = 1;
  std::uint32_t count = 3;
  std::uint32_t concurrency = 1;
  double duration_s = 10;        ///< stress: submission window
  double rate = 2;               ///< stress: jobs per second
  std::uint64_t timeout_ms = 0;  ///< per-job await limit (0 = none)
  std::string proof_out;         ///< single: write the proof bytes here
  std::uint64_t max_message_bytes = std::uint64_t{256} << 20;
  double sample_ms = 200;  ///< batch/stress: GetStatus period for the steady-state busy fraction
};

/// One GetStatus sample taken during a batch: seconds since the batch started, and per device
/// ordinal its busy_any_seconds counter (time with at least one worker in the device stage).
struct BusySample {
  double t = 0;
  std::map<std::uint32_t, double> busy_any;
};

/// The steady-state window of a batch: it opens when the first job completes (the pipeline is
/// full: every stage has held work) and closes when the last job is submitted (after that the
/// pipeline only drains). Its ends are snapped inward to the nearest samples, so the busy
/// fraction is exact for [t0, t1]: (busy_any(t1) − busy_any(t0)) / (t1 − t0) per device.
/// seconds_per_job is the mean gap between the job completions inside [open, close]
/// (completions − 1 gaps); 0 when fewer than two completions fall inside.
struct SteadyWindow {
  bool valid = false;  ///< false: no two samples inside the window (too few jobs or too short)
  double open = 0, close = 0;  ///< first completion, last submission (seconds since start)
  double t0 = 0, t1 = 0;       ///< the samples used
  std::map<std::uint32_t, double> busy_fraction;
  std::size_t completions = 0;  ///< completions inside [open, close]
  double seconds_per_job = 0;
};
/// |samples| sorted by t; |submit_s| and |done_s| per completed job (seconds since start).
SteadyWindow steady_window(const std::vector<BusySample>& samples,
                           const std::vector<double>& submit_s, const std::vector<double>& done_s);

/// Runs one bench command; returns the exit code (0 when every job completed).
int run_bench(const BenchOptions& opt);

}  // namespace cuzk::server
