// The Filecoin data side's input formats at production size: a 32 GiB-shaped C1
// (StackedDrg32GiBV1_1, 10 partitions × 18 challenges, ~39 MB of JSON; random bytes) written,
// read (copying the input), read in place, and read through Curio's base64 envelope (~51 MB).
// Issue 18 asks a 50 MB C1 to be read "well under a second". The floor: simdjson alone on the same
// text (stage 1, the structural index; the DOM parse, stage 1 + 2), with its parser's buffers
// already faulted in; and the reference reader (the fast reader's slow twin) for comparison.
#include <benchmark/benchmark.h>
#include <simdjson.h>

#include "cuzk/filecoin/c1_json.hpp"
#include "cuzk/filecoin/curio_c1_request.hpp"
#include "cuzk/filecoin/vanilla_test_util.hpp"

namespace cuzk::filecoin {
namespace {

const SealCommitPhase1Output& c1_32gib() {
  static const SealCommitPhase1Output c1 = [] {
    std::mt19937_64 rng(20261203);
    return testing::random_c1(rng, *seal_proof("StackedDrg32GiBV1_1"), 10, 18);
  }();
  return c1;
}

void BM_C1JsonWrite(benchmark::State& st) {
  std::size_t bytes = 0;
  for (auto _ : st) bytes = write_c1_json(c1_32gib()).size();
  st.counters["json_MB"] = bytes / 1e6;
  st.SetBytesProcessed(static_cast<std::int64_t>(st.iterations() * bytes));
}

void BM_C1JsonRead(benchmark::State& st) {
  const std::string json = write_c1_json(c1_32gib());
  for (auto _ : st) benchmark::DoNotOptimize(read_c1_json(json));
  st.SetBytesProcessed(static_cast<std::int64_t>(st.iterations() * json.size()));
}

void BM_C1JsonReadReference(benchmark::State& st) {
  const std::string json = write_c1_json(c1_32gib());
  for (auto _ : st) benchmark::DoNotOptimize(read_c1_json_reference(json));
  st.SetBytesProcessed(static_cast<std::int64_t>(st.iterations() * json.size()));
}

void BM_SimdjsonStage1(benchmark::State& st) {
  const simdjson::padded_string json(write_c1_json(c1_32gib()));
  simdjson::ondemand::parser parser(json.size());
  simdjson::ondemand::document warm;
  if (parser.iterate(json).get(warm))
    st.SkipWithError("simdjson stage 1 failed");  // fault pages in
  for (auto _ : st) {
    simdjson::ondemand::document doc;
    if (parser.iterate(json).get(doc)) st.SkipWithError("simdjson stage 1 failed");
  }
  st.SetBytesProcessed(static_cast<std::int64_t>(st.iterations() * json.size()));
}

void BM_SimdjsonDomParse(benchmark::State& st) {
  const simdjson::padded_string json(write_c1_json(c1_32gib()));
  simdjson::dom::parser parser(json.size());
  if (parser.parse(json).error()) st.SkipWithError("simdjson DOM parse failed");  // fault pages in
  for (auto _ : st) {
    simdjson::dom::element doc;
    if (parser.parse(json).get(doc)) st.SkipWithError("simdjson DOM parse failed");
  }
  st.SetBytesProcessed(static_cast<std::int64_t>(st.iterations() * json.size()));
}

void BM_C1JsonReadInPlace(benchmark::State& st) {
  const std::string json = write_c1_json(c1_32gib());
  std::string buf;
  buf.reserve(json.size() + 64);
  for (auto _ : st) {
    st.PauseTiming();
    buf = json;
    st.ResumeTiming();
    benchmark::DoNotOptimize(read_c1_json_in_place(buf));
  }
  st.SetBytesProcessed(static_cast<std::int64_t>(st.iterations() * json.size()));
}

void BM_CurioEnvelopeReadInPlace(benchmark::State& st) {
  CurioC1Request req{
      .sector_num = 1, .sector_size = 32ull << 30, .phase1_out = write_c1_json(c1_32gib())};
  const std::string env = write_curio_c1_request(req);
  std::string buf;
  buf.reserve(env.size() + 64);
  for (auto _ : st) {
    st.PauseTiming();
    buf = env;
    st.ResumeTiming();
    benchmark::DoNotOptimize(read_curio_c1_in_place(buf));
  }
  st.counters["envelope_MB"] = env.size() / 1e6;
  st.SetBytesProcessed(static_cast<std::int64_t>(st.iterations() * env.size()));
}

BENCHMARK(BM_C1JsonWrite)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_C1JsonRead)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_C1JsonReadReference)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_SimdjsonStage1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_SimdjsonDomParse)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_C1JsonReadInPlace)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_CurioEnvelopeReadInPlace)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace cuzk::filecoin

BENCHMARK_MAIN();
