#include "cuzk/server/daemon.hpp"

#include <pthread.h>
#include <signal.h>

#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <algorithm>
#include <filesystem>
#include <thread>

#include "cuzk/base/escape.hpp"
#include "cuzk/circuits/filecoin/filecoin_public_data.hpp"
#include "cuzk/circuits/filecoin/key_spec.hpp"
#include "cuzk/engine/config.hpp"
#include "cuzk/engine/engine.hpp"
#include "cuzk/engine/fake_prover.hpp"
#include "cuzk/engine/groth16_prover.hpp"
#include "cuzk/filecoin/parameter_files.hpp"
#include "cuzk/filecoin/parameter_manifest.hpp"
#include "cuzk/server/grpc_server.hpp"
#include "cuzk/server/http_metrics.hpp"
#include "cuzk/server/read_file.hpp"

namespace cuzk::server {
namespace {

// %* in JSON logs: the message as the contents of a JSON string; in text logs: control bytes as
// \xNN (base/escape.hpp).
template <bool Json>
class EscapedMessage final : public spdlog::custom_flag_formatter {
 public:
  void format(const spdlog::details::log_msg& msg, const std::tm&,
              spdlog::memory_buf_t& dest) override {
    std::string out;
    const std::string_view in(msg.payload.data(), msg.payload.size());
    if constexpr (Json)
      append_json_escaped(in, out);
    else
      append_control_escaped(in, out);
    dest.append(out.data(), out.data() + out.size());
  }
  std::unique_ptr<custom_flag_formatter> clone() const override {
    return std::make_unique<EscapedMessage>();
  }
};

Status setup_logging(const engine::DaemonConfig& c) {
  std::shared_ptr<spdlog::logger> logger;
  try {
    if (c.log_file.empty())
      logger = spdlog::stderr_color_mt("cuzk");
    else
      logger = spdlog::basic_logger_mt("cuzk", c.log_file);
  } catch (const spdlog::spdlog_ex& e) {
    return Status(Errc::io_error, std::string("logging: ") + e.what());
  }
  // The message goes through %* (EscapedMessage): a
  // quote, backslash, newline or NUL in a logged value can neither break a JSON line nor forge a
  // log line.
  auto formatter = std::make_unique<spdlog::pattern_formatter>();
  if (c.log_format == "json") {
    formatter->add_flag<EscapedMessage<true>>('*').set_pattern(
        R"({"time":"%Y-%m-%dT%H:%M:%S.%f%z","level":"%l","thread":%t,"msg":"%*"})");
  } else {
    formatter->add_flag<EscapedMessage<false>>('*').set_pattern("%Y-%m-%d %H:%M:%S.%e %^%l%$ %*");
  }
  logger->set_formatter(std::move(formatter));
  logger->set_level(spdlog::level::from_str(c.log_level));
  logger->flush_on(spdlog::level::info);
  spdlog::set_default_logger(logger);
  return {};
}

// [filecoin] verify_parameters = "on-start": every parameter file present that the manifest
// names must have its digest; the error names each one that does not.
Status check_parameter_files(const engine::DaemonConfig& c) {
  if (c.filecoin_verify_parameters != "on-start") return {};
  const std::filesystem::path dir = c.filecoin_parameter_cache.empty()
                                        ? filecoin::default_parameter_cache()
                                        : std::filesystem::path(c.filecoin_parameter_cache);
  spdlog::info("filecoin: checking the parameter files in {} against {}", dir.string(),
               c.filecoin_parameter_manifest);
  std::size_t checked = 0;
  Status st = filecoin::verify_parameter_directory(
      dir, c.filecoin_parameter_manifest, [&](const filecoin::ParameterFileStatus& f) {
        if (f.check == filecoin::DigestCheck::not_checked) return;
        ++checked;
        spdlog::info("filecoin: {}: {} ({} bytes, {:.0f} MB/s)", f.name,
                     filecoin::digest_check_name(f.check), f.size,
                     f.digest.bytes_per_second() / 1e6);
      });
  if (st.ok()) spdlog::info("filecoin: {} parameter file(s) match the manifest", checked);
  return st;
}

// The parameter directory the Filecoin families read ([filecoin] parameter_cache, else
// $FIL_PROOFS_PARAMETER_CACHE, else rust-fil-proofs' default).
std::filesystem::path filecoin_params_dir(const engine::DaemonConfig& c) {
  return c.filecoin_parameter_cache.empty() ? filecoin::default_parameter_cache()
                                            : std::filesystem::path(c.filecoin_parameter_cache);
}

// [filecoin] preload: each entry's key id, its .params file required on disk now (a missing
// file stops the daemon, naming it: the operator asked for that key).
Result<std::vector<std::string>> filecoin_preload_keys(const engine::DaemonConfig& c) {
  std::vector<std::string> ids;
  for (const std::string& spec : c.filecoin_preload) {
    auto set = circuits::filecoin::parameter_set_of_key_spec(spec);
    if (!set) return set.status().with_context("filecoin.preload");
    const std::filesystem::path file = filecoin_params_dir(c) / set->params_file();
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec))
      return Status(Errc::not_found, "filecoin.preload '" + spec + "': its parameter file " +
                                         file.string() + " is missing");
    ids.push_back(circuits::filecoin::filecoin_key_id(*set));
  }
  return ids;
}

}  // namespace

