// The SnapDeals family: SNAP_DEALS_UPDATE requests over EmptySectorUpdate (update_circuit.hpp;
// docs/filecoin/families.md).
//
// Request: registered_proof = the update proof number (0–4, registered_proof_number.hpp);
// sector_size, when not 0, its size; comm_r_old, comm_d_new, comm_r_new (32 bytes each, below r);
// vanilla_proofs = bincode PartitionProof per partition (snap_vanilla_proof.hpp), all of the
// update's partitions in order, as generate_empty_sector_update_proof_with_vanilla takes them.
// update_h = the encoding's h, one of the size's allowed values (snap_params.hpp `hs`: 1 up to
// 32 KiB, else 7..12), 0 = the size's h_default (what filecoin-proofs' update API uses); the
// vanilla proofs carry no h, it enters the public inputs as h_select.
// Plan: parse every partition proof, verify it against the public data with that h
// (snap_verify.hpp) and plan one circuit partition per proof with the key of the size.
// Witness: partition k's circuit from its proof. Compact witness: the same circuit synthesized by
// challenges on the calling thread, the prefix first, each challenge converted as it ends
// (update_partition_compact_witness with a one-thread pool): z is never held; the peak is the
// larger of the prefix's and one challenge's scratch, the builder's fragments and the result.
// Public inputs: partition_public_inputs(SnapPublicData, k).
#pragma once

#include <memory>
#include <vector>

#include "cuzk/circuits/filecoin/filecoin_family_common.hpp"
#include "cuzk/circuits/filecoin/filecoin_public_data.hpp"
#include "cuzk/filecoin/snap_vanilla_proof.hpp"

namespace cuzk::circuits::filecoin {

struct UpdatePublic;

/// A SnapDeals job as plan() parses it.
struct SnapJob final : ParsedJob {
  SnapPublicData pub;  ///< h: the request's update_h, or the size's h_default when 0
  std::vector<cuzk::filecoin::SnapPartitionProof> proofs;  ///< one per partition
  std::uint64_t bytes() const override;                    ///< parsed_job_bytes.cpp
};

/// Parses and checks a SNAP_DEALS_UPDATE request (all but the proofs' paths).
Result<std::shared_ptr<SnapJob>> parse_snap_request(const JobRequest& req);

class UpdateFamily final : public FilecoinFamily {
 public:
  explicit UpdateFamily(FilecoinFamilyOptions opt);

  std::string name() const override { return "filecoin-update"; }
  std::vector<ProofKind> kinds() const override { return {ProofKind::snap_deals_update}; }
  Result<PartitionPlan> plan(const JobRequest& req) override;
  Status witness(const JobRequest& req, const PartitionPlan& plan, std::uint32_t k,
                 std::vector<Fr>& z, const CancelFlag& cancel) override;
  bool has_compact_witness() const override { return true; }
  Status compact_witness(const JobRequest& req, const PartitionPlan& plan, std::uint32_t k,
                         CompactWitness& out, const CancelFlag& cancel) override;
  /// parts_peak_bytes on one thread: the larger of the prefix's and one challenge's scratch
  /// beside the builder's build_bytes for its fragments (parts_fragments).
  std::uint64_t compact_witness_peak_bytes(const PartitionPlan& plan,
                                           const CompactWitnessBound& b) override;
  Result<std::vector<Fr>> public_inputs(const JobRequest& req, const PartitionPlan& plan,
                                        std::uint32_t k) override;

 protected:
  Result<std::unique_ptr<Circuit>> blank_circuit(
      const cuzk::filecoin::ParameterSet& set) const override;

 private:
  Result<std::shared_ptr<const SnapJob>> job_of(const JobRequest& req, const PartitionPlan& plan);
  // Partition |k|'s public data, checked against the job's partitions.
  Result<UpdatePublic> partition_public(const SnapJob& j, std::uint32_t k) const;
};

}  // namespace cuzk::circuits::filecoin
