// CountingConstraintSystem: counts a synthesis's inputs, aux and constraints and asks for no value
// (wants_constraints() false, so the witness-mode gadget code builds no LC): a blank circuit's
// layout, e.g. where each part of a partition's variables begins (circuits/filecoin
// porep_witness.cpp, parts_witness.cpp).
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuzk/r1cs/constraint_system.hpp"

namespace cuzk {

class CountingConstraintSystem final : public ConstraintSystem {
 public:
  CountingConstraintSystem() { skip_constraints_ = true; }
  Result<Variable> alloc_aux_fn(NameFn, ValueFn) override {
    return Variable::aux(static_cast<std::uint32_t>(aux_++));
  }
  Result<Variable> alloc_input_fn(NameFn, ValueFn) override {
    return Variable::input(static_cast<std::uint32_t>(inputs_++));
  }
  void enforce_lc(NameFn, const LC&, const LC&, const LC&) override { ++skipped_constraints_; }
  void push_scope(NameFn) override {}
  void pop_scope() override {}
  bool wants_constraints() const override { return false; }
  Status finish() override { return {}; }
  std::size_t num_inputs() const override { return inputs_; }  ///< ONE included
  std::size_t num_aux() const override { return aux_; }
  std::size_t num_constraints() const override { return skipped_constraints_; }

 private:
  std::size_t inputs_ = 1, aux_ = 0;  // ONE
};

}  // namespace cuzk
