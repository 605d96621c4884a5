// Field arithmetic benchmarks (Fp, Fr, Fp2). "chain" figures are latency: each multiplication
// consumes the previous result (PERF.md §5 compares blst fp_mul, 54 ns in such a chain);
// "throughput" figures run 8 independent chains, so the out-of-order core can overlap them.
#include <benchmark/benchmark.h>

#include <array>
#include <random>
#include <span>
#include <vector>

#include "cuzk/ff/batch_invert.hpp"
#include "cuzk/ff/fp.hpp"
#include "cuzk/ff/fp2.hpp"
#include "cuzk/ff/fp_ifma.hpp"
#include "cuzk/ff/fr.hpp"

namespace cuzk {
namespace {

template <class F>
F random_element(std::mt19937_64& rng) {
  typename F::Repr c{};
  for (auto& w : c) w = rng();
  c[F::N - 1] &= (~std::uint64_t{0}) >> 1;  // below 2^(64N−1), then reduced
  return F::from_limbs_reduce(c);
}

// One benchmark iteration = kChain dependent multiplications; the counters report per operation.
constexpr int kChain = 1000;

// Runs a benchmark body with the mulx/adx path off (the "portable" rows), restoring it after.
template <void (*Body)(benchmark::State&)>
void portable(benchmark::State& state) {
  const bool prev = mont_x86::set_asm_enabled(false);
  Body(state);
  mont_x86::set_asm_enabled(prev);
}

template <class F>
void BM_mul_chain(benchmark::State& state) {
  std::mt19937_64 rng(1);
  F a = random_element<F>(rng), b = random_element<F>(rng);
  for (auto _ : state) {
    for (int i = 0; i < kChain; ++i) a = a * b;
    benchmark::DoNotOptimize(a);
  }
  state.SetItemsProcessed(state.iterations() * kChain);
}

template <class F>
void BM_square_chain(benchmark::State& state) {
  std::mt19937_64 rng(2);
  F a = random_element<F>(rng);
  for (auto _ : state) {
    for (int i = 0; i < kChain; ++i) a = a.square();
    benchmark::DoNotOptimize(a);
  }
  state.SetItemsProcessed(state.iterations() * kChain);
}

template <class F>
void BM_mul_throughput(benchmark::State& state) {
  std::mt19937_64 rng(3);
  std::array<F, 8> a;
  for (auto& x : a) x = random_element<F>(rng);
  const F b = random_element<F>(rng);
  for (auto _ : state) {
    for (int i = 0; i < kChain / 8; ++i)
      for (auto& x : a) x = x * b;
    benchmark::DoNotOptimize(a);
  }
  state.SetItemsProcessed(state.iterations() * (kChain / 8) * 8);
}

template <class F>
void BM_square_throughput(benchmark::State& state) {
  std::mt19937_64 rng(10);
  std::array<F, 8> a;
  for (auto& x : a) x = random_element<F>(rng);
  for (auto _ : state) {
    for (int i = 0; i < kChain / 8; ++i)
      for (auto& x : a) x.square_inplace();
    benchmark::DoNotOptimize(a);
  }
  state.SetItemsProcessed(state.iterations() * (kChain / 8) * 8);
}

template <class F>
void BM_add_chain(benchmark::State& state) {
  std::mt19937_64 rng(4);
  F a = random_element<F>(rng), b = random_element<F>(rng);
  for (auto _ : state) {
    for (int i = 0; i < kChain; ++i) a = a + b;
    benchmark::DoNotOptimize(a);
  }
  state.SetItemsProcessed(state.iterations() * kChain);
}

template <class F>
void BM_inverse(benchmark::State& state) {
  std::mt19937_64 rng(5);
  F a = random_element<F>(rng);
  for (auto _ : state) {
    a = a.inverse() + F::one();
    benchmark::DoNotOptimize(a);
  }
  state.SetItemsProcessed(state.iterations());
}

template <class F>
void BM_inverse_vartime(benchmark::State& state) {
  std::mt19937_64 rng(6);
  F a = random_element<F>(rng);
  for (auto _ : state) {
    a = a.inverse_vartime() + F::one();
    benchmark::DoNotOptimize(a);
  }
  state.SetItemsProcessed(state.iterations());
}

template <class F>
void BM_sqrt(benchmark::State& state) {
  std::mt19937_64 rng(7);
  F a = random_element<F>(rng).square();
  for (auto _ : state) {
    auto s = a.sqrt();
    benchmark::DoNotOptimize(s);
    a += F::one();  // about half the inputs are non-squares, like decompression sees
  }
  state.SetItemsProcessed(state.iterations());
}

// Montgomery's trick over state.range(0) elements; items = elements inverted.
template <class F>
void BM_batch_invert(benchmark::State& state) {
  std::mt19937_64 rng(11);
  std::vector<F> v(static_cast<std::size_t>(state.range(0)));
  for (auto& x : v) x = random_element<F>(rng);
  std::vector<F> scratch(v.size());
  for (auto _ : state) {
    batch_invert_vartime(std::span<F>(v), std::span<F>(scratch));
    benchmark::DoNotOptimize(v.data());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_fp2_mul_chain(benchmark::State& state) {
  std::mt19937_64 rng(8);
  Fp2 a{random_element<Fp>(rng), random_element<Fp>(rng)};
  const Fp2 b{random_element<Fp>(rng), random_element<Fp>(rng)};
  for (auto _ : state) {
    for (int i = 0; i < kChain; ++i) a = a * b;
    benchmark::DoNotOptimize(a);
  }
  state.SetItemsProcessed(state.iterations() * kChain);
}

void BM_fp2_square_chain(benchmark::State& state) {
  std::mt19937_64 rng(9);
  Fp2 a{random_element<Fp>(rng), random_element<Fp>(rng)};
  for (auto _ : state) {
    for (int i = 0; i < kChain; ++i) a = a.square();
    benchmark::DoNotOptimize(a);
  }
  state.SetItemsProcessed(state.iterations() * kChain);
}

BENCHMARK(BM_mul_chain<Fp>)->Name("fp_mul_chain");
BENCHMARK(portable<BM_mul_chain<Fp>>)->Name("fp_mul_chain_portable");
BENCHMARK(BM_mul_throughput<Fp>)->Name("fp_mul_throughput");
BENCHMARK(portable<BM_mul_throughput<Fp>>)->Name("fp_mul_throughput_portable");
BENCHMARK(BM_square_chain<Fp>)->Name("fp_square_chain");
BENCHMARK(BM_square_throughput<Fp>)->Name("fp_square_throughput");
BENCHMARK(portable<BM_square_chain<Fp>>)->Name("fp_square_chain_portable");
BENCHMARK(BM_add_chain<Fp>)->Name("fp_add_chain");
BENCHMARK(portable<BM_add_chain<Fp>>)->Name("fp_add_chain_portable");
BENCHMARK(BM_mul_chain<Fr>)->Name("fr_mul_chain");
BENCHMARK(portable<BM_mul_chain<Fr>>)->Name("fr_mul_chain_portable");
BENCHMARK(BM_mul_throughput<Fr>)->Name("fr_mul_throughput");
BENCHMARK(BM_square_chain<Fr>)->Name("fr_square_chain");
BENCHMARK(BM_inverse<Fp>)->Name("fp_inverse");
BENCHMARK(BM_inverse_vartime<Fp>)->Name("fp_inverse_vartime");
BENCHMARK(BM_inverse<Fr>)->Name("fr_inverse");
BENCHMARK(BM_inverse_vartime<Fr>)->Name("fr_inverse_vartime");
BENCHMARK(BM_sqrt<Fp>)->Name("fp_sqrt");
BENCHMARK(BM_sqrt<Fr>)->Name("fr_sqrt");
BENCHMARK(BM_batch_invert<Fp>)->Name("fp_batch_invert")->Arg(1000);
BENCHMARK(BM_batch_invert<Fr>)->Name("fr_batch_invert")->Arg(1000);
BENCHMARK(BM_fp2_mul_chain)->Name("fp2_mul_chain");
// The plain formula (three Montgomery products), the twin of the lazy-reduction product above.
void BM_fp2_mul_chain_plain(benchmark::State& state) {
  const bool prev = Fp2::set_lazy_enabled(false);
  BM_fp2_mul_chain(state);
  Fp2::set_lazy_enabled(prev);
}
BENCHMARK(BM_fp2_mul_chain_plain)->Name("fp2_mul_chain_plain");

// Eight Fp products per call in AVX-512 IFMA lanes (fp_ifma.hpp), two independent chains;
// items = Fp products. The _portable row is the scalar twin.
template <bool kPortable>
void BM_fp_ifma_mul8(benchmark::State& state) {
  std::mt19937_64 rng(10);
  ifma::Fp8 a{}, b{}, c{};
  for (unsigned k = 0; k < ifma::kLanes; ++k) {
    std::uint64_t l[8];
    ifma::to_radix52(random_element<Fp>(rng).l, l);
    for (unsigned j = 0; j < 8; ++j) a.l[j][k] = c.l[j][k] = l[j];
    ifma::to_radix52(random_element<Fp>(rng).l, l);
    for (unsigned j = 0; j < 8; ++j) b.l[j][k] = l[j];
  }
  const bool prev = ifma::set_ifma_enabled(!kPortable);
  if (!kPortable && !ifma::g_use_ifma) state.SkipWithError("no AVX-512 IFMA on this CPU");
  for (auto _ : state) {
    for (int i = 0; i < kChain / 8; ++i) {
      ifma::mul8(a, a, b);
      ifma::mul8(c, c, b);
    }
    benchmark::DoNotOptimize(a);
    benchmark::DoNotOptimize(c);
  }
  ifma::set_ifma_enabled(prev);
  state.SetItemsProcessed(state.iterations() * (kChain / 8) * 16);
}
BENCHMARK(BM_fp_ifma_mul8<false>)->Name("fp_ifma_mul8");
BENCHMARK(BM_fp_ifma_mul8<true>)->Name("fp_ifma_mul8_portable");
BENCHMARK(BM_fp2_square_chain)->Name("fp2_square_chain");

}  // namespace
}  // namespace cuzk

BENCHMARK_MAIN();
