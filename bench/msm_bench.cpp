// MSM benchmarks (docs/perf/msm.md): G1 2^12..2^20 and G2 2^12..2^18, random scalars and a
// Filecoin-like mix (36 % zeros, 36 % ones, 28 % random: the synthetic PoRep circuit measured 72.6 %
// 0/1 values), on 1 and 2 threads. Counters: us_per_pt (wall time per point) and pt_per_madd
// (time per point divided by one XYZZ mixed addition, the machine-independent figure; the addition
// is timed in thread CPU time).
// Run: build/bin/msm_bench --benchmark_format=csv [--benchmark_filter=...]
#include <benchmark/benchmark.h>

#include <time.h>

#include <chrono>
#include <map>
#include <memory>
#include <random>
#include <vector>

#include "cuzk/base/thread_pool.hpp"
#include "cuzk/ec/batch_affine.hpp"
#include "cuzk/ec/g1.hpp"
#include "cuzk/ec/g2.hpp"
#include "cuzk/msm/msm.hpp"

namespace cuzk {
namespace {

Fr random_fr(std::mt19937_64& rng) {
  Limbs<4> c{};
  for (auto& w : c) w = rng();
  c[3] &= 0x7fffffffffffffffULL;
  return Fr::from_limbs_reduce(c);
}

// 2^|log_n| subgroup points: a walk P_{i+1} = P_i + S_{i mod 7} from random multiples of the
// generator, converted to affine in one batch; built once per curve and reused.
template <class C>
const std::vector<Affine<C>>& bases(unsigned log_n) {
  static std::map<unsigned, std::vector<Affine<C>>> cache;
  auto it = cache.find(log_n);
  if (it != cache.end()) return it->second;
  std::mt19937_64 rng(42 + log_n);
  std::vector<Jacobian<C>> steps;
  for (int i = 0; i < 8; ++i)
    steps.push_back(mul_vartime(Jacobian<C>::generator(), random_fr(rng)));
  const std::size_t n = std::size_t{1} << log_n;
  std::vector<Jacobian<C>> j(n);
  Jacobian<C> acc = steps[7];
  for (std::size_t i = 0; i < n; ++i) {
    acc += steps[i % 7];
    j[i] = acc;
  }
  return cache.emplace(log_n, batch_to_affine_vartime<C>(j)).first->second;
}

// kRandom: every scalar random; kFilecoin: 36 % zeros, 36 % ones; a mix m ≥ 2 (the split's
// crossover sweep): m − 1 % zeros and as many ones (2 → 1 %, 6 → 5 %, 11 → 10 %, 21 → 20 %, 31 → 30 %).
// kSmall: half the scalars in [2, 256) (bytes of a circuit's witness), half random.
enum Mix { kRandom = 0, kFilecoin = 1, kSmall = 100 };

std::vector<Fr> scalars(unsigned log_n, int mix) {
  std::mt19937_64 rng(7 + log_n + 100 * mix);
  std::vector<Fr> s(std::size_t{1} << log_n);
  const unsigned half =
      mix == kFilecoin ? 36 : (mix >= 2 && mix < kSmall ? static_cast<unsigned>(mix - 1) : 0);
  for (auto& k : s) {
    const auto r = rng() % 100;
    if (mix == kSmall && r < 50)
      k = Fr::from_u64(2 + rng() % 254);
    else if (r < half)
      k = Fr::zero();
    else if (r < 2 * half)
      k = Fr::one();
    else
      k = random_fr(rng);
  }
  return s;
}

ThreadPool& pool(std::size_t threads) {
  static std::map<std::size_t, std::unique_ptr<ThreadPool>> pools;
  auto& p = pools[threads];
  if (!p) p = std::make_unique<ThreadPool>(threads);
  return *p;
}

double thread_cpu_ns() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e9 + static_cast<double>(ts.tv_nsec);
}

// CPU nanoseconds of one XYZZ mixed addition (a dependent chain of 2^14 additions).
template <class C>
double madd_ns() {
  static double ns = 0;
  if (ns > 0) return ns;
  const auto& b = bases<C>(12);
  Xyzz<C> acc = Xyzz<C>::from_affine(b[0]);
  const std::size_t reps = std::size_t{1} << 14;
  const double t0 = thread_cpu_ns();
  for (std::size_t i = 0; i < reps; ++i) acc.add_mixed(b[1 + i % 4000]);
  const double t1 = thread_cpu_ns();
  benchmark::DoNotOptimize(acc);
  ns = (t1 - t0) / static_cast<double>(reps);
  return ns;
}

// Args: log2 n, threads, scalar mix, split (0 automatic, 1 always, 2 never).
template <class C>
void bm_msm(benchmark::State& state) {
  const unsigned log_n = static_cast<unsigned>(state.range(0));
  const std::size_t threads = static_cast<std::size_t>(state.range(1));
  const int mix = static_cast<int>(state.range(2));
  const MsmSplit split = static_cast<MsmSplit>(state.range(3));
  const auto& b = bases<C>(log_n);
  const auto s = scalars(log_n, mix);
  ThreadPool& p = pool(threads);
  const double madd = madd_ns<C>();
  MsmReport report;
  for (auto _ : state) {
    auto r = msm<C>(b, s, p, {.split = split}, &report);
    benchmark::DoNotOptimize(r);
  }
  const double n = static_cast<double>(s.size());
  state.counters["us_per_pt"] =
      benchmark::Counter(n * static_cast<double>(state.iterations()) / 1e6,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["madd_ns"] = madd;
  state.counters["split"] = report.split_used ? 1 : 0;
}

// Accumulation comparison on one thread: Args log2 n, accumulation (1 xyzz, 2 batch_affine), c (0 auto).
template <class C>
void bm_accumulation(benchmark::State& state) {
  const unsigned log_n = static_cast<unsigned>(state.range(0));
  const auto& b = bases<C>(log_n);
  const auto s = scalars(log_n, kRandom);
  const PippengerOptions po{.window_bits = static_cast<unsigned>(state.range(2)),
                            .accumulation = static_cast<PippengerAccumulation>(state.range(1))};
  for (auto _ : state) {
    auto r = msm<C>(b, s, pool(1), {.split = MsmSplit::never, .pippenger = po});
    benchmark::DoNotOptimize(r);
  }
  state.counters["us_per_pt"] = benchmark::Counter(
      static_cast<double>(s.size()) * static_cast<double>(state.iterations()) / 1e6,
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["madd_ns"] = madd_ns<C>();
}
BENCHMARK(bm_accumulation<G1Curve>)
    ->Name("msm_g1_accumulation")
    ->ArgsProduct({{16, 20}, {1, 2}, {0, 13}})
    ->ArgNames({"log_n", "acc", "c"})
    ->Unit(benchmark::kMillisecond)
    ->MinTime(0.5);

double process_cpu_ns() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e9 + static_cast<double>(ts.tv_nsec);
}

// Endomorphism split: Args log2 n, threads, endomorphism (0 automatic, 1 off, 2 on), c (0 auto).
// cpu_us_per_pt is the process CPU time (all threads) per point, the steady figure on a shared machine.
template <class C>
void bm_endomorphism(benchmark::State& state) {
  const unsigned log_n = static_cast<unsigned>(state.range(0));
  const auto& b = bases<C>(log_n);
  const auto s = scalars(log_n, kRandom);
  const PippengerOptions po{.window_bits = static_cast<unsigned>(state.range(3)),
                            .endomorphism = static_cast<MsmEndomorphism>(state.range(2))};
  ThreadPool& p = pool(static_cast<std::size_t>(state.range(1)));
  double cpu = 0;
  for (auto _ : state) {
    const double t0 = process_cpu_ns();
    auto r = msm<C>(b, s, p, {.split = MsmSplit::never, .pippenger = po});
    benchmark::DoNotOptimize(r);
    cpu += process_cpu_ns() - t0;
  }
  const double pts = static_cast<double>(s.size()) * static_cast<double>(state.iterations());
  state.counters["us_per_pt"] =
      benchmark::Counter(pts / 1e6, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["cpu_us_per_pt"] = cpu / 1e3 / pts;
  state.counters["madd_ns"] = madd_ns<C>();
}
BENCHMARK(bm_endomorphism<G1Curve>)
    ->Name("msm_g1_endo")
    ->ArgsProduct({{16, 18, 20}, {1, 2}, {0, 1, 2}, {0}})
    ->ArgNames({"log_n", "threads", "endo", "c"})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond)
    ->MinTime(0.5);
BENCHMARK(bm_endomorphism<G2Curve>)
    ->Name("msm_g2_endo")
    ->ArgsProduct({{12, 14, 16, 18}, {1, 2}, {0, 1, 2}, {0}})
    ->ArgNames({"log_n", "threads", "endo", "c"})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond)
    ->MinTime(0.5);

// Window sweep with the endomorphism split on (the shapes the prover's one-thread MSM tasks pick
// from, CpuBackend::prove_partition): Args log2 n, threads, endomorphism 2, c.
BENCHMARK(bm_endomorphism<G1Curve>)
    ->Name("msm_g1_window")
    ->ArgsProduct({{16, 18}, {1, 2}, {2}, {11, 12, 13, 14, 15, 16, 17}})
    ->ArgNames({"log_n", "threads", "endo", "c"})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond)
    ->MinTime(0.5);
