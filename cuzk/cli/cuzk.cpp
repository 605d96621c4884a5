// cuzk: the command-line entry point. Every subcommand is a library call: demo and microbench
// (cli/demo.hpp, cli/microbench.hpp), daemon and bench (server/cli_commands.hpp).
// NOTE (engine engineer): reconstructed after an accidental overwrite; see CMakeLists.txt.
#include <CLI/CLI.hpp>
#include <cstdio>

#include "cuzk/base/huge_pages.hpp"
#include "cuzk/cli/demo.hpp"
#include "cuzk/cli/microbench.hpp"
#include "cuzk/cli/offline.hpp"
#ifdef CUZK_WITH_SERVER
#include "cuzk/server/cli_commands.hpp"
#endif

int main(int argc, char** argv) {
  CLI::App app{"cuzk: a Groth16 proving engine over BLS12-381"};
  app.require_subcommand(1);

  auto* demo = app.add_subcommand("demo", "Run the demo on the embedded defaults");

  cuzk::MicrobenchOptions mb;
  std::string ops_help = "Operation:";
  for (const auto& op : cuzk::microbench_ops()) ops_help += " " + op;
  auto* micro = app.add_subcommand("microbench", "Time one operation; prints one JSON line");
  micro->add_option("op", mb.op, ops_help)->required();
  micro->add_option("--log-n", mb.log_n, "log2 of the size (0: the op's default)");
  micro->add_option("--threads", mb.threads, "Threads")->capture_default_str();
  micro->add_option("--backend", mb.backend, "Backend")->capture_default_str();
  micro->add_option("--repeats", mb.repeats, "Repeats (the median is reported)")->capture_default_str();

  cuzk::OfflineCommands offline;
  cuzk::add_offline_commands(app, offline);

#ifdef CUZK_WITH_SERVER
  cuzk::server::ServerCommands server;
  cuzk::server::add_server_commands(app, server);
#endif

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);  // prints help or the usage error
    return rc == 0 ? 0 : 2;      // usage errors exit 2 (offline commands: 0 ok, 1 invalid, 2 usage)
  }
  // setup and prove first-touch tens of MB of vectors: blocks of 1 MiB and more in transparent huge
  // pages (base/huge_pages.hpp; a 4 KiB page fault costs ≈ 15 µs on the development VM).
  if (offline.setup->parsed() || offline.prove->parsed()) cuzk::set_huge_page_new(true);
  if (int rc = 0; cuzk::run_offline_commands(offline, &rc)) return rc;
  if (demo->parsed()) return cuzk::run_demo();
  if (micro->parsed()) {
    auto r = cuzk::run_microbench(mb);
    if (!r) {
      std::fprintf(stderr, "cuzk microbench: %s\n", r.status().to_string().c_str());
      return 2;
    }
    std::printf("%s\n", r->to_json().c_str());
    return 0;
  }
#ifdef CUZK_WITH_SERVER
  int rc = 0;
  if (cuzk::server::run_server_commands(server, &rc)) return rc;
#endif
  return 1;
}
