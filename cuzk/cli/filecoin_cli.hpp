// `cuzk filecoin <command>`: the Filecoin data side from the command line (docs/filecoin.md).
// Each command lives in its own file, cli/filecoin_<command>.cpp, and is listed once in
// filecoin_commands() (filecoin_cli.cpp). Exit codes: 0 success (JSON on stdout), 1 the input
// parsed but a check failed (named on stderr), 2 bad usage or an input that does not parse.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

namespace cuzk::cli {

/// What runs a parsed command: returns the exit code.
using FilecoinRun = std::function<int()>;

struct FilecoinCommand {
  const char* name;
  const char* help;
  /// Adds the command's options to |sub| and returns what runs it.
  FilecoinRun (*add)(CLI::App& sub);
};

/// Every `cuzk filecoin` command.
const std::vector<FilecoinCommand>& filecoin_commands();

/// The parsed `cuzk filecoin` subcommands and their runners.
struct FilecoinCli {
  CLI::App* filecoin = nullptr;
  std::vector<std::pair<CLI::App*, FilecoinRun>> commands;
};

/// Adds `filecoin` and its commands to |app|.
void add_filecoin_commands(CLI::App& app, FilecoinCli& fc);
/// Runs the parsed command, if any: true and *rc set, or false when `filecoin` was not given.
bool run_filecoin_commands(const FilecoinCli& fc, int* rc);

}  // namespace cuzk::cli
