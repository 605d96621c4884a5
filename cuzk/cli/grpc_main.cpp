// cuzk-grpc: the gRPC commands of `cuzk`, `cuzk daemon`, `cuzk bench` and `cuzk submit`
// (server/cli_commands.hpp). `cuzk` runs this program, installed beside it, for those three, so that the offline commands start
// without loading gRPC, protobuf, abseil, OpenSSL and the engine's libraries (61 shared libraries,
// ≈ 775 page faults at every start, against 6 and ≈ 145; docs/perf/groth16.md Version 8). argv is
// cuzk's: the usage lines read `cuzk daemon …`.
#include <CLI/CLI.hpp>

#include "cuzk/server/cli_commands.hpp"

int main(int argc, char** argv) {
  CLI::App app{"cuzk: a Groth16 proving engine over BLS12-381 (the daemon and its bench client)"};
  app.require_subcommand(1);
  cuzk::server::ServerCommands server;
  cuzk::server::add_server_commands(app, server);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
  int rc = 0;
  if (cuzk::server::run_server_commands(server, &rc)) return rc;
  return 1;
}
