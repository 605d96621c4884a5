// Synthesis benchmarks on the PoRep-shaped benchmark circuit (cuzk/r1cs/bench_circuit.hpp):
//   Classic      synthesis through RecordingConstraintSystem evaluating a, b, c at every enforce
//                (bellperson's ProvingAssignment path; one thread per circuit)
//   ClassicRecycled  Classic reusing the previous proof's vectors (no fresh pages per proof)
//   WitnessOnly  synthesis through WitnessConstraintSystem (value closures only)
//   Spmv         pce_evaluate on the recorded matrices, 1 and 2 threads, ±1/boolean fast paths
//   SpmvPlan     the same from the compiled plan (pce_plan)
//   Pce          WitnessOnly + Spmv, the PCE proving path to compare with Classic
//   PceFused     one thread, witness buffer recycled; /1: SpMV fused into synthesis (PceStream)
//   Record       setup: recording the matrices once per topology; Generate: the direct generator
// Counter per_constraint (seconds per constraint) is the figure recorded in docs/perf/synthesis.md.
// Run: build/bin/synth_bench --benchmark_counters_tabular=true
#include <benchmark/benchmark.h>

#include <map>
#include <memory>

#include "cuzk/base/thread_pool.hpp"
#include "cuzk/r1cs/bench_circuit.hpp"
#include "cuzk/r1cs/pce.hpp"
#include "cuzk/r1cs/recording_cs.hpp"
#include "cuzk/r1cs/witness_cs.hpp"

