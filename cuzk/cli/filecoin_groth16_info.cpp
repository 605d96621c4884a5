// `cuzk filecoin circuit-info --kind K --registered-proof P`: one partition's circuit counted
// without values (circuits/filecoin/circuit_info.hpp; docs/filecoin/groth16.md). Prints
//   {"constraints": …, "public_inputs": …, "aux": …, …}
// constraints as the circuit enforces them (without bellperson's input constraints), public
// inputs without ONE; then the kind, proof, partition count, the evaluation domain the prover
// uses (2^k ≥ constraints + inputs + 1), the non-zeros and densities, and the v28 file names.
#include <bit>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

#include "cuzk/circuits/filecoin/circuit_info.hpp"
#include "cuzk/cli/filecoin_cli.hpp"
#include "cuzk/cli/filecoin_groth16.hpp"
#include "cuzk/filecoin/porep_challenges.hpp"

namespace cuzk::cli {
namespace {

constexpr const char* kCmd = "circuit-info";

// Partitions of one proof of |spec|'s kind (window: per sector_count sectors, printed apart).
unsigned partitions_of(const FilecoinCircuitSpec& spec) {
  switch (spec.kind) {
    case FilecoinKind::porep:
      return cuzk::filecoin::porep_challenge_config(spec.seal).partitions;
    case FilecoinKind::winning:
    case FilecoinKind::window:
      return 1;
    case FilecoinKind::update:
      break;
  }
  return spec.update.partitions;
}

int run_info(const CircuitFlags& f) {
  auto spec = resolve_circuit(f);
  if (!spec.ok()) return report_error(kCmd, spec.status().to_string());
  auto circuit = spec->blank_circuit();
  if (!circuit.ok()) return report_error(kCmd, circuit.status().to_string());
  auto info = circuits::filecoin::circuit_info(**circuit);
  if (!info.ok()) return report_error(kCmd, info.status().to_string());
  const std::uint64_t rows = info->constraints + info->public_inputs + 1;
  nlohmann::ordered_json out = {
      {"constraints", info->constraints},
      {"public_inputs", info->public_inputs},
      {"aux", info->aux},
      {"kind", spec->kind_name()},
      {"registered_proof", spec->proof_name()},
      {"partitions", partitions_of(*spec)},
      {"domain_size", std::bit_ceil(rows)},
      {"nnz", {info->nnz_a, info->nnz_b, info->nnz_c}},
      {"a_aux_density", info->a_aux_density},
      {"b_input_density", info->b_input_density},
      {"b_aux_density", info->b_aux_density},
      {"params_file", spec->parameters.params_file()},
      {"vk_file", spec->parameters.vk_file()},
  };
  if (spec->kind == FilecoinKind::window) out["sectors_per_partition"] = spec->post.sector_count;
  std::printf("%s\n", out.dump(2).c_str());
  return 0;
}

}  // namespace

/// Listed in filecoin_cli.cpp.
FilecoinRun add_filecoin_circuit_info(CLI::App& sub) {
  auto f = std::make_shared<CircuitFlags>();
  add_circuit_flags(sub, *f);
  return [f]() { return run_info(*f); };
}

}  // namespace cuzk::cli
