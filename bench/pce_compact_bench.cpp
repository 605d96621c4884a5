// The compact PCE form (cuzk/r1cs/pce_compact.hpp) of the Filecoin PoRep partition, blank circuit
// (porep_circuit_shape of the registered proof). Size argument: 0 = StackedDrg2KiBV1_1,
// 1 = StackedDrg512MiBV1_1, 2 = StackedDrg32GiBV1_1 (130,278,541 rows; its plain matrices take
// 7.0 GB and, with the plan, z and a, b, c, about 30 GB: filter RecordPlain/2 and SpmvPlain/2 out
// on a small machine).
//   Record        record_compact (streaming; counters: compact and plain CSR bytes, their ratio,
//                 blocks, segments, slots, peak RSS of the process so far)
//   RecordPlain   RecordingConstraintSystem: the plain matrices' recording
//   RecordPost/i  record_compact of a FallbackPoSt partition (blank): 0 = StackedDrgWindow2KiBV1,
//                 1 = StackedDrgWinning2KiBV1, 2 = StackedDrgWindow8MiBV1, 3 =
//                 StackedDrgWinning8MiBV1, 4 = StackedDrgWindow32GiBV1 cut to 16 of its 2349
//                 sectors (every sector is the same circuit, so the whole partition records in
//                 about 2349/16 times as long); counter ns_per_row
//   CacheWrite    save_compact_cache to $CUZK_BENCH_DIR (default /tmp); file bytes
//   CacheLoad     load_compact_cache of that file (warm page cache: the disk's read rate adds
//                 file bytes / rate on a cold start)
//   Spmv/T        pce_compact_evaluate_* on T threads, into a, b, c of at most 2^23 rows at a
//                 time (the 32 GiB partition in 16 pieces, so a, b, c take 0.8 GB, not 12.5 GB)
//   SpmvPlain/T   pce_evaluate_into with pce_plan on the plain matrices, whole
// The witness is random: 40 % zeros, 40 % ones, 20 % field elements (Filecoin witnesses are
// mostly SHA-256 bits). Counter ns_per_row = wall time per row of the partition (Spmv, SpmvPlain:
// real time, so the figure on T threads is the partition's time divided by its rows).
// Run: build-cpu/bin/pce_compact_bench --benchmark_counters_tabular=true
//        --benchmark_filter='^BM_(Record|CacheWrite|CacheLoad|Spmv)/[12]|^BM_(RecordPlain|SpmvPlain)/1'
// (add '|Plain/2' on a host with 40 GB free; '/16$' needs 16 cores).
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>

#include "cuzk/base/thread_pool.hpp"
#include "cuzk/circuits/filecoin/porep_circuit.hpp"
#include "cuzk/circuits/filecoin/post_circuit.hpp"
#include "cuzk/filecoin/registered_proof.hpp"
#include "cuzk/r1cs/pce.hpp"
#include "cuzk/r1cs/pce_compact_cache.hpp"
#include "cuzk/r1cs/pce_compact_recorder.hpp"
#include "cuzk/r1cs/recording_cs.hpp"

