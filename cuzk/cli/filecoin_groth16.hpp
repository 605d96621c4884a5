// What `cuzk filecoin circuit-info|setup|prove|verify` share (cli/filecoin_groth16_*.cpp;
// docs/filecoin/groth16.md): the flags that name a Filecoin circuit — --kind porep|winning|window|
// update, --registered-proof P and the --porep-id / --api-version overrides — resolved to the
// registered proof, its v28 parameter files (filecoin/parameter_files.hpp) and one partition's
// circuit (circuits/filecoin/*_circuit.hpp) and circuit family (*_family.hpp), and the public
// data flags.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cuzk/base/status.hpp"
#include "cuzk/circuits/filecoin/filecoin_family_common.hpp"
#include "cuzk/filecoin/bytes32.hpp"
#include "cuzk/filecoin/parameter_files.hpp"
#include "cuzk/filecoin/registered_proof.hpp"
#include "cuzk/r1cs/constraint_system.hpp"

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
  /// The --porep-id / --api-version given (already applied to seal / post): what prove hands the
  /// family, so that it proves the C1's or the vanilla proofs' proof with them.
  circuits::filecoin::ProofOverrides overrides;

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

/// The circuit family that proves |spec|'s kind (circuits/filecoin/*_family.hpp), its keys looked
/// up in |params_dir|, its compact forms cached in |cache_dir| (empty: recorded each time),
/// |spec|'s overrides applied to every request: the one way prove gets witnesses and public
/// inputs, and setup the circuit.
std::unique_ptr<circuits::filecoin::FilecoinFamily> make_family(const FilecoinCircuitSpec& spec,
                                                                const std::string& params_dir,
                                                                const std::string& cache_dir = "");

/// The public data flags, as the data-side commands spell them (filecoin_verify_vanilla.cpp):
/// 32-byte values as 64 hex digits in stored order, ids and indices in decimal.
struct PublicFlags {
  std::string comm_d, prover_id, ticket, seed, randomness, comm_r_old, comm_r_new, comm_d_new;
  std::vector<std::uint64_t> sector_ids;  ///< repeat in PoSt order
  std::vector<std::string> comm_rs;       ///< one per --sector-id
  std::optional<std::uint64_t> partition_index;
};
/// Adds the public data flags to |sub|.
void add_public_flags(CLI::App& sub, PublicFlags& f);

/// A 32-byte flag: any value (|must_be_fr| false: ticket, seed, prover id) or one below r.
Result<cuzk::filecoin::Bytes32> bytes32_flag(const std::string& text, const std::string& flag,
                                             bool must_be_fr);
/// The actor id whose ID-address payload is |prover_id| (filecoin/prover_id.hpp, how the
/// families carry the prover as miner_id); invalid_argument when it is no such payload.
Result<std::uint64_t> actor_id_of_prover(const cuzk::filecoin::Bytes32& prover_id);

/// The exit code of a failed Status: 1 for a check that failed on parsed input (unsatisfied: a
/// vanilla proof or constraint that does not hold), 2 for anything else (usage, unreadable or
/// malformed input).
int exit_code_of(const Status& s);

/// Prints "cuzk filecoin |cmd|: |what|" to stderr and returns |rc|.
int report_error(const char* cmd, const std::string& what, int rc = 2);

}  // namespace cuzk::cli
