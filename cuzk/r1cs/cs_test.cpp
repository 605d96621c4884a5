// The three constraint systems on small circuits: satisfaction and naming (TestConstraintSystem),
// matrices, density and input constraints (RecordingConstraintSystem), witness-only values
// (WitnessConstraintSystem), and their agreement through the PCE SpMV.
#include <gtest/gtest.h>

#include <random>

#include "cuzk/r1cs/bench_circuit.hpp"
#include "cuzk/r1cs/pce.hpp"
#include "cuzk/r1cs/recording_cs.hpp"
#include "cuzk/r1cs/test_cs.hpp"
#include "cuzk/r1cs/witness_cs.hpp"
#include "tests/support/seed.hpp"

namespace cuzk {
namespace {

// x³ + x + 5 = out, out public; |x| empty means "no values" (setup).
class CubeCircuit : public Circuit {
 public:
  explicit CubeCircuit(std::optional<Fr> x, bool break_it = false) : x_(x), break_(break_it) {}
  Status synthesize(ConstraintSystem& cs) override {
    Namespace ns(cs, "cube");
    auto x = cs.alloc("x", [&] { return x_; });
    if (!x) return x.status();
    auto x2v = [&]() -> std::optional<Fr> {
      if (!x_) return std::nullopt;
      return *x_ * *x_;
    };
    auto x2 = cs.alloc("x2", x2v);
    if (!x2) return x2.status();
    cs.enforce("x*x=x2", *x, *x, *x2);
    auto x3 = cs.alloc("x3", [&]() -> Result<Fr> {
      if (!x_) return Status(Errc::invalid_argument, "no x");
      return *x_ * *x_ * *x_ + (break_ ? Fr::one() : Fr::zero());
    });
    if (!x3) return x3.status();
    {
      Namespace inner(cs, [] { return std::string("cube step"); });
      cs.enforce([] { return "x2*x=x3"; }, [&](LC lc) { return lc + *x2; }, *x, *x3);
    }
    auto out = cs.alloc_input("out", [&]() -> std::optional<Fr> {
      if (!x_) return std::nullopt;
      return *x_ * *x_ * *x_ + *x_ + Fr::from_u64(5);
    });
    if (!out) return out.status();
    // (x3 + x + 5·ONE) · ONE = out, with x added twice and subtracted once (merging check).
    LC lhs = LC(*x3) + *x + *x - *x + Term{Variable::one(), Fr::from_u64(5)};
    cs.enforce("sum", lhs, Variable::one(), *out);
    return {};
  }

 private:
  std::optional<Fr> x_;
  bool break_;
};

TEST(TestConstraintSystem, SatisfiedAndCounts) {
  CubeCircuit c(Fr::from_u64(3));
  TestConstraintSystem cs;
  ASSERT_TRUE(synthesize_circuit(c, cs).ok());
  EXPECT_TRUE(cs.is_satisfied()) << *cs.which_unsatisfied();
  EXPECT_EQ(cs.num_inputs(), 2u);
  EXPECT_EQ(cs.num_aux(), 3u);
  EXPECT_EQ(cs.num_constraints(), 3u + 2u);  // 3 circuit + 2 input constraints
  EXPECT_EQ(cs.inputs()[1], Fr::from_u64(35));
  EXPECT_EQ(cs.constraint_name(0), "cube/x*x=x2");
  EXPECT_EQ(cs.constraint_name(3), "input constraint 0");
}

TEST(TestConstraintSystem, NamesTheFirstUnsatisfiedConstraint) {
  CubeCircuit c(Fr::from_u64(3), /*break_it=*/true);
  TestConstraintSystem cs;
  ASSERT_TRUE(synthesize_circuit(c, cs).ok());
  ASSERT_FALSE(cs.is_satisfied());
  EXPECT_EQ(*cs.which_unsatisfied(), "cube/cube step/x2*x=x3");
}

// Without per-constraint names: the same counts and verdicts, the same path for the first
// failure, and the name closure called for that constraint alone.
TEST(TestConstraintSystem, WithoutNamesCallsOnlyTheFailingName) {
  for (bool broken : {false, true}) {
    SCOPED_TRACE(broken ? "broken" : "satisfied");
    CubeCircuit c(Fr::from_u64(3), broken);
    TestConstraintSystem named;
    ASSERT_TRUE(synthesize_circuit(c, named).ok());
    TestConstraintSystem bare({.keep_names = false});
    ASSERT_TRUE(synthesize_circuit(c, bare).ok());
    EXPECT_EQ(bare.num_constraints(), named.num_constraints());
    EXPECT_EQ(bare.which_unsatisfied(), named.which_unsatisfied());
    EXPECT_EQ(bare.inputs(), named.inputs());
    EXPECT_EQ(bare.aux(), named.aux());
    EXPECT_EQ(bare.constraint_name(0), "");
  }
  // Counted name closures: three constraints, the second one fails.
  int calls = 0;
  TestConstraintSystem cs({.keep_names = false});
  auto x = cs.alloc("x", [] { return Fr::from_u64(2); });
  ASSERT_TRUE(x.ok());
  auto named = [&calls](const char* n) {
    return [&calls, n] {
      ++calls;
      return std::string(n);
    };
  };
  Namespace ns(cs, "outer");
  cs.enforce(named("holds"), *x, *x, LC(Variable::one()).scaled(Fr::from_u64(4)));
  cs.enforce(named("fails"), *x, *x, *x);
  cs.enforce(named("later"), *x, *x, *x);
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(cs.num_constraints(), 3u);
  ASSERT_FALSE(cs.is_satisfied());
  EXPECT_EQ(*cs.which_unsatisfied(), "outer/fails");
}

TEST(TestConstraintSystem, MissingValueNamesTheVariable) {
  CubeCircuit c(std::nullopt);
  TestConstraintSystem cs;
  Status s = synthesize_circuit(c, cs);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), Errc::invalid_argument);
  EXPECT_NE(s.message().find("cube/x"), std::string::npos) << s.to_string();
}

