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
// Circuit: the blank circuit of the set (setup: no values), recorded once (RecordingConstraintSystem
// → R1csMatrices, bellperson's input constraints included) and shared; with a cache directory the
// matrices are also kept as <cache_dir>/<key id>.r1cs (r1cs/pce_cache.hpp) and read back by a later
// process. The plan's dimensions (columns = 1 + inputs + aux, domain = 2^⌈log2 rows⌉) come from the
// recorded matrices when they exist, else from a count of the blank circuit (circuit_info: about
// one bit per aux variable), kept per key.
//
// Witness: partition k's circuit synthesized with the witness-only system (WitnessConstraintSystem)
// into z = (ONE, inputs, aux) in the matrices' column order. The cancel flag is polled before and
// after synthesis (one 32 GiB PoRep partition is tens of seconds).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "cuzk/circuits/circuit_family.hpp"
#include "cuzk/filecoin/parameter_files.hpp"
#include "cuzk/r1cs/constraint_system.hpp"

namespace cuzk::circuits::filecoin {

struct FilecoinFamilyOptions {
  /// The v28 parameter files (FIL_PROOFS_PARAMETER_CACHE; builtin_families' default).
  std::string params_dir;
  /// Recorded matrices kept as <cache_dir>/<key id>.r1cs; empty: recorded in every process.
  std::string cache_dir;
};

class FilecoinFamily : public CircuitFamily {
 public:
  /// Its key ids ("v28-…" of each parameter set it serves).
  bool serves_circuit(const std::string& circuit_id) const override;
  Result<std::shared_ptr<const CircuitShape>> shape(const std::string& key_id) override;
  Result<KeySource> key_source(const std::string& key_id) override;
  /// The .params files of its sets present in the parameter directory.
  std::vector<KeyFile> key_files() const override;

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
  /// (ONE, inputs, aux); size_mismatch when its length is not the plan's columns.
  static Status synthesize_witness(Circuit& circuit, const PartitionPlan& plan, std::uint32_t k,
                                   std::vector<Fr>& z, const CancelFlag& cancel);

  /// The parameter set behind |key_id|; not_found when the family does not serve it.
  Result<cuzk::filecoin::ParameterSet> set_of(const std::string& key_id) const;

  const FilecoinFamilyOptions& options() const { return opt_; }

 private:
  struct Counts {
    std::uint64_t columns = 0, domain_size = 0;
  };
  Result<Counts> counts(const cuzk::filecoin::ParameterSet& set);

  FilecoinFamilyOptions opt_;
  std::vector<cuzk::filecoin::ParameterSet> sets_;
  std::mutex mu_;        // shapes_, counts_
  std::mutex build_mu_;  // one recording or count at a time
  std::map<std::string, std::shared_ptr<const CircuitShape>> shapes_;
  std::map<std::string, Counts> counts_;
};

}  // namespace cuzk::circuits::filecoin
