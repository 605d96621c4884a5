// The fused bench solve (bench_solve.hpp) against its slow twins, on random bench circuits of
// non-power-of-two sizes (seed printed): z equals solve_bench_witness's for the same witness seed,
// a/b/c equal the PCE's (pce_evaluate) and the naive SpMV's on that z, and the circuit holds.
// A stale buffer (poisoned z, a/b/c) changes nothing. Rejections: two unknowns in a row, a
// variable no row fixes, a plan used with another circuit's matrices.
#include "cuzk/circuits/bench/bench_solve.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <random>

#include "cuzk/base/thread_pool.hpp"
#include "cuzk/circuits/bench/bench_witness.hpp"
#include "cuzk/r1cs/bench_circuit.hpp"
#include "cuzk/r1cs/pce.hpp"

namespace cuzk::circuits {
namespace {

Fr poison() {
  Fr p;
  p.l = {0x0123456789abcdefULL, 0xfedcba9876543210ULL, 0x1111111111111111ULL,
         0x0222222222222222ULL};
  return p;
}

TEST(BenchSolve, MatchesSolverAndPce) {
  const std::uint64_t seed = std::random_device{}();
  std::printf("seed %llu\n", static_cast<unsigned long long>(seed));
  std::mt19937_64 rng(seed);
  ThreadPool pool(2);
  for (int t = 0; t < 4; ++t) {
    BenchCircuitParams p;
    p.rows = 256 + rng() % 5000;
    p.seed = rng();
    p.num_public = 1 + static_cast<std::uint32_t>(rng() % 6);
    auto g = generate_bench_r1cs(p, false);
    ASSERT_TRUE(g.ok()) << g.status().to_string();
    const R1csMatrices& m = g->matrices;
    auto plan = bench_solve_plan(m);
    ASSERT_TRUE(plan.ok()) << plan.status().to_string();
    for (int s = 0; s < 2; ++s) {
      const std::uint64_t wseed = rng();
      auto w = solve_bench_witness(m, wseed);
      ASSERT_TRUE(w.ok()) << w.status().to_string();
      std::vector<Fr> z(m.num_columns() + 7, poison());  // stale, longer than needed
      std::vector<Fr> a(m.num_constraints, poison()), b = a, c = a;
      ASSERT_TRUE(solve_bench_partition(m, **plan, wseed, nullptr, z, a, b, c).ok());
      ASSERT_EQ(z.size(), w->z.size());
      for (std::size_t i = 0; i < z.size(); ++i)
        ASSERT_TRUE(fr_eq(z[i], w->z[i])) << "rows " << p.rows << " z[" << i << "]";
      auto ref = pce_evaluate(pool, m, w->z);
      ASSERT_TRUE(ref.ok());
      auto naive = spmv_naive(m, w->z);
      for (std::size_t r = 0; r < m.num_constraints; ++r) {
        ASSERT_TRUE(fr_eq(a[r], ref->a[r]) && fr_eq(b[r], ref->b[r]) && fr_eq(c[r], ref->c[r]))
            << "rows " << p.rows << " row " << r;
        ASSERT_TRUE(fr_eq(a[r], naive.a[r]) && fr_eq(b[r], naive.b[r]) && fr_eq(c[r], naive.c[r]))
            << "row " << r;
      }
      std::size_t bad = 0;
      EXPECT_TRUE(abc_satisfied(naive, &bad)) << "row " << bad;
    }
  }
}

TEST(BenchSolve, PlanRejectsUnsolvableCircuits) {
  auto g = generate_bench_r1cs(BenchCircuitParams{.log_rows = 10, .seed = 3}, false);
  ASSERT_TRUE(g.ok());
  {
    R1csMatrices m = g->matrices;
    ASSERT_EQ(m.b.row_ptr[1] - m.b.row_ptr[0], 1u);  // row 0: (ONE − b)·b = 0
    m.b.col[0] += 1;                                 // B now reads the next, unfixed variable
    auto plan = bench_solve_plan(m);
    ASSERT_FALSE(plan.ok());
    EXPECT_EQ(plan.status().code(), Errc::unsatisfied);
    EXPECT_NE(plan.status().message().find("row 0 has two unknown"), std::string::npos)
        << plan.status().message();
  }
  {
    R1csMatrices m = g->matrices;
    m.num_aux += 1;  // a column no row fixes
    auto plan = bench_solve_plan(m);
    ASSERT_FALSE(plan.ok());
    EXPECT_NE(plan.status().message().find("occurs in no row"), std::string::npos)
        << plan.status().message();
  }
  auto plan = bench_solve_plan(g->matrices);
  ASSERT_TRUE(plan.ok());
  auto other = generate_bench_r1cs(BenchCircuitParams{.log_rows = 11, .seed = 3}, false);
  ASSERT_TRUE(other.ok());
  std::vector<Fr> z, a(other->matrices.num_constraints), b = a, c = a;
  EXPECT_EQ(solve_bench_partition(other->matrices, **plan, 1, nullptr, z, a, b, c).code(),
            Errc::size_mismatch);
}

TEST(BenchSolve, Cancels) {
  auto g = generate_bench_r1cs(BenchCircuitParams{.log_rows = 12, .seed = 5}, false);
  ASSERT_TRUE(g.ok());
  auto plan = bench_solve_plan(g->matrices);
  ASSERT_TRUE(plan.ok());
  CancelFlag cancel{true};
  std::vector<Fr> z, a(g->matrices.num_constraints), b = a, c = a;
  EXPECT_EQ(solve_bench_partition(g->matrices, **plan, 1, &cancel, z, a, b, c).code(),
            Errc::cancelled);
}

}  // namespace
}  // namespace cuzk::circuits
