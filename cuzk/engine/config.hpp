// DaemonConfig: the daemon's TOML configuration (docs/config.md documents every key). Parsing is
// strict: an unknown section or key, a wrong type or an unparsable size is an error naming it.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "cuzk/base/status.hpp"
#include "cuzk/engine/engine.hpp"
#include "cuzk/engine/fake_prover.hpp"

namespace cuzk::engine {

struct DaemonConfig {
  // [daemon]
  std::vector<std::string> listen = {
      "unix://cuzk.sock"};     ///< unix://path or host:port (loopback when host empty)
  std::string socket_group;    ///< group of the unix socket (mode 0660 then; else 0600)
  std::string metrics_listen;  ///< HTTP /metrics on host:port; empty = off
  std::uint64_t max_message_bytes = std::uint64_t{256} << 20;
  /// gRPC's memory for requests being received, server-wide (a ResourceQuota); "auto" =
  /// max(2 × max_message_bytes, memory.input_budget).
  std::string receive_buffer_bytes = "auto";
  std::string journal = "cuzk-journal.db";  ///< empty = no journal
  /// Callers that may await, cancel and resubmit every client's jobs (the daemon's own uid may
  /// too): unix-socket peers by uid, mutual-TLS clients by certificate subject ("CN=ops").
  std::vector<std::uint32_t> admin_uids;
  std::vector<std::string> admin_subjects;
  std::uint32_t shutdown_grace_s = 30;
  // [tls]
  std::string tls_cert, tls_key, tls_client_ca;
  bool tls_require_client_cert = true;  ///< with client_ca: reject clients without a certificate
  // [logging]
  std::string log_level = "info";
  std::string log_format = "text";  ///< text | json
  std::string log_file;             ///< empty = stderr
  // [memory]
  std::string memory_budget = "auto";
  std::uint64_t memory_safety_margin = std::uint64_t{5} << 30;
  std::string critical_headroom = "auto";
  std::string input_budget =
      "auto";  ///< auto = budget / 8  ///< auto = two partitions of the largest circuit seen, capped
  // [engine]
  std::string prover = "groth16";        ///< groth16 | fake
  std::string cache_dir = "cuzk-cache";  ///< groth16: generated keys and recorded matrices
  bool key_images = true;  ///< groth16: key images in cache_dir (the SRS manager's mmap tier)
  std::uint32_t synthesis_workers = 0;  ///< 0 = max(1, cores / 2)
  std::uint32_t gpu_workers_per_device = 2;
  bool urgent_worker = true;  ///< one more device worker per device for HIGH/CRITICAL work only
  std::vector<int>
      devices;  ///< empty = every GPU found, else the CPU ([gpu] devices, or engine.devices)
  std::uint32_t synthesis_queue_depth = 0;
  std::uint32_t gpu_queue_depth = 0;
  std::uint32_t max_batch_size = 1;
  std::uint32_t batch_wait_ms = 0;
  bool self_verify = true;
  std::uint32_t job_retention_s = 300;
  std::uint32_t max_pending_per_client = 1024;  ///< per caller identity (docs/api.md, Clients)
  std::uint32_t max_pending_total = 0;
  // [gpu] (devices: "auto" → devices empty; "cpu" → cpu_only; [0, 1] → devices)
  bool cpu_only = false;  ///< the CPU backend even where GPUs exist
  std::uint64_t gpu_arena_bytes =
      0;  ///< VRAM arena per device; 0 = gpu_arena_fraction of free memory
  double gpu_arena_fraction = 0.90;  ///< share of the free VRAM the arena takes (arena_bytes auto)
  std::uint64_t gpu_vram_cap_bytes = 0;  ///< upper bound on each arena (0 = none)
  std::uint64_t gpu_pinned_host_bytes =
      0;  ///< pinned host pool per device for streamed bases (0 = none)
  static constexpr std::uint64_t kAutoBytes = ~std::uint64_t{0};
  /// Pinned host pool per device for partition vectors (0 = none; kAutoBytes = from the pipeline depth).
  std::uint64_t gpu_partition_pinned_bytes = kAutoBytes;
  std::uint64_t gpu_working_reserve_bytes =
      0;  ///< arena bytes key placement leaves for working buffers
  /// Compact-form circuits (Filecoin) synthesize compact witnesses, expanded by the device stage
  /// (Groth16ProverOptions::compact_witness); false: z, a, b, c on the host.
  bool gpu_compact_witness = true;
  /// Most copies of a key's H table a device keeps for the H MSM (1..8; 1: none).
  std::uint32_t gpu_h_window_copies = 4;
  // [circuits."<id>"] devices: circuit id → device ordinals that may prove it (absent: every device)
  std::map<std::string, std::vector<int>> circuit_devices;
  // [circom]: circuit id → snarkjs .zkey (groth16 prover; jobs send the .wtns in vanilla_proof)
  std::map<std::string, std::string> circom;
  // [fake]
  FakeProverOptions fake;
  // [filecoin] Groth16 parameter files (docs/filecoin/parameters.md)
  std::string filecoin_parameter_cache;     ///< empty = $FIL_PROOFS_PARAMETER_CACHE or the default
  std::string filecoin_parameter_manifest;  ///< parameters.json; empty = none
  std::string filecoin_verify_parameters = "off";  ///< off | on-start (needs the manifest)
  /// always: every proof of a Filecoin proof kind is verified before it is answered, whatever
  /// engine.self_verify says; off: never (benchmarks only).
  std::string filecoin_self_check = "always";
  /// Keys loaded at start: "<kind>:<size>" (porep|winning|window|update, "32GiB") or a key id
  /// ("v28-…"); resolved and checked on disk by the daemon. Others load when a job needs them.
  std::vector<std::string> filecoin_preload;
};

/// Parses TOML text; |origin| names it in errors.
Result<DaemonConfig> parse_config(const std::string& toml_text,
                                  const std::string& origin = "config");
Result<DaemonConfig> load_config(const std::string& path);

/// Checks what command-line overrides may have changed after parsing: every listen address
/// (unix:PATH, unix://PATH, [tcp://]HOST:PORT with PORT 0..65535), metrics_listen (HOST:PORT) and
/// logging.level. Errors name the key and the value.
Status check_daemon_config(const DaemonConfig& c);
/// One gRPC listen address as check_daemon_config accepts it.
Status check_listen_address(const std::string& addr);

/// "auto", "16GiB", "512MiB", "4GB", "1000" (bytes) → bytes.
Result<std::uint64_t> parse_size(const std::string& s);

/// MemTotal from /proc/meminfo (0 when unreadable).
std::uint64_t host_memory_bytes();

/// Engine options from a config: resolves "auto" sizes against host memory.
Result<EngineOptions> engine_options(const DaemonConfig& c);
/// daemon.receive_buffer_bytes resolved against |o| (the input budget); at least max_message_bytes.
Result<std::uint64_t> receive_buffer_bytes(const DaemonConfig& c, const EngineOptions& o);

}  // namespace cuzk::engine
