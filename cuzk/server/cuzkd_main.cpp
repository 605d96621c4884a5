// cuzkd: the daemon alone (same options as `cuzk daemon`), for service units and for tests that
// need a process to kill.
#include "cuzk/server/cli_commands.hpp"

int main(int argc, char** argv) {
  CLI::App app{"cuzkd: the cuzk proving daemon (gRPC cuzk.v1.ProvingEngine)"};
  cuzk::server::DaemonOptions d;
  cuzk::server::add_daemon_options(&app, d);
  CLI11_PARSE(app, argc, argv);
  return cuzk::server::run_daemon(d);
}
