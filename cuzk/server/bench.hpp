// run_bench: the `cuzk bench` client. single / batch / stress drive the daemon with bench-<K>
// jobs through SubmitProof + AwaitProof and print progress lines and a summary table
// (throughput, per-phase times, device busy fraction from the daemon's per-device timeline);
// status / preload / evict / metrics wrap the corresponding RPCs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cuzk::server {

struct BenchOptions {
  std::string command;  ///< single | batch | stress | status | preload | evict | metrics
  std::string addr = "unix://cuzk.sock";
  std::string tls_ca, tls_cert, tls_key;  ///< PEM files; tls_ca turns TLS on
  std::string client_id;                  ///< sent as "cuzk-client" metadata
  std::string circuit = "bench-16";
  std::vector<std::string> mix;           ///< stress: circuits to draw from (default: circuit)
  std::uint32_t partitions = 0;           ///< 0 = the daemon's default
  std::uint32_t priority = 0;             ///< 0 = default; stress draws 1..4 when 0
  std::uint64_t seed = 1;
  std::uint32_t count = 3;
  std::uint32_t concurrency = 1;
  double duration_s = 10;                 ///< stress: submission window
  double rate = 2;                        ///< stress: jobs per second
  std::uint64_t timeout_ms = 0;           ///< per-job await limit (0 = none)
  std::string proof_out;                  ///< single: write the proof bytes here
  std::uint64_t max_message_bytes = std::uint64_t{256} << 20;
};

/// Runs one bench command; returns the exit code (0 when every job completed).
int run_bench(const BenchOptions& opt);

}  // namespace cuzk::server
