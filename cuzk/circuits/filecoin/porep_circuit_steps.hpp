// The PoRep circuit (porep_circuit.hpp) in the steps its synthesis takes, for callers that run
// them on separate constraint systems: the prelude (replica_id, comm_d, comm_r, comm_r_last,
// comm_c, the comm_r check) and one step per challenge (scope "challenge_i"), each of which reads
// only the prelude's variables. PorepCircuit::synthesize runs the prelude then the challenges in
// order; porep_witness.hpp runs the challenges in parallel on systems that write into one z at
// offsets counted from the blank circuit. Internal to circuits/filecoin.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "cuzk/circuits/filecoin/porep_circuit.hpp"
#include "cuzk/r1cs/gadgets/merkle.hpp"
#include "cuzk/r1cs/gadgets/num.hpp"

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
  /// Challenge |i| (< challenges()), in its scope "challenge_i".
  Status synthesize_challenge(ConstraintSystem& cs, unsigned i, const PorepPrelude& p) const;

 private:
  PorepCircuitShape shape_;
  const PorepCircuitPublic* pub_ = nullptr;
  const PorepCircuitPrivate* priv_ = nullptr;
  std::vector<ChallengeWitness> witnesses_;
};

}  // namespace cuzk::circuits::filecoin::detail
