// TestConstraintSystem: evaluates every constraint with the actual values as it is added and
// remembers the first one that fails, by its full scope path ("sha256/round 3/xor/bit 7"), as
// bellman's TestConstraintSystem does. For gadget tests: which_unsatisfied() must be empty and
// the counts pinned.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cuzk/r1cs/constraint_system.hpp"

namespace cuzk {

class TestConstraintSystem final : public ConstraintSystem {
 public:
  TestConstraintSystem();

  Result<Variable> alloc_aux_fn(NameFn name, ValueFn value) override;
  Result<Variable> alloc_input_fn(NameFn name, ValueFn value) override;
  void enforce_lc(NameFn name, const LC& a, const LC& b, const LC& c) override;
  void push_scope(NameFn name) override;
  void pop_scope() override;
  Status finish() override;

  std::size_t num_inputs() const override { return inputs_.size(); }
  std::size_t num_aux() const override { return aux_.size(); }
  std::size_t num_constraints() const override { return names_.size(); }

  /// Full path of the first unsatisfied constraint, or nullopt when all hold.
  const std::optional<std::string>& which_unsatisfied() const { return first_unsatisfied_; }
  bool is_satisfied() const { return !first_unsatisfied_.has_value(); }
  /// Full path name of constraint |k|.
  const std::string& constraint_name(std::size_t k) const { return names_[k]; }
  const std::vector<Fr>& inputs() const { return inputs_; }
  const std::vector<Fr>& aux() const { return aux_; }
  /// The value of a variable.
  const Fr& value(Variable v) const { return v.is_input() ? inputs_[v.index] : aux_[v.index]; }

 private:
  std::string full_name(const std::string& leaf) const;

  std::vector<std::string> scopes_;
  std::vector<Fr> inputs_, aux_;
  std::vector<std::string> names_;
  std::optional<std::string> first_unsatisfied_;
  bool finished_ = false;
};

}  // namespace cuzk
