// What `cuzk filecoin circuit-info|setup|prove|verify` share (cli/filecoin_groth16_*.cpp;
// docs/filecoin/groth16.md): the flags that name a Filecoin circuit — --kind porep|winning|window|
// update, --registered-proof P and the --porep-id / --api-version overrides — resolved to the
// registered proof, its v28 parameter files (filecoin/parameter_files.hpp) and one partition's
// circuit (circuits/filecoin/*_circuit.hpp), and the recording of that circuit's matrices.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <string>

#include "cuzk/base/status.hpp"
#include "cuzk/filecoin/parameter_files.hpp"
#include "cuzk/filecoin/registered_proof.hpp"
#include "cuzk/r1cs/constraint_system.hpp"
#include "cuzk/r1cs/matrices.hpp"

namespace cuzk::cli {

/// The four Filecoin Groth16 circuits.
enum class FilecoinKind { porep, winning, window, update };

/// --kind, --registered-proof, --porep-id, --api-version as typed.
struct CircuitFlags {
  std::string kind, registered_proof, porep_id, api_version;
};
/// Adds the four flags to |sub| (--kind and --registered-proof required).
void add_circuit_flags(CLI::App& sub, CircuitFlags& f);

/// A circuit named by the flags: the registered proof of its kind (overrides applied) and its
/// parameter files. Exactly one of seal / post / update is meaningful, by kind.
struct FilecoinCircuitSpec {
  FilecoinKind kind = FilecoinKind::porep;
  cuzk::filecoin::SealProof seal;      ///< porep
  cuzk::filecoin::PostProof post;      ///< winning, window
  cuzk::filecoin::UpdateProof update;  ///< update
  cuzk::filecoin::ParameterSet parameters;

  /// The registered proof's name.
  const std::string& proof_name() const;
  /// "porep", "winning", "window", "update".
  const char* kind_name() const;
  /// One partition's circuit without values (setup, counting): the partition shape is the same
  /// for every partition of the kind.
  Result<std::unique_ptr<Circuit>> blank_circuit() const;
};

/// Resolves the flags: not_found for an unknown registered proof, invalid_argument for a proof of
/// another kind, a malformed override or an override the kind does not take (--porep-id: porep;
/// --api-version: porep, winning, window). Messages name the flag.
Result<FilecoinCircuitSpec> resolve_circuit(const CircuitFlags& f);

/// A, B, C of |circuit| as bellperson's prover holds them (input constraints included), recorded
/// without values.
Result<R1csMatrices> record_matrices(Circuit& circuit);

/// Prints "cuzk filecoin |cmd|: |what|" to stderr and returns |rc|.
int report_error(const char* cmd, const std::string& what, int rc = 2);

}  // namespace cuzk::cli
