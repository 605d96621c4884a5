// The circuit families a prover serves by default, built from one options struct: bench-<K>
// always, circom circuits as registered, and the four Filecoin proof kinds (PoRep, WinningPoSt,
// WindowPoSt, SnapDeals) with their keys from filecoin_params_dir. A new family adds its options here and a line in
// builtin_families.cpp; the engine and the proof system are untouched.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "cuzk/base/status.hpp"
#include "cuzk/base/thread_pool.hpp"
#include "cuzk/circuits/circuit_family.hpp"
#include "cuzk/filecoin/parameter_files.hpp"

namespace cuzk::circuits {

struct FamilyOptions {
  /// Where families cache what they build (bench matrices and keys) and keys' images live.
  std::string cache_dir = "cuzk-cache";
  /// bench-<K>: partitions of a job that does not say (1..64).
  std::uint32_t default_partitions = 10;
  /// circom circuits: id → snarkjs .zkey (its A/B rows are the circuit; a job's vanilla_proof is
  /// the .wtns witness; one partition per job).
  std::map<std::string, std::string> circom;
  std::uint64_t structure_seed = 1;  ///< topology of every bench-K circuit
  std::uint64_t key_seed = 0x6b65792d62656e63ULL;
  /// The Filecoin families' v28 .params files (looked up by name; a missing one fails the jobs
  /// that need it at submission): $FIL_PROOFS_PARAMETER_CACHE, else
  /// /var/tmp/filecoin-proof-parameters (rust-fil-proofs' default).
  std::string filecoin_params_dir = cuzk::filecoin::default_parameter_cache().string();
};

/// The registry of the built-in families; |pool| (may be null) reads their files.
Result<std::shared_ptr<Registry>> builtin_families(const FamilyOptions& opt, ThreadPool* pool);

}  // namespace cuzk::circuits
