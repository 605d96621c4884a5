// A random bench circuit (rows not a power of two) with its satisfying witness and a seeded key,
// for the format tests that write, read and prove with a real key (formats_test,
// params_direct_test). The seed comes from fresh_seed (printed, CUZK_SEED replays it).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "cuzk/base/thread_pool.hpp"
#include "cuzk/groth16/keys.hpp"
#include "cuzk/groth16/rng.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/r1cs/bench_circuit.hpp"
#include "tests/support/seed.hpp"

namespace cuzk::test {

struct BenchKey {
  std::uint64_t seed = 0;
  BenchR1cs circuit;
  std::vector<Fr> z;  ///< the circuit's satisfying assignment
  ProvingKey pk;
};

/// A circuit of 256 + [0, |extra_rows|) rows and two public inputs, and its key in |layout|.
inline BenchKey random_bench_key(KeyLayout layout, ThreadPool& pool, std::uint64_t extra_rows) {
  BenchKey e;
  e.seed = fresh_seed();
  std::mt19937_64 g(e.seed);
  auto c = generate_bench_r1cs({.rows = 256 + g() % extra_rows, .seed = e.seed, .num_public = 2});
  EXPECT_TRUE(c.ok()) << c.status().to_string();
  if (!c.ok()) return e;
  e.circuit = std::move(*c);
  e.z = e.circuit.assignment();
  SeededRng rng(e.seed);
  auto pk = setup(e.circuit.matrices, rng, {.layout = layout, .pool = &pool});
  EXPECT_TRUE(pk.ok()) << pk.status().to_string();
  if (pk.ok()) e.pk = std::move(*pk);
  return e;
}

}  // namespace cuzk::test
