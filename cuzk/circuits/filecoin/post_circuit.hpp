// FallbackPoSt, the Winning and Window PoSt circuit of one partition, constraint for constraint as
// rust-fil-proofs builds it (storage-proofs-post fallback/circuit.rs `FallbackPoStCircuit`,
// `Sector::synthesize`; fallback/compound.rs `circuit`, `blank_circuit`, `generate_public_inputs`;
// storage-proofs-core gadgets/por.rs; FORMATS.md §4.1; docs/filecoin/circuit-post.md).
//
// Scope "outer namespace", then for each of the partition's sector_count circuit sectors, in
// scope "sector_i":
//   comm_r_last, comm_c, comm_r    three aux variables, in this order
//   comm_r_input                   comm_r inputized: one public input, comm_r′·1 = comm_r
//   H_comm_c_comm_r_last           h = Poseidon2(comm_c, comm_r_last) (MerkleTree tag, 311)
//   enforce_…_hash_comm_r          comm_r·1 = h
//   challenge_inclusion_n          for each of challenge_count challenges: the leaf (aux, scope
//                                  "value"), PoR along tree_r_last's path (base / sub / top
//                                  levels: index bits, siblings, insert, Poseidon), the index bits
//                                  packed into one public input (the challenged leaf), and
//                                  computed root·1 = comm_r_last
// Cost per circuit sector: 313 + challenge_count·(Σ levels + 2) constraints, 1 + challenge_count
// public inputs.
//
// The partition: `fallback::PublicParams` (PostCircuitParams) fixes sector_count and
// challenge_count. WindowPoSt: sector_count 2 / 2349 / 2300 sectors of 10 challenges; partition k
// takes sectors [k·sector_count, …) of the PoSt, a short one repeating its last sector (public
// inputs and circuit alike). WinningPoSt (filecoin-proofs winning_post_setup_params): 66 circuit
// sectors of 1 challenge, all the one challenged sector — its 66 inclusion proofs unrolled into
// 66 SectorProofs (post_util.rs single_partition_vanilla_proofs), its public data repeated 66
// times (verify_winning_post), so that circuit sector i is challenged at challenge index i.
// The public inputs depend on the API version (challenge index rule, post_challenges.hpp); the
// circuit does not.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/base/status.hpp"
#include "cuzk/ff/fr.hpp"
#include "cuzk/filecoin/bytes32.hpp"
#include "cuzk/filecoin/post_vanilla_proof.hpp"
#include "cuzk/filecoin/post_verify.hpp"
#include "cuzk/filecoin/registered_proof.hpp"
#include "cuzk/r1cs/constraint_system.hpp"

