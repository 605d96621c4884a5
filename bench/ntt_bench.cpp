// CPU NTT benchmarks over Fr (poly/ntt.hpp): forward, inverse, coset forward and the whole H step
// (7 transforms) at 2^16 … 2^22 on 1 and 2 threads (more with --threads-max via the filter:
// the thread counts registered are 1, 2 and hardware_concurrency()). Plans are built once
// outside the timed loop, as the prover does. PERF.md §2 anchor: arkworks 162 ms at 2^20 on an
// 8-vCPU m5.2xlarge. Run: build/bin/ntt_bench --benchmark_format=csv.
#include <benchmark/benchmark.h>

#include <random>
#include <set>
#include <thread>
#include <vector>

#include "cuzk/base/thread_pool.hpp"
#include "cuzk/poly/domain.hpp"
#include "cuzk/poly/ntt.hpp"

namespace cuzk {
namespace {

std::vector<Fr> random_values(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Fr> v(n);
  for (auto& x : v) {
    Fr::Repr c{};
    for (auto& w : c) w = rng();
    c[3] >>= 1;
    x = Fr::from_limbs_reduce(c);
  }
  return v;
}

// Args: log2 n, threads, mode (0 forward, 1 inverse, 2 coset forward, 3 coset inverse).
void BM_ntt(benchmark::State& state) {
  const unsigned k = static_cast<unsigned>(state.range(0));
  ThreadPool pool(static_cast<std::size_t>(state.range(1)));
  const int m = static_cast<int>(state.range(2));
  const NttMode mode{.direction = (m & 1) ? NttDirection::inverse : NttDirection::forward,
                     .coset = m >= 2};
  auto d = Domain::from_log_size(k);
  if (!d.ok()) {
    state.SkipWithError(d.status().to_string().c_str());
    return;
  }
  NttPlan plan(*d);
  auto v = random_values(d->size(), k);
  for (auto _ : state) {
    Status s = ntt(v, plan, mode, pool);
    if (!s.ok()) state.SkipWithError(s.to_string().c_str());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(d->size()));
  state.counters["log_n"] = k;
  state.counters["threads"] = static_cast<double>(pool.size());
}

// The Groth16 H step: 3 inverse + 2 coset forward + 1 coset inverse transform and two pointwise
// passes (compute_h); range(2) = 1: bellperson's 7 transforms (compute_h_c_on_coset, the twin).
void BM_compute_h(benchmark::State& state) {
  const unsigned k = static_cast<unsigned>(state.range(0));
  ThreadPool pool(static_cast<std::size_t>(state.range(1)));
  auto d = Domain::from_log_size(k);
  NttPlan plan(*d);
  const auto a0 = random_values(d->size(), 1), b0 = random_values(d->size(), 2),
             c0 = random_values(d->size(), 3);
  std::vector<Fr> a, b, c;
  for (auto _ : state) {
    state.PauseTiming();
    a = a0, b = b0, c = c0;
    state.ResumeTiming();
    Status s =
        state.range(2) ? compute_h_c_on_coset(a, b, c, plan, pool) : compute_h(a, b, c, plan, pool);
    if (!s.ok()) state.SkipWithError(s.to_string().c_str());
    benchmark::ClobberMemory();
  }
  state.counters["log_n"] = k;
  state.counters["threads"] = static_cast<double>(pool.size());
  state.counters["transforms"] = state.range(2) ? 7 : 6;
}

void BM_plan(benchmark::State& state) {
  auto d = Domain::from_log_size(static_cast<unsigned>(state.range(0)));
  for (auto _ : state) {
    NttPlan plan(*d);
    benchmark::DoNotOptimize(plan.memory_bytes());
  }
}

std::vector<std::int64_t> thread_counts() {
  std::set<std::int64_t> t{1, 2};
  t.insert(std::max<std::int64_t>(1, std::thread::hardware_concurrency()));
  return {t.begin(), t.end()};
}

void ntt_args(benchmark::internal::Benchmark* b) {
  for (std::int64_t k = 16; k <= 22; k += 2)
    for (std::int64_t t : thread_counts())
      for (std::int64_t m = 0; m < 4; ++m) b->Args({k, t, m});
  for (std::int64_t t : thread_counts())
    b->Args({20, t, 0});  // keep 2^20 (the PERF.md anchor) even if k steps change
}

void h_args(benchmark::internal::Benchmark* b) {
  for (std::int64_t k : {16, 20})
    for (std::int64_t t : thread_counts())
      for (std::int64_t twin : {0, 1}) b->Args({k, t, twin});
}

BENCHMARK(BM_ntt)
    ->Apply(ntt_args)
    ->ArgNames({"log_n", "threads", "mode"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_compute_h)
    ->Apply(h_args)
    ->ArgNames({"log_n", "threads", "c_on_coset"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_plan)->Arg(20)->Arg(27)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace cuzk

BENCHMARK_MAIN();
