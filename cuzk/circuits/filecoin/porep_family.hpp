// The PoRep (seal commit, C2) family: POREP_SEAL_COMMIT requests (docs/filecoin/families.md).
//
// Request: vanilla_proof = Curio's C1 envelope {"SectorNum", "Phase1Out" (base64 of the C1 JSON),
// "SectorSize"} (curio_c1_request.hpp); sector_number and miner_id name the sector (prover_id =
// the miner's ID-address payload, prover_id.hpp); registered_proof, when not 0, must be the C1's
// seal proof number (0 is also what a request that leaves the field unset carries: the C1 names
// its proof); sector_size, when not 0, must be the proof's. The envelope's SectorSize and
// SectorNum must agree with them.
// Overrides (FilecoinFamilyOptions::overrides, `prove --porep-id/--api-version`) replace the C1's
// proof's porep_id / api_version, as a PoRepConfig built by hand does upstream; a C1 that fits its
// own proof but not the overrides is refused naming both.
// Plan: parse the C1 once, check that its replica_id is the one derived from the request's
// prover_id and sector_number and the C1's ticket and comm_d under the proof's porep_id (a C1 of
// another sector or miner is refused), verify every partition's vanilla proofs
// (porep_verify.hpp), and plan all partitions of the seal proof (1 / 10; non-interactive 13 / 126)
// with the key of the sector size.
// Witness: partition k's StackedCircuit (porep_circuit.hpp) from the C1's proofs. Compact witness:
// the same circuit synthesised in parts on the calling thread, each part converted as it ends
// (porep_partition_compact_witness with a one-thread pool): z is never held; the peak is the
// largest part's scratch, the builder's fragments and the result (a 32 GiB partition: ≈ 0.3 GB
// bounded, 70.5 MB kept). Public inputs:
// partition_public_inputs(PorepPublicData) (filecoin_public_data.hpp) from the request's and
// the C1's public values.
#pragma once

#include <memory>

#include "cuzk/circuits/filecoin/filecoin_family_common.hpp"
#include "cuzk/circuits/filecoin/filecoin_public_data.hpp"
#include "cuzk/circuits/filecoin/porep_circuit.hpp"
#include "cuzk/filecoin/porep_vanilla_proof.hpp"

namespace cuzk::circuits::filecoin {

/// A PoRep job as plan() parses it.
struct PorepJob final : ParsedJob {
  PorepPublicData pub;
  cuzk::filecoin::SealCommitPhase1Output c1;
  std::uint64_t bytes() const override;  ///< parsed_job_bytes.cpp
};

/// Parses and checks a POREP_SEAL_COMMIT request (all but the vanilla proofs); errors
/// (invalid_argument, bad_encoding, …) name the field. |overrides| replace the C1's seal proof's
/// porep_id / api_version (ProofOverrides); a C1 whose replica_id was derived with its proof's own
/// porep_id, not the override, is refused naming both.
Result<std::shared_ptr<PorepJob>> parse_porep_request(const JobRequest& req,
                                                      const ProofOverrides& overrides = {});

class PorepFamily final : public FilecoinFamily {
 public:
  explicit PorepFamily(FilecoinFamilyOptions opt);

  std::string name() const override { return "filecoin-porep"; }
  std::vector<ProofKind> kinds() const override { return {ProofKind::porep_seal_commit}; }
  Result<PartitionPlan> plan(const JobRequest& req) override;
  Status witness(const JobRequest& req, const PartitionPlan& plan, std::uint32_t k,
                 std::vector<Fr>& z, const CancelFlag& cancel) override;
  bool has_compact_witness() const override { return true; }
  Status compact_witness(const JobRequest& req, const PartitionPlan& plan, std::uint32_t k,
                         CompactWitness& out, const CancelFlag& cancel) override;
  /// porep_compact_witness_peak_bytes of the shape's layout on one thread (compact_witness()
  /// synthesises on the calling thread).
  std::uint64_t compact_witness_peak_bytes(const PartitionPlan& plan,
                                           const CompactWitnessBound& b) override;
  Result<std::vector<Fr>> public_inputs(const JobRequest& req, const PartitionPlan& plan,
                                        std::uint32_t k) override;

 protected:
  Result<std::unique_ptr<Circuit>> blank_circuit(
      const cuzk::filecoin::ParameterSet& set) const override;

 private:
  /// The plan's job, or the request parsed again (a plan made elsewhere).
  Result<std::shared_ptr<const PorepJob>> job_of(const JobRequest& req, const PartitionPlan& plan);
  /// Partition |k|'s circuit shape, public and private inputs (from the job's C1 and public data:
  /// porep_partition_from_c1).
  Result<PorepPartitionCircuit> partition_circuit(const JobRequest& req, const PartitionPlan& plan,
                                                  std::uint32_t k);
};

}  // namespace cuzk::circuits::filecoin