namespace cuzk::circuits::filecoin {

using cuzk::filecoin::ApiVersion;
using cuzk::filecoin::Bytes32;
using cuzk::filecoin::FallbackPoStSectorProof;
using cuzk::filecoin::PostProof;
using cuzk::filecoin::PostPublicSector;
using cuzk::filecoin::PostSectorProof;
using cuzk::filecoin::TreeShape;

/// `fallback::PublicParams`: what fixes the circuit (and, with the API version, its inputs).
struct PostCircuitParams {
  TreeShape shape;               ///< tree_r_last's base-sub-top arities
  std::uint64_t nodes = 0;       ///< leaves of tree_r_last: sector size / 32
  unsigned challenge_count = 0;  ///< challenges per circuit sector
  unsigned sector_count = 0;     ///< circuit sectors per partition
  ApiVersion api = ApiVersion::v1_0_0;
};

/// The parameters filecoin-proofs sets up for |proof|: Window (window_post_setup_params): its
/// sector_count and 10 challenges; Winning (winning_post_setup_params): challenge_count /
/// sector_count = 66 circuit sectors of 1 challenge.
Result<PostCircuitParams> post_circuit_params(const PostProof& proof);

/// `fallback::PublicInputs` with the partition index: the public data of one partition.
struct PostCircuitPublic {
  Bytes32 randomness{};
  Bytes32 prover_id{};  ///< carried as upstream does; neither constrained nor an input
  std::vector<PostPublicSector> sectors;  ///< the whole PoSt's sectors, in order
  std::uint64_t partition = 0;            ///< k
};

/// WinningPoSt's public data as verify_winning_post builds it: |sector| repeated sector_count
/// (66) times, partition 0.
PostCircuitPublic winning_post_public(const PostCircuitParams& params, const Bytes32& randomness,
                                      const Bytes32& prover_id, const PostPublicSector& sector);

/// `generate_public_inputs` of partition |pub.partition| from public data alone: per sector of
/// the partition comm_r, then the challenged leaf of each challenge (challenge index at the
/// sector's position k·sector_count + i, post_challenges.hpp); the last sector's inputs repeated
/// up to sector_count. invalid_argument when the partition holds no sector; out_of_range naming
/// the sector when a comm_r is not below r.
Result<std::vector<Fr>> post_public_inputs(const PostCircuitParams& params,
                                           const PostCircuitPublic& pub);

/// The same for partition |partition| given alone: |sectors| are that partition's (1..sector_count
/// of them, PoSt order), as a single-partition WindowPoSt carries them
/// (generate_single_window_post_with_vanilla); challenge positions partition · sector_count + i.
Result<std::vector<Fr>> post_partition_public_inputs(const PostCircuitParams& params,
                                                     const Bytes32& randomness,
                                                     std::span<const PostPublicSector> sectors,
                                                     std::uint64_t partition);

/// WinningPoSt's circuit sectors from the challenged sector's proof (one SectorProof with
/// 66 inclusion proofs): one SectorProof per inclusion proof, with its comm_c and comm_r_last
/// (single_partition_vanilla_proofs). invalid_argument when the proof does not hold exactly one
/// SectorProof or not sector_count · challenge_count inclusion proofs.
Result<std::vector<PostSectorProof>> winning_post_circuit_proofs(
    const PostCircuitParams& params, const FallbackPoStSectorProof& proof);

/// The FallbackPoSt circuit of one partition.
class PostCircuit final : public Circuit {
 public:
  /// `blank_circuit`: no values (setup, counting); |params| must describe a tree that
  /// merkle_proof.hpp's base_levels accepts, else synthesize() fails.
  explicit PostCircuit(const PostCircuitParams& params);

  /// `circuit`: circuit sector i gets public sector k·sector_count + i of |pub| (the partition's
  /// last one when past its end) and |proofs|[i]; |proofs| are the partition's sector_count
  /// SectorProofs, padded as the data side pads them (window_post_partition_proof,
  /// winning_post_circuit_proofs). Every proof is checked for shape (challenge count, variant,
  /// levels, siblings, index range) and every value for being below r; errors name the partition,
  /// sector, challenge and field. Nothing else is checked: a wrong leaf or path gives a circuit
  /// that is not satisfied.
  static Result<PostCircuit> create(const PostCircuitParams& params, const PostCircuitPublic& pub,
                                    std::span<const PostSectorProof> proofs);

  Status synthesize(ConstraintSystem& cs) override;
  /// Circuit sector |i| (< sector_count) alone, in its scopes ("outer namespace", "sector_i"):
  /// synthesize() is this for i = 0, 1, … in order. A sector reads no variable of another and
  /// every sector allocates the same numbers of inputs and aux variables, so in bellperson's order
  /// sector i's inputs and its aux are each one contiguous range (upstream's
  /// synthesize_extendable synthesizes groups of sectors on separate systems and appends them;
  /// post_witness.hpp runs them in parallel).
  Status synthesize_circuit_sector(ConstraintSystem& cs, unsigned i) const;

  const PostCircuitParams& params() const { return params_; }
  /// True when built by create() (values present).
  bool has_values() const { return !sectors_.empty(); }

 private:
  // One circuit sector's values: the commitments and, per challenge, the leaf and the path
  // (siblings of every level, leaf level first, and each level's position).
  struct SectorValues {
    Fr comm_r, comm_c, comm_r_last;
    std::vector<Fr> leaves;           // challenge_count
    std::vector<Fr> siblings;         // challenge_count · Σ (arity − 1)
    std::vector<std::uint8_t> index;  // challenge_count · levels
  };

  Status synthesize_sector(ConstraintSystem& cs, const SectorValues* values) const;
  // Circuit sector i in its scope "sector_i".
  Status synthesize_sector_scope(ConstraintSystem& cs, unsigned i) const;

  PostCircuitParams params_;
  std::vector<SectorValues> sectors_;  // empty: blank circuit
};

}  // namespace cuzk::circuits::filecoin
