// Config parsing: defaults, every section, strict rejection of unknown keys and bad values.
#include "cuzk/engine/config.hpp"

#include <gtest/gtest.h>

namespace cuzk::engine {
namespace {

TEST(Config, EmptyGivesDefaults) {
  auto c = parse_config("");
  ASSERT_TRUE(c.ok()) << c.status().to_string();
  EXPECT_EQ(c->listen, std::vector<std::string>{"unix://cuzk.sock"});
  EXPECT_EQ(c->max_message_bytes, 256u << 20);
  EXPECT_EQ(c->max_pending_per_client, 1024u);  // one process may keep hundreds of jobs in flight
  EXPECT_TRUE(c->admin_uids.empty());
  EXPECT_EQ(c->prover, "groth16");
  EXPECT_TRUE(c->self_verify);
}

TEST(Config, AllSections) {
  auto c = parse_config(R"(
[daemon]
listen = ["unix:///tmp/x.sock", "127.0.0.1:9820"]
socket_group = "curio"
metrics_listen = "127.0.0.1:9821"
max_message_bytes = "512MiB"
journal = ""
shutdown_grace_s = 5
admin_uids = [0, 1000]
admin_subjects = ["CN=ops"]
[tls]
cert = "s.pem"
key = "s.key"
client_ca = "ca.pem"
require_client_cert = true
[logging]
level = "debug"
format = "json"
[memory]
budget = "64GiB"
safety_margin = "2GiB"
critical_headroom = "4GiB"
[engine]
prover = "fake"
synthesis_workers = 6
gpu_workers_per_device = 1
urgent_worker = false
devices = [0, 1]
self_verify = false
job_retention_s = 60
max_pending_per_client = 3
[fake]
synth_ms = 7
gpu_ms = 9
default_partitions = 4
)");
  ASSERT_TRUE(c.ok()) << c.status().to_string();
  EXPECT_EQ(c->listen.size(), 2u);
  EXPECT_EQ(c->max_message_bytes, 512u << 20);
  EXPECT_EQ(c->tls_client_ca, "ca.pem");
  EXPECT_EQ(c->admin_uids, (std::vector<std::uint32_t>{0, 1000}));
  EXPECT_EQ(c->admin_subjects, std::vector<std::string>{"CN=ops"});
  EXPECT_EQ(c->fake.gpu_ms, 9u);
  auto o = engine_options(*c);
  ASSERT_TRUE(o.ok()) << o.status().to_string();
  EXPECT_EQ(o->memory_limit, 64ull << 30);
  EXPECT_EQ(o->critical_headroom, 4ull << 30);
  EXPECT_EQ(o->devices.size(), 2u);
  EXPECT_EQ(o->synthesis_workers, 6u);
  EXPECT_FALSE(o->self_verify);
  EXPECT_FALSE(o->urgent_worker);
}

TEST(Config, RejectsUnknownKeysAndBadValues) {
  auto bad = [](const char* text, const char* needle) {
    auto c = parse_config(text, "t.toml");
    ASSERT_FALSE(c.ok()) << text;
    EXPECT_NE(c.status().message().find(needle), std::string::npos) << c.status().message();
  };
  bad("[daemon]\nlisten_addr = \"x\"\n", "daemon.listen_addr");
  bad("[nonsense]\nx = 1\n", "unknown section 'nonsense'");
  bad("[memory]\nbudget = \"12 parsecs\"\n", "memory.budget");
  bad("[engine]\nsynthesis_workers = -1\n", "engine.synthesis_workers");
  bad("[engine]\nprover = \"magic\"\n", "engine.prover");
  bad("[logging]\nlevel = \"loud\"\n", "logging.level");
  bad("[tls]\ncert = \"a\"\n", "tls.cert and tls.key");
  bad("[daemon]\nmax_message_bytes = \"1MiB\"\n", "max_message_bytes");
  bad("[daemon\n", "t.toml:");
  bad("top = 1\n", "unknown section 'top'");
}

TEST(Config, ListenAddressesLogLevelAndMemorySizes) {
  auto bad = [](const char* text, const char* needle) {
    auto c = parse_config(text, "t.toml");
    ASSERT_FALSE(c.ok()) << text;
    EXPECT_NE(c.status().message().find(needle), std::string::npos) << c.status().message();
  };
  bad("[daemon]\nlisten = \"127.0.0.1:99999\"\n", "port above 65535");
  bad("[daemon]\nlisten = \"tcp://127.0.0.1:9x\"\n", "not a number");
  bad("[daemon]\nlisten = \"127.0.0.1\"\n", "has no port");
  bad("[daemon]\nlisten = \"unix://\"\n", "empty socket path");
  bad("[daemon]\nmetrics_listen = \"0.0.0.0:70000\"\n", "daemon.metrics_listen");
  bad("[memory]\nbudget = \"0\"\n", "write \"auto\"");
  bad("[memory]\nbudget = 0\n", "memory.budget");
  bad("[memory]\ninput_budget = \"0GiB\"\n", "memory.input_budget");
  bad("[daemon]\nreceive_buffer_bytes = \"64MiB\"\n", "at least max_message_bytes");
  bad("[daemon]\nadmin_uids = [-1]\n", "daemon.admin_uids");
  bad("[daemon]\nadmin_uids = \"root\"\n", "daemon.admin_uids");
  bad("[daemon]\nreceive_buffer_bytes = 0\n", "daemon.receive_buffer_bytes");
  {  // auto: two maximal messages, or the input budget when larger
    auto c = parse_config("[memory]\nbudget = \"64GiB\"\n");
    ASSERT_TRUE(c.ok());
    auto o = engine_options(*c);
    ASSERT_TRUE(o.ok());
    EXPECT_EQ(*receive_buffer_bytes(*c, *o), 8ull << 30);  // input budget = 64 GiB / 8
    o->input_budget = 1 << 20;
    EXPECT_EQ(*receive_buffer_bytes(*c, *o), 512ull << 20);
    auto d = parse_config("[daemon]\nreceive_buffer_bytes = \"1GiB\"\n");
    ASSERT_TRUE(d.ok()) << d.status().to_string();
    EXPECT_EQ(*receive_buffer_bytes(*d, *o), 1ull << 30);
  }
  EXPECT_TRUE(parse_config("[daemon]\nlisten = [\"unix:/tmp/a.sock\", \"tcp://[::1]:9820\", "
                           "\":0\", \"127.0.0.1:65535\"]\n")
                  .ok());
  // docs/config.md allows plain integers (bytes) for [memory] sizes.
  auto c = parse_config("[memory]\nbudget = 4294967296\ncritical_headroom = 268435456\n");
  ASSERT_TRUE(c.ok()) << c.status().to_string();
  auto o = engine_options(*c);
  ASSERT_TRUE(o.ok()) << o.status().to_string();
  EXPECT_EQ(o->memory_limit, 4ull << 30);
  EXPECT_EQ(o->critical_headroom, 256ull << 20);
  // What a command-line override changes is checked again (cuzk daemon --log-level bogus).
  DaemonConfig d;
  EXPECT_TRUE(check_daemon_config(d).ok());
  d.log_level = "bogus";
  EXPECT_NE(check_daemon_config(d).message().find("logging.level 'bogus'"), std::string::npos);
  d.log_level = "info";
  d.listen = {"127.0.0.1:99999"};
  EXPECT_FALSE(check_daemon_config(d).ok());
}

TEST(Config, Sizes) {
  EXPECT_EQ(*parse_size("16GiB"), 16ull << 30);
  EXPECT_EQ(*parse_size("1 GB"), 1000000000ull);
  EXPECT_EQ(*parse_size("123"), 123u);
  EXPECT_EQ(*parse_size("auto"), 0u);
  EXPECT_FALSE(parse_size("GiB").ok());
  EXPECT_FALSE(parse_size("99999999999TiB").ok());
  EXPECT_FALSE(parse_size("-5").ok());
}

TEST(Config, GpuSection) {
  auto d = parse_config("");
  ASSERT_TRUE(d.ok());
  EXPECT_FALSE(d->cpu_only);
  EXPECT_TRUE(d->devices.empty());
  EXPECT_EQ(d->gpu_arena_bytes, 0u);
  EXPECT_DOUBLE_EQ(d->gpu_arena_fraction, 0.90);
  EXPECT_EQ(d->gpu_vram_cap_bytes, 0u);
  EXPECT_EQ(d->gpu_pinned_host_bytes, 0u);

  auto c = parse_config(
      "[gpu]\ndevices = [0, 2]\narena_bytes = \"40GiB\"\nvram_cap_bytes = "
      "\"16GiB\"\nworking_reserve_bytes = \"6GiB\"\n"
      "pinned_host_bytes = \"8GiB\"\n");
  ASSERT_TRUE(c.ok()) << c.status().to_string();
  EXPECT_EQ(c->gpu_working_reserve_bytes, 6ull << 30);
  EXPECT_EQ(c->gpu_pinned_host_bytes, 8ull << 30);
  auto eo = engine_options(*c);
  ASSERT_TRUE(eo.ok()) << eo.status().to_string();
  EXPECT_EQ(eo->device_reserve_bytes, 6ull << 30);
  EXPECT_EQ(c->devices, (std::vector<int>{0, 2}));
  EXPECT_EQ(c->gpu_arena_bytes, 40ull << 30);
  EXPECT_EQ(c->gpu_vram_cap_bytes, 16ull << 30);

  c = parse_config("[gpu]\ndevices = \"cpu\"\narena_fraction = 0.5\narena_bytes = \"auto\"\n");
  ASSERT_TRUE(c.ok()) << c.status().to_string();
  EXPECT_TRUE(c->cpu_only);
  EXPECT_DOUBLE_EQ(c->gpu_arena_fraction, 0.5);
  EXPECT_EQ(c->gpu_arena_bytes, 0u);
  c = parse_config("[gpu]\ndevices = \"auto\"\n");
  ASSERT_TRUE(c.ok()) << c.status().to_string();
  EXPECT_FALSE(c->cpu_only);
  EXPECT_TRUE(c->devices.empty());
}

TEST(Config, GpuSectionBadValuesNameTheKey) {
  struct Case {
    const char* toml;
    const char* needle;
  } cases[] = {
      {"[gpu]\ndevices = \"all\"\n", "gpu.devices"},
      {"[gpu]\ndevices = []\n", "gpu.devices"},
      {"[gpu]\ndevices = [-1]\n", "gpu.devices"},
      {"[gpu]\narena_bytes = \"lots\"\n", "gpu.arena_bytes"},
      {"[gpu]\narena_bytes = 0\n", "gpu.arena_bytes"},
      {"[gpu]\narena_fraction = 1.5\n", "gpu.arena_fraction"},
      {"[gpu]\narena_fraction = \"half\"\n", "gpu.arena_fraction"},
      {"[gpu]\narena_bytes = \"8GiB\"\narena_fraction = 0.5\n", "exclude each other"},
      {"[gpu]\nvram_cap_bytes = -5\n", "gpu.vram_cap_bytes"},
      {"[gpu]\nworking_reserve_bytes = \"6 apples\"\n", "gpu.working_reserve_bytes"},
      {"[gpu]\nvram_cap = \"16GiB\"\n", "unknown key 'gpu.vram_cap'"},
      {"[engine]\ndevices = [0]\n[gpu]\ndevices = [1]\n", "both set"},
  };
  for (const auto& t : cases) {
    auto c = parse_config(t.toml, "cuzk.toml");
    ASSERT_FALSE(c.ok()) << t.toml;
    EXPECT_NE(c.status().message().find(t.needle), std::string::npos)
        << t.toml << " → " << c.status().to_string();
  }
}

TEST(Config, FilecoinSection) {
  auto d = parse_config("");
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->filecoin_parameter_cache, "");  // $FIL_PROOFS_PARAMETER_CACHE or the default
  EXPECT_EQ(d->filecoin_parameter_manifest, "");
  EXPECT_EQ(d->filecoin_verify_parameters, "off");
  EXPECT_EQ(d->filecoin_self_check, "always");
  EXPECT_TRUE(d->filecoin_preload.empty());

