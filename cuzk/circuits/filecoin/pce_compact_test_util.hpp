// Shared by the compact PCE tests of the Filecoin circuits (pce_compact_filecoin_test.cpp and its
// slow twin): |circuit| recorded into the compact form and by the plain recording system, compared
// (the expanded form equals the plain matrices; the SpMV equals the plain PCE on a random z).
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <random>

#include "cuzk/base/thread_pool.hpp"
#include "cuzk/r1cs/pce.hpp"
#include "cuzk/r1cs/pce_compact_recorder.hpp"
#include "cuzk/r1cs/recording_cs.hpp"
#include "tests/support/seed.hpp"

namespace cuzk::circuits::filecoin::testing {

using Clock = std::chrono::steady_clock;

inline double since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// Records |circuit| both ways and compares; the compact form at least |min_ratio| times smaller.
inline void check_circuit(const char* name, Circuit& circuit, double min_ratio) {
  SCOPED_TRACE(name);
  auto t0 = Clock::now();
  CompactRecordStats stats;
  auto compact = record_compact(circuit, {}, &stats);
  ASSERT_TRUE(compact.ok()) << compact.status().to_string();
  const double t_compact = since(t0);
  t0 = Clock::now();
  RecordingConstraintSystem rcs;
  ASSERT_TRUE(synthesize_circuit(circuit, rcs).ok());
  const R1csMatrices plain = rcs.take().matrices;
  const double t_plain = since(t0);
  std::printf(
      "%s: %llu rows; compact %.2f MB (%llu blocks, %llu block rows, %llu segments, %llu slots; "
      "%llu templates, %llu run rows) in %.2f s; plain %.2f MB in %.2f s\n",
      name, static_cast<unsigned long long>(plain.num_constraints), compact->memory_bytes() / 1e6,
      static_cast<unsigned long long>(compact->blocks.size()),
      static_cast<unsigned long long>(compact->block_rows()),
      static_cast<unsigned long long>(compact->segments.size()),
      static_cast<unsigned long long>(compact->slots.size()),
      static_cast<unsigned long long>(stats.templates),
      static_cast<unsigned long long>(stats.run_rows), t_compact, plain.memory_bytes() / 1e6,
      t_plain);

  EXPECT_EQ(compact->num_constraints, plain.num_constraints);
  EXPECT_EQ(compact->nnz_a, plain.a.nnz());
  EXPECT_EQ(compact->nnz_b, plain.b.nnz());
  EXPECT_EQ(compact->nnz_c, plain.c.nnz());
  EXPECT_TRUE(compact_to_matrices(*compact) == plain) << "expanded compact form differs";
  // At least |min_ratio| times smaller (a circuit of one block, like the 2 KiB WindowPoSt's 21,889
  // rows, has nothing to share: 0).
  EXPECT_LT(static_cast<double>(compact->memory_bytes()) * min_ratio,
            static_cast<double>(plain.memory_bytes()));

  std::mt19937_64 rng(cuzk::test::fresh_seed());
  std::vector<Fr> z(plain.num_columns());
  z[0] = Fr::one();
  for (std::size_t i = 1; i < z.size(); ++i) {
    // Mostly bits, as in a Filecoin witness, so the kernels' 0/1 paths run too.
    const unsigned kind = rng() % 4;
    z[i] = kind == 0 ? Fr::zero() : kind == 1 ? Fr::one() : cuzk::test::random_fr(rng);
  }
  ThreadPool pool(2);
  t0 = Clock::now();
  auto want = pce_evaluate(pool, plain, z);
  ASSERT_TRUE(want.ok());
  std::printf("%s: plain SpMV %.3f s on 2 threads\n", name, since(t0));
  AbcVectors got;
  got.a.resize(plain.num_constraints);
  got.b.resize(plain.num_constraints);
  got.c.resize(plain.num_constraints);
  t0 = Clock::now();
  ASSERT_TRUE(pce_compact_evaluate_into(pool, *compact, z, got.a, got.b, got.c).ok());
  std::printf("%s: compact SpMV %.3f s on 2 threads\n", name, since(t0));
  EXPECT_TRUE(got.a == want->a && got.b == want->b && got.c == want->c);
}

}  // namespace cuzk::circuits::filecoin::testing