TEST(WitnessConstraintSystem, MissingValueNamesTheVariable) {
  CubeCircuit c(std::nullopt);
  WitnessConstraintSystem cs({.track_names = true});
  Status s = synthesize_circuit(c, cs);
  ASSERT_EQ(s.code(), Errc::invalid_argument);
  EXPECT_NE(s.message().find("aux variable 0 'cube/x'"), std::string::npos) << s.to_string();
  WitnessConstraintSystem cs2;
  Status s2 = synthesize_circuit(c, cs2);
  EXPECT_NE(s2.message().find("x'"), std::string::npos) << s2.to_string();
}

TEST(RecordingConstraintSystem, SetupNeverCallsValues) {
  CubeCircuit c(std::nullopt);  // any value call would fail
  RecordingConstraintSystem cs;
  ASSERT_TRUE(synthesize_circuit(c, cs).ok());
  Recording r = cs.take();
  const R1csMatrices& m = r.matrices;
  ASSERT_TRUE(m.validate().ok()) << m.validate().to_string();
  EXPECT_EQ(m.num_inputs, 2u);
  EXPECT_EQ(m.num_aux, 3u);
  EXPECT_EQ(m.num_constraints, 5u);
  // Columns: ONE=0, out=1, x=2, x2=3, x3=4. Row 2 (sum): A = 5·ONE + x + x3 after merging.
  std::vector<std::pair<std::uint32_t, Fr>> row;
  m.a.for_each_term(2, [&](std::uint32_t j, const Fr& f) { row.emplace_back(j, f); });
  ASSERT_EQ(row.size(), 3u);
  EXPECT_EQ(row[0], (std::pair<std::uint32_t, Fr>{2, Fr::one()}));  // ±1 terms first
  EXPECT_EQ(row[1], (std::pair<std::uint32_t, Fr>{4, Fr::one()}));
  EXPECT_EQ(row[2], (std::pair<std::uint32_t, Fr>{0, Fr::from_u64(5)}));
  // Input constraints at the end: A = input_i, B = C = empty.
  for (std::uint32_t i = 0; i < 2; ++i) {
    const std::size_t k = 3 + i;
    EXPECT_EQ(m.a.row_ptr[k + 1] - m.a.row_ptr[k], 1u);
    EXPECT_EQ(SparseMatrix::column_of(m.a.col[m.a.row_ptr[k]]), i);
    EXPECT_EQ(m.b.row_ptr[k + 1] - m.b.row_ptr[k], 0u);
    EXPECT_EQ(m.c.row_ptr[k + 1] - m.c.row_ptr[k], 0u);
  }
  // Density: A holds x, x2, x3; B holds x (aux 0) and ONE.
  EXPECT_EQ(m.a_aux_density.count(), 3u);
  EXPECT_TRUE(m.b_aux_density.test(0));
  EXPECT_FALSE(m.b_aux_density.test(1));
  EXPECT_EQ(m.b_input_density.count(), 1u);
  EXPECT_TRUE(m.b_input_density.test(0));
  R1csMatrices recomputed = m;
  recomputed.compute_density();
  EXPECT_EQ(recomputed, m);
}

