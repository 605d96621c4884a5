// The PoRep vanilla proof of one challenge (storage-proofs-porep stacked/vanilla/proof.rs `Proof`,
// params.rs `ReplicaColumnProof`, column_proof.rs, column.rs, labeling_proof.rs,
// encoding_proof.rs) and the C1 output that carries them all (`SealCommitPhase1Output`,
// filecoin-proofs-api seal.rs). Fields in declaration order (what serde writes):
//   Proof { comm_d_proofs: MerkleProof (tree_d, SHA-256 binary, Single),
//           comm_r_last_proof: MerkleProof (tree_r_last, the sector's shape),
//           replica_column_proofs: { c_x: ColumnProof, drg_parents: [6], exp_parents: [8] },
//           labeling_proofs: [L] LabelingProof, encoding_proof: EncodingProof }
//   ColumnProof { column: Column { index u32, rows: [L] node, _h: PhantomData }, inclusion_proof:
//                 MerkleProof (tree_c) }
//   LabelingProof / EncodingProof { parents: [node], layer_index u32, node u64 }
//   SealCommitPhase1Output { registered_proof, vanilla_proofs: { "StackedDrg<size>V1":
//                 [partition][challenge] Proof }, comm_r, comm_d, replica_id, seed, ticket }
// FORMATS.md §3.5; the JSON form is in c1_json.hpp.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cuzk/filecoin/bytes32.hpp"
#include "cuzk/filecoin/merkle_proof.hpp"
#include "cuzk/filecoin/registered_proof.hpp"

namespace cuzk::filecoin {

/// `Column`: the L layer labels of node |index|.
struct Column {
  std::uint32_t index = 0;
  std::vector<Bytes32> rows;
  bool operator==(const Column&) const = default;
};

/// `ColumnProof`: a column and its tree_c inclusion proof.
struct ColumnProof {
  Column column;
  MerkleProof inclusion_proof;
  bool operator==(const ColumnProof&) const = default;
};

/// `ReplicaColumnProof`: the challenged node's column and its 6 DRG and 8 expander parents'.
struct ReplicaColumnProof {
  ColumnProof c_x;
  std::vector<ColumnProof> drg_parents;
  std::vector<ColumnProof> exp_parents;
  bool operator==(const ReplicaColumnProof&) const = default;
};

/// `LabelingProof` and `EncodingProof` (same fields): the parents' labels of |node| in layer
/// |layer_index| (1-based).
struct LabelingProof {
  std::vector<Bytes32> parents;
  std::uint32_t layer_index = 0;
  std::uint64_t node = 0;
  bool operator==(const LabelingProof&) const = default;
};
using EncodingProof = LabelingProof;

/// storage-proofs-porep `Proof`: the vanilla proof of one challenge.
struct PorepChallengeProof {
  MerkleProof comm_d_proofs;
  MerkleProof comm_r_last_proof;
  ReplicaColumnProof replica_column_proofs;
  std::vector<LabelingProof> labeling_proofs;
  EncodingProof encoding_proof;
  bool operator==(const PorepChallengeProof&) const = default;
};

/// filecoin-proofs-api `SealCommitPhase1Output`.
struct SealCommitPhase1Output {
  std::string registered_proof;  ///< a RegisteredSealProof name, e.g. "StackedDrg32GiBV1_1"
  /// The sector size named by the `vanilla_proofs` variant ("StackedDrg32GiBV1").
  SectorSize vanilla_size = SectorSize::s2KiB;
  std::vector<std::vector<PorepChallengeProof>> vanilla_proofs;  ///< [partition][challenge]
  Bytes32 comm_r{};
  Bytes32 comm_d{};
  Bytes32 replica_id{};
  Bytes32 seed{};
  Bytes32 ticket{};
  bool operator==(const SealCommitPhase1Output&) const = default;
};

}  // namespace cuzk::filecoin
