// Shared by the GPU tests: a device probe that makes tests skip (with a message) where no GPU is
// present, as in CI, and seeded random host values.
#pragma once

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <random>

#include "cuzk/ff/fp.hpp"
#include "cuzk/ff/fp2.hpp"
#include "cuzk/ff/fr.hpp"
#include "tests/support/seed.hpp"

namespace cuzk::gpu::test {
using cuzk::test::fresh_seed;
using cuzk::test::random_fr;

/// True when at least one CUDA device answers.
inline bool has_gpu() {
  int n = 0;
  return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
}

#define CUZK_REQUIRE_GPU()                                                                         \
  do {                                                                                             \
    if (!::cuzk::gpu::test::has_gpu()) GTEST_SKIP() << "no CUDA device present: GPU test skipped"; \
  } while (0)

inline Fp random_fp(std::mt19937_64& rng) {
  Limbs<6> c{};
  for (auto& w : c) w = rng();
  c[5] &= 0x1fffffffffffffffULL;
  return Fp::from_limbs_reduce(c);
}
inline Fp2 random_fp2(std::mt19937_64& rng) { return {random_fp(rng), random_fp(rng)}; }

}  // namespace cuzk::gpu::test