// Damaged offsets (a key image or cache read unchecked) are refused before any entry is read:
// every row's end offset, not only the last one, must stay within the entries. Found by the
// ASan build reading a key image with a flipped byte in B's offsets.
TEST(R1csMatrices, ValidateRefusesOffsetsPastTheEntries) {
  CubeCircuit c(std::nullopt);
  RecordingConstraintSystem cs;
  ASSERT_TRUE(synthesize_circuit(c, cs).ok());
  const R1csMatrices good = cs.take().matrices;
  ASSERT_TRUE(good.validate().ok());
  for (std::size_t row = 1; row < good.num_constraints; ++row) {
    R1csMatrices m = good;
    m.b.row_ptr[row] = m.b.col.size() + 1000;  // the next row's offsets then decrease
    const Status st = m.validate();
    ASSERT_FALSE(st.ok()) << "row " << row;
    EXPECT_EQ(st.code(), Errc::bad_encoding) << st.to_string();
    EXPECT_NE(st.to_string().find("matrix B"), std::string::npos) << st.to_string();
  }
}

TEST(ConstraintSystems, AgreeThroughPce) {
  std::mt19937_64 rng(std::random_device{}());
  const std::uint64_t x = rng();
  CubeCircuit c(Fr::from_u64(x));
  RecordingConstraintSystem rec({.with_values = true, .evaluate_abc = true});
  ASSERT_TRUE(synthesize_circuit(c, rec).ok());
  Recording r = rec.take();
  WitnessConstraintSystem wcs;
  ASSERT_TRUE(synthesize_circuit(c, wcs).ok());
  EXPECT_EQ(wcs.num_constraints(), r.matrices.num_constraints);
  EXPECT_EQ(wcs.inputs(), r.inputs);
  EXPECT_EQ(std::vector<Fr>(wcs.aux().begin(), wcs.aux().end()), r.aux);
  ThreadPool pool(2);
  auto abc = pce_evaluate(pool, r.matrices, wcs.assignment());
  // In place with the right hint, and with a wrong one (falls back to a copy).
  for (std::size_t hint : {std::size_t{2}, std::size_t{1}, std::size_t{5}}) {
    WitnessConstraintSystem w2({.num_inputs_hint = hint});
    ASSERT_TRUE(synthesize_circuit(c, w2).ok());
    EXPECT_EQ(w2.take_assignment(), wcs.assignment()) << "hint " << hint;
  }
  ASSERT_TRUE(abc.ok());
  EXPECT_EQ(abc->a, r.a) << "x=" << x;
  EXPECT_EQ(abc->b, r.b);
  EXPECT_EQ(abc->c, r.c);
  EXPECT_TRUE(abc_satisfied(*abc));
}

// A circuit that interleaves inputs and aux, nests scopes, and counts closure calls.
class CountingCircuit : public Circuit {
 public:
  int lc_calls = 0, value_calls = 0;
  Status synthesize(ConstraintSystem& cs) override {
    Namespace outer(cs, "outer");
    auto a = cs.alloc("a", [&] {
      ++value_calls;
      return Fr::from_u64(3);
    });
    auto i1 = cs.alloc_input("i1", [&] {
      ++value_calls;
      return Fr::from_u64(9);
    });
    Namespace inner(cs, "inner");
    auto b = cs.alloc("b", [&] {
      ++value_calls;
      return Fr::from_u64(3);
    });
    if (!a || !i1 || !b) return Status(Errc::invalid_argument, "alloc failed");
    EXPECT_EQ(*a, Variable::aux(0));
    EXPECT_EQ(*i1, Variable::input(1));  // per-space numbering: ONE is input 0
    EXPECT_EQ(*b, Variable::aux(1));
    cs.enforce(
        "a*b=i1",
        [&](LC lc) {
          ++lc_calls;
          return lc + *a;
        },
        [&](LC lc) {
          ++lc_calls;
          return lc + *b;
        },
        [&](LC lc) {
          ++lc_calls;
          return lc + *i1;
        });
    return {};
  }
};

