// What the four Filecoin circuit families (porep_family, post_family serving Winning and Window,
// update_family) share: their keys and circuits.
//
// Keys: one parameter set per sector size (parameter_files.hpp), its key id the .params file's
// stem "v28-<cache id>" (filecoin_key_id), its key the bellperson .params file of that name in
// the parameter directory (KeySource::params, read unchecked as rust-fil-proofs reads it, then
// checked against the circuit by the key store). plan() fails with not_found naming the file when
// it is missing, so a directory holding only the 2 KiB PoRep key serves 2 KiB PoRep and refuses
// the rest at submission.
//
// Circuit: the blank circuit of the set (setup: no values) recorded once, straight into the compact
// PCE form (CompactRecorder → CompactR1cs, r1cs/pce_compact.hpp; bellperson's input constraints
// included), never as plain matrices: 77 MB for the 32 GiB PoRep partition where the plain CSR
// takes 7 GB. shape() gives it as CircuitShape::compact (a/b/c by pce_compact_evaluate_into, the
// key checked against its counts and densities; docs/filecoin/families.md). With a cache
// directory the form is also kept as <cache_dir>/<key id>.pce-compact (r1cs/pce_compact_cache.hpp,
// keyed by the key id and kCompactIdentity; rebuilt when missing, stale or corrupt) and loaded by
// a later process (0.2 s at 32 GiB instead of 52 s of CPU recording). plan() takes the partition's
// dimensions (columns = 1 + inputs + aux, domain = 2^⌈log2 rows⌉) from that same form, so the
// first job of a kind records or loads it on the submit path and every later stage reuses it.
// Plain matrices are recorded only on request (record_matrices: the slow twin in tests; Groth16
// setup works from the compact form, groth16/column_evaluations.hpp).
//
// Witness: partition k's circuit synthesized with the witness-only system (WitnessConstraintSystem)
// into z = (ONE, inputs, aux) in the matrices' column order. The cancel flag is polled before and
// after synthesis (one 32 GiB PoRep partition is tens of seconds). The compact witness
// (CircuitFamily::compact_witness): by default that z converted (peak: z, inputs + columns values
// reserved once, beside the converter's fragments and result); every family here overrides it to
// make it straight from its synthesis in parts, never holding z (PoRep: porep_witness.hpp; PoSt
// and SnapDeals: post_witness.hpp, update_witness.hpp over parts_witness.hpp).
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "cuzk/circuits/circuit_family.hpp"
#include "cuzk/filecoin/parameter_files.hpp"
#include "cuzk/filecoin/registered_proof.hpp"
#include "cuzk/r1cs/constraint_system.hpp"
#include "cuzk/r1cs/matrices.hpp"

namespace cuzk::circuits::filecoin {

/// The PoRepConfig / PoStConfig fields a filecoin-proofs caller may set apart from the registered
/// proof (filecoin-proofs types/porep_config.rs, post_config.rs; `cuzk filecoin prove --porep-id
/// --api-version`). None changes a circuit or its parameter files (the cache identifier holds
/// neither: storage-proofs-core drgraph.rs `identifier`, "seed is not included"); they change:
///   porep_id     PoRep: replica_id = H(prover_id, sector_id, ticket, comm_d, porep_id) and the
///                graph's seed, so the parents, the vanilla proofs and the public inputs
///   api_version  PoRep: the graph (1.0.0 vs ≥ 1.1.0 parents); PoSt: the challenge index rule
///                (post_challenges.hpp: 1.2.0 restarts the index per sector)
/// SnapDeals takes neither (its circuit, vanilla proofs and inputs depend on neither; upstream's
/// api_version only gates update aggregation). Empty for the daemon: the request's registered
/// proof decides.
struct ProofOverrides {
  std::optional<cuzk::filecoin::PorepId> porep_id;
  std::optional<cuzk::filecoin::ApiVersion> api_version;
  bool empty() const { return !porep_id && !api_version; }
};

struct FilecoinFamilyOptions {
  /// The v28 parameter files (FIL_PROOFS_PARAMETER_CACHE; builtin_families' default).
  std::string params_dir;
  /// Compact forms kept as <cache_dir>/<key id>.pce-compact; empty: recorded in every process.
  std::string cache_dir;
  /// Applied to every request's registered proof (porep and PoSt families; the update family
  /// refuses requests while any is set).
  ProofOverrides overrides;
};

/// |plan|'s parsed job as a |Job|, or |parse|() run again when the plan carries none of that type
/// (a plan made elsewhere, e.g. a journaled job after a restart).
template <class Job, class Parse>
Result<std::shared_ptr<const Job>> parsed_job_or(const PartitionPlan& plan, Parse&& parse) {
  if (auto j = std::dynamic_pointer_cast<const Job>(plan.parsed)) return j;
  auto again = parse();
  if (!again) return again.status();
  return std::shared_ptr<const Job>(std::move(*again));
}

class FilecoinFamily : public CircuitFamily {
 public:
  /// Its key ids ("v28-…" of each parameter set it serves).
  bool serves_circuit(const std::string& circuit_id) const override;
  /// Its key ids, and the names key_spec.hpp reads ("porep:32GiB", the Rust daemon's
  /// "porep-32g") for one of its parameter sets.
  std::string key_id_of_name(const std::string& name) const override;
  Result<std::shared_ptr<const CircuitShape>> shape(const std::string& key_id) override;
  Result<KeySource> key_source(const std::string& key_id) override;
  /// Its shapes are the compact form only.
  bool has_compact_form() const override { return true; }
  /// z as synthesize_witness holds it (inputs + columns values) beside the converter's peak.
  std::uint64_t compact_witness_peak_bytes(const PartitionPlan& plan,
                                           const CompactWitnessBound& b) override;
  /// The .params files of its sets present in the parameter directory.
  std::vector<KeyFile> key_files() const override;

