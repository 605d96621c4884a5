// The `daemon`, `bench` and `submit` subcommands as a CLI11 fragment, so the `cuzk` program (cli/) and the
// stand-alone `cuzkd` share one definition: add_server_commands() before parsing,
// run_server_commands() after.
#pragma once

#include <CLI/CLI.hpp>

#include "cuzk/server/bench.hpp"
#include "cuzk/server/daemon.hpp"
#include "cuzk/server/submit.hpp"

namespace cuzk::server {

struct ServerCommands {
  DaemonOptions daemon_opt;
  BenchOptions bench_opt;
  SubmitOptions submit_opt;
  CLI::App* daemon = nullptr;
  CLI::App* bench = nullptr;
  CLI::App* submit = nullptr;
};

/// Adds the daemon options to |cmd| (used for the `daemon` subcommand and for cuzkd's top level).
void add_daemon_options(CLI::App* cmd, DaemonOptions& d);
/// Adds `daemon`, `bench single|batch|stress|status|preload|evict|metrics` and `submit` to |app|.
void add_server_commands(CLI::App& app, ServerCommands& sc);
/// Runs the parsed one of them: true with its exit code in |rc|, false when neither was given.
bool run_server_commands(ServerCommands& sc, int* rc);

}  // namespace cuzk::server
