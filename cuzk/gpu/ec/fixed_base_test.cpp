// The CUDA fixed-base executor (gpu/ec/fixed_base.cuh through gpu/fixed_base_executor.hpp) against
// its CPU twin (backend/fixed_base.hpp, FixedBaseTable): random scalars with 0, 1, 2 and r − 1
// mixed in, sizes that are not multiples of the block size, chunks smaller than the call (so the
// device loop and its last partial chunk run), windows 12 and 8; G1 and G2. Also [r − 1]G = −G and
// [0]G the identity, checked directly; and a whole setup through the executor equals the CPU
// setup. Skipped where no GPU is present (CI). Seeded (printed;
// CUZK_SEED replays).
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "cuzk/backend/fixed_base.hpp"
#include "cuzk/gpu/fixed_base_executor.hpp"
#include "cuzk/gpu/gpu_test_util.cuh"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/r1cs/bench_circuit.hpp"

namespace cuzk::gpu {
namespace {

using test::fresh_seed;
using test::random_fr;

const Fr kMinusOne = Fr::zero() - Fr::one();  // r − 1

std::vector<Fr> scalars(std::mt19937_64& rng, std::size_t n) {
  std::vector<Fr> ks(n);
  for (Fr& k : ks) k = random_fr(rng);
  const Fr specials[] = {Fr::zero(), Fr::one(), Fr::from_u64(2), kMinusOne};
  for (const Fr& s : specials) ks[rng() % n] = s;
  ks[0] = Fr::zero();
  if (n > 1) ks[n - 1] = kMinusOne;
  return ks;
}

TEST(GpuFixedBase, EqualsTheCpuTablesG1AndG2) {
  CUZK_REQUIRE_GPU();
  std::mt19937_64 rng(fresh_seed());
  ThreadPool pool(4);
  for (unsigned window : {12u, 8u}) {
    auto gpu = make_cuda_fixed_base(
        {.arena_bytes = std::size_t{1} << 30, .chunk = 1000, .window = window}, pool);
    ASSERT_TRUE(gpu.ok()) << gpu.status().to_string();
    auto cpu = make_cpu_fixed_base(pool, 1 << 12, 1 << 10);
    for (std::size_t n : {std::size_t{1}, std::size_t{255}, std::size_t{257}, std::size_t{3001}}) {
      SCOPED_TRACE(testing::Message() << "window " << window << " n " << n);
      const std::vector<Fr> ks = scalars(rng, n);
      std::vector<G1Affine> g1(n), g1_want(n);
      ASSERT_TRUE((*gpu)->g1_many(ks, g1).ok());
      ASSERT_TRUE(cpu->g1_many(ks, g1_want).ok());
      for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(g1[i], g1_want[i]) << "G1 point " << i;
      EXPECT_TRUE(g1[0].is_identity());
      if (n > 1) {
        EXPECT_EQ(g1[n - 1], -G1Affine::generator());
      }

      const std::size_t m = n > 1000 ? n / 3 : n;  // G2 is 3× the work
      std::vector<G2Affine> g2(m), g2_want(m);
      ASSERT_TRUE((*gpu)->g2_many(std::span(ks).first(m), g2).ok());
      ASSERT_TRUE(cpu->g2_many(std::span(ks).first(m), g2_want).ok());
      for (std::size_t i = 0; i < m; ++i) ASSERT_EQ(g2[i], g2_want[i]) << "G2 point " << i;
      EXPECT_TRUE(g2[0].is_identity());
      if (m == n && n > 1) {
        EXPECT_EQ(g2[n - 1], -G2Affine::generator());
      }
    }
    // Mismatched lengths are refused.
    std::vector<Fr> ks(3, Fr::one());
    std::vector<G1Affine> two(2);
    EXPECT_EQ((*gpu)->g1_many(ks, two).code(), Errc::size_mismatch);
  }
}

// A whole setup with the GPU executor (2^13 rows, chunks of 3000 scalars, so every query spans
// several executor calls) equals the CPU setup with the same trapdoor, both layouts.
TEST(GpuFixedBase, SetupKeyEqualsTheCpuKey) {
  CUZK_REQUIRE_GPU();
  const std::uint64_t seed = fresh_seed();
  ThreadPool pool(4);
  auto circuit = generate_bench_r1cs(pool, {.log_rows = 13, .seed = seed, .num_public = 3});
  ASSERT_TRUE(circuit.ok()) << circuit.status().to_string();
  SeededRng rng(seed);
  const Trapdoor td = random_trapdoor(rng);
  auto gpu = make_cuda_fixed_base({.arena_bytes = std::size_t{1} << 30}, pool);
  ASSERT_TRUE(gpu.ok()) << gpu.status().to_string();
  for (KeyLayout layout : {KeyLayout::bellperson, KeyLayout::snarkjs}) {
    auto want = setup_with_trapdoor(circuit->matrices, td, {.layout = layout, .pool = &pool});
    ASSERT_TRUE(want.ok()) << want.status().to_string();
    auto got = setup_with_trapdoor(
        circuit->matrices, td,
        {.layout = layout, .pool = &pool, .fixed_base = gpu->get(), .chunk = 3000});
    ASSERT_TRUE(got.ok()) << got.status().to_string();
    EXPECT_TRUE(*got == *want) << "layout " << static_cast<int>(layout);
  }
}

}  // namespace
}  // namespace cuzk::gpu
