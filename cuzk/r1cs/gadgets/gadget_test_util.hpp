// Test helpers for gadgets: a decorator system that corrupts one aux value (so a test can check
// that the named constraint catches it), and a check that the recorded matrices, the classic
// a/b/c and witness-only synthesis + PCE agree on a gadget circuit.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <random>

#include "cuzk/base/thread_pool.hpp"
#include "cuzk/r1cs/pce.hpp"
#include "cuzk/r1cs/recording_cs.hpp"
#include "cuzk/r1cs/test_cs.hpp"
#include "cuzk/r1cs/witness_cs.hpp"
#include "tests/support/seed.hpp"

namespace cuzk::gadget_test {
using cuzk::test::fresh_seed;

/// Forwards to a TestConstraintSystem, adding 1 to the value of aux variable |target|.
class CorruptingCs final : public ConstraintSystem {
 public:
  explicit CorruptingCs(std::size_t target) : target_(target) {}
  Result<Variable> alloc_aux_fn(NameFn name, ValueFn value) override {
    if (inner_.num_aux() != target_) return inner_.alloc_aux_fn(name, value);
    auto bad = [&]() -> Result<Fr> {
      Result<Fr> v = value();
      if (!v) return v;
      return *v + Fr::one();
    };
    return inner_.alloc_aux_fn(name, bad);
  }
  Result<Variable> alloc_input_fn(NameFn name, ValueFn value) override {
    return inner_.alloc_input_fn(name, value);
  }
  void enforce_lc(NameFn name, const LC& a, const LC& b, const LC& c) override {
    inner_.enforce_lc(name, a, b, c);
  }
  void push_scope(NameFn name) override { inner_.push_scope(name); }
  void pop_scope() override { inner_.pop_scope(); }
  Status finish() override { return inner_.finish(); }
  std::size_t num_inputs() const override { return inner_.num_inputs(); }
  std::size_t num_aux() const override { return inner_.num_aux(); }
  std::size_t num_constraints() const override { return inner_.num_constraints(); }
  const TestConstraintSystem& inner() const { return inner_; }

 private:
  TestConstraintSystem inner_;
  std::size_t target_;
};

/// A circuit from a callable.
class FnCircuit final : public Circuit {
 public:
  explicit FnCircuit(std::function<Status(ConstraintSystem&)> f) : f_(std::move(f)) {}
  Status synthesize(ConstraintSystem& cs) override { return f_(cs); }

 private:
  std::function<Status(ConstraintSystem&)> f_;
};

/// Records |with_values| (the proving circuit) and |blank| (the same circuit without values) and
/// checks: same matrices shape, classic a/b/c == witness-only + PCE a/b/c, all satisfied.
inline void expect_pce_matches_classic(Circuit& with_values, Circuit& blank) {
  RecordingConstraintSystem setup;
  ASSERT_TRUE(synthesize_circuit(blank, setup).ok());
  const R1csMatrices m = setup.take().matrices;

  RecordingConstraintSystem classic(
      {.with_values = true, .record_matrices = true, .evaluate_abc = true});
  ASSERT_TRUE(synthesize_circuit(with_values, classic).ok());
  const Recording c = classic.take();
  EXPECT_EQ(c.matrices.num_inputs, m.num_inputs);
  EXPECT_EQ(c.matrices.num_aux, m.num_aux);
  EXPECT_EQ(c.matrices.a_aux_density, m.a_aux_density);
  EXPECT_EQ(c.matrices.b_aux_density, m.b_aux_density);

  WitnessConstraintSystem wcs({.num_inputs_hint = m.num_inputs});
  ASSERT_TRUE(synthesize_circuit(with_values, wcs).ok());
  EXPECT_EQ(wcs.num_constraints(), c.a.size());
  ThreadPool pool(2);
  const std::vector<Fr> z = wcs.take_assignment();
  auto abc = pce_evaluate(pool, m, z);
  ASSERT_TRUE(abc.ok()) << abc.status().to_string();
  EXPECT_EQ(abc->a, c.a);
  EXPECT_EQ(abc->b, c.b);
  EXPECT_EQ(abc->c, c.c);
  std::size_t bad = 0;
  EXPECT_TRUE(abc_satisfied(*abc, &bad)) << "row " << bad;
  // The compiled plan (row forms, integer sums, bit columns), with and without the 0/1 path.
  const PcePlan plan = pce_plan(m);
  for (bool fast : {true, false}) {
    auto viaplan = pce_evaluate(pool, m, z, {.boolean_fast_path = fast, .plan = &plan});
    ASSERT_TRUE(viaplan.ok()) << viaplan.status().to_string();
    EXPECT_EQ(viaplan->a, c.a) << "plan, fast path " << fast;
    EXPECT_EQ(viaplan->b, c.b) << "plan, fast path " << fast;
    EXPECT_EQ(viaplan->c, c.c) << "plan, fast path " << fast;
  }
}

}  // namespace cuzk::gadget_test