TEST(ConstraintSystems, ClosuresAreCalledOnlyWhenNeeded) {
  CountingCircuit c1;
  WitnessConstraintSystem w;
  ASSERT_TRUE(synthesize_circuit(c1, w).ok());
  EXPECT_EQ(c1.lc_calls, 0);  // witness generation never builds LCs
  EXPECT_EQ(c1.value_calls, 3);
  EXPECT_EQ(w.num_constraints(), 1u + 2u);

  CountingCircuit c2;
  RecordingConstraintSystem setup;
  ASSERT_TRUE(synthesize_circuit(c2, setup).ok());
  EXPECT_EQ(c2.lc_calls, 3);
  EXPECT_EQ(c2.value_calls, 0);  // setup never asks for values

  CountingCircuit c3;
  TestConstraintSystem t;
  ASSERT_TRUE(synthesize_circuit(c3, t).ok());
  EXPECT_TRUE(t.is_satisfied());
  EXPECT_EQ(t.constraint_name(0), "outer/inner/a*b=i1");
  EXPECT_EQ(t.num_constraints(), 3u);
  EXPECT_TRUE(t.finish().ok());  // finishing twice adds nothing
  EXPECT_EQ(t.num_constraints(), 3u);
}

// Infallible value closures stored inline by alloc() (direct_alloc) and through the virtual
// alloc_aux_fn give the same assignment, variables and counts, with fallible closures
// (optional, Result) and inputs interleaved, with and without an exact input hint.
TEST(WitnessConstraintSystem, DirectAllocMatchesVirtualPath) {
  const std::uint64_t seed = std::random_device{}();
  std::mt19937_64 rng(seed);
  CubeCircuit cube(Fr::from_u64(rng()));
  BenchCircuit bench({.rows = 500 + rng() % 2000, .seed = seed, .num_public = 3});
  for (Circuit* c : {static_cast<Circuit*>(&cube), static_cast<Circuit*>(&bench)}) {
    for (std::size_t hint : {std::size_t{1}, std::size_t{2}, std::size_t{4}}) {
      WitnessConstraintSystem slow({.num_inputs_hint = hint, .direct_alloc = false});
      WitnessConstraintSystem fast({.num_inputs_hint = hint, .direct_alloc = true});
      ASSERT_TRUE(synthesize_circuit(*c, slow).ok());
      ASSERT_TRUE(synthesize_circuit(*c, fast).ok());
      EXPECT_EQ(fast.num_aux(), slow.num_aux()) << "seed=" << seed << " hint=" << hint;
      EXPECT_EQ(fast.num_inputs(), slow.num_inputs()) << "seed=" << seed;
      EXPECT_EQ(fast.num_constraints(), slow.num_constraints()) << "seed=" << seed;
      EXPECT_EQ(fast.take_assignment(), slow.take_assignment())
          << "seed=" << seed << " hint=" << hint;
    }
  }
  CountingCircuit counting;  // checks the variables' numbering itself
  WitnessConstraintSystem w({.direct_alloc = true});
  ASSERT_TRUE(synthesize_circuit(counting, w).ok());
  EXPECT_EQ(counting.value_calls, 3);
  EXPECT_EQ(counting.lc_calls, 0);
}

// Counting mode (no values, no matrices) gives the counts, nnz and densities of the full recording.
TEST(RecordingConstraintSystem, CountingModeMatchesTheRecordedMatrices) {
  const std::uint64_t seed = test::fresh_seed();
  SCOPED_TRACE(::testing::Message() << "seed " << seed);
  BenchCircuit circuit(BenchCircuitParams{.rows = 3000, .seed = seed, .num_public = 5});
  RecordingConstraintSystem full(RecordingOptions{});
  ASSERT_TRUE(synthesize_circuit(circuit, full).ok());
  RecordingConstraintSystem counting({.record_matrices = false});
  ASSERT_TRUE(synthesize_circuit(circuit, counting).ok());
  const Recording& f = full.recording();
  const Recording& c = counting.recording();
  EXPECT_EQ(c.matrices.num_constraints, f.matrices.num_constraints);
  EXPECT_EQ(c.matrices.num_inputs, f.matrices.num_inputs);
  EXPECT_EQ(c.matrices.num_aux, f.matrices.num_aux);
  EXPECT_EQ(c.nnz_a, f.matrices.a.nnz());
  EXPECT_EQ(c.nnz_b, f.matrices.b.nnz());
  EXPECT_EQ(c.nnz_c, f.matrices.c.nnz());
  EXPECT_EQ(f.nnz_a, f.matrices.a.nnz());
  EXPECT_EQ(c.matrices.a_aux_density, f.matrices.a_aux_density);
  EXPECT_EQ(c.matrices.b_aux_density, f.matrices.b_aux_density);
  EXPECT_EQ(c.matrices.b_input_density, f.matrices.b_input_density);
  EXPECT_EQ(c.matrices.a.nnz(), 0u);
}

}  // namespace
}  // namespace cuzk
