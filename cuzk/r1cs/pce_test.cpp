// PCE SpMV against its slow twin (spmv_naive) on random R1CS with mixed coefficient kinds and
// witnesses, and against the classic recorded path (a, b, c evaluated at every enforce) on the
// benchmark circuit at sizes that are not powers of two.
#include <gtest/gtest.h>

#include <random>

#include "cuzk/r1cs/bench_circuit.hpp"
#include "cuzk/r1cs/pce.hpp"
#include "cuzk/r1cs/recording_cs.hpp"
#include "cuzk/r1cs/witness_cs.hpp"

namespace cuzk {
namespace {

Fr random_fr(std::mt19937_64& rng) {
  Fr::Repr c{rng(), rng(), rng(), rng() >> 2};
  return Fr::from_limbs_reduce(c);
}

// Random matrices: rows of 0..6 terms with +1, −1, small and full-width coefficients, repeats.
R1csMatrices random_r1cs(std::mt19937_64& rng, std::uint32_t rows, std::uint32_t ni, std::uint32_t na) {
  R1csMatrices m;
  m.num_inputs = ni;
  m.num_aux = na;
  auto column = [ni](Variable v) { return v.is_input() ? v.index : ni + v.index; };
  for (std::uint32_t k = 0; k < rows; ++k) {
    for (SparseMatrix* s : {&m.a, &m.b, &m.c}) {
      LC lc;
      const int terms = static_cast<int>(rng() % 7);
      for (int t = 0; t < terms; ++t) {
        const std::uint64_t j = rng() % (ni + na);
        const Variable v = j < ni ? Variable::input(static_cast<std::uint32_t>(j))
                                  : Variable::aux(static_cast<std::uint32_t>(j - ni));
        Fr coeff;
        switch (rng() % 4) {
          case 0: coeff = Fr::one(); break;
          case 1: coeff = kFrMinusOne; break;
          case 2: coeff = Fr::from_u64(rng() % 5); break;  // zero coefficients get dropped
          default: coeff = random_fr(rng); break;
        }
        lc.add(coeff, v);
      }
      lc.normalize();
      s->append_row(lc.terms(), column);
    }
  }
  m.num_constraints = rows;
  m.compute_density();
  return m;
}

TEST(Pce, MatchesNaiveOnRandomMatrices) {
  const std::uint64_t seed = std::random_device{}();
  std::mt19937_64 rng(seed);
  ThreadPool pool1(1), pool3(3);
  for (int iter = 0; iter < 6; ++iter) {
    const auto rows = static_cast<std::uint32_t>(1 + rng() % 3000);
    const auto ni = static_cast<std::uint32_t>(1 + rng() % 5);
    const auto na = static_cast<std::uint32_t>(1 + rng() % 2000);
    R1csMatrices m = random_r1cs(rng, rows, ni, na);
    ASSERT_TRUE(m.validate().ok()) << m.validate().to_string();
    std::vector<Fr> z(ni + na);
    for (Fr& v : z) {
      const auto r = rng() % 3;
      v = r == 0 ? Fr::zero() : (r == 1 ? Fr::one() : random_fr(rng));
    }
    const AbcVectors want = spmv_naive(m, z);
    for (bool fast : {false, true}) {
      for (ThreadPool* pool : {&pool1, &pool3}) {
        auto got = pce_evaluate(*pool, m, z, {.boolean_fast_path = fast, .min_rows_per_task = 64});
        ASSERT_TRUE(got.ok());
        EXPECT_EQ(got->a, want.a) << "seed=" << seed << " rows=" << rows << " fast=" << fast;
        EXPECT_EQ(got->b, want.b) << "seed=" << seed;
        EXPECT_EQ(got->c, want.c) << "seed=" << seed;
      }
    }
  }
}

TEST(Pce, RejectsWrongSizes) {
  auto r = generate_bench_r1cs({.rows = 300, .seed = 5});
  ASSERT_TRUE(r.ok());
  ThreadPool pool(1);
  std::vector<Fr> z = r->assignment();
  z.pop_back();
  auto got = pce_evaluate(pool, r->matrices, z);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().code(), Errc::size_mismatch);
}

// PCE (witness-only synthesis + SpMV over recorded matrices) == classic (evaluate at enforce).
TEST(Pce, MatchesClassicPathOnBenchCircuit) {
  const std::uint64_t seed = std::random_device{}();
  std::mt19937_64 rng(seed);
  ThreadPool pool(2);
  for (int iter = 0; iter < 3; ++iter) {
    const std::uint64_t rows = 1000 + rng() % 9000;  // not a power of two
    BenchCircuit circuit({.rows = rows, .seed = seed + iter, .num_public = static_cast<std::uint32_t>(1 + rng() % 6)});
    RecordingConstraintSystem setup;
    ASSERT_TRUE(synthesize_circuit(circuit, setup).ok());
    const R1csMatrices m = setup.take().matrices;

    RecordingConstraintSystem classic({.with_values = true, .record_matrices = false, .evaluate_abc = true});
    ASSERT_TRUE(synthesize_circuit(circuit, classic).ok());
    const Recording c = classic.take();
    EXPECT_EQ(c.matrices.a_aux_density, m.a_aux_density);
    EXPECT_EQ(c.matrices.b_aux_density, m.b_aux_density);
    EXPECT_EQ(c.matrices.b_input_density, m.b_input_density);

    WitnessConstraintSystem wcs({.num_inputs_hint = m.num_inputs});
    ASSERT_TRUE(synthesize_circuit(circuit, wcs).ok());
    auto abc = pce_evaluate(pool, m, wcs.take_assignment());
    ASSERT_TRUE(abc.ok());
    ASSERT_EQ(abc->a.size(), rows);
    EXPECT_EQ(abc->a, c.a) << "seed=" << seed << " rows=" << rows;
    EXPECT_EQ(abc->b, c.b) << "seed=" << seed << " rows=" << rows;
    EXPECT_EQ(abc->c, c.c) << "seed=" << seed << " rows=" << rows;
    EXPECT_TRUE(abc_satisfied(*abc));
  }
}

}  // namespace
}  // namespace cuzk