  auto c = parse_config(
      "[filecoin]\nparameter_cache = \"/srv/params\"\nparameter_manifest = "
      "\"/srv/parameters.json\"\nverify_parameters = \"on-start\"\nself_check = \"off\"\n"
      "preload = [\"porep:32GiB\", \"v28-x\"]\n");
  ASSERT_TRUE(c.ok()) << c.status().to_string();
  EXPECT_EQ(c->filecoin_parameter_cache, "/srv/params");
  EXPECT_EQ(c->filecoin_parameter_manifest, "/srv/parameters.json");
  EXPECT_EQ(c->filecoin_verify_parameters, "on-start");
  EXPECT_EQ(c->filecoin_self_check, "off");
  EXPECT_EQ(c->filecoin_preload, (std::vector<std::string>{"porep:32GiB", "v28-x"}));

  struct Case {
    const char* toml;
    const char* needle;
  } cases[] = {
      {"[filecoin]\nverify_parameters = \"always\"\n", "filecoin.verify_parameters must be"},
      {"[filecoin]\nverify_parameters = true\n", "filecoin.verify_parameters' must be a string"},
      {"[filecoin]\nverify_parameters = \"on-start\"\n", "needs filecoin.parameter_manifest"},
      {"[filecoin]\nparameter_cache = 5\n", "filecoin.parameter_cache"},
      {"[filecoin]\nparams = \"/x\"\n", "unknown key 'filecoin.params'"},
      {"[filecoin]\nself_check = \"on\"\n", "filecoin.self_check must be"},
      {"[filecoin]\npreload = [\"\"]\n", "filecoin.preload: an empty entry"},
      {"[filecoin]\npreload = 3\n", "filecoin.preload"},
  };
  for (const auto& t : cases) {
    auto e = parse_config(t.toml, "cuzk.toml");
    ASSERT_FALSE(e.ok()) << t.toml;
    EXPECT_NE(e.status().message().find(t.needle), std::string::npos)
        << t.toml << " → " << e.status().to_string();
  }
}

TEST(Config, GpuCompactWitness) {
  auto d = parse_config("");
  ASSERT_TRUE(d.ok());
  EXPECT_TRUE(d->gpu_compact_witness);  // on by default
  auto off = parse_config("[gpu]\ncompact_witness = false\n");
  ASSERT_TRUE(off.ok()) << off.status().to_string();
  EXPECT_FALSE(off->gpu_compact_witness);
  auto bad = parse_config("[gpu]\ncompact_witness = \"yes\"\n", "t.toml");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("gpu.compact_witness"), std::string::npos)
      << bad.status().to_string();
}

TEST(Config, GpuHWindowCopies) {
  auto d = parse_config("");
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->gpu_h_window_copies, 4u);  // up to 4 by default
  auto none = parse_config("[gpu]\nh_window_copies = 1\n");
  ASSERT_TRUE(none.ok()) << none.status().to_string();
  EXPECT_EQ(none->gpu_h_window_copies, 1u);
  for (const char* bad : {"[gpu]\nh_window_copies = 0\n", "[gpu]\nh_window_copies = 9\n",
                          "[gpu]\nh_window_copies = \"auto\"\n"}) {
    auto e = parse_config(bad, "t.toml");
    ASSERT_FALSE(e.ok()) << bad;
    EXPECT_NE(e.status().message().find("gpu.h_window_copies"), std::string::npos)
        << e.status().to_string();
  }
}

}  // namespace
}  // namespace cuzk::engine
