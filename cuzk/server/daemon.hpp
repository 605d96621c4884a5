// run_daemon: the `cuzk daemon` entry point. Loads the TOML config (or the embedded defaults),
// applies command-line overrides, sets up logging, starts the engine, the gRPC server and the
// optional /metrics port, then waits for SIGTERM/SIGINT: it stops accepting jobs, lets running
// jobs finish for shutdown_grace_s, leaves the rest in the journal and exits 0.
#pragma once

#include <string>
#include <vector>

namespace cuzk::server {

struct DaemonOptions {
  std::string config_path;          ///< empty: embedded defaults
  std::vector<std::string> listen;  ///< overrides daemon.listen when non-empty
  std::string log_level;            ///< overrides logging.level when non-empty
  std::string prover;               ///< overrides engine.prover when non-empty
  std::string journal;              ///< overrides daemon.journal when non-empty ("none" disables)
  std::string metrics_listen;       ///< overrides daemon.metrics_listen when non-empty
  std::string cache_dir;            ///< overrides engine.cache_dir when non-empty
  std::string backend;              ///< groth16 backend: "auto" (default), "cpu" or "cuda:N"
};

/// Runs until a termination signal; returns the process exit code (non-zero on start-up errors).
int run_daemon(const DaemonOptions& opt);

}  // namespace cuzk::server
