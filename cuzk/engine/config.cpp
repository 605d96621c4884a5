#include "cuzk/engine/config.hpp"

#include <toml++/toml.h>
#include <algorithm>
#include <cctype>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

namespace cuzk::engine {
namespace {

Status type_error(const std::string& origin, const std::string& key, const char* want) {
  return Status(Errc::invalid_argument, origin + ": key '" + key + "' must be " + want);
}

struct Reader {
  const toml::table& t;
  std::string section;
  std::string origin;
  Status err;

  std::string name(const std::string& k) const { return section.empty() ? k : section + "." + k; }

  void str(const char* k, std::string& out) {
    if (!err.ok() || !t.contains(k)) return;
    if (auto v = t[k].value<std::string>())
      out = *v;
    else
      err = type_error(origin, name(k), "a string");
  }
  void boolean(const char* k, bool& out) {
    if (!err.ok() || !t.contains(k)) return;
    if (auto v = t[k].value<bool>())
      out = *v;
    else
      err = type_error(origin, name(k), "true or false");
  }
  template <class U>
  void uint(const char* k, U& out) {
    if (!err.ok() || !t.contains(k)) return;
    auto v = t[k].value<std::int64_t>();
    if (!v || *v < 0 || static_cast<std::uint64_t>(*v) > std::numeric_limits<U>::max()) {
      err = type_error(origin, name(k), "a non-negative integer in range");
      return;
    }
    out = static_cast<U>(*v);
  }
  void size(const char* k, std::uint64_t& out) {
    if (!err.ok() || !t.contains(k)) return;
    if (auto v = t[k].value<std::int64_t>(); v && *v >= 0 && t[k].is_integer()) {
      out = static_cast<std::uint64_t>(*v);
      return;
    }
    auto s = t[k].value<std::string>();
    if (!s) {
      err = type_error(origin, name(k), "a size (\"16GiB\" or bytes)");
      return;
    }
    auto r = parse_size(*s);
    if (!r || *s == "auto") {
      err = type_error(origin, name(k), "a size (\"16GiB\" or bytes)");
      return;
    }
    out = *r;
  }
  // A size that may be "auto": a positive integer (bytes), "auto" or "16GiB"-style text. "0" is
  // refused: it used to mean auto silently.
  void size_or_auto(const char* k, std::string& out) {
    if (!err.ok() || !t.contains(k)) return;
    const char* expected = "a positive size (\"16GiB\", bytes, or \"auto\")";
    if (t[k].is_integer()) {
      auto v = t[k].value<std::int64_t>();
      if (!v || *v <= 0) {
        err = type_error(origin, name(k), expected);
        return;
      }
      out = std::to_string(*v);
      return;
    }
    auto s = t[k].value<std::string>();
    if (!s) {
      err = type_error(origin, name(k), expected);
      return;
    }
    auto r = parse_size(*s);
    if (!r) {
      err = r.status().with_context(origin + ": " + name(k));
      return;
    }
    if (*r == 0 && *s != "auto") {
      err = Status(Errc::invalid_argument, origin + ": " + name(k) + " = \"" + *s +
                                               "\" is zero; write \"auto\" for the default");
      return;
    }
    out = *s;
  }
  void strings(const char* k, std::vector<std::string>& out) {
    if (!err.ok() || !t.contains(k)) return;
    if (auto s = t[k].value<std::string>()) {
      out = {*s};
      return;
    }
    auto* a = t[k].as_array();
    if (!a) {
      err = type_error(origin, name(k), "a string or an array of strings");
      return;
    }
    out.clear();
    for (auto& e : *a) {
      auto s = e.value<std::string>();
      if (!s) {
        err = type_error(origin, name(k), "an array of strings");
        return;
      }
      out.push_back(*s);
    }
  }
  void uids(const char* k, std::vector<std::uint32_t>& out) {
    if (!err.ok() || !t.contains(k)) return;
    auto* a = t[k].as_array();
    if (!a) {
      err = type_error(origin, name(k), "an array of user ids");
      return;
    }
    out.clear();
    for (auto& e : *a) {
      auto v = e.value<std::int64_t>();
      if (!v || *v < 0 || *v > 0xfffffffe) {
        err = type_error(origin, name(k), "an array of user ids (0..4294967294)");
        return;
      }
      out.push_back(static_cast<std::uint32_t>(*v));
    }
  }
  void ints(const char* k, std::vector<int>& out) {
    if (!err.ok() || !t.contains(k)) return;
    auto* a = t[k].as_array();
    if (!a) {
      err = type_error(origin, name(k), "an array of integers");
      return;
    }
    out.clear();
    for (auto& e : *a) {
      auto v = e.value<std::int64_t>();
      if (!v || *v < 0 || *v > 1024) {
        err = type_error(origin, name(k), "an array of device ordinals");
        return;
      }
      out.push_back(static_cast<int>(*v));
    }
  }
  // Rejects keys outside |known|.
  void only(std::initializer_list<const char*> known) {
    if (!err.ok()) return;
    std::set<std::string> k(known.begin(), known.end());
    for (auto& [key, v] : t) {
      if (!k.count(std::string(key.str()))) {
        std::string list;
        for (auto& s : k) list += (list.empty() ? "" : ", ") + s;
        err = Status(
            Errc::invalid_argument,
            origin + ": unknown key '" + name(std::string(key.str())) + "' (known: " + list + ")");
        return;
      }
    }
  }
};

}  // namespace

Result<std::uint64_t> parse_size(const std::string& in) {
  std::string s;
  for (char c : in)
    if (!std::isspace(static_cast<unsigned char>(c))) s.push_back(c);
  if (s == "auto") return std::uint64_t{0};
  std::size_t i = 0;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
  if (i == 0 || i > 19)
    return Status(Errc::invalid_argument,
                  "size '" + in + "' is not a number with an optional unit");
  std::uint64_t n = std::stoull(s.substr(0, i));
  std::string unit = s.substr(i);
  for (auto& c : unit) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::uint64_t mul;
  if (unit.empty() || unit == "b")
    mul = 1;
  else if (unit == "kib")
    mul = 1ull << 10;
  else if (unit == "mib")
    mul = 1ull << 20;
  else if (unit == "gib")
    mul = 1ull << 30;
  else if (unit == "tib")
    mul = 1ull << 40;
  else if (unit == "kb")
    mul = 1000ull;
  else if (unit == "mb")
    mul = 1000ull * 1000;
  else if (unit == "gb")
    mul = 1000ull * 1000 * 1000;
  else if (unit == "tb")
    mul = 1000ull * 1000 * 1000 * 1000;
  else
    return Status(Errc::invalid_argument,
                  "size '" + in + "' has an unknown unit (B, KiB, MiB, GiB, TiB, KB, MB, GB, TB)");
  if (n > UINT64_MAX / mul)
    return Status(Errc::out_of_range, "size '" + in + "' overflows 64 bits");
  return n * mul;
}

std::uint64_t host_memory_bytes() {
  std::ifstream f("/proc/meminfo");
  std::string key;
  std::uint64_t kb = 0;
  std::string unit;
  while (f >> key >> kb >> unit)
    if (key == "MemTotal:") return kb * 1024;
  return 0;
}

Result<DaemonConfig> parse_config(const std::string& text, const std::string& origin) {
  toml::table root;
  try {
    root = toml::parse(text, origin);
  } catch (const toml::parse_error& e) {
    std::ostringstream o;
    o << origin << ':' << e.source().begin.line << ':' << e.source().begin.column << ": "
      << e.description();
    return Status(Errc::bad_encoding, o.str());
  }
  DaemonConfig c;
  for (auto& [key, v] : root) {
    static const std::set<std::string> sections = {"daemon", "tls",     "logging",  "memory",
                                                   "engine", "gpu",     "circuits", "circom",
                                                   "fake",   "filecoin"};
    if (!sections.count(std::string(key.str())) || !v.is_table())
      return Status(
          Errc::invalid_argument,
          origin + ": unknown section '" + std::string(key.str()) +
              "' (known: daemon, tls, logging, memory, engine, gpu, circuits, circom, fake, "
              "filecoin)");
  }
  auto section = [&](const char* name) -> const toml::table& {
    static const toml::table empty;
    auto* t = root[name].as_table();
    return t ? *t : empty;
  };
  {
    Reader r{section("daemon"), "daemon", origin, {}};
    r.only({"listen", "socket_group", "metrics_listen", "max_message_bytes", "receive_buffer_bytes",
            "journal", "shutdown_grace_s", "admin_uids", "admin_subjects"});
    r.strings("listen", c.listen);
    r.str("socket_group", c.socket_group);
    r.str("metrics_listen", c.metrics_listen);
    r.size("max_message_bytes", c.max_message_bytes);
    r.size_or_auto("receive_buffer_bytes", c.receive_buffer_bytes);
    r.str("journal", c.journal);
    r.uint("shutdown_grace_s", c.shutdown_grace_s);
    r.uids("admin_uids", c.admin_uids);
    r.strings("admin_subjects", c.admin_subjects);
    CUZK_RETURN_IF_ERROR(r.err);
    if (c.listen.empty())
      return Status(Errc::invalid_argument, origin + ": daemon.listen names no address");
    if (c.max_message_bytes < (std::uint64_t{128} << 20) ||
        c.max_message_bytes > (std::uint64_t{2047} << 20))
      return Status(Errc::out_of_range,
                    origin + ": daemon.max_message_bytes must be 128MiB..2047MiB");
    if (auto rb = parse_size(c.receive_buffer_bytes); rb && *rb && *rb < c.max_message_bytes)
      return Status(Errc::out_of_range,
                    origin + ": daemon.receive_buffer_bytes must be at least max_message_bytes (" +
                        std::to_string(c.max_message_bytes) + " bytes)");
  }
  {
    Reader r{section("tls"), "tls", origin, {}};
    r.only({"cert", "key", "client_ca", "require_client_cert"});
    r.str("cert", c.tls_cert);
    r.str("key", c.tls_key);
    r.str("client_ca", c.tls_client_ca);
    r.boolean("require_client_cert", c.tls_require_client_cert);
    CUZK_RETURN_IF_ERROR(r.err);
    if (c.tls_cert.empty() != c.tls_key.empty())
      return Status(Errc::invalid_argument, origin + ": tls.cert and tls.key go together");
    if (!c.tls_client_ca.empty() && c.tls_cert.empty())
      return Status(Errc::invalid_argument, origin + ": tls.client_ca needs tls.cert and tls.key");
  }
  {
    Reader r{section("logging"), "logging", origin, {}};
    r.only({"level", "format", "file"});
    r.str("level", c.log_level);
    r.str("format", c.log_format);
    r.str("file", c.log_file);
    CUZK_RETURN_IF_ERROR(r.err);
    if (c.log_format != "text" && c.log_format != "json")
      return Status(Errc::invalid_argument, origin + ": logging.format must be text or json");
  }
  {
    Reader r{section("memory"), "memory", origin, {}};
    r.only({"budget", "safety_margin", "critical_headroom", "input_budget"});
    r.size_or_auto("budget", c.memory_budget);
    r.size("safety_margin", c.memory_safety_margin);
    r.size_or_auto("critical_headroom", c.critical_headroom);
    r.size_or_auto("input_budget", c.input_budget);
    CUZK_RETURN_IF_ERROR(r.err);
  }
  {
    Reader r{section("engine"), "engine", origin, {}};
    r.only({"prover", "cache_dir", "synthesis_workers", "gpu_workers_per_device", "devices",
            "synthesis_queue_depth", "gpu_queue_depth", "max_batch_size", "batch_wait_ms",
            "self_verify", "job_retention_s", "max_pending_per_client", "max_pending_total",
            "key_images", "urgent_worker"});
    r.str("prover", c.prover);
    r.str("cache_dir", c.cache_dir);
    r.boolean("key_images", c.key_images);
    r.uint("synthesis_workers", c.synthesis_workers);
    r.uint("gpu_workers_per_device", c.gpu_workers_per_device);
    r.boolean("urgent_worker", c.urgent_worker);
    r.ints("devices", c.devices);
    r.uint("synthesis_queue_depth", c.synthesis_queue_depth);
    r.uint("gpu_queue_depth", c.gpu_queue_depth);
    r.uint("max_batch_size", c.max_batch_size);
    r.uint("batch_wait_ms", c.batch_wait_ms);
    r.boolean("self_verify", c.self_verify);
    r.uint("job_retention_s", c.job_retention_s);
    r.uint("max_pending_per_client", c.max_pending_per_client);
    r.uint("max_pending_total", c.max_pending_total);
    CUZK_RETURN_IF_ERROR(r.err);
    if (c.prover != "groth16" && c.prover != "fake")
      return Status(Errc::invalid_argument, origin + ": engine.prover must be groth16 or fake");
    if (c.max_batch_size == 0 || c.max_batch_size > 64)
      return Status(Errc::out_of_range, origin + ": engine.max_batch_size must be 1..64");
    if (c.gpu_workers_per_device == 0 || c.gpu_workers_per_device > 8)
      return Status(Errc::out_of_range, origin + ": engine.gpu_workers_per_device must be 1..8");
  }
  {
    const toml::table& t = section("gpu");
    Reader r{t, "gpu", origin, {}};
    r.only({"devices", "arena_bytes", "arena_fraction", "vram_cap_bytes", "working_reserve_bytes",
            "pinned_host_bytes", "partition_pinned_bytes", "compact_witness", "h_window_copies"});
    CUZK_RETURN_IF_ERROR(r.err);
    if (t.contains("devices")) {
      if (!c.devices.empty())
        return Status(Errc::invalid_argument,
                      origin + ": gpu.devices and engine.devices both set (use gpu.devices)");
      if (auto s = t["devices"].value<std::string>()) {
        if (*s == "cpu")
          c.cpu_only = true;
        else if (*s != "auto")
          return type_error(origin, "gpu.devices",
                            "\"auto\", \"cpu\" or an array of device ordinals");
      } else {
        r.ints("devices", c.devices);
        CUZK_RETURN_IF_ERROR(r.err);
        if (c.devices.empty())
          return type_error(origin, "gpu.devices",
                            "\"auto\", \"cpu\" or a non-empty array of device ordinals");
      }
    }
    const bool has_bytes = t.contains("arena_bytes") && t["arena_bytes"].value<std::string>() !=
                                                            std::optional<std::string>("auto");
    if (has_bytes) r.size("arena_bytes", c.gpu_arena_bytes);
    CUZK_RETURN_IF_ERROR(r.err);
    if (t.contains("arena_fraction")) {
      auto f = t["arena_fraction"].value<double>();
      if (!f || !(*f > 0.0 && *f <= 0.98))
        return type_error(origin, "gpu.arena_fraction", "a number in (0, 0.98]");
      if (has_bytes)
        return Status(Errc::invalid_argument,
                      origin + ": gpu.arena_bytes and gpu.arena_fraction exclude each other");
      c.gpu_arena_fraction = *f;
    }
    if (has_bytes && c.gpu_arena_bytes == 0)
      return type_error(origin, "gpu.arena_bytes", "\"auto\" or a size above 0");
    r.size("vram_cap_bytes", c.gpu_vram_cap_bytes);
    r.size("working_reserve_bytes", c.gpu_working_reserve_bytes);
    r.size("pinned_host_bytes", c.gpu_pinned_host_bytes);
    r.boolean("compact_witness", c.gpu_compact_witness);
    r.uint("h_window_copies", c.gpu_h_window_copies);
    if (t.contains("partition_pinned_bytes") &&
        t["partition_pinned_bytes"].value<std::string>() != std::optional<std::string>("auto"))
      r.size("partition_pinned_bytes", c.gpu_partition_pinned_bytes);
    CUZK_RETURN_IF_ERROR(r.err);
    if (c.gpu_h_window_copies < 1 || c.gpu_h_window_copies > 8)
      return Status(Errc::out_of_range, origin + ": gpu.h_window_copies must be 1..8");
  }
  // [circuits."<id>"] devices = [0, 2]: the devices that may prove a circuit (affinity).
  for (auto& [key, v] : section("circuits")) {
    const std::string id(key.str());
    const toml::table* t = v.as_table();
    if (!t) return type_error(origin, "circuits." + id, "a table with devices = [ordinals]");
    Reader r{*t, "circuits." + id, origin, {}};
    r.only({"devices"});
    std::vector<int> devs;
    r.ints("devices", devs);
    CUZK_RETURN_IF_ERROR(r.err);
    if (devs.empty())
      return Status(Errc::invalid_argument,
                    origin + ": circuits." + id + ".devices must name at least one device");
    c.circuit_devices[id] = devs;
  }
  for (auto& [key, v] : section("circom")) {
    const std::string id(key.str());
    auto path = v.value<std::string>();
    if (!path || path->empty()) return type_error(origin, "circom." + id, "the path of a .zkey");
    if (id.rfind("bench-", 0) == 0)
      return Status(Errc::invalid_argument,
                    origin + ": circom." + id + ": bench-* ids are reserved");
    c.circom[id] = *path;
  }
  {
    Reader r{section("fake"), "fake", origin, {}};
    r.only({"synth_ms", "gpu_ms", "key_load_ms", "verify_ms", "default_partitions"});
    r.uint("synth_ms", c.fake.synth_ms);
    r.uint("gpu_ms", c.fake.gpu_ms);
    r.uint("key_load_ms", c.fake.key_load_ms);
    r.uint("verify_ms", c.fake.verify_ms);
    r.uint("default_partitions", c.fake.default_partitions);
    CUZK_RETURN_IF_ERROR(r.err);
    if (c.fake.default_partitions == 0 || c.fake.default_partitions > 64)
      return Status(Errc::out_of_range, origin + ": fake.default_partitions must be 1..64");
  }
  {
    Reader r{section("filecoin"), "filecoin", origin, {}};
    r.only({"parameter_cache", "parameter_manifest", "verify_parameters", "self_check", "preload"});
    r.str("parameter_cache", c.filecoin_parameter_cache);
    r.str("parameter_manifest", c.filecoin_parameter_manifest);
    r.str("verify_parameters", c.filecoin_verify_parameters);
    r.str("self_check", c.filecoin_self_check);
    r.strings("preload", c.filecoin_preload);
    CUZK_RETURN_IF_ERROR(r.err);
    if (c.filecoin_self_check != "always" && c.filecoin_self_check != "off")
      return Status(Errc::invalid_argument,
                    origin + ": filecoin.self_check must be \"always\" or \"off\"");
    for (const std::string& k : c.filecoin_preload)
      if (k.empty())
        return Status(Errc::invalid_argument,
                      origin +
                          ": filecoin.preload: an empty entry (write \"porep:32GiB\" or a "
                          "key id \"v28-…\")");
    if (c.filecoin_verify_parameters != "off" && c.filecoin_verify_parameters != "on-start")
      return Status(Errc::invalid_argument,
                    origin + ": filecoin.verify_parameters must be \"off\" or \"on-start\"");
    if (c.filecoin_verify_parameters == "on-start" && c.filecoin_parameter_manifest.empty())
      return Status(Errc::invalid_argument, origin +
                                                ": filecoin.verify_parameters = \"on-start\" needs "
                                                "filecoin.parameter_manifest (a parameters.json)");
  }
  if (auto st = check_daemon_config(c); !st.ok()) return st.with_context(origin);
  return c;
}

Result<DaemonConfig> load_config(const std::string& path) {
  std::ifstream f(path);
  if (!f) return Status(Errc::io_error, "cannot read config file " + path);
  std::stringstream ss;
  ss << f.rdbuf();
  return parse_config(ss.str(), path);
}

Result<EngineOptions> engine_options(const DaemonConfig& c) {
  EngineOptions o;
  auto budget = parse_size(c.memory_budget);
  if (!budget) return budget.status();
  if (*budget == 0) {
    std::uint64_t total = host_memory_bytes();
    if (total == 0)
      return Status(Errc::io_error,
                    "memory.budget = auto but /proc/meminfo is unreadable; set a size");
    if (total <= c.memory_safety_margin)
      return Status(Errc::out_of_range, "memory.safety_margin is larger than the host memory");
    *budget = total - c.memory_safety_margin;
  }
  o.memory_limit = *budget;
  auto head = parse_size(c.critical_headroom);
  if (!head) return head.status();
  // auto: 1/16 of the budget keeps room for a small CRITICAL job (WinningPoSt partitions are
  // ~0.5 GiB, the 2^22 bench partition 0.5 GiB) without starving bulk work.
  o.critical_headroom = *head ? *head : o.memory_limit / 16;
  if (o.critical_headroom >= o.memory_limit)
    return Status(Errc::out_of_range, "memory.critical_headroom must be below the budget");
  auto inputs = parse_size(c.input_budget);
  if (!inputs) return inputs.status();
  // auto: 1/8 of the budget for job inputs (a PoRep C1 envelope is ~50 MB).
  o.input_budget = *inputs ? *inputs : o.memory_limit / 8;
  if (o.input_budget + o.critical_headroom >= o.memory_limit)
    return Status(Errc::out_of_range,
                  "memory.input_budget plus critical_headroom must be below the budget");
  unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  o.synthesis_workers = c.synthesis_workers ? c.synthesis_workers : std::max(1u, cores / 2);
  o.gpu_workers_per_device = c.gpu_workers_per_device;
  o.urgent_worker = c.urgent_worker;
  o.synthesis_queue_depth = c.synthesis_queue_depth;
  o.gpu_queue_depth = c.gpu_queue_depth;
  o.self_verify = c.self_verify;
  o.max_batch_size = c.max_batch_size;
  o.batch_wait = std::chrono::milliseconds(c.batch_wait_ms);
  o.retention = std::chrono::seconds(c.job_retention_s);
  o.max_pending_per_client = c.max_pending_per_client;
  o.max_pending_total = c.max_pending_total;
  o.journal_path = c.journal;
  o.device_reserve_bytes = c.gpu_working_reserve_bytes;
  o.circuit_devices = c.circuit_devices;
  for (int d : c.devices)
    o.devices.push_back(DeviceInfo{.ordinal = d, .name = "device " + std::to_string(d)});
  return o;
}

Result<std::uint64_t> receive_buffer_bytes(const DaemonConfig& c, const EngineOptions& o) {
  auto n = parse_size(c.receive_buffer_bytes);
  if (!n) return n.status().with_context("daemon.receive_buffer_bytes");
  // auto: room to receive two requests of the largest size at once, or as many bytes as the
  // engine may hold as inputs when that is more.
  if (*n == 0) return std::max(2 * c.max_message_bytes, o.input_budget);
  if (*n < c.max_message_bytes)
    return Status(Errc::out_of_range,
                  "daemon.receive_buffer_bytes must be at least max_message_bytes");
  return *n;
}

Status check_listen_address(const std::string& addr) {
  auto bad = [&](const std::string& why) {
    return Status(Errc::invalid_argument, "listen address '" + addr + "' " + why +
                                              " (unix:PATH, unix://PATH or [tcp://]HOST:PORT)");
  };
  for (const char* scheme : {"unix://", "unix:"})
    if (addr.rfind(scheme, 0) == 0) {
      const std::size_t path = addr.size() - std::strlen(scheme);
      if (path == 0) return bad("has an empty socket path");
      if (path >= 108) return bad("has a socket path longer than 107 bytes");
      return {};
    }
  std::string a = addr.rfind("tcp://", 0) == 0 ? addr.substr(6) : addr;
  const auto colon = a.rfind(':');
  if (colon == std::string::npos) return bad("has no port");
  const std::string port = a.substr(colon + 1);
  if (port.empty() || port.size() > 5 ||
      !std::all_of(port.begin(), port.end(), [](char ch) { return ch >= '0' && ch <= '9'; }))
    return bad("has a port that is not a number");
  if (std::stoul(port) > 65535) return bad("has a port above 65535");
  const std::string host = a.substr(0, colon);
  if (host.find_first_of(" /\t\n") != std::string::npos) return bad("has a malformed host");
  return {};
}

Status check_daemon_config(const DaemonConfig& c) {
  for (const auto& a : c.listen)
    if (auto st = check_listen_address(a); !st.ok()) return st.with_context("daemon.listen");
  if (!c.metrics_listen.empty()) {
    if (c.metrics_listen.rfind("unix:", 0) == 0)
      return Status(Errc::invalid_argument,
                    "daemon.metrics_listen '" + c.metrics_listen + "' must be HOST:PORT");
    if (auto st = check_listen_address(c.metrics_listen); !st.ok())
      return st.with_context("daemon.metrics_listen");
  }
  static const std::set<std::string> levels = {"trace", "debug",    "info", "warn",
                                               "error", "critical", "off"};
  if (!levels.count(c.log_level))
    return Status(Errc::invalid_argument,
                  "logging.level '" + c.log_level +
                      "' must be trace, debug, info, warn, error, critical or off");
  return {};
}

}  // namespace cuzk::engine