int run_daemon(const DaemonOptions& opt) {
  engine::DaemonConfig cfg;
  if (!opt.config_path.empty()) {
    auto c = engine::load_config(opt.config_path);
    if (!c) {
      std::fprintf(stderr, "cuzk daemon: %s\n", c.status().to_string().c_str());
      return 2;
    }
    cfg = std::move(*c);
  }
  if (!opt.listen.empty()) cfg.listen = opt.listen;
  if (!opt.log_level.empty()) cfg.log_level = opt.log_level;
  if (!opt.prover.empty()) cfg.prover = opt.prover;
  if (!opt.journal.empty()) cfg.journal = opt.journal == "none" ? "" : opt.journal;
  if (!opt.metrics_listen.empty()) cfg.metrics_listen = opt.metrics_listen;
  // The command line may have replaced what the config file said: check the result again.
  if (auto st = engine::check_daemon_config(cfg); !st.ok()) {
    std::fprintf(stderr, "cuzk daemon: %s\n", st.to_string().c_str());
    return 2;
  }
  if (cfg.prover != "fake" && cfg.prover != "groth16") {
    std::fprintf(stderr, "cuzk daemon: prover must be groth16 or fake\n");
    return 2;
  }
  if (auto st = setup_logging(cfg); !st.ok()) {
    std::fprintf(stderr, "cuzk daemon: %s\n", st.to_string().c_str());
    return 2;
  }
  if (auto st = check_parameter_files(cfg); !st.ok()) {
    spdlog::error("filecoin parameters: {}", st.to_string());
    return 3;
  }
  auto preload_keys = filecoin_preload_keys(cfg);
  if (!preload_keys) {
    spdlog::error("{}", preload_keys.status().to_string());
    return 3;
  }
  if (!preload_keys->empty() && cfg.prover != "groth16") {
    spdlog::error("filecoin.preload needs engine.prover = \"groth16\"");
    return 2;
  }
  // Block the termination signals in every thread; this thread takes them with sigwait.
  sigset_t sigs;
  sigemptyset(&sigs);
  sigaddset(&sigs, SIGINT);
  sigaddset(&sigs, SIGTERM);
  sigaddset(&sigs, SIGQUIT);  // stops gracefully too (no core dump of a prover's memory)
  sigaddset(&sigs, SIGHUP);   // logged and ignored: a closed terminal must not stop proving
  pthread_sigmask(SIG_BLOCK, &sigs, nullptr);

  // The engine's options first: a config error is reported before any device is opened.
  auto eo = engine::engine_options(cfg);
  if (!eo) {
    spdlog::error("config: {}", eo.status().to_string());
    return 2;
  }
  std::vector<std::shared_ptr<engine::PartitionProver>> provers;
  std::vector<engine::DeviceInfo> groth16_devices;
  // Pinned pool per CUDA device for partition vectors: auto = one 2^22 partition's z, a, b, c
  // (4 × 128 MiB, 640 MiB with room for z's extra columns) per partition the pipeline holds
  // between synthesis and the end of its device stage (synthesis workers + GPU workers), at most
  // 1/4 of the memory budget; it comes out of the budget below. With compact witnesses the
  // Filecoin partitions never use it (only the compact witness crosses), so auto keeps room for
  // the partitions at the device stage only (GPU workers), for plain-matrix circuits.
  std::uint64_t partition_pinned = cfg.gpu_partition_pinned_bytes;
  if (partition_pinned == engine::DaemonConfig::kAutoBytes) {
    partition_pinned = 0;
    if (cfg.prover != "fake" && !cfg.cpu_only) {
      const std::uint64_t depth =
          (cfg.gpu_compact_witness ? 0 : eo->synthesis_workers) + eo->gpu_workers_per_device;
      partition_pinned =
          std::min<std::uint64_t>(depth * (std::uint64_t{640} << 20), eo->memory_limit / 4);
    }
  }
  if (cfg.prover == "fake") {
    spdlog::warn("engine.prover = fake: jobs get deterministic stand-in bytes, NOT Groth16 proofs");
    provers.push_back(std::make_shared<engine::FakeProver>(cfg.fake));
  } else {
    // Groth16 on the configured GPUs, else every GPU found (CUDA builds), else the CPU backend.
    engine::Groth16ProverOptions go;
    go.cache_dir = opt.cache_dir.empty() ? cfg.cache_dir : opt.cache_dir;
    go.key_images = cfg.key_images;
    go.compact_witness = cfg.gpu_compact_witness;
    go.h_window_copies = cfg.gpu_h_window_copies;
    go.backends = {opt.backend.empty() ? "auto" : opt.backend};
    go.circom = cfg.circom;
    go.filecoin_params_dir = filecoin_params_dir(cfg).string();
    go.proof_kind_self_verify = cfg.filecoin_self_check == "always";
    go.device = {.arena_bytes = cfg.gpu_arena_bytes,
                 .arena_fraction = cfg.gpu_arena_fraction,
                 .vram_cap_bytes = cfg.gpu_vram_cap_bytes,
                 .pinned_host_bytes = cfg.gpu_pinned_host_bytes,
                 .partition_pinned_bytes = partition_pinned};
    if (cfg.cpu_only && opt.backend.empty()) go.backends = {"cpu"};
    if (!cfg.devices.empty()) {
      go.backends.clear();
      for (int d : cfg.devices) go.backends.push_back("cuda:" + std::to_string(d));
    }
    auto g = engine::Groth16Prover::create(go);
    if (!g) {
      spdlog::error("groth16 prover: {}", g.status().to_string());
      return 3;
    }
    if (cfg.devices.empty()) groth16_devices = (*g)->devices();
    for (const auto& d : (*g)->devices())
      if (auto a = (*g)->device_arena(d.ordinal))
        spdlog::info("device {} ({}): VRAM arena {} MiB ({} MiB in use at start){}", d.ordinal,
                     d.name, a->total >> 20, a->used >> 20,
                     cfg.gpu_vram_cap_bytes
                         ? fmt::format(", capped at {} MiB", cfg.gpu_vram_cap_bytes >> 20)
                         : std::string());
    std::string circom;
    for (const auto& [id, path] : go.circom) circom += ", " + id + " (" + path + ")";
    spdlog::info(
        "engine.prover = groth16 ({}), bench-10..bench-27{} and the Filecoin proof kinds "
        "registered (parameters in {}, self-check {}), key cache {}",
        (*g)->name(), circom, go.filecoin_params_dir, cfg.filecoin_self_check, go.cache_dir);
    provers.push_back(std::shared_ptr<engine::Groth16Prover>(std::move(*g)));
  }
  if (!groth16_devices.empty()) eo->devices = groth16_devices;
  // Each CUDA device reserved its pinned host pools at start: they come out of the one budget.
  if ((cfg.gpu_pinned_host_bytes || partition_pinned) && cfg.prover != "fake") {
    std::uint64_t pools = 0;
    for (const auto& p : provers)
      if (auto* g = dynamic_cast<engine::Groth16Prover*>(p.get()))
        for (const auto& d : g->devices())
          if (g->device_arena(d.ordinal)) pools += cfg.gpu_pinned_host_bytes + partition_pinned;
    if (pools >= eo->memory_limit) {
      spdlog::error(
          "config: gpu.pinned_host_bytes + gpu.partition_pinned_bytes ({} + {} MiB per device) "
          "leave nothing of the memory budget",
          cfg.gpu_pinned_host_bytes >> 20, partition_pinned >> 20);
      return 2;
    }
    eo->memory_limit -= pools;
    if (pools)
      spdlog::info(
          "pinned host pools: {} MiB taken from the memory budget ({} MiB per device for partition "
          "vectors)",
          pools >> 20, partition_pinned >> 20);
  }
  auto eng = engine::Engine::create(*eo, provers);
  if (!eng) {
    spdlog::error("engine: {}", eng.status().to_string());
    return 3;
  }
  auto& engine = **eng;
  ServerOptions so;
  so.listen = cfg.listen;
  so.socket_group = cfg.socket_group;
  so.admin_uids = cfg.admin_uids;
  so.admin_subjects = cfg.admin_subjects;
  so.max_message_bytes = cfg.max_message_bytes;
  auto receive = engine::receive_buffer_bytes(cfg, *eo);
  if (!receive) {
    spdlog::error("config: {}", receive.status().to_string());
    return 2;
  }
  so.receive_buffer_bytes = *receive;
  if (!cfg.tls_cert.empty()) {
    auto cert = read_file(cfg.tls_cert);
    auto key = read_file(cfg.tls_key);
    if (!cert || !key) {
      spdlog::error("tls: {}", (!cert ? cert.status() : key.status()).to_string());
      return 2;
    }
    so.tls.cert_pem = *cert;
    so.tls.key_pem = *key;
    if (!cfg.tls_client_ca.empty()) {
      auto ca = read_file(cfg.tls_client_ca);
      if (!ca) {
        spdlog::error("tls: {}", ca.status().to_string());
        return 2;
      }
      so.tls.client_ca_pem = *ca;
      so.tls.require_client_cert = cfg.tls_require_client_cert;
    }
  }
  for (const auto& a : cfg.listen) {
    if (a.rfind("unix:", 0) == 0) continue;
    std::string host = normalize_tcp_address(a);
    host = host.substr(0, host.rfind(':'));
    bool loopback =
        host == "127.0.0.1" || host == "localhost" || host == "[::1]" || host.rfind("127.", 0) == 0;
    if (!loopback && so.tls.cert_pem.empty())
      spdlog::warn(
          "listening on {} beyond loopback without TLS: anyone who reaches it can submit jobs", a);
  }
  auto server = GrpcServer::start(engine, so);
  if (!server) {
    spdlog::error("server: {}", server.status().to_string());
    return 3;
  }
  std::unique_ptr<HttpMetrics> metrics;
  if (!cfg.metrics_listen.empty()) {
    auto m = HttpMetrics::start(cfg.metrics_listen, [&engine] { return engine.metrics_text(); });
    if (!m) {
      spdlog::error("metrics: {}", m.status().to_string());
      return 3;
    }
    metrics = std::move(*m);
    spdlog::info("metrics on http://{}/metrics (port {})", cfg.metrics_listen, metrics->port());
  }
  std::string addrs;
  for (auto& a : cfg.listen) addrs += (addrs.empty() ? "" : ", ") + a;
  std::string ports;
  for (int p : (*server)->tcp_ports()) ports += (ports.empty() ? "" : ",") + std::to_string(p);
  spdlog::info(
      "cuzk daemon ready: listen [{}]{}{}, budget {} MiB (critical headroom {} MiB, inputs {} "
      "MiB, receive buffers {} MiB), pw={} gw={} devices={}, journal '{}'",
      addrs, ports.empty() ? "" : " tcp ports ", ports, eo->memory_limit >> 20,
      eo->critical_headroom >> 20, eo->input_budget >> 20, so.receive_buffer_bytes >> 20,
      eo->synthesis_workers, eo->gpu_workers_per_device,
      std::max<std::size_t>(1, eo->devices.size()), cfg.journal);

  // [filecoin] preload: the keys load in the background (a 32 GiB PoRep key takes minutes) while
  // the daemon serves; other keys load when a job first needs them.
  std::thread preloader;
  if (!preload_keys->empty())
    preloader = std::thread([&engine, keys = *preload_keys] {
      for (const std::string& id : keys) {
        auto r = engine.preload(id);
        if (r)
          spdlog::info("filecoin.preload: {} loaded in {} ms", id, r->load_ms);
        else
          spdlog::error("filecoin.preload: {}: {}", id, r.status().to_string());
      }
    });
  int sig = 0;
  for (;;) {
    sigwait(&sigs, &sig);
    if (sig != SIGHUP) break;
    spdlog::info(
        "signal {} (SIGHUP): ignored; the daemon keeps running (SIGTERM, SIGINT or "
        "SIGQUIT stop it)",
        sig);
  }
  spdlog::info("signal {}: no new jobs; finishing running jobs for up to {} s", sig,
               cfg.shutdown_grace_s);
  engine.shutdown(std::chrono::seconds(cfg.shutdown_grace_s));
  if (preloader.joinable()) preloader.join();
  (*server)->shutdown(2000);
  metrics.reset();
  spdlog::info("cuzk daemon stopped; unfinished jobs stay in the journal");
  spdlog::default_logger()->flush();
  return 0;
}

}  // namespace cuzk::server
