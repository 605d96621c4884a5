// Pairing benchmarks: one pairing, a 4-pair multi-pairing (one shared Miller loop and one final
// exponentiation, with plain and prepared G2 points: the Groth16 verifier's shape), the Miller loop
// and final exponentiation alone, and the Fp12 operations they are made of (mul, square, cyclotomic
// square, sparse line product). Reference: blst, about 0.9–1.1 ms per pairing on a desktop core.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "cuzk/ec/pairing.hpp"
#include "cuzk/ec/scalar_mul.hpp"

namespace cuzk {
namespace {

Fr random_fr(std::mt19937_64& rng) {
  Limbs<4> c{};
  for (auto& w : c) w = rng();
  c[3] &= (std::uint64_t{1} << 62) - 1;
  return Fr::from_limbs_reduce(c);
}

struct Pairs {
  std::vector<G1Affine> p;
  std::vector<G2Affine> q;
};

Pairs random_pairs(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Pairs out;
  for (std::size_t i = 0; i < n; ++i) {
    out.p.push_back(mul_vartime(G1Affine::generator(), random_fr(rng)).to_affine());
    out.q.push_back(mul_vartime(G2Affine::generator(), random_fr(rng)).to_affine());
  }
  return out;
}

/// A Miller-loop output: a generic (non-cyclotomic) Fp12 element.
Fp12 sample_fp12() {
  const Pairs s = random_pairs(1, 7);
  return miller_loop(s.p[0], s.q[0]);
}

void BM_pairing(benchmark::State& state) {
  const Pairs s = random_pairs(1, 1);
  for (auto _ : state) benchmark::DoNotOptimize(pairing(s.p[0], s.q[0]));
}
BENCHMARK(BM_pairing)->Name("pairing")->Unit(benchmark::kMicrosecond);

void BM_multi_pairing4(benchmark::State& state) {
  const Pairs s = random_pairs(4, 2);
  for (auto _ : state)
    benchmark::DoNotOptimize(final_exponentiation(multi_miller_loop(s.p, s.q).value()));
}
BENCHMARK(BM_multi_pairing4)->Name("multi_pairing_4")->Unit(benchmark::kMicrosecond);

void BM_multi_pairing4_prepared(benchmark::State& state) {
  const Pairs s = random_pairs(4, 2);
  std::vector<G2Prepared> prep;
  for (const auto& q : s.q) prep.push_back(G2Prepared::from_affine(q));
  for (auto _ : state) {
    benchmark::DoNotOptimize(
        final_exponentiation(multi_miller_loop(s.p, std::span<const G2Prepared>(prep)).value()));
  }
}
BENCHMARK(BM_multi_pairing4_prepared)
    ->Name("multi_pairing_4_prepared")
    ->Unit(benchmark::kMicrosecond);

void BM_miller_loop(benchmark::State& state) {
  const Pairs s = random_pairs(1, 3);
  for (auto _ : state) benchmark::DoNotOptimize(miller_loop(s.p[0], s.q[0]));
}
BENCHMARK(BM_miller_loop)->Name("miller_loop")->Unit(benchmark::kMicrosecond);

void BM_g2_prepare(benchmark::State& state) {
  const Pairs s = random_pairs(1, 4);
  for (auto _ : state) benchmark::DoNotOptimize(G2Prepared::from_affine(s.q[0]));
}
BENCHMARK(BM_g2_prepare)->Name("g2_prepare")->Unit(benchmark::kMicrosecond);

void BM_final_exponentiation(benchmark::State& state) {
  const Fp12 f = sample_fp12();
  for (auto _ : state) benchmark::DoNotOptimize(final_exponentiation(f));
}
BENCHMARK(BM_final_exponentiation)->Name("final_exponentiation")->Unit(benchmark::kMicrosecond);

// Fp12 operations: a chain of 100 dependent operations per iteration; figures per operation.
constexpr int kChain = 100;

void BM_fp12_mul(benchmark::State& state) {
  Fp12 a = sample_fp12();
  const Fp12 b = a.square();
  for (auto _ : state) {
    for (int i = 0; i < kChain; ++i) a = a * b;
    benchmark::DoNotOptimize(a);
  }
  state.SetItemsProcessed(state.iterations() * kChain);
}
BENCHMARK(BM_fp12_mul)->Name("fp12_mul");

void BM_fp12_square(benchmark::State& state) {
  Fp12 a = sample_fp12();
  for (auto _ : state) {
    for (int i = 0; i < kChain; ++i) a = a.square();
    benchmark::DoNotOptimize(a);
  }
  state.SetItemsProcessed(state.iterations() * kChain);
}
BENCHMARK(BM_fp12_square)->Name("fp12_square");

void BM_fp12_cyclotomic_square(benchmark::State& state) {
  Fp12 a = sample_fp12();
  a = a.conjugate() * a.inverse();
  a = a.frobenius_map(2) * a;
  for (auto _ : state) {
    for (int i = 0; i < kChain; ++i) a = a.cyclotomic_square();
    benchmark::DoNotOptimize(a);
  }
  state.SetItemsProcessed(state.iterations() * kChain);
}
BENCHMARK(BM_fp12_cyclotomic_square)->Name("fp12_cyclotomic_square");

void BM_fp12_mul_by_014(benchmark::State& state) {
  Fp12 a = sample_fp12();
  const Fp2 l0 = a.c0.c2, l1 = a.c1.c0, l4 = a.c1.c2;
  for (auto _ : state) {
    for (int i = 0; i < kChain; ++i) a = a.mul_by_014(l0, l1, l4);
    benchmark::DoNotOptimize(a);
  }
  state.SetItemsProcessed(state.iterations() * kChain);
}
BENCHMARK(BM_fp12_mul_by_014)->Name("fp12_mul_by_014");

void BM_fp12_inverse(benchmark::State& state) {
  Fp12 a = sample_fp12();
  for (auto _ : state) {
    a = a.inverse();
    benchmark::DoNotOptimize(a);
  }
}
BENCHMARK(BM_fp12_inverse)->Name("fp12_inverse")->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace cuzk

BENCHMARK_MAIN();