BENCHMARK(bm_endomorphism<G2Curve>)
    ->Name("msm_g2_window")
    ->ArgsProduct({{16, 18}, {1, 2}, {2}, {11, 12, 13, 14, 15, 16, 17, 18}})
    ->ArgNames({"log_n", "threads", "endo", "c"})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond)
    ->MinTime(0.5);

// pt_per_madd is derived in docs/perf/msm.md as us_per_pt·1000 / madd_ns (Google Benchmark has no
// counter that divides by another counter).

void g1_args(benchmark::internal::Benchmark* b) {
  for (int t : {1, 2})
    for (int lg : {12, 14, 16, 18, 20}) b->Args({lg, t, kRandom, 0});
  for (int t : {1, 2})
    for (int lg : {16, 18, 20})
      for (int split : {0, 2}) b->Args({lg, t, kFilecoin, split});
}
void g2_args(benchmark::internal::Benchmark* b) {
  for (int t : {1, 2})
    for (int lg : {12, 14, 16, 18}) b->Args({lg, t, kRandom, 0});
  for (int t : {1, 2})
    for (int split : {0, 2}) b->Args({16, t, kFilecoin, split});
}

// The split's crossover: zeros + ones at 2, 10, 20, 40, 60 % of the scalars (mix 2, 6, 11, 21, 31),
// split always (1) against never (2), one thread.
BENCHMARK(bm_msm<G1Curve>)
    ->Name("msm_g1_crossover")
    ->ArgsProduct({{16, 18}, {1}, {2, 6, 11, 21, 31}, {1, 2}})
    ->ArgNames({"log_n", "threads", "mix", "split"})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond)
    ->MinTime(0.5);