namespace cuzk {
namespace {

namespace cf = cuzk::circuits::filecoin;

const char* const kProofs[] = {"StackedDrg2KiBV1_1", "StackedDrg512MiBV1_1", "StackedDrg32GiBV1_1"};
constexpr std::size_t kChunkRows = std::size_t{1} << 23;

double peak_rss_gb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1e6;  // kB → GB
}

cf::PorepCircuit circuit_of(int size) {
  return cf::PorepCircuit(cf::porep_circuit_shape(*cuzk::filecoin::seal_proof(kProofs[size])));
}

std::string cache_path(int size) {
  const char* dir = std::getenv("CUZK_BENCH_DIR");
  return std::string(dir ? dir : "/tmp") + "/pce_compact_bench_" + kProofs[size] + ".pcec";
}

// The plain CSR bytes of |c|'s circuit, as R1csMatrices::memory_bytes would count them: per
// matrix 8 B per row offset, 4 B per non-zero, 4 B per general term, the coefficient table and
// the per-64-row general offsets; plus the density bitmaps.
double plain_bytes_of(const CompactR1cs& c) {
  std::uint64_t general = 0, coeffs = 0;
  for (const CompactSegment& s : c.segments) {
    const CompactBlock& b = c.blocks[s.block];
    general += b.m.a.num_general() + b.m.b.num_general() + b.m.c.num_general();
  }
  for (const CompactBlock& b : c.blocks)
    coeffs = std::max<std::uint64_t>(
        coeffs, b.m.a.coeffs.size() + b.m.b.coeffs.size() + b.m.c.coeffs.size());
  const double rows = static_cast<double>(c.num_constraints);
  return 3 * 8 * (rows + 1) + 4.0 * static_cast<double>(c.nnz_a + c.nnz_b + c.nnz_c) +
         4.0 * static_cast<double>(general) + 32.0 * static_cast<double>(coeffs) +
         3 * 8 * (rows / 64) + static_cast<double>(2 * c.num_aux + c.num_inputs) / 8;
}

struct Recorded {
  CompactR1cs compact;
  CompactRecordStats stats;
};
std::map<int, std::unique_ptr<Recorded>>& recorded() {
  static std::map<int, std::unique_ptr<Recorded>> m;
  return m;
}
const Recorded& recorded_of(int size) {
  auto& slot = recorded()[size];
  if (!slot) {
    auto circuit = circuit_of(size);
    slot = std::make_unique<Recorded>();
    slot->compact = record_compact(circuit, {}, &slot->stats).value();
  }
  return *slot;
}

const R1csMatrices& plain_of(int size) {
  static std::map<int, std::unique_ptr<R1csMatrices>> m;
  auto& slot = m[size];
  if (!slot) {
    auto circuit = circuit_of(size);
    RecordingConstraintSystem cs;
    (void)synthesize_circuit(circuit, cs);
    slot = std::make_unique<R1csMatrices>(cs.take().matrices);
  }
  return *slot;
}

const std::vector<Fr>& witness_of(int size) {
  static std::map<int, std::vector<Fr>> m;
  auto& z = m[size];
  if (z.empty()) {
    z.resize(recorded_of(size).compact.num_columns());
    std::uint64_t x = 0x9e3779b97f4a7c15ULL;
    z[0] = Fr::one();
    for (std::size_t i = 1; i < z.size(); ++i) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;  // xorshift64
      const unsigned k = static_cast<unsigned>(x % 5);
      if (k < 2) {
        z[i] = Fr::zero();
      } else if (k < 4) {
        z[i] = Fr::one();
      } else {
        z[i] = Fr::from_u64(x) * Fr::from_u64(x * 0xd6e8feb86659fd93ULL + 1);
      }
    }
  }
  return z;
}

void BM_Record(benchmark::State& st) {
  const int size = static_cast<int>(st.range(0));
  for (auto _ : st) {
    recorded().erase(size);
    recorded_of(size);
  }
  const Recorded& r = recorded_of(size);
  const CompactR1cs& c = r.compact;
  st.counters["rows"] = static_cast<double>(c.num_constraints);
  st.counters["compact_MB"] = static_cast<double>(c.memory_bytes()) / 1e6;
  st.counters["plain_MB"] = plain_bytes_of(c) / 1e6;
  st.counters["ratio"] = plain_bytes_of(c) / static_cast<double>(c.memory_bytes());
  st.counters["blocks"] = static_cast<double>(c.blocks.size());
  st.counters["block_rows"] = static_cast<double>(c.block_rows());
  st.counters["segments"] = static_cast<double>(c.segments.size());
  st.counters["slots"] = static_cast<double>(c.slots.size());
  st.counters["templates"] = static_cast<double>(r.stats.templates);
  st.counters["peak_rss_GB"] = peak_rss_gb();
  std::printf(
      "%s: nnz A/B/C %llu / %llu / %llu, aux %llu, inputs %llu, A aux density %zu, B aux "
      "density %zu\n",
      kProofs[size], static_cast<unsigned long long>(c.nnz_a),
      static_cast<unsigned long long>(c.nnz_b), static_cast<unsigned long long>(c.nnz_c),
      static_cast<unsigned long long>(c.num_aux), static_cast<unsigned long long>(c.num_inputs),
      c.a_aux_density.count(), c.b_aux_density.count());
}

