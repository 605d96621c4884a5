// The PoRep circuit (porep_circuit.hpp) in the steps its synthesis takes, for callers that run
// them on separate constraint systems: the prelude (replica_id, comm_d, comm_r, comm_r_last,
// comm_c, the comm_r check) and one step per challenge (scope "challenge_i"), each of which reads
// only the prelude's variables. A challenge is itself four kinds of part, in this order: tree_d
// (data leaf and its PoR), columns (the 14 parents' columns and the challenge), one label per
// layer (reading only the columns part's rows and the challenge) and the tail (reading the data
// leaf and the labels). PorepCircuit::synthesize runs the prelude then the challenges in order;
// porep_witness.hpp runs the parts in parallel on systems that write into one z at offsets
// counted from the blank circuit. Internal to circuits/filecoin.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "cuzk/circuits/filecoin/porep_circuit.hpp"
#include "cuzk/r1cs/gadgets/merkle.hpp"
#include "cuzk/r1cs/gadgets/num.hpp"
#include "cuzk/r1cs/gadgets/uint64.hpp"

namespace cuzk::circuits::filecoin::detail {

/// One column of a parent node: its L labels and its tree_c path.
struct ColumnWitness {
  std::vector<std::optional<Fr>> rows;
  MerklePath path;
};

/// What the circuit reads for one challenge (params.rs `Proof`): empty values for setup.
struct ChallengeWitness {
  std::optional<Fr> data_leaf;
  std::optional<std::uint64_t> challenge;
  MerklePath comm_d_path, comm_r_last_path, comm_c_path;
  std::vector<ColumnWitness> drg, exp;
};

/// The prelude's variables that the challenges read.
struct PorepPrelude {
  AllocatedNum comm_d, comm_c, comm_r_last;
  std::vector<Boolean> replica_id_bits;  ///< SHA-256 byte order
};

/// What a challenge's labels read from its columns part: the parents' rows and the challenge.
struct PorepColumns {
  std::vector<std::vector<AllocatedNum>> drg, exp;  ///< 6 / 8 columns of L rows
  UInt64 challenge;
};

/// A partition's checked witnesses and the two kinds of step. Both steps only read the object,
/// so challenges may run concurrently on different systems.
class PorepSteps {
 public:
  /// Checks |shape| and, with |priv| (and |pub|), every challenge's vanilla proof (the errors of
  /// PorepCircuit::synthesize); without, blank witnesses (setup). |pub| and |priv| must outlive
  /// the steps.
  static Result<PorepSteps> make(const PorepCircuitShape& shape, const PorepCircuitPublic* pub,
                                 const PorepCircuitPrivate* priv);
  unsigned challenges() const { return shape_.challenges; }
  const PorepCircuitShape& shape() const { return shape_; }
  /// Everything before the first challenge.
  Result<PorepPrelude> synthesize_prelude(ConstraintSystem& cs) const;
  /// Challenge |i| (< challenges()), in its scope "challenge_i": its four kinds of part below, in
  /// this order (each part opens the scope itself when run alone).
  Status synthesize_challenge(ConstraintSystem& cs, unsigned i, const PorepPrelude& p) const;

  /// The data leaf and its tree_d PoR; returns the data leaf.
  Result<AllocatedNum> synthesize_tree_d(ConstraintSystem& cs, unsigned i,
                                         const PorepPrelude& p) const;
  /// The 14 parent columns (hash, tree_c PoR) and the challenge with its public input.
  Result<PorepColumns> synthesize_columns(ConstraintSystem& cs, unsigned i,
                                          const PorepPrelude& p) const;
  /// The label of |layer| (1..L) from the columns part's rows; returns the label.
  Result<AllocatedNum> synthesize_label(ConstraintSystem& cs, unsigned i, unsigned layer,
                                        const PorepPrelude& p, const PorepColumns& c) const;
  /// The encoded node's tree_r_last PoR and the challenged column's hash and tree_c PoR.
  Status synthesize_tail(ConstraintSystem& cs, unsigned i, const PorepPrelude& p,
                         const AllocatedNum& data_leaf, std::span<const AllocatedNum> labels) const;

 private:
  PorepCircuitShape shape_;
  const PorepCircuitPublic* pub_ = nullptr;
  const PorepCircuitPrivate* priv_ = nullptr;
  std::vector<ChallengeWitness> witnesses_;
};

}  // namespace cuzk::circuits::filecoin::detail
