// `cuzk microbench OP`: times one operation (median of repeats after a warm-up) and reports it as
// one JSON line {"op":…,"n":…,"threads":…,"backend":…,"seconds":…,"cpu_seconds":…}, so every
// build's figures are taken the same way (cpu_seconds: the process's CPU time, all threads, user +
// system, median over the same repeats: on a shared machine it says what the wall time cannot).
// For per-element ops, n is the count of operations timed and seconds their
// total; for bulk ops (NTT, MSM), n is the size of one call.
#pragma once

#include <string>
#include <vector>

#include "cuzk/base/status.hpp"

namespace cuzk {

struct MicrobenchOptions {
  std::string op;
  unsigned log_n = 0;  ///< 0: the op's default size
  unsigned threads = 1;
  std::string backend = "cpu";
  unsigned repeats = 5;
};

struct MicrobenchResult {
  std::string op;
  std::uint64_t n = 0;
  unsigned threads = 1;
  std::string backend;
  double seconds = 0;  ///< median wall time over the repeats
  double cpu_seconds =
      0;  ///< median process CPU time (all threads, user + system) over the repeats
  std::string to_json() const;
};

/// Names of the ops this build knows.
std::vector<std::string> microbench_ops();
/// Runs one op; invalid_argument for an unknown op or backend.
Result<MicrobenchResult> run_microbench(const MicrobenchOptions& options);

}  // namespace cuzk