namespace cuzk {
namespace {

constexpr std::uint64_t kSeed = 1;

// Matrices and witness per size, built once.
const BenchR1cs& bench_r1cs(unsigned k) {
  static std::map<unsigned, std::unique_ptr<BenchR1cs>> cache;
  auto& slot = cache[k];
  if (!slot)
    slot = std::make_unique<BenchR1cs>(generate_bench_r1cs({.log_rows = k, .seed = kSeed}).value());
  return *slot;
}

// One untimed witness synthesis, so the circuit's own value buffers are already touched.
void warm_up(BenchCircuit& circuit) {
  WitnessConstraintSystem cs;
  (void)synthesize_circuit(circuit, cs);
}

void per_constraint(benchmark::State& st, unsigned k) {
  const double n = static_cast<double>(std::uint64_t{1} << k);
  st.counters["per_constraint"] = benchmark::Counter(
      n, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  st.SetItemsProcessed(static_cast<std::int64_t>(st.iterations()) * static_cast<std::int64_t>(n));
}

void BM_Classic(benchmark::State& st) {
  const auto k = static_cast<unsigned>(st.range(0));
  BenchCircuit circuit({.log_rows = k, .seed = kSeed});
  if (!circuit.prepare().ok()) st.SkipWithError("bad size");
  warm_up(circuit);
  for (auto _ : st) {
    RecordingConstraintSystem cs({.with_values = true,
                                  .record_matrices = false,
                                  .evaluate_abc = true,
                                  .reserve_constraints = std::size_t{1} << k});
    if (!synthesize_circuit(circuit, cs).ok()) st.SkipWithError("synthesis failed");
    benchmark::DoNotOptimize(cs.recording().c.data());
  }
  per_constraint(st, k);
}

// Classic with its vectors (aux, a, b, c) recycled from one proof to the next, as BM_PceFused
// recycles the witness and a, b, c: the fair steady-state comparison.
void BM_ClassicRecycled(benchmark::State& st) {
  const auto k = static_cast<unsigned>(st.range(0));
  BenchCircuit circuit({.log_rows = k, .seed = kSeed});
  if (!circuit.prepare().ok()) st.SkipWithError("bad size");
  warm_up(circuit);
  Recording storage;
  for (auto _ : st) {
    RecordingConstraintSystem cs({.with_values = true,
                                  .record_matrices = false,
                                  .evaluate_abc = true,
                                  .reserve_constraints = std::size_t{1} << k},
                                 std::move(storage));
    if (!synthesize_circuit(circuit, cs).ok()) st.SkipWithError("synthesis failed");
    storage = cs.take();
    benchmark::DoNotOptimize(storage.c.data());
  }
  per_constraint(st, k);
}

void BM_WitnessOnly(benchmark::State& st) {
  const auto k = static_cast<unsigned>(st.range(0));
  BenchCircuit circuit({.log_rows = k, .seed = kSeed});
  if (!circuit.prepare().ok()) st.SkipWithError("bad size");
  warm_up(circuit);
  for (auto _ : st) {
    WitnessConstraintSystem cs({.reserve_aux = std::size_t{1} << k, .num_inputs_hint = 5});
    if (!synthesize_circuit(circuit, cs).ok()) st.SkipWithError("synthesis failed");
    auto z = cs.take_assignment();
    benchmark::DoNotOptimize(z.data());
  }
  per_constraint(st, k);
}

void BM_Spmv(benchmark::State& st) {
  const auto k = static_cast<unsigned>(st.range(0));
  ThreadPool pool(static_cast<std::size_t>(st.range(1)));
  const bool fast = st.range(2) != 0;
  const BenchR1cs& r = bench_r1cs(k);
  const std::vector<Fr> z = r.assignment();
  AbcVectors v;
  v.a.resize(r.matrices.num_constraints);
  v.b.resize(r.matrices.num_constraints);
  v.c.resize(r.matrices.num_constraints);
  for (auto _ : st) {
    Status s = pce_evaluate_into(pool, r.matrices, z, v.a, v.b, v.c, {.boolean_fast_path = fast});
    if (!s.ok()) st.SkipWithError(s.to_string().c_str());
    benchmark::DoNotOptimize(v.c.data());
  }
  per_constraint(st, k);
}

// Spmv from the compiled plan (pce_plan, built once outside the timed loop, like the matrices).
void BM_SpmvPlan(benchmark::State& st) {
  const auto k = static_cast<unsigned>(st.range(0));
  ThreadPool pool(static_cast<std::size_t>(st.range(1)));
  const BenchR1cs& r = bench_r1cs(k);
  const std::vector<Fr> z = r.assignment();
  const PcePlan plan = pce_plan(r.matrices);
  AbcVectors v;
  v.a.resize(r.matrices.num_constraints);
  v.b.resize(r.matrices.num_constraints);
  v.c.resize(r.matrices.num_constraints);
  for (auto _ : st) {
    Status s = pce_evaluate_into(pool, r.matrices, z, v.a, v.b, v.c, {.plan = &plan});
    if (!s.ok()) st.SkipWithError(s.to_string().c_str());
    benchmark::DoNotOptimize(v.c.data());
  }
  per_constraint(st, k);
}

void BM_Pce(benchmark::State& st) {
  const auto k = static_cast<unsigned>(st.range(0));
  ThreadPool pool(static_cast<std::size_t>(st.range(1)));
  BenchCircuit circuit({.log_rows = k, .seed = kSeed});
  if (!circuit.prepare().ok()) st.SkipWithError("bad size");
  warm_up(circuit);
  const R1csMatrices& m = bench_r1cs(k).matrices;
  AbcVectors v;  // reused across proofs, as the engine does
  v.a.resize(m.num_constraints);
  v.b.resize(m.num_constraints);
  v.c.resize(m.num_constraints);
  for (auto _ : st) {
    WitnessConstraintSystem cs({.reserve_aux = m.num_aux, .num_inputs_hint = m.num_inputs});
    if (!synthesize_circuit(circuit, cs).ok()) st.SkipWithError("synthesis failed");
    Status s = pce_evaluate_into(pool, m, cs.take_assignment(), v.a, v.b, v.c);
    if (!s.ok()) st.SkipWithError(s.to_string().c_str());
    benchmark::DoNotOptimize(v.c.data());
  }
  per_constraint(st, k);
}

// Pce on one thread as the engine runs it from one proof to the next: the witness buffer recycled
// (|stream| false), or also the SpMV fused into synthesis (PceStream, |stream| true).
void BM_PceFused(benchmark::State& st) {
  const auto k = static_cast<unsigned>(st.range(0));
  const bool fused = st.range(1) != 0;
  ThreadPool pool(1);
  BenchCircuit circuit({.log_rows = k, .seed = kSeed});
  if (!circuit.prepare().ok()) st.SkipWithError("bad size");
  warm_up(circuit);
  const R1csMatrices& m = bench_r1cs(k).matrices;
  const PceSchedule sched = pce_schedule(m);
  AbcVectors v;
  v.a.resize(m.num_constraints);
  v.b.resize(m.num_constraints);
  v.c.resize(m.num_constraints);
  std::vector<Fr> z;
  for (auto _ : st) {
    PceStream stream(m, sched, v.a, v.b, v.c);
    WitnessConstraintSystem cs({.reserve_aux = m.num_aux,
                                .num_inputs_hint = m.num_inputs,
                                .stream = fused ? &stream : nullptr},
                               std::move(z));
    if (!synthesize_circuit(circuit, cs).ok()) st.SkipWithError("synthesis failed");
    z = cs.take_assignment();
    Status s = fused ? stream.finish(z) : pce_evaluate_into(pool, m, z, v.a, v.b, v.c);
    if (!s.ok()) st.SkipWithError(s.to_string().c_str());
    benchmark::DoNotOptimize(v.c.data());
  }
  per_constraint(st, k);
}

void BM_Record(benchmark::State& st) {
  const auto k = static_cast<unsigned>(st.range(0));
  BenchCircuit circuit({.log_rows = k, .seed = kSeed});
  if (!circuit.prepare().ok()) st.SkipWithError("bad size");
  warm_up(circuit);
  for (auto _ : st) {
    RecordingConstraintSystem cs({.reserve_constraints = std::size_t{1} << k});
    if (!synthesize_circuit(circuit, cs).ok()) st.SkipWithError("synthesis failed");
    benchmark::DoNotOptimize(cs.recording().matrices.a.col.data());
  }
  per_constraint(st, k);
}

void BM_Generate(benchmark::State& st) {
  const auto k = static_cast<unsigned>(st.range(0));
  for (auto _ : st) {
    auto r = generate_bench_r1cs({.log_rows = k, .seed = kSeed});
    benchmark::DoNotOptimize(r->aux.data());
  }
  per_constraint(st, k);
}

void sizes(benchmark::internal::Benchmark* b) {
  for (int k = 16; k <= 20; k += 2) b->Args({k});
  b->Unit(benchmark::kMillisecond)->MinTime(0.5);
}
// Runs with a ThreadPool measure the process CPU time (all threads): on a shared, loaded machine
// wall-clock time says little, so per_constraint is CPU work per constraint everywhere and the
// "Time" column gives the wall clock.
void sizes_threads(benchmark::internal::Benchmark* b) {
  for (int k = 16; k <= 20; k += 2)
    for (int t : {1, 2}) b->Args({k, t});
  b->Unit(benchmark::kMillisecond)->MinTime(0.5)->MeasureProcessCPUTime();
}
void sizes_fused(benchmark::internal::Benchmark* b) {
  for (int k = 16; k <= 20; k += 2)
    for (int f : {0, 1}) b->Args({k, f});
  b->Unit(benchmark::kMillisecond)->MinTime(0.5)->MeasureProcessCPUTime();
}
void sizes_threads_fast(benchmark::internal::Benchmark* b) {
  for (int k = 16; k <= 20; k += 2)
    for (int t : {1, 2})
      for (int f : {0, 1}) b->Args({k, t, f});
  b->Unit(benchmark::kMillisecond)->MinTime(0.5)->MeasureProcessCPUTime();
}

BENCHMARK(BM_Classic)->Apply(sizes);
BENCHMARK(BM_ClassicRecycled)->Apply(sizes);
BENCHMARK(BM_WitnessOnly)->Apply(sizes);
BENCHMARK(BM_Spmv)->Apply(sizes_threads_fast);
BENCHMARK(BM_SpmvPlan)->Apply(sizes_threads);
BENCHMARK(BM_Pce)->Apply(sizes_threads);
BENCHMARK(BM_PceFused)->Apply(sizes_fused);
BENCHMARK(BM_Record)->Apply(sizes);
BENCHMARK(BM_Generate)->Apply(sizes);

}  // namespace
}  // namespace cuzk

BENCHMARK_MAIN();
