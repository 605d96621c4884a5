#include "cuzk/server/cli_commands.hpp"

namespace cuzk::server {

void add_daemon_options(CLI::App* daemon, DaemonOptions& d) {
  daemon->add_option("-c,--config", d.config_path, "TOML config file (default: embedded defaults)");
  daemon->add_option("-l,--listen", d.listen,
                     "Listen address(es): unix://path or host:port (default unix://cuzk.sock)");
  daemon->add_option("--log-level", d.log_level, "trace|debug|info|warn|error");
  daemon->add_option("--prover", d.prover,
                     "groth16|fake (fake: deterministic stand-in proofs for testing)");
  daemon->add_option("--journal", d.journal, "SQLite journal path, or 'none'");
  daemon->add_option("--metrics-listen", d.metrics_listen, "HTTP /metrics on host:port");
  daemon->add_option("--cache-dir", d.cache_dir,
                     "Directory of generated keys and recorded circuits (default cuzk-cache)");
  daemon->add_option("--backend", d.backend,
                     "auto|cpu|cuda:N (auto: every GPU found, else the CPU)");
}

void add_server_commands(CLI::App& app, ServerCommands& sc) {
  sc.daemon = app.add_subcommand("daemon", "Run the proving daemon (gRPC cuzk.v1.ProvingEngine)");
  add_daemon_options(sc.daemon, sc.daemon_opt);

  BenchOptions& b = sc.bench_opt;
  auto* bench = sc.bench = app.add_subcommand("bench", "Benchmark client for a running daemon");
  bench->require_subcommand(1);
  bench->add_option("-a,--addr", b.addr, "Daemon address (unix://path or host:port)")
      ->capture_default_str();
  bench->add_option("--tls-ca", b.tls_ca, "CA certificate (PEM): use TLS");
  bench->add_option("--tls-cert", b.tls_cert, "Client certificate (PEM) for mutual TLS");
  bench->add_option("--tls-key", b.tls_key, "Client key (PEM) for mutual TLS");
  bench->add_option("--client-id", b.client_id,
                    "A label sent as cuzk-client metadata (logs; limits follow the connection)");
  auto job_opts = [&b](CLI::App* s) {
    s->add_option("-t,--circuit", b.circuit, "Circuit id (bench-<10..27>)")->capture_default_str();
    s->add_option("-p,--partitions", b.partitions, "Partitions per job (0 = daemon default)");
    s->add_option("--priority", b.priority, "1 LOW .. 4 CRITICAL (0 = default)");
    s->add_option("--seed", b.seed, "Input seed")->capture_default_str();
    s->add_option("--timeout-ms", b.timeout_ms, "Per-job await limit");
    s->add_option("--sample-ms", b.sample_ms, "GetStatus period for the steady-state busy fraction")
        ->capture_default_str();
  };
  auto* single = bench->add_subcommand("single", "Prove one job");
  job_opts(single);
  single->add_option("-o,--out", b.proof_out, "Write the proof bytes to this file");
  auto* batch = bench->add_subcommand("batch", "Prove N jobs with J in flight");
  job_opts(batch);
  batch->add_option("-c,--count", b.count, "Jobs")->capture_default_str();
  batch->add_option("-j,--concurrency", b.concurrency, "Jobs in flight")->capture_default_str();
  auto* stress = bench->add_subcommand(
      "stress", "Mixed circuits and priorities at a fixed rate for a bounded time");
  job_opts(stress);
  stress->add_option("--mix", b.mix, "Circuits to draw from");
  stress->add_option("-d,--duration", b.duration_s, "Submission window (s)")->capture_default_str();
  stress->add_option("-r,--rate", b.rate, "Jobs per second")->capture_default_str();
  stress->add_option("-j,--concurrency", b.concurrency, "Max jobs in flight (0 = unbounded)");
  bench->add_subcommand("status", "Print GetStatus");
  auto* preload = bench->add_subcommand("preload", "Load a circuit's proving key");
  preload->add_option("-c,--circuit,circuit", b.circuit, "Circuit id")->required();
  auto* evict = bench->add_subcommand("evict", "Evict a circuit's proving key");
  evict->add_option("-c,--circuit,circuit", b.circuit, "Circuit id")->required();
  bench->add_subcommand("metrics", "Print GetMetrics (Prometheus text)");

  SubmitOptions& s = sc.submit_opt;
  auto* submit = sc.submit = app.add_subcommand(
      "submit", "Prove one Filecoin proof through a running daemon (as Curio's client sends it)");
  submit->add_option("-a,--addr", s.addr, "Daemon address (unix://path or host:port)")
      ->capture_default_str();
  submit->add_option("--tls-ca", s.tls_ca, "CA certificate (PEM): use TLS");
  submit->add_option("--tls-cert", s.tls_cert, "Client certificate (PEM) for mutual TLS");
  submit->add_option("--tls-key", s.tls_key, "Client key (PEM) for mutual TLS");
  submit->add_option("--kind", s.kind, "porep | winning | window | update")
      ->required()
      ->check(CLI::IsMember({"porep", "winning", "window", "update"}));
  submit->add_option("--registered-proof", s.registered_proof,
                     "The proof: a filecoin-proofs-api name (StackedDrg2KiBV1_1, "
                     "StackedDrgWindow2KiBV1_2) or Go's abi number (porep: default the C1's)");
  submit->add_option("--c1", s.c1, "porep: a C1 output JSON or Curio's C2 envelope")
      ->check(CLI::ExistingFile);
  submit
      ->add_option("--vanilla", s.vanilla,
                   "winning/window: FallbackPoStSectorProofs; update: PartitionProofs (bincode, "
                   "several per file allowed)")
      ->check(CLI::ExistingFile);
  submit->add_option("--sector-id", s.sector_id, "porep: the sector number (sector_number)");
  submit->add_option("--miner-id", s.miner_id, "The miner's actor id (prover_id)");
  submit->add_option("--randomness", s.randomness, "winning/window: 64 hex digits");
  submit->add_option("--partition-index", s.partition_index,
                     "window: the partition's index in the PoSt");
  submit->add_option("--comm-r-old", s.comm_r_old, "update: 64 hex digits");
  submit->add_option("--comm-r-new", s.comm_r_new, "update: 64 hex digits");
  submit->add_option("--comm-d-new", s.comm_d_new, "update: 64 hex digits");
  submit->add_option("--h", s.update_h,
                     "update: the encoding's h (default 0: the sector size's h_default)");
  submit->add_option("--priority", s.priority, "1 LOW .. 4 CRITICAL (0 = the kind's default)")
      ->check(CLI::Range(0, 4));
  submit->add_option("--request-id", s.request_id, "Idempotency key (default: a new job id)");
  submit->add_option("--timeout-ms", s.timeout_ms, "Await limit (0 = none)");
  submit->add_option("-o,--out", s.out, "Write the proof bytes (192 per partition) here")
      ->required();
}

bool run_server_commands(ServerCommands& sc, int* rc) {
  if (sc.daemon && sc.daemon->parsed()) {
    *rc = run_daemon(sc.daemon_opt);
    return true;
  }
  if (sc.bench && sc.bench->parsed()) {
    for (auto* s : sc.bench->get_subcommands()) sc.bench_opt.command = s->get_name();
    *rc = run_bench(sc.bench_opt);
    return true;
  }
  if (sc.submit && sc.submit->parsed()) {
    *rc = run_submit(sc.submit_opt);
    return true;
  }
  return false;
}

}  // namespace cuzk::server
