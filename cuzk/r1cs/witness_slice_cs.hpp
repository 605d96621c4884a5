// WitnessSliceConstraintSystem: a witness-only system that writes one part of a circuit's
// assignment straight into a caller's buffer, for circuits whose parts are synthesised
// concurrently (porep_witness.hpp). The part's aux variables are first_aux, first_aux + 1, …
// (their values go to aux[0], aux[1], …) and its inputs first_input, … (values to inputs[…]); the
// caller counts these offsets once from the blank circuit, so a part that allocates more than its
// slice is an error (out_of_range, reported by finish_slice) and never writes outside it.
// Like WitnessConstraintSystem it runs value closures only and counts skipped constraints; with
// fast paths on it gives gadgets block allocation (ConstraintSystem::alloc_aux_block).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/r1cs/constraint_system.hpp"

namespace cuzk {

class WitnessSliceConstraintSystem final : public ConstraintSystem {
 public:
  WitnessSliceConstraintSystem(std::span<Fr> aux, std::uint32_t first_aux, std::span<Fr> inputs,
                               std::uint32_t first_input, bool fast_paths);

  Result<Variable> alloc_aux_fn(NameFn name, ValueFn value) override;
  Result<Variable> alloc_input_fn(NameFn name, ValueFn value) override;
  void enforce_lc(NameFn, const LC&, const LC&, const LC&) override { ++skipped_constraints_; }
  void push_scope(NameFn) override {}
  void pop_scope() override {}
  bool wants_constraints() const override { return false; }
  Status finish() override { return {}; }
  AuxBlock alloc_aux_block(std::size_t n) override;

  /// Variables of this slice so far (it allocates no ONE).
  std::size_t num_inputs() const override { return next_input_; }
  std::size_t num_aux() const override { return next_aux_; }
  std::size_t num_constraints() const override { return skipped_constraints_; }

  /// OK when the part filled its slice exactly; out_of_range naming the counts otherwise.
  Status finish_slice() const;

 private:
  std::span<Fr> aux_, inputs_;
  std::uint32_t first_aux_, first_input_;
  std::size_t next_aux_ = 0, next_input_ = 0;
  bool overflow_ = false;
  std::vector<Fr> scratch_;  // where a block beyond the slice goes (then reported)
};

}  // namespace cuzk
