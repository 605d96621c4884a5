// The cost of a Filecoin family's circuit shape in one process (circuits/filecoin/
// filecoin_family_common.hpp): what the first plan() of a PoRep job pays for its dimensions, and
// what the daemon then holds per circuit. One measurement per process, so run it twice with the
// same cache directory to get the first process (recording, cache written) and the second
// (cache loaded):
//   filecoin_shape_bench shape <2KiB|512MiB|32GiB> <cache_dir> [porep|window|winning|update]
//                                                                 the family's shape (compact form;
//                                                                 default porep)
//   filecoin_shape_bench count <size>                             circuit_info of the blank circuit
//                                                                 (how plan() got them before)
//   filecoin_shape_bench plain <size>                             the plain recording (the former
//                                                                 shape; 7 GB at 32 GiB)
// Printed: wall and CPU seconds of the step, peak RSS of the process, the form's bytes in memory
// and on disk, rows.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>

#include "cuzk/circuits/filecoin/circuit_info.hpp"
#include "cuzk/circuits/filecoin/porep_circuit.hpp"
#include "cuzk/circuits/filecoin/porep_family.hpp"
#include "cuzk/circuits/filecoin/post_family.hpp"
#include "cuzk/circuits/filecoin/update_family.hpp"
#include "cuzk/filecoin/parameter_files.hpp"
#include "cuzk/filecoin/registered_proof.hpp"
#include "cuzk/r1cs/pce_compact.hpp"
#include "cuzk/r1cs/recording_cs.hpp"

namespace {

namespace cf = cuzk::circuits::filecoin;
namespace fc = cuzk::filecoin;

double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

double peak_rss_mb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1e3;  // kB → MB
}

int usage() {
  std::fprintf(stderr,
               "usage: filecoin_shape_bench shape <2KiB|512MiB|32GiB> <cache_dir> "
               "[porep|window|winning|update]\n"
               "       filecoin_shape_bench count|plain <2KiB|512MiB|32GiB>\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) return usage();
  const std::string mode = argv[1], size_name = argv[2];
  fc::SectorSize size;
  const char* proof;
  if (size_name == "2KiB") {
    size = fc::SectorSize::s2KiB, proof = "StackedDrg2KiBV1_1";
  } else if (size_name == "512MiB") {
    size = fc::SectorSize::s512MiB, proof = "StackedDrg512MiBV1_1";
  } else if (size_name == "32GiB") {
    size = fc::SectorSize::s32GiB, proof = "StackedDrg32GiBV1_1";
  } else {
    return usage();
  }
  const auto t0 = std::chrono::steady_clock::now();
  const double c0 = cpu_seconds();
  auto report = [&](const char* what, std::uint64_t rows, double mem_mb, double file_mb) {
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf(
        "%s %s: %.2f s wall, %.2f s CPU, peak RSS %.1f MB, form %.1f MB, file %.1f MB, "
        "%llu rows\n",
        size_name.c_str(), what, wall, cpu_seconds() - c0, peak_rss_mb(), mem_mb, file_mb,
        static_cast<unsigned long long>(rows));
  };
  if (mode == "shape") {
    if (argc < 4) return usage();
    const std::string kind = argc > 4 ? argv[4] : "porep";
    const cf::FilecoinFamilyOptions opt{.cache_dir = argv[3]};
    std::unique_ptr<cf::FilecoinFamily> fam;
    fc::ParameterSet set;
    if (kind == "porep") {
      fam = std::make_unique<cf::PorepFamily>(opt), set = fc::porep_parameters(size);
    } else if (kind == "window" || kind == "winning") {
      const fc::PostKind k = kind == "window" ? fc::PostKind::window : fc::PostKind::winning;
      fam = std::make_unique<cf::PostFamily>(k, opt), set = fc::post_parameters(k, size);
    } else if (kind == "update") {
      fam = std::make_unique<cf::UpdateFamily>(opt), set = fc::update_parameters(size);
    } else {
      return usage();
    }
    const std::string key_id = cf::filecoin_key_id(set);
    auto sh = fam->shape(key_id);
    if (!sh) {
      std::fprintf(stderr, "%s\n", sh.status().to_string().c_str());
      return 1;
    }
    std::error_code ec;
    const auto file = std::filesystem::file_size(fam->compact_cache_path(key_id), ec);
    report(fam->compact_recordings() ? "shape (recorded, cache written)" : "shape (cache loaded)",
           (*sh)->dims().num_constraints, static_cast<double>((*sh)->form_bytes()) / 1e6,
           ec ? 0.0 : static_cast<double>(file) / 1e6);
    return 0;
  }
  cf::PorepCircuit circuit(cf::porep_circuit_shape(fc::seal_proof(proof).value()));
  if (mode == "count") {
    auto info = cf::circuit_info(circuit);
    if (!info) return 1;
    report("count (circuit_info)", info->constraints + info->public_inputs + 1, 0, 0);
    return 0;
  }
  if (mode == "plain") {
    cuzk::RecordingConstraintSystem cs;
    if (!cuzk::synthesize_circuit(circuit, cs).ok()) return 1;
    const cuzk::R1csMatrices m = cs.take().matrices;
    report("plain recording", m.num_constraints, static_cast<double>(m.memory_bytes()) / 1e6, 0);
    return 0;
  }
  return usage();
}
