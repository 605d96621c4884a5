// `cuzk filecoin setup --kind K --registered-proof P --out DIR [--seed S] [--device D]
// [--cache-dir C]`: a Groth16 key of our own for one Filecoin circuit (docs/filecoin/groth16.md).
// Takes one partition's blank circuit in the family's compact PCE form (r1cs/pce_compact.hpp:
// recorded, or loaded from C/<key id>.pce-compact when --cache-dir names a directory holding it;
// the plain matrices are never built), runs groth16/setup.hpp in the bellperson layout with a
// trapdoor drawn from the OS RNG, or from SeededRng(S) with --seed (reproducible, so for tests
// only: anyone with S can forge proofs), the fixed-base multiplications on D ("cpu", the default,
// or "cuda:N"), and writes into DIR (created if missing) the three files rust-fil-proofs would
// look up for P, under their v28 names (filecoin/parameter_files.hpp):
//   v28-<cache id>.params   the proving key (formats/bellperson.hpp), written query by query as
//                           setup computes it (formats/params_writer.hpp), never whole in memory
//   v28-<cache id>.vk       the verifying key
//   v28-<cache id>.meta     {"sector_size":<bytes>}
// Prints the paths, sizes, stage times and peak RSS as JSON. Such keys are not Filecoin's
// published ones: proofs made with them verify only against their own .vk.
#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <system_error>

#include "cuzk/backend_factory/make_fixed_base.hpp"
#include "cuzk/base/clock.hpp"
#include "cuzk/base/process_memory.hpp"
#include "cuzk/base/thread_pool.hpp"
#include "cuzk/circuits/filecoin/filecoin_public_data.hpp"
#include "cuzk/cli/filecoin_cli.hpp"
#include "cuzk/cli/filecoin_groth16.hpp"
#include "cuzk/formats/bellperson.hpp"
#include "cuzk/formats/mapped_file.hpp"
#include "cuzk/formats/params_writer.hpp"
#include "cuzk/groth16/rng.hpp"
#include "cuzk/groth16/setup.hpp"

