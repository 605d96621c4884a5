// compact_from_matrices against its inverse and the plain SpMV: the benchmark circuit (sizes not
// powers of two, several public inputs) as one block gives its matrices back (compact_to_matrices,
// ==) and the same a, b, c as pce_evaluate_into; matrices without ONE are refused. Seeded
// (printed; CUZK_SEED replays).
#include "cuzk/r1cs/compact_from_matrices.hpp"

#include <gtest/gtest.h>

#include "cuzk/r1cs/bench_circuit.hpp"
#include "cuzk/r1cs/pce.hpp"
#include "tests/support/seed.hpp"

namespace cuzk {
namespace {

TEST(CompactFromMatrices, GivesTheMatricesBackAndTheSameSpmv) {
  std::mt19937_64 rng(test::fresh_seed());
  ThreadPool pool(2);
  for (int round = 0; round < 3; ++round) {
    auto bench =
        generate_bench_r1cs(pool, {.rows = 300 + rng() % 3000,
                                   .seed = rng(),
                                   .num_public = static_cast<std::uint32_t>(1 + rng() % 5)});
    ASSERT_TRUE(bench.ok()) << bench.status().to_string();
    const R1csMatrices& m = bench->matrices;
    auto c = compact_from_matrices(m);
    ASSERT_TRUE(c.ok()) << c.status().to_string();
    EXPECT_EQ(c->blocks.size(), 1u);
    EXPECT_TRUE(compact_to_matrices(*c) == m);
    const std::vector<Fr> z = bench->assignment();
    const std::size_t n = m.num_constraints;
    std::vector<Fr> a(n), b(n), cc(n), wa(n), wb(n), wc(n);
    ASSERT_TRUE(pce_compact_evaluate_into(pool, *c, z, a, b, cc).ok());
    ASSERT_TRUE(pce_evaluate_into(pool, m, z, wa, wb, wc).ok());
    EXPECT_TRUE(a == wa && b == wb && cc == wc);
  }
  EXPECT_EQ(compact_from_matrices(R1csMatrices{}).status().code(), Errc::invalid_argument);
}

}  // namespace
}  // namespace cuzk