BENCHMARK(bm_msm<G2Curve>)
    ->Name("msm_g2_crossover")
    ->ArgsProduct({{16}, {1}, {2, 6, 11, 21, 31}, {1, 2}})
    ->ArgNames({"log_n", "threads", "mix", "split"})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond)
    ->MinTime(0.5);
// Skewed digits: half the scalars are bytes (mix 100), against random scalars (mix 0), one thread.
BENCHMARK(bm_msm<G1Curve>)
    ->Name("msm_g1_small")
    ->ArgsProduct({{16, 18}, {1}, {0, 100}, {0}})
    ->ArgNames({"log_n", "threads", "mix", "split"})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond)
    ->MinTime(0.5);
BENCHMARK(bm_msm<G2Curve>)
    ->Name("msm_g2_small")
    ->ArgsProduct({{16}, {1}, {0, 100}, {0}})
    ->ArgNames({"log_n", "threads", "mix", "split"})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond)
    ->MinTime(0.5);

BENCHMARK(bm_msm<G1Curve>)
    ->Name("msm_g1")
    ->Apply(g1_args)
    ->ArgNames({"log_n", "threads", "mix", "split"})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond)
    ->MinTime(0.5);
BENCHMARK(bm_msm<G2Curve>)
    ->Name("msm_g2")
    ->Apply(g2_args)
    ->ArgNames({"log_n", "threads", "mix", "split"})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond)
    ->MinTime(0.5);

}  // namespace
}  // namespace cuzk

BENCHMARK_MAIN();