void BM_RecordPost(benchmark::State& st) {
  static const char* const kPost[] = {"StackedDrgWindow2KiBV1", "StackedDrgWinning2KiBV1",
                                      "StackedDrgWindow8MiBV1", "StackedDrgWinning8MiBV1",
                                      "StackedDrgWindow32GiBV1"};
  const auto i = static_cast<std::size_t>(st.range(0));
  cf::PostCircuitParams params =
      cf::post_circuit_params(*cuzk::filecoin::post_proof(kPost[i])).value();
  if (i == 4) params.sector_count = 16;
  st.SetLabel(kPost[i]);
  std::uint64_t rows = 0;
  for (auto _ : st) {
    cf::PostCircuit circuit(params);
    auto c = record_compact(circuit);
    if (!c.ok()) {
      st.SkipWithError(c.status().to_string().c_str());
      break;
    }
    rows = c->num_constraints;
    benchmark::DoNotOptimize(c);
  }
  st.counters["rows"] = static_cast<double>(rows);
  st.counters["ns_per_row"] = benchmark::Counter(
      static_cast<double>(rows) * 1e-9,
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void BM_RecordPlain(benchmark::State& st) {
  const int size = static_cast<int>(st.range(0));
  std::size_t bytes = 0;
  for (auto _ : st) {
    auto circuit = circuit_of(size);
    RecordingConstraintSystem cs;
    (void)synthesize_circuit(circuit, cs);
    bytes = cs.recording().matrices.memory_bytes();
  }
  st.counters["plain_MB"] = static_cast<double>(bytes) / 1e6;
  st.counters["peak_rss_GB"] = peak_rss_gb();
}

void BM_CacheWrite(benchmark::State& st) {
  const int size = static_cast<int>(st.range(0));
  const CompactR1cs& c = recorded_of(size).compact;
  const std::string path = cache_path(size);
  for (auto _ : st) {
    Status s = save_compact_cache(path, c, compact_circuit_key(kProofs[size]));
    if (!s.ok()) st.SkipWithError(s.to_string().c_str());
  }
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f != nullptr) {
    std::fseek(f, 0, SEEK_END);
    st.counters["file_MB"] = static_cast<double>(std::ftell(f)) / 1e6;
    std::fclose(f);
  }
}

void BM_CacheLoad(benchmark::State& st) {
  const int size = static_cast<int>(st.range(0));
  const std::string path = cache_path(size);
  if (!load_compact_cache(path, compact_circuit_key(kProofs[size])).ok())
    (void)save_compact_cache(path, recorded_of(size).compact, compact_circuit_key(kProofs[size]));
  for (auto _ : st) {
    auto c = load_compact_cache(path, compact_circuit_key(kProofs[size]));
    if (!c.ok()) st.SkipWithError(c.status().to_string().c_str());
    benchmark::DoNotOptimize(c);
  }
}

void BM_Spmv(benchmark::State& st) {
  const int size = static_cast<int>(st.range(0));
  const CompactR1cs& c = recorded_of(size).compact;
  const std::vector<Fr>& z = witness_of(size);
  ThreadPool pool(static_cast<std::size_t>(st.range(1)));
  // Pieces of at most kChunkRows rows (whole segments).
  std::vector<std::size_t> cuts = {0};
  for (std::size_t s = 0; s < c.segments.size(); ++s)
    if (c.row_begin[s + 1] - c.row_begin[cuts.back()] > kChunkRows) cuts.push_back(s);
  cuts.push_back(c.segments.size());
  std::size_t widest = 0;
  for (std::size_t i = 0; i + 1 < cuts.size(); ++i)
    widest = std::max<std::size_t>(widest, c.row_begin[cuts[i + 1]] - c.row_begin[cuts[i]]);
  std::vector<Fr> a(widest), b(widest), cc(widest);
  for (auto _ : st) {
    for (std::size_t i = 0; i + 1 < cuts.size(); ++i) {
      const std::size_t n = c.row_begin[cuts[i + 1]] - c.row_begin[cuts[i]];
      Status s =
          pce_compact_evaluate_segments(pool, c, z, cuts[i], cuts[i + 1], std::span(a).first(n),
                                        std::span(b).first(n), std::span(cc).first(n));
      if (!s.ok()) st.SkipWithError(s.to_string().c_str());
    }
    benchmark::ClobberMemory();
  }
  st.counters["ns_per_row"] = benchmark::Counter(
      static_cast<double>(c.num_constraints) * 1e-9,
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void BM_SpmvPlain(benchmark::State& st) {
  const int size = static_cast<int>(st.range(0));
  const R1csMatrices& m = plain_of(size);
  static std::map<int, PcePlan> plans;
  if (!plans.count(size)) plans[size] = pce_plan(m);
  const std::vector<Fr>& z = witness_of(size);
  ThreadPool pool(static_cast<std::size_t>(st.range(1)));
  std::vector<Fr> a(m.num_constraints), b(a.size()), c(a.size());
  for (auto _ : st) {
    Status s = pce_evaluate_into(pool, m, z, a, b, c, {.plan = &plans[size]});
    if (!s.ok()) st.SkipWithError(s.to_string().c_str());
    benchmark::ClobberMemory();
  }
  st.counters["ns_per_row"] = benchmark::Counter(
      static_cast<double>(m.num_constraints) * 1e-9,
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

BENCHMARK(BM_Record)->Arg(0)->Arg(1)->Arg(2)->Iterations(1)->Unit(benchmark::kSecond);
BENCHMARK(BM_RecordPost)->DenseRange(0, 4)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RecordPlain)->Arg(0)->Arg(1)->Arg(2)->Iterations(1)->Unit(benchmark::kSecond);
BENCHMARK(BM_CacheWrite)->Arg(0)->Arg(1)->Arg(2)->Iterations(3)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CacheLoad)->Arg(0)->Arg(1)->Arg(2)->Iterations(3)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Spmv)
    ->ArgsProduct({{0, 1, 2}, {1, 2, 16}})
    ->Iterations(2)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SpmvPlain)
    ->ArgsProduct({{0, 1, 2}, {1, 2, 16}})
    ->Iterations(2)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace cuzk

BENCHMARK_MAIN();
