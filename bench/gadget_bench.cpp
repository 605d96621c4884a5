// Gadget synthesis throughput (r1cs/gadgets): SHA-256 (64-byte message, 45,386 constraints) and
// Poseidon (arity 2/4/8/11) synthesised into the witness-only system (PCE path), the recording
// system with a/b/c (classic path) and the recording system without values (setup). Items are
// constraints, so items_per_second is constraints per second. Single-threaded by construction.
#include <benchmark/benchmark.h>

#include "cuzk/r1cs/gadgets/gadget_bench.hpp"

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
BENCHMARK(BM_Sha256Gadget)->ArgName("cs")->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

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
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
