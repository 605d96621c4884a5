// Test helper for the SnapDeals gadget tests: a TestConstraintSystem that also keeps each
// constraint's three linear combinations, so a test can check a constraint's form (which side
// holds the packed sum, which holds ONE) and not only whether it holds.
#pragma once

#include <vector>

#include "cuzk/r1cs/test_cs.hpp"

namespace cuzk::gadget_test {

class CapturingCs final : public ConstraintSystem {
 public:
  struct Row {
    LC a, b, c;
  };
  Result<Variable> alloc_aux_fn(NameFn name, ValueFn value) override {
    return inner_.alloc_aux_fn(name, value);
  }
  Result<Variable> alloc_input_fn(NameFn name, ValueFn value) override {
    return inner_.alloc_input_fn(name, value);
  }
  void enforce_lc(NameFn name, const LC& a, const LC& b, const LC& c) override {
    rows_.push_back({a, b, c});
    inner_.enforce_lc(name, a, b, c);
  }
  void push_scope(NameFn name) override { inner_.push_scope(name); }
  void pop_scope() override { inner_.pop_scope(); }
  Status finish() override { return inner_.finish(); }
  std::size_t num_inputs() const override { return inner_.num_inputs(); }
  std::size_t num_aux() const override { return inner_.num_aux(); }
  std::size_t num_constraints() const override { return inner_.num_constraints(); }
  const TestConstraintSystem& inner() const { return inner_; }
  const std::vector<Row>& rows() const { return rows_; }

 private:
  TestConstraintSystem inner_;
  std::vector<Row> rows_;
};

}  // namespace cuzk::gadget_test
