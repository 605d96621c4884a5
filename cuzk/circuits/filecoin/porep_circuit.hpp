// The PoRep (SDR) Groth16 circuit of one partition, constraint for constraint as rust-fil-proofs
// builds it (storage-proofs-porep stacked/circuit/proof.rs `StackedCircuit::synthesize`,
// params.rs `Proof::synthesize`, column.rs, create_label.rs, hash.rs; storage-proofs-core
// gadgets/por.rs, insertion.rs, encode.rs, uint64.rs; FORMATS.md §3.2–§3.6,
// docs/filecoin/circuit-porep.md). Variables, constraints and their order:
//   replica_id     alloc, inputize, to_bits_le → reverse_bit_numbering (SHA-256 byte order)
//   comm_d, comm_r alloc, inputize each; comm_r_last, comm_c alloc (private)
//   comm_r = Poseidon_2(comm_c, comm_r_last)                      ("H_comm_c_comm_r_last", 1 check)
//   per challenge i (scope "challenge_i"):
//     data_leaf; PoR of it in tree_d (SHA-256, binary) against comm_d
//     6 DRG then 8 expander parent columns: L rows each, column hash, PoR in tree_c vs comm_c
//     challenge as UInt64 (64 bits) packed into one input
//     layer ℓ = 1..L: the parents' labels (DRG row ℓ; for ℓ > 1 also expander row ℓ − 1), each
//       to_bits_le → reverse_bit_numbering, cycled to 37; label_ℓ = create_label
//     encoded = label_L + data_leaf; PoR in tree_r_last against comm_r_last
//     column hash of label_1..label_L; PoR in tree_c against comm_c
// The same circuit serves every API version and the interactive, synthetic and non-interactive
// schemes: only the number of challenges per partition (from the registered proof) and where they
// come from differ. Public inputs (porep_circuit_public_inputs, from public data alone, in
// generate_public_inputs order): replica_id, comm_d, comm_r, then per challenge c: c (tree_d), the
// 14 parents (tree_c), c, c (tree_r_last), c (tree_c) — 3 + 18·challenges.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/base/status.hpp"
#include "cuzk/filecoin/node.hpp"
#include "cuzk/filecoin/porep_vanilla_proof.hpp"
#include "cuzk/filecoin/porep_verify.hpp"
#include "cuzk/filecoin/registered_proof.hpp"
#include "cuzk/r1cs/constraint_system.hpp"

namespace cuzk::circuits::filecoin {

/// The public parameters that fix a partition's R1CS.
struct PorepCircuitShape {
  std::uint64_t nodes = 0;         ///< sector nodes (tree_d leaves; tree_c / tree_r_last leaves)
  unsigned layers = 0;             ///< SDR layers L (the column hash needs 2 or 11)
  cuzk::filecoin::TreeShape tree;  ///< tree_c / tree_r_last arities (base-sub-top)
  unsigned challenges = 0;         ///< challenges per partition
};

/// The shape of |proof|'s circuit: its sector's nodes, layers and tree shape, and the challenges
/// per partition of its scheme (2 for the test sizes, 18 for 32/64 GiB, for every scheme).
PorepCircuitShape porep_circuit_shape(const cuzk::filecoin::SealProof& proof);

/// The public data of one partition.
struct PorepCircuitPublic {
  Fr replica_id, comm_d, comm_r;
  std::vector<std::uint64_t> challenges;  ///< the partition's challenged nodes, in order
};

/// Partition |k|'s public data: the challenges drawn under |proof|'s scheme from the seed
/// (interactive, synthetic) or comm_r (non-interactive); out_of_range for a value not below r or
/// a partition the proof does not have.
Result<PorepCircuitPublic> porep_circuit_public(const cuzk::filecoin::SealProof& proof,
                                                const cuzk::filecoin::Node& replica_id,
                                                const cuzk::filecoin::Node& comm_d,
                                                const cuzk::filecoin::Node& comm_r,
                                                const cuzk::filecoin::Node& seed, unsigned k);

/// The circuit's public inputs (ONE excluded) from |pub| and |proof|'s graph (its porep_id and API
/// version give the parents); out_of_range for a challenge outside 1..nodes − 1.
Result<std::vector<Fr>> porep_circuit_public_inputs(const cuzk::filecoin::SealProof& proof,
                                                    const PorepCircuitPublic& pub);

/// The private data of one partition: the vanilla proofs as the data side parses them from C1.
struct PorepCircuitPrivate {
  unsigned partition = 0;  ///< for error messages
  Fr comm_r_last, comm_c;
  std::span<const cuzk::filecoin::PorepChallengeProof> proofs;  ///< not owned
};

/// Partition |k| of |c1|: comm_r_last = the first proof's comm_r_last_proof root, comm_c = its
/// c_x inclusion root (every proof of the partition must agree: StackedCompound::circuit's
/// consistency checks). The result refers to |c1|'s proofs.
Result<PorepCircuitPrivate> porep_circuit_private(const cuzk::filecoin::SealCommitPhase1Output& c1,
                                                  unsigned k);

/// Partition |k|'s circuit inputs: the shape, the public data and the private data (which refers
/// to the C1's proofs: the C1 must outlive it).
struct PorepPartitionCircuit {
  PorepCircuitShape shape;
  PorepCircuitPublic pub;
  PorepCircuitPrivate priv;
};

/// Partition |k| of |c1| under |proof|: porep_circuit_shape, porep_circuit_public of |pub|'s
/// comm_d, comm_r and seed with |c1|'s replica_id, and porep_circuit_private; their errors.
Result<PorepPartitionCircuit> porep_partition_from_c1(
    const cuzk::filecoin::SealProof& proof, const cuzk::filecoin::PorepPublicInputs& pub,
    const cuzk::filecoin::SealCommitPhase1Output& c1, unsigned k);
/// The same with the C1's own public data (porep_public_inputs(c1)).
Result<PorepPartitionCircuit> porep_partition_from_c1(
    const cuzk::filecoin::SealProof& proof, const cuzk::filecoin::SealCommitPhase1Output& c1,
    unsigned k);

/// StackedCircuit for one partition.
class PorepCircuit final : public Circuit {
 public:
  /// For setup: the shape alone; synthesis asks for no values.
  explicit PorepCircuit(const PorepCircuitShape& shape) : shape_(shape) {}
  /// For proving: public and private data (both must outlive the circuit). Synthesis checks the
  /// proofs against the shape and the public challenges first and fails with a Status naming
  /// partition, challenge and field (wrong counts, path shapes, values not below r).
  PorepCircuit(const PorepCircuitShape& shape, const PorepCircuitPublic& pub,
               const PorepCircuitPrivate& priv)
      : shape_(shape), pub_(&pub), priv_(&priv) {}

  Status synthesize(ConstraintSystem& cs) override;

 private:
  PorepCircuitShape shape_;
  const PorepCircuitPublic* pub_ = nullptr;
  const PorepCircuitPrivate* priv_ = nullptr;
};

}  // namespace cuzk::circuits::filecoin
