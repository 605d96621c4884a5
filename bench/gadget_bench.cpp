// Gadget synthesis throughput (r1cs/gadgets): SHA-256 (64-byte message, 45,386 constraints) and
// Poseidon (arity 2/4/8/11) synthesised into the witness-only system (PCE path), the recording
// system with a/b/c (classic path) and the recording system without values (setup). Items are
// constraints, so items_per_second is constraints per second. Single-threaded by construction.
#include <benchmark/benchmark.h>

#include "cuzk/base/thread_pool.hpp"
#include "cuzk/r1cs/gadgets/gadget_bench.hpp"
#include "cuzk/r1cs/pce.hpp"
#include "cuzk/r1cs/recording_cs.hpp"
#include "cuzk/r1cs/witness_cs.hpp"

namespace {

using cuzk::GadgetCs;

void BM_Sha256Gadget(benchmark::State& state) {
  const auto kind = static_cast<GadgetCs>(state.range(0));
  std::uint64_t constraints = 0;
  for (auto _ : state) {
    auto r = cuzk::run_sha256_gadget({.n = 4, .seed = 7, .cs = kind});
    if (!r.ok()) {
      state.SkipWithError(r.status().to_string().c_str());
      return;
    }
    constraints += *r;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(constraints));
}
BENCHMARK(BM_Sha256Gadget)
    ->ArgName("cs")
    ->Arg(0)
    ->Arg(1)
    ->Arg(2)
    ->MeasureProcessCPUTime()
    ->Unit(benchmark::kMillisecond);

void BM_PoseidonGadget(benchmark::State& state) {
  const auto kind = static_cast<GadgetCs>(state.range(0));
  const auto arity = static_cast<unsigned>(state.range(1));
  std::uint64_t constraints = 0;
  for (auto _ : state) {
    auto r = cuzk::run_poseidon_gadget({.n = 64, .seed = 7, .cs = kind, .poseidon_arity = arity});
    if (!r.ok()) {
      state.SkipWithError(r.status().to_string().c_str());
      return;
    }
    constraints += *r;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(constraints));
}
BENCHMARK(BM_PoseidonGadget)
    ->ArgNames({"cs", "arity"})
    ->ArgsProduct({{0, 1, 2}, {2, 8, 11}})
    ->MeasureProcessCPUTime()
    ->Unit(benchmark::kMillisecond);

// PCE path per gadget: witness-only synthesis + SpMV over matrices recorded once (one thread).
template <class Synth>
void pce_bench(benchmark::State& state, const cuzk::GadgetWorkload& w, Synth synth) {
  cuzk::RecordingConstraintSystem setup;
  if (!synth(setup, w).ok() || !setup.finish().ok()) {
    state.SkipWithError("setup failed");
    return;
  }
  const cuzk::R1csMatrices m = setup.take().matrices;
  cuzk::ThreadPool pool(1);
  std::uint64_t constraints = 0;
  for (auto _ : state) {
    cuzk::WitnessConstraintSystem wcs({.num_inputs_hint = m.num_inputs});
    if (!synth(wcs, w).ok() || !wcs.finish().ok()) {
      state.SkipWithError("witness synthesis failed");
      return;
    }
    auto abc = cuzk::pce_evaluate(pool, m, wcs.take_assignment());
    if (!abc.ok()) {
      state.SkipWithError(abc.status().to_string().c_str());
      return;
    }
    benchmark::DoNotOptimize(abc->a.data());
    constraints += abc->a.size();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(constraints));
}

void BM_Sha256GadgetPce(benchmark::State& state) {
  pce_bench(state, {.n = 4, .seed = 7},
            [](cuzk::ConstraintSystem& cs, const cuzk::GadgetWorkload& w) {
              return cuzk::synthesize_sha256_gadget(cs, w);
            });
}
BENCHMARK(BM_Sha256GadgetPce)->MeasureProcessCPUTime()->Unit(benchmark::kMillisecond);

void BM_PoseidonGadgetPce(benchmark::State& state) {
  const auto arity = static_cast<unsigned>(state.range(0));
  pce_bench(state, {.n = 64, .seed = 7, .poseidon_arity = arity},
            [](cuzk::ConstraintSystem& cs, const cuzk::GadgetWorkload& w) {
              return cuzk::synthesize_poseidon_gadget(cs, w);
            });
}
BENCHMARK(BM_PoseidonGadgetPce)
    ->ArgName("arity")
    ->Arg(2)
    ->Arg(8)
    ->Arg(11)
    ->MeasureProcessCPUTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
