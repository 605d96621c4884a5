// The public data of the four Filecoin proofs and each partition's public inputs computed from it
// alone (no vanilla proof, no witness): what a verifier knows. The circuit families
// (porep_family, post_family, update_family) take their public inputs from these functions, and
// so does `cuzk filecoin verify`: there is one way to compute them. The inputs are in
// rust-fil-proofs' generate_public_inputs order (the circuit headers' *_public_inputs):
//   PoRep        StackedCompound: replica_id, comm_d, comm_r, then per challenge its tree_d, tree_c
//                (parents), tree_r_last and column inputs (porep_circuit.hpp); replica_id derived
//                from prover_id, sector_id, ticket, comm_d and the proof's porep_id (replica_id.hpp)
//   WindowPoSt   FallbackPoStCompound for one partition: the partition's sectors, challenged at
//                their positions partition_index · sector_count + i (a short partition repeats
//                its last sector), as generate_single_window_post_with_vanilla / verify_window_post
//   WinningPoSt  the challenged sector repeated 66 times, partition 0 (verify_winning_post)
//   SnapDeals    EmptySectorUpdateCompound: [k | h_select << log2 P, comm_r_old, comm_d_new,
//                comm_r_new], h as filecoin-proofs chooses it (the size's h_default)
// and the key each proves with (parameter_files.hpp; key id = the .params file's stem).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cuzk/base/status.hpp"
#include "cuzk/ff/fr.hpp"
#include "cuzk/filecoin/bytes32.hpp"
#include "cuzk/filecoin/parameter_files.hpp"
#include "cuzk/filecoin/post_verify.hpp"
#include "cuzk/filecoin/registered_proof.hpp"

namespace cuzk::circuits::filecoin {

/// PoRep (seal commit, C2): what verify_seal takes.
struct PorepPublicData {
  cuzk::filecoin::SealProof proof;
  cuzk::filecoin::Bytes32 prover_id{};
  std::uint64_t sector_id = 0;
  cuzk::filecoin::Bytes32 ticket{}, seed{}, comm_d{}, comm_r{};
};

/// WindowPoSt, one partition (what a WINDOW_POST_PARTITION job proves).
struct WindowPostPublicData {
  cuzk::filecoin::PostProof proof;  ///< a Window proof
  cuzk::filecoin::Bytes32 randomness{}, prover_id{};
  /// The partition's sectors in PoSt order (1..sector_count of them).
  std::vector<cuzk::filecoin::PostPublicSector> sectors;
  std::uint64_t partition_index = 0;  ///< the partition's index in the whole PoSt
};

/// WinningPoSt: the one challenged sector.
struct WinningPostPublicData {
  cuzk::filecoin::PostProof proof;  ///< a Winning proof
  cuzk::filecoin::Bytes32 randomness{}, prover_id{};
  cuzk::filecoin::PostPublicSector sector;
};

/// SnapDeals (empty-sector update): every partition of the update.
struct SnapPublicData {
  cuzk::filecoin::UpdateProof proof;
  cuzk::filecoin::Bytes32 comm_r_old{}, comm_d_new{}, comm_r_new{};
  unsigned h = 0;  ///< the encoding's h; 0: the size's h_default (what filecoin-proofs uses)
};

/// replica_id = SHA-256(prover_id ‖ u64be(sector_id) ‖ ticket ‖ comm_d ‖ porep_id), 254 bits.
cuzk::filecoin::Bytes32 porep_replica_id(const PorepPublicData& d);

/// Partitions of the proof: PoRep the seal proof's (1 / 10, non-interactive 13 / 126), Window
/// and Winning 1 (a job proves one partition), SnapDeals the update proof's (1, 2, 4 or 16).
unsigned partition_count(const PorepPublicData& d);
unsigned partition_count(const WindowPostPublicData& d);
unsigned partition_count(const WinningPostPublicData& d);
unsigned partition_count(const SnapPublicData& d);

/// Partition |k|'s public inputs (ONE excluded). Errors: k ≥ partition_count (out_of_range), a
/// value not below r (out_of_range naming it), a proof of the wrong kind, no sector or more than
/// sector_count (invalid_argument).
Result<std::vector<Fr>> partition_public_inputs(const PorepPublicData& d, unsigned k);
Result<std::vector<Fr>> partition_public_inputs(const WindowPostPublicData& d, unsigned k);
Result<std::vector<Fr>> partition_public_inputs(const WinningPostPublicData& d, unsigned k);
Result<std::vector<Fr>> partition_public_inputs(const SnapPublicData& d, unsigned k);

/// The parameter set (circuit and sector size) each proves with.
cuzk::filecoin::ParameterSet parameter_set(const PorepPublicData& d);
cuzk::filecoin::ParameterSet parameter_set(const WindowPostPublicData& d);
cuzk::filecoin::ParameterSet parameter_set(const WinningPostPublicData& d);
cuzk::filecoin::ParameterSet parameter_set(const SnapPublicData& d);

/// A key id of the Filecoin families: the .params file's stem, "v28-<cache id>".
std::string filecoin_key_id(const cuzk::filecoin::ParameterSet& set);

}  // namespace cuzk::circuits::filecoin
