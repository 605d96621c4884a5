// `cuzk filecoin setup --kind K --registered-proof P --out DIR [--seed S]`: a Groth16 key of our
// own for one Filecoin circuit (docs/filecoin/groth16.md). Records one partition's blank circuit
// (A, B, C with bellperson's input constraints), runs groth16/setup.hpp in the bellperson layout
// with a trapdoor drawn from the OS RNG, or from SeededRng(S) with --seed (reproducible, so for
// tests only: anyone with S can forge proofs), and writes into DIR (created if missing) the three
// files rust-fil-proofs would look up for P, under their v28 names (filecoin/parameter_files.hpp):
//   v28-<cache id>.params   the proving key (formats/bellperson.hpp)
//   v28-<cache id>.vk       the verifying key
//   v28-<cache id>.meta     {"sector_size":<bytes>}
// Prints the paths, sizes and stage times as JSON. Such keys are not Filecoin's published ones:
// proofs made with them verify only against their own .vk.
#include <bit>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <system_error>

#include "cuzk/base/clock.hpp"
#include "cuzk/base/thread_pool.hpp"
#include "cuzk/circuits/filecoin/filecoin_public_data.hpp"
#include "cuzk/cli/filecoin_cli.hpp"
#include "cuzk/cli/filecoin_groth16.hpp"
#include "cuzk/formats/bellperson.hpp"
#include "cuzk/formats/mapped_file.hpp"
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
  // The matrices as the prover's family records them (one definition of the blank circuit).
  auto matrices = make_family(*spec, f.out)
                      ->record_matrices(circuits::filecoin::filecoin_key_id(spec->parameters));
  if (!matrices.ok()) return report_error(kCmd, matrices.status().to_string());
  const R1csMatrices* m = &*matrices;
  const double t_record = seconds_since(t0);

  const auto t1 = std::chrono::steady_clock::now();
  OsRng os;
  SeededRng seeded(f.seed.value_or(0));
  Rng& rng = f.seed ? static_cast<Rng&>(seeded) : static_cast<Rng&>(os);
  auto pk = setup(*m, rng, {.layout = KeyLayout::bellperson, .pool = &pool});
  if (!pk.ok()) return report_error(kCmd, pk.status().to_string());
  const double t_setup = seconds_since(t1);

  const auto t2 = std::chrono::steady_clock::now();
  const cuzk::filecoin::ParameterSet& set = spec->parameters;
  const fs::path dir(f.out);
  const fs::path params = dir / set.params_file(), vk = dir / set.vk_file(),
                 meta = dir / set.meta_file();
  std::uint64_t params_bytes = 0;
  {
    auto img = write_params(*pk, &pool);
    if (!img.ok()) return report_error(kCmd, img.status().to_string());
    params_bytes = img->size();
    if (Status s = write_file(params, *img); !s.ok()) return report_error(kCmd, s.to_string());
  }
  const std::vector<std::uint8_t> vk_img = write_vk(pk->vk);
  if (Status s = write_file(vk, vk_img); !s.ok()) return report_error(kCmd, s.to_string());
  const std::string meta_text = set.meta_json();
  if (Status s = write_file(meta, std::span(reinterpret_cast<const std::uint8_t*>(meta_text.data()),
                                            meta_text.size()));
      !s.ok())
    return report_error(kCmd, s.to_string());
  const double t_write = seconds_since(t2);

  nlohmann::ordered_json out = {
      {"kind", spec->kind_name()},
      {"registered_proof", spec->proof_name()},
      {"params", params.string()},
      {"vk", vk.string()},
      {"meta", meta.string()},
      {"params_bytes", params_bytes},
      {"vk_bytes", vk_img.size()},
      {"constraints", m->num_constraints - m->num_inputs},  // as circuit-info counts them
      {"public_inputs", m->num_inputs - 1},
      {"aux", m->num_aux},
      {"domain_size", pk->domain_size},
      {"seeded", f.seed.has_value()},
      {"threads", pool.size()},
      {"seconds",
       {{"record", t_record},
        {"setup", t_setup},
        {"write", t_write},
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
  return [f]() { return run_setup(*f); };
}

}  // namespace cuzk::cli