  /// The plain matrices of |key_id|'s blank circuit, recorded now (RecordingConstraintSystem;
  /// neither kept nor cached, about 50 B per row: 6.5 GB for the 32 GiB PoRep partition): the slow
  /// twin of the compact form (and of setup from it) in tests.
  Result<R1csMatrices> record_matrices(const std::string& key_id) const;
  /// Where |key_id|'s compact form is cached; empty without a cache directory.
  std::string compact_cache_path(const std::string& key_id) const;
  /// Compact forms this instance recorded (not loaded from the cache), for tests and logs.
  std::uint64_t compact_recordings() const { return recordings_.load(); }

  /// The parameter sets it serves, one per sector size.
  const std::vector<cuzk::filecoin::ParameterSet>& parameter_sets() const { return sets_; }
  /// The .params path of |set| in the parameter directory.
  std::string params_path(const cuzk::filecoin::ParameterSet& set) const;

 protected:
  FilecoinFamily(FilecoinFamilyOptions opt, std::vector<cuzk::filecoin::ParameterSet> sets);

  /// The circuit of |set| without values (setup, recording, counting).
  virtual Result<std::unique_ptr<Circuit>> blank_circuit(
      const cuzk::filecoin::ParameterSet& set) const = 0;

  /// not_found naming |set|'s .params file when the parameter directory lacks it.
  Status require_key(const cuzk::filecoin::ParameterSet& set) const;
  /// A plan for |set|: not_found naming the .params file when it is missing, else key id,
  /// |partitions|, the partition's dimensions and |parsed|.
  Result<PartitionPlan> plan_for(const cuzk::filecoin::ParameterSet& set, std::uint32_t partitions,
                                 std::shared_ptr<const ParsedJob> parsed);

  /// Partition |k|'s witness: |circuit| synthesized by the witness-only system into |z|
  /// (ONE, inputs, aux), built in place (the shape's input count as the system's hint, so no
  /// copy of z: 4.2 GB at 32 GiB PoRep); size_mismatch when its length is not the plan's columns.
  Status synthesize_witness(Circuit& circuit, const PartitionPlan& plan, std::uint32_t k,
                            std::vector<Fr>& z, const CancelFlag& cancel);

  /// The parameter set behind |key_id|; not_found when the family does not serve it.
  Result<cuzk::filecoin::ParameterSet> set_of(const std::string& key_id) const;

  const FilecoinFamilyOptions& options() const { return opt_; }

 private:
  FilecoinFamilyOptions opt_;
  std::vector<cuzk::filecoin::ParameterSet> sets_;
  std::mutex mu_;  // shapes_, building_
  std::map<std::string, std::shared_ptr<const CircuitShape>> shapes_;
  // Per key id: one recording or cache load of that key at a time. Per key, not per family, so a
  // WinningPoSt submit never waits for a WindowPoSt recording of the same family.
  std::map<std::string, std::shared_ptr<std::mutex>> building_;
  std::atomic<std::uint64_t> recordings_{0};
};

}  // namespace cuzk::circuits::filecoin
