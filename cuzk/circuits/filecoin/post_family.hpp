// The PoSt families: WINNING_POST and WINDOW_POST_PARTITION requests, two instances of one class
// over the FallbackPoSt circuit (post_circuit.hpp; docs/filecoin/families.md).
//
// Request: registered_proof = the PoSt proof number (registered_proof_number.hpp: 0–4 Winning,
// 5–9 Window V1, 10–14 Window V1_2) of the family's kind; sector_size, when not 0, its size;
// randomness (32 bytes, below r as upstream's as_safe_commitment requires), miner_id (prover_id);
// vanilla_proofs = bincode FallbackPoStSectorProof per sector (post_vanilla_proof.hpp):
//   Window   the partition's sectors (1..sector_count, PoSt order, distinct ids) and
//            partition_index, as generate_single_window_post_with_vanilla takes them: one job is
//            one partition (a short partition repeats its last sector);
//   Winning  exactly one, the challenged sector's (66 inclusion proofs); sector_number, when not 0,
//            must be its sector id.
// Plan: parse every proof, take the public sectors (id, comm_r) from them as upstream does, verify
// them (post_verify.hpp: challenges at their positions in the PoSt) and plan one partition with
// the key of the size and kind.
// Witness: the partition's circuit (window_post_partition_proof / winning_post_circuit_proofs
// padding). Compact witness: the same circuit synthesized by circuit sectors on the calling
// thread, each sector converted as it ends (post_partition_compact_witness with a one-thread
// pool): z is never held; the peak is one sector's scratch, the builder's fragments and the
// result. Public inputs: partition_public_inputs(Window/WinningPostPublicData).
#pragma once

#include <memory>
#include <vector>

#include "cuzk/circuits/filecoin/filecoin_family_common.hpp"
#include "cuzk/circuits/filecoin/filecoin_public_data.hpp"
#include "cuzk/filecoin/post_vanilla_proof.hpp"

namespace cuzk::circuits::filecoin {

class PostCircuit;

/// A WindowPoSt partition job as plan() parses it.
struct WindowPostJob final : ParsedJob {
  WindowPostPublicData pub;
  std::vector<cuzk::filecoin::FallbackPoStSectorProof> vanilla;  ///< one per sector of pub
  std::uint64_t bytes() const override;                          ///< parsed_job_bytes.cpp
};

/// A WinningPoSt job as plan() parses it.
struct WinningPostJob final : ParsedJob {
  WinningPostPublicData pub;
  cuzk::filecoin::FallbackPoStSectorProof vanilla;
  std::uint64_t bytes() const override;  ///< parsed_job_bytes.cpp
};

/// Parse and check a request of the kind (all but the vanilla proofs' paths); errors name the
/// field or the proof ("vanilla_proofs[2]"). An api_version override replaces the registered
/// proof's (ProofOverrides: the challenge rule); a porep_id override is refused.
Result<std::shared_ptr<WindowPostJob>> parse_window_post_request(
    const JobRequest& req, const ProofOverrides& overrides = {});
Result<std::shared_ptr<WinningPostJob>> parse_winning_post_request(
    const JobRequest& req, const ProofOverrides& overrides = {});

class PostFamily final : public FilecoinFamily {
 public:
  PostFamily(cuzk::filecoin::PostKind kind, FilecoinFamilyOptions opt);

  std::string name() const override;
  std::vector<ProofKind> kinds() const override;
  Result<PartitionPlan> plan(const JobRequest& req) override;
  Status witness(const JobRequest& req, const PartitionPlan& plan, std::uint32_t k,
                 std::vector<Fr>& z, const CancelFlag& cancel) override;
  bool has_compact_witness() const override { return true; }
  Status compact_witness(const JobRequest& req, const PartitionPlan& plan, std::uint32_t k,
                         CompactWitness& out, const CancelFlag& cancel) override;
  /// parts_peak_bytes on one thread: one circuit sector's scratch beside the builder's
  /// build_bytes for its fragments (parts_fragments).
  std::uint64_t compact_witness_peak_bytes(const PartitionPlan& plan,
                                           const CompactWitnessBound& b) override;
  Result<std::vector<Fr>> public_inputs(const JobRequest& req, const PartitionPlan& plan,
                                        std::uint32_t k) override;

  cuzk::filecoin::PostKind kind() const { return kind_; }

 protected:
  Result<std::unique_ptr<Circuit>> blank_circuit(
      const cuzk::filecoin::ParameterSet& set) const override;

 private:
  Result<std::shared_ptr<const ParsedJob>> job_of(const JobRequest& req, const PartitionPlan& plan);
  // Partition |k|'s circuit with its values.
  Result<PostCircuit> partition_circuit(const JobRequest& req, const PartitionPlan& plan,
                                        std::uint32_t k);

  cuzk::filecoin::PostKind kind_;
};

}  // namespace cuzk::circuits::filecoin
