// The EmptySectorUpdate circuit (update_circuit.hpp) in the steps its synthesis takes, for
// callers that run them on separate constraint systems: the prelude (steps 1–7 of the file
// comment up to gen_challenge_bits: the public inputs, phi, the private roots, apex leaves and
// partition path, the comm_r checks, the apex PoR and every challenge's random bits) and one step
// per challenge (c_high, rho, the leaves, the two tree_r PoRs, the apex leaf selection and the
// tree_d PoR below it), which reads only the prelude's variables. Every challenge allocates the
// same numbers of variables (none is an input), so in bellperson's order challenge i's aux
// variables are one contiguous range after the prelude's. UpdateCircuit::synthesize runs the
// prelude then the challenges in order; update_witness.hpp runs the challenges in parallel.
// Internal to circuits/filecoin.
#pragma once

#include <memory>
#include <vector>

#include "cuzk/circuits/filecoin/update_circuit.hpp"
#include "cuzk/r1cs/gadgets/boolean.hpp"
#include "cuzk/r1cs/gadgets/num.hpp"

namespace cuzk::circuits::filecoin::detail {

/// The prelude's variables that the challenges read.
struct UpdatePrelude {
  std::vector<AllocatedBit> partition_bits, h_select_bits;
  AllocatedNum phi, root_r_old, root_r_new;
  std::vector<AllocatedNum> apex_leaves;
  std::vector<std::vector<AllocatedBit>> generated;  ///< per challenge: its random bits
};

/// A partition's checked witness and the two kinds of step; both only read the object, so
/// challenges may run concurrently on different systems.
class UpdateSteps {
 public:
  /// The checks of UpdateCircuit::synthesize (size, k, h and, with |vanilla|, the proof); without
  /// |vanilla|, blank values (setup). |vanilla| must outlive the steps.
  static Result<UpdateSteps> make(const UpdatePublic& pub, const SnapPartitionProof* vanilla);
  unsigned challenges() const;
  /// Everything before the first challenge.
  Result<UpdatePrelude> synthesize_prelude(ConstraintSystem& cs) const;
  /// Challenge |i| (< challenges()).
  Status synthesize_challenge(ConstraintSystem& cs, unsigned i, const UpdatePrelude& p) const;

 private:
  struct State;
  explicit UpdateSteps(std::shared_ptr<const State> s) : s_(std::move(s)) {}
  std::shared_ptr<const State> s_;
};

}  // namespace cuzk::circuits::filecoin::detail
