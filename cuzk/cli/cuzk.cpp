// cuzk: the command-line entry point. Every subcommand is a library call: demo and microbench
// (cli/demo.hpp, cli/microbench.hpp), setup, prove and verify (cli/offline.hpp); daemon, bench and
// submit (server/cli_commands.hpp) are the program cuzk-grpc beside this one (cli/grpc_main.cpp), which
// cuzk runs in its place, so that the other commands start without the gRPC libraries.
// NOTE (engine engineer): reconstructed after an accidental overwrite; see CMakeLists.txt.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "cuzk/base/huge_pages.hpp"
#include "cuzk/cli/demo.hpp"
#include "cuzk/cli/filecoin_cli.hpp"
#include "cuzk/cli/microbench.hpp"
#include "cuzk/cli/offline.hpp"

namespace {

#ifdef CUZK_GRPC_PROGRAM
// Replaces this process with CUZK_GRPC_PROGRAM from this program's directory (same pid, arguments
// and environment: a daemon started as `cuzk daemon` is signalled as before). Returns only on failure.
int run_grpc_program(char** argv) {
  std::string path(4096, '\0');
  const ssize_t n = ::readlink("/proc/self/exe", path.data(), path.size());
  path.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
  path = path.substr(0, path.rfind('/') + 1) + CUZK_GRPC_PROGRAM;
  ::execv(path.c_str(), argv);
  std::fprintf(stderr, "cuzk %s: cannot run %s: %s\n", argv[1], path.c_str(), std::strerror(errno));
  return 2;
}
#endif

}  // namespace

int main(int argc, char** argv) {
#ifdef CUZK_GRPC_PROGRAM
  if (argc >= 2 && (std::strcmp(argv[1], "daemon") == 0 || std::strcmp(argv[1], "bench") == 0 ||
                    std::strcmp(argv[1], "submit") == 0))
    return run_grpc_program(argv);
#endif
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
  micro->add_option("--repeats", mb.repeats, "Repeats (the median is reported)")
      ->capture_default_str();

  cuzk::OfflineCommands offline;
  cuzk::add_offline_commands(app, offline);

  cuzk::cli::FilecoinCli filecoin;
  cuzk::cli::add_filecoin_commands(app, filecoin);

#ifdef CUZK_GRPC_PROGRAM
  // Listed for --help only: main hands them to cuzk-grpc before parsing.
  app.add_subcommand("daemon",
                     "Run the proving daemon (gRPC cuzk.v1.ProvingEngine; `cuzk daemon --help`)");
  app.add_subcommand("bench", "Benchmark client for a running daemon (`cuzk bench --help`)");
  app.add_subcommand("submit",
                     "Prove one Filecoin proof through a running daemon (`cuzk submit --help`)");
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
  if (int rc = 0; cuzk::cli::run_filecoin_commands(filecoin, &rc)) return rc;
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
  return 1;
}
