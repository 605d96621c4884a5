// TestConstraintSystem: evaluates every constraint with the actual values as it is added and
// remembers the first one that fails, by its full scope path ("sha256/round 3/xor/bit 7"), as
// bellman's TestConstraintSystem does. For gadget tests: which_unsatisfied() must be empty and
// the counts pinned. Every constraint's path is kept (constraint_name) unless keep_names is off:
// then only the first unsatisfied constraint's name closure is called, which a circuit of 10^8
// constraints needs (a path string per constraint would take more memory than its values).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cuzk/r1cs/constraint_system.hpp"

namespace cuzk {

struct TestCsOptions {
  /// Keep the full path of every constraint (constraint_name); off: only a count, and the name
  /// closure is called for the first unsatisfied constraint alone (scopes are still tracked).
  bool keep_names = true;
};

class TestConstraintSystem final : public ConstraintSystem {
 public:
  explicit TestConstraintSystem(const TestCsOptions& opt = {});

  Result<Variable> alloc_aux_fn(NameFn name, ValueFn value) override;
  Result<Variable> alloc_input_fn(NameFn name, ValueFn value) override;
  void enforce_lc(NameFn name, const LC& a, const LC& b, const LC& c) override;
  void push_scope(NameFn name) override;
  void pop_scope() override;
  Status finish() override;

  std::size_t num_inputs() const override { return inputs_.size(); }
  std::size_t num_aux() const override { return aux_.size(); }
  std::size_t num_constraints() const override { return num_constraints_; }

  /// Full path of the first unsatisfied constraint, or nullopt when all hold.
  const std::optional<std::string>& which_unsatisfied() const { return first_unsatisfied_; }
  bool is_satisfied() const { return !first_unsatisfied_.has_value(); }
  /// Full path name of constraint |k| (keep_names only: empty otherwise).
  const std::string& constraint_name(std::size_t k) const {
    static const std::string kNone;
    return k < names_.size() ? names_[k] : kNone;
  }
  const std::vector<Fr>& inputs() const { return inputs_; }
  const std::vector<Fr>& aux() const { return aux_; }
  /// The value of a variable.
  const Fr& value(Variable v) const { return v.is_input() ? inputs_[v.index] : aux_[v.index]; }

 private:
  std::string full_name(const std::string& leaf) const;
  void record_failure(std::string name, const char* why);

  TestCsOptions opt_;
  std::vector<std::string> scopes_;
  std::vector<Fr> inputs_, aux_;
  std::vector<std::string> names_;
  std::size_t num_constraints_ = 0;
  std::optional<std::string> first_unsatisfied_;
  bool finished_ = false;
};

}  // namespace cuzk
