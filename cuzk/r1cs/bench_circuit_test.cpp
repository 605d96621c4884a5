// The synthetic benchmark circuit: the direct generator and the Circuit give the same matrices
// and witness, the witness satisfies the R1CS, and the statistics follow a PoRep partition.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>

#include "cuzk/r1cs/bench_circuit.hpp"
#include "cuzk/r1cs/pce.hpp"
#include "cuzk/r1cs/recording_cs.hpp"
#include "cuzk/r1cs/test_cs.hpp"
#include "cuzk/r1cs/witness_cs.hpp"

namespace cuzk {
namespace {

TEST(BenchCircuit, DirectEqualsCircuitAndIsSatisfied) {
  const std::uint64_t seed = std::random_device{}();
  for (unsigned k : {10u, 12u}) {
    BenchCircuitParams p{.log_rows = k, .seed = seed, .num_public = 3};
    auto direct = generate_bench_r1cs(p);
    ASSERT_TRUE(direct.ok()) << direct.status().to_string();
    ASSERT_TRUE(direct->matrices.validate().ok());
    EXPECT_EQ(direct->matrices.num_constraints, std::uint64_t{1} << k);
    EXPECT_EQ(direct->matrices.num_inputs, 4u);

    BenchCircuit circuit(p);
    RecordingConstraintSystem setup;  // no values
    ASSERT_TRUE(synthesize_circuit(circuit, setup).ok());
    Recording rec = setup.take();
    EXPECT_EQ(rec.matrices, direct->matrices) << "seed=" << seed << " k=" << k;

    TestConstraintSystem tcs;
    ASSERT_TRUE(synthesize_circuit(circuit, tcs).ok());
    EXPECT_TRUE(tcs.is_satisfied()) << *tcs.which_unsatisfied() << " seed=" << seed;
    EXPECT_EQ(tcs.inputs(), direct->inputs);
    EXPECT_EQ(tcs.aux(), direct->aux);
    EXPECT_EQ(tcs.num_constraints(), direct->matrices.num_constraints);

    AbcVectors v = spmv_naive(direct->matrices, direct->assignment());
    std::size_t bad = 0;
    EXPECT_TRUE(abc_satisfied(v, &bad)) << "row " << bad << " seed=" << seed;
  }
}

TEST(BenchCircuit, ParallelGenerationEqualsSequential) {
  const std::uint64_t seed = std::random_device{}();
  ThreadPool pool(3);
  // 40,000 rows: three 16,384-row chunks, the last one partial.
  BenchCircuitParams p{.rows = 40000 + seed % 1000, .seed = seed};
  auto seq = generate_bench_r1cs(p);
  auto par = generate_bench_r1cs(pool, p);
  ASSERT_TRUE(seq.ok() && par.ok());
  EXPECT_EQ(par->matrices, seq->matrices) << "seed=" << seed;
  EXPECT_EQ(par->aux, seq->aux) << "seed=" << seed;
  EXPECT_EQ(par->inputs, seq->inputs) << "seed=" << seed;
  EXPECT_TRUE(par->matrices.validate().ok());
  // Against a single-piece build: the circuit recorded row by row.
  BenchCircuit circuit(p);
  RecordingConstraintSystem rec;
  ASSERT_TRUE(synthesize_circuit(circuit, rec).ok());
  EXPECT_EQ(rec.take().matrices, par->matrices) << "seed=" << seed;
  auto no_witness = generate_bench_r1cs(pool, p, false);
  EXPECT_EQ(no_witness->matrices, seq->matrices);
  EXPECT_TRUE(no_witness->aux.empty());
}

TEST(BenchCircuit, DeterministicFromSeed) {
  BenchCircuitParams p{.log_rows = 11, .seed = 42};
  auto x = generate_bench_r1cs(p), y = generate_bench_r1cs(p);
  EXPECT_EQ(x->matrices, y->matrices);
  EXPECT_EQ(x->aux, y->aux);
  p.seed = 43;
  auto z = generate_bench_r1cs(p);
  EXPECT_FALSE(z->matrices == x->matrices);
  EXPECT_FALSE(generate_bench_r1cs({.log_rows = 9}).ok());
}

// Measured statistics of the circuit at 2^16 (seed 1), against the PoRep targets.
TEST(BenchCircuit, StatisticsFollowPoRep) {
  auto r = generate_bench_r1cs({.log_rows = 16, .seed = 1});
  ASSERT_TRUE(r.ok());
  const R1csStats s = r1cs_stats(r->matrices);
  std::size_t bits = 0;
  for (const Fr& v : r->aux) bits += v.is_zero() || v.is_one();
  const double bit_fraction = static_cast<double>(bits) / static_cast<double>(r->aux.size());
  std::printf(
      "nnz/row A %.3f B %.3f C %.3f, unit coeffs %.3f, a_aux %.4f, b_aux %.4f, b_input %zu, "
      "0/1 values %.3f, %.1f bytes/row, %zu distinct coefficients\n",
      s.nnz_per_row_a, s.nnz_per_row_b, s.nnz_per_row_c, s.unit_fraction, s.a_aux_density,
      s.b_aux_density, s.b_input_popcount, bit_fraction, s.bytes_per_row, s.distinct_coeffs);
  EXPECT_NEAR(s.nnz_per_row_a, 2.4, 0.1);
  EXPECT_NEAR(s.nnz_per_row_b, 1.0, 0.05);
  EXPECT_NEAR(s.nnz_per_row_c, 2.2, 0.1);
  EXPECT_NEAR(s.a_aux_density, 0.997, 0.003);
  EXPECT_NEAR(s.b_aux_density, 0.25, 0.02);
  EXPECT_EQ(s.b_input_popcount, 1u);  // only ONE in B, as in PoRep
  EXPECT_GE(bit_fraction, 0.70);
  EXPECT_LT(s.bytes_per_row, 60.0);  // compact matrices: ≈ 50 B per row for A, B, C
}

}  // namespace
}  // namespace cuzk