namespace cuzk::cli {
namespace {

namespace fs = std::filesystem;
constexpr const char* kCmd = "setup";

struct SetupFlags {
  CircuitFlags circuit;
  std::string out;
  std::optional<std::uint64_t> seed;
  std::size_t threads = 0;
  std::string device = "cpu";
  std::string cache_dir;
};

Status write_file(const fs::path& path, std::span<const std::uint8_t> bytes) {
  return write_whole_file(path.string(), bytes);
}

int run_setup(const SetupFlags& f) {
  auto spec = resolve_circuit(f.circuit);
  if (!spec.ok()) return report_error(kCmd, spec.status().to_string());
  std::error_code ec;
  fs::create_directories(f.out, ec);
  if (ec || !fs::is_directory(f.out))
    return report_error(kCmd, "--out " + f.out + ": cannot create the directory" +
                                  (ec ? " (" + ec.message() + ")" : ""));
  ThreadPool pool(f.threads);

  const auto t0 = std::chrono::steady_clock::now();
  // A device other than the CPU first, so a bad --device fails before the recording (52 s at
  // 32 GiB PoRep).
  std::unique_ptr<FixedBaseExecutor> fb;
  if (f.device != "cpu") {
    auto dev = make_fixed_base(f.device, pool, 0, 0);
    if (!dev.ok()) return report_error(kCmd, "--device: " + dev.status().to_string());
    fb = std::move(*dev);
  }
  const double t_device = seconds_since(t0);

  const auto t1 = std::chrono::steady_clock::now();
  // The circuit as the prover's family holds it (one definition of the blank circuit).
  auto family = make_family(*spec, f.out, f.cache_dir);
  auto shape = family->shape(circuits::filecoin::filecoin_key_id(spec->parameters));
  if (!shape.ok()) return report_error(kCmd, shape.status().to_string());
  if (!(*shape)->compact) return report_error(kCmd, "the family gave no compact form");
  const CompactR1cs& c = *(*shape)->compact;
  const bool recorded = family->compact_recordings() > 0;
  const double t_record = seconds_since(t1);

  // The CPU tables' windows from the point counts (any count is computed correctly).
  const std::uint64_t domain = std::bit_ceil(std::max<std::uint64_t>(c.num_constraints, 2));
  if (!fb) fb = make_cpu_fixed_base(pool, 3 * c.num_columns() + domain, c.num_columns());

  OsRng os;
  SeededRng seeded(f.seed.value_or(0));
  Rng& rng = f.seed ? static_cast<Rng&>(seeded) : static_cast<Rng&>(os);
  const Trapdoor td = random_trapdoor(rng);
  const cuzk::filecoin::ParameterSet& set = spec->parameters;
  const fs::path dir(f.out);
  const fs::path params = dir / set.params_file(), vk = dir / set.vk_file(),
                 meta = dir / set.meta_file();
  SetupStats st;
  ParamsFileWriter writer(params.string(), &pool);
  if (Status s = setup_into(
          c, td, writer,
          {.layout = KeyLayout::bellperson, .pool = &pool, .fixed_base = fb.get(), .stats = &st});
      !s.ok())
    return report_error(kCmd, s.to_string());
  const std::uint64_t params_bytes = writer.bytes();

  const auto t2 = std::chrono::steady_clock::now();
  const std::vector<std::uint8_t> vk_img = write_vk(writer.vk());
  if (Status s = write_file(vk, vk_img); !s.ok()) return report_error(kCmd, s.to_string());
  const std::string meta_text = set.meta_json();
  if (Status s = write_file(meta, std::span(reinterpret_cast<const std::uint8_t*>(meta_text.data()),
                                            meta_text.size()));
      !s.ok())
    return report_error(kCmd, s.to_string());
  const double t_small_files = seconds_since(t2);
  const ProcessMemory mem = read_process_memory();

  nlohmann::ordered_json out = {
      {"kind", spec->kind_name()},
      {"registered_proof", spec->proof_name()},
      {"params", params.string()},
      {"vk", vk.string()},
      {"meta", meta.string()},
      {"params_bytes", params_bytes},
      {"vk_bytes", vk_img.size()},
      {"constraints", c.num_constraints - c.num_inputs},  // as circuit-info counts them
      {"public_inputs", c.num_inputs - 1},
      {"aux", c.num_aux},
      {"domain_size", domain},
      {"seeded", f.seed.has_value()},
      {"threads", pool.size()},
      {"device", fb->name()},
      {"compact_form", recorded ? "recorded" : "loaded"},
      {"peak_rss_bytes", mem.peak_rss_bytes},
      {"seconds",
       {{"record", t_record},  // the compact form, recorded or loaded
        {"device", t_device},  // the executor (a CUDA context: its arena)
        {"lagrange", st.lagrange},
        {"columns", st.columns},
        {"scalars", st.scalars},
        {"fixed_base", st.fixed_base},
        {"params_write", st.sink},  // encoding and queueing; the disk writes overlap the rest
        {"setup", st.total},
        {"vk_meta_write", t_small_files},
        {"total", seconds_since(t0)}}},
  };
  std::printf("%s\n", out.dump(2).c_str());
  return 0;
}

}  // namespace

/// Listed in filecoin_cli.cpp.
FilecoinRun add_filecoin_setup(CLI::App& sub) {
  auto f = std::make_shared<SetupFlags>();
  add_circuit_flags(sub, f->circuit);
  sub.add_option("--out", f->out, "parameter directory to write (created if missing)")->required();
  sub.add_option("--seed", f->seed,
                 "trapdoor from this seed (TESTS ONLY: the key is then forgeable); default: the "
                 "OS RNG");
  sub.add_option("--threads", f->threads, "threads (0: all cores)");
  sub.add_option("--device", f->device,
                 "fixed-base multiplications on \"cpu\" (default) or \"cuda:N\"");
  sub.add_option("--cache-dir", f->cache_dir,
                 "keep the circuit's compact form as DIR/<key id>.pce-compact (loaded when "
                 "present); default: recorded, not kept");
  return [f]() { return run_setup(*f); };
}

}  // namespace cuzk::cli
