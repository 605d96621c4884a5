// pce_gpu_bench: one PoRep partition's a = A·z, b = B·z, c = C·z on the device from its compact
// witness and compact R1CS (gpu/pce/, issue 22 items 1–2), against the host's compact SpMV.
//   1. a C1 from the data side's generator (synth_inputs.hpp), partition k's witness z on the
//      host (porep_partition_witness), its compact witness (compact_witness_from_z), and the
//      same form straight from the synthesis (porep_partition_compact_witness, timed, checked);
//   2. the circuit's compact form: loaded from --cache FILE (written there on the first run;
//      recording the 32 GiB form takes ≈ 70 s on one core) or recorded; its flat layout;
//   3. the form uploaded once (bytes, seconds), then per repeat: the compact witness uploaded
//      (bytes, seconds: what crosses PCIe per partition), expanded to z on the device, and
//      A·z, B·z, C·z computed there (kernel times from CUDA events);
//   4. the host's compact SpMV on all threads (pce_compact_evaluate_into), and the device's
//      a, b, c downloaded and compared with it bit for bit (exit 1 when they differ).
// One JSON line per measurement.
// With --prove 1, steps 3–4 are replaced by one whole partition on a CudaBackend: random key
// tables of the circuit's counts (2^16 distinct points repeated), the circuit loaded
// (load_circuit), then per repeat prove_partition_compact (only the compact witness crosses)
// against prove_partition from host z, a, b, c (made on the host first, untimed; pageable
// memory): wall time, stage times and bytes uploaded of each, and their sums compared (exit 1
// when they differ). --overlap a,b,...: the partition schedules (gpu/partition.cuh; off, auto,
// h_step, h_msm) side by side on one backend: prove_compact and prove_host_abc run under the
// first, then each other one's prove_partition_compact is a row prove_compact_<name> whose sums
// must equal the first's. --h-copies K (2..8): the H table's window copies
// (Backend::add_window_copies) made after one partition without them, whose sums every later one
// must equal (rows prove_plain and prove_h_copies: the copies' build time and MB).
//
// Run (on the GPU host): pce_gpu_bench [--size 32GiB|512MiB|8MiB|2KiB] [--partition K]
//        [--seed N] [--threads T] [--repeats R] [--tile-rows 256] [--long-row-words 128]
//        [--cache FILE] [--prove 1] [--overlap off,auto]   (--long-row-words 0: no row walked
//        by a warp)
//        [--msm-split 0|1] [--fused-streamed 0|1]   (with --prove: CudaBackendOptions'
//        compact_msm_split and fused_streamed_partitions) [--h-copies K]
//      pce_gpu_bench --size bench-K --prove 1 [--repeats R] [--seed N]   (the benchmark circuit
//        of 2^K rows as one compact block: run_bench_circuit)
#include <cuda_runtime.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "bench/bench_args.hpp"
#include "bench/comma_items.hpp"
#include "cuzk/backend/backend.hpp"
#include "cuzk/backend/device_memory.hpp"
#include "cuzk/base/thread_pool.hpp"
#include "cuzk/circuits/filecoin/porep_circuit.hpp"
#include "cuzk/circuits/filecoin/porep_witness.hpp"
#include "cuzk/ec/batch_affine.hpp"
#include "cuzk/filecoin/synth_inputs.hpp"
#include "cuzk/gpu/cuda_backend.hpp"
#include "cuzk/gpu/cuda_check.cuh"
#include "cuzk/gpu/device_context.hpp"
#include "cuzk/gpu/pce/device_compact_r1cs.cuh"
#include "cuzk/gpu/pce/device_compact_witness.cuh"
#include "cuzk/msm/precomputed_windows.hpp"
#include "cuzk/r1cs/bench_circuit.hpp"
#include "cuzk/r1cs/compact_from_matrices.hpp"
#include "cuzk/r1cs/compact_partition.hpp"
#include "cuzk/r1cs/compact_witness.hpp"
#include "cuzk/r1cs/pce.hpp"
#include "cuzk/r1cs/pce_compact_cache.hpp"
#include "cuzk/r1cs/pce_compact_flat.hpp"
#include "cuzk/r1cs/pce_compact_recorder.hpp"

namespace {

namespace fc = cuzk::filecoin;
namespace cf = cuzk::circuits::filecoin;
namespace gpu = cuzk::gpu;
using cuzk::Fr;
using Clock = std::chrono::steady_clock;

struct Args {
  std::string size = "32GiB";
  unsigned partition = 0;
  std::uint64_t seed = 1;
  std::size_t threads = 0;
  int repeats = 3;
  std::uint32_t tile_rows = 256, long_row_words = 128;
  std::string cache;
  bool prove = false;
  /// --prove: the partition schedules to time side by side (gpu/partition.cuh), each repeat.
  std::vector<std::string> overlap{"auto"};
  bool msm_split = true;       // CudaBackendOptions::compact_msm_split
  bool fused_streamed = true;  // CudaBackendOptions::fused_streamed_partitions
  unsigned h_copies = 1;       // --h-copies: the H table's window copies (1: none)
};

const cuzk::bench::BenchFlags kFlags(
    "pce_gpu_bench",
    "pce_gpu_bench [--size 32GiB|512MiB|8MiB|2KiB|bench-K] [--partition K] [--seed N] "
    "[--threads T] [--repeats R] [--tile-rows N] [--long-row-words W] [--cache FILE] [--prove 1] "
    "[--overlap off,auto,h_step,h_msm] [--msm-split 0|1] [--fused-streamed 0|1] "
    "[--h-copies K]");

[[noreturn]] void usage(const std::string& why) { kFlags.fail(why); }

Args parse(int argc, char** argv) {
  Args a;
  kFlags.parse(argc, argv, {}, [&](const std::string& f, const std::string& v) {
    if (f == "--size") {
      a.size = v;
    } else if (f == "--partition") {
      a.partition = static_cast<unsigned>(std::stoul(v));
    } else if (f == "--seed") {
      a.seed = std::stoull(v);
    } else if (f == "--threads") {
      a.threads = std::stoul(v);
    } else if (f == "--repeats") {
      a.repeats = std::max(1, std::stoi(v));
    } else if (f == "--tile-rows") {
      a.tile_rows = static_cast<std::uint32_t>(std::stoul(v));
    } else if (f == "--long-row-words") {
      a.long_row_words = static_cast<std::uint32_t>(std::stoul(v));
    } else if (f == "--cache") {
      a.cache = v;
    } else if (f == "--prove") {
      a.prove = v != "0";
    } else if (f == "--overlap") {
      a.overlap.clear();
      for (const std::string& name : cuzk::bench::comma_items(v)) {
        if (!cuzk::parse_partition_overlap(name).ok())
          usage(("unknown --overlap schedule " + name).c_str());
        a.overlap.push_back(name);
      }
      if (a.overlap.empty()) usage("--overlap needs at least one schedule");
    } else if (f == "--msm-split") {
      a.msm_split = v != "0";
    } else if (f == "--fused-streamed") {
      a.fused_streamed = v != "0";
    } else if (f == "--h-copies") {
      a.h_copies = static_cast<unsigned>(std::stoul(v));
      if (a.h_copies < 1 || a.h_copies > cuzk::kMaxPrecomputedCopies)
        usage("--h-copies must be 1..8");
    } else {
      return false;
    }
    return true;
  });
  return a;
}

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

void line(const Args& a, const char* op, const std::string& fields) {
  std::printf("{\"op\": \"%s\", \"size\": \"%s\", \"partition\": %u%s}\n", op, a.size.c_str(),
              a.partition, fields.c_str());
  std::fflush(stdout);
}

std::string num(const char* key, double v) {
  char buf[96];
  std::snprintf(buf, sizeof buf, ", \"%s\": %.6g", key, v);
  return buf;
}

int fail(const cuzk::Status& s, const char* what) {
  std::fprintf(stderr, "pce_gpu_bench: %s: %s\n", what, s.to_string().c_str());
  return 1;
}

// |n| points of a table: 2^16 distinct (P0 + i·Q) repeated.
template <class C>
std::vector<cuzk::Affine<C>> bench_points(std::size_t n, std::uint64_t seed) {
  const std::size_t distinct = std::min<std::size_t>(std::max<std::size_t>(n, 1), 1 << 16);
  cuzk::Jacobian<C> p = cuzk::mul_vartime(cuzk::Affine<C>::generator(), Fr::from_u64(seed + 11));
  const cuzk::Jacobian<C> q =
      cuzk::mul_vartime(cuzk::Affine<C>::generator(), Fr::from_u64(seed * 7 + 5));
  std::vector<cuzk::Jacobian<C>> jac(distinct);
  for (auto& j : jac) {
    j = p;
    p.add(q);
  }
  const auto pts = cuzk::batch_to_affine_vartime<C>(jac);
  std::vector<cuzk::Affine<C>> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = pts[i % distinct];
  return out;
}

// One partition end to end on a CudaBackend: prove_partition_compact against prove_partition
// from host vectors (see the file comment).
// |host_vectors| writes the host path's z and a, b, c (n values, zero past the constraints).
using HostVectors =
    std::function<cuzk::Status(std::span<Fr> z, std::span<Fr> a, std::span<Fr> b, std::span<Fr> c)>;

int prove_partition_bench(const Args& args, cuzk::ThreadPool& pool,
                          std::shared_ptr<const cuzk::CompactR1cs> form,
                          const cuzk::CompactWitness& cw, const HostVectors& host_vectors) {
  using namespace cuzk;
  const std::size_t rows = form->num_constraints;
  const std::size_t n = std::bit_ceil(std::max<std::size_t>(rows, 2));
  const unsigned log_n = static_cast<unsigned>(std::countr_zero(n));
  auto be_r = make_cuda_backend("cuda:0", {.compact_msm_split = args.msm_split,
                                           .fused_streamed_partitions = args.fused_streamed});
  if (!be_r) return fail(be_r.status(), "CUDA backend");
  line(args, "prove_options",
       num("msm_split", args.msm_split ? 1 : 0) +
           num("fused_streamed", args.fused_streamed ? 1 : 0));
  Backend& be = **be_r;
  const R1csDims d = form->dims();
  auto t0 = Clock::now();
  BasesId ids[5];
  {
    const std::size_t g1_counts[4] = {d.a_query_points(), d.b_query_points(), d.num_aux, n - 1};
    for (int i = 0; i < 4; ++i) {
      auto pts = bench_points<G1Curve>(g1_counts[i], static_cast<std::uint64_t>(i));
      auto id = be.load_bases_g1(pts);
      if (!id) return fail(id.status(), "load_bases_g1");
      ids[i] = *id;
    }
    auto pts = bench_points<G2Curve>(d.b_query_points(), 9);
    auto id = be.load_bases_g2(pts);
    if (!id) return fail(id.status(), "load_bases_g2");
    ids[4] = *id;
  }
  line(args, "prove_tables", num("wall_s", seconds_since(t0)) + num("log_n", log_n));
  auto* report = dynamic_cast<DeviceMemoryReport*>(&be);
  const std::uint64_t used0 = report ? report->device_memory().used : 0;
  t0 = Clock::now();
  auto circuit = be.load_circuit(form);
  if (!circuit) return fail(circuit.status(), "load_circuit");
  const std::uint64_t used1 = report ? report->device_memory().used : 0;
  line(args, "prove_load_circuit",
       num("wall_s", seconds_since(t0)) +
           num("device_mb", static_cast<double>(used1 - used0) / 1e6) +
           num("compact_witness_mb", static_cast<double>(cw.bytes()) / 1e6) +
           num("z_mb", static_cast<double>(form->num_columns() * sizeof(Fr)) / 1e6));
  CompactPartitionInputs in{
      .witness = &cw,
      .circuit = *circuit,
      .domain_size = n,
      .convention = HConvention::bellperson,
      .a = ids[0],
      .b_g1 = ids[1],
      .b_g2 = ids[4],
      .l = ids[2],
      .h = ids[3],
      .a_aux = {.bits = d.a_aux_density->words, .base_offset = d.num_inputs},
      .b_input = {.bits = d.b_input_density->words, .base_offset = 0},
      .b_aux = {.bits = d.b_aux_density->words, .base_offset = d.b_input_density->count()},
      .host_pool = &pool};
  std::vector<Fr> z(form->num_columns()), a(n), b(n), c(n);
  auto print_timings = [&](const char* op, double wall, const PartitionTimings& tm) {
    line(args, op,
         num("log_n", log_n) + num("wall_ms", wall * 1e3) + num("abc_ms", tm.abc * 1e3) +
             num("h_ms", tm.h * 1e3) + num("msm_a_ms", tm.msm_a * 1e3) +
             num("msm_b1_ms", tm.msm_b1 * 1e3) + num("msm_b2_ms", tm.msm_b2 * 1e3) +
             num("msm_l_ms", tm.msm_l * 1e3) + num("msm_h_ms", tm.msm_h * 1e3) +
             num("upload_ms", tm.upload * 1e3) +
             num("upload_mb", static_cast<double>(tm.upload_bytes) / 1e6));
  };
  auto overlap_of = [](const std::string& name) { return parse_partition_overlap(name).value(); };
  bool equal = true, host_fresh = false;
  std::vector<PartitionSums> alt;
  // --h-copies: one partition without the copies first; every later one's sums must equal it.
  std::optional<PartitionSums> plain;
  if (args.h_copies > 1) {
    if (auto st = set_partition_overlap(be, overlap_of(args.overlap[0])); !st.ok())
      return fail(st, "set_partition_overlap");
    PartitionTimings tp;
    t0 = Clock::now();
    auto r = be.prove_partition_compact(in, &tp);
    if (!r) return fail(r.status(), "prove_partition_compact without copies");
    print_timings("prove_plain", seconds_since(t0), tp);
    plain = *r;
    t0 = Clock::now();
    auto made = be.add_window_copies(ids[3], args.h_copies);
    if (!made) return fail(made.status(), "add_window_copies");
    line(args, "prove_h_copies",
         num("copies", args.h_copies) + num("wall_s", seconds_since(t0)) +
             num("device_mb", static_cast<double>(*made) / 1e6));
    alt.push_back(*plain);
  }
  for (int rep = 0; rep <= args.repeats; ++rep) {  // rep 0: warm-up (printed too)
    PartitionTimings tc, th;
    // Each schedule but the first: prove_partition_compact alone (rows prove_compact_<name>),
    // its sums compared with the first schedule's.
    for (std::size_t k = 1; k < args.overlap.size(); ++k) {
      if (auto st = set_partition_overlap(be, overlap_of(args.overlap[k])); !st.ok())
        return fail(st, "set_partition_overlap");
      PartitionTimings to;
      t0 = Clock::now();
      auto other = be.prove_partition_compact(in, &to);
      const double wall_o = seconds_since(t0);
      if (!other) return fail(other.status(), "prove_partition_compact");
      print_timings(("prove_compact_" + args.overlap[k]).c_str(), wall_o, to);
      alt.push_back(*other);
    }
    if (auto st = set_partition_overlap(be, overlap_of(args.overlap[0])); !st.ok())
      return fail(st, "set_partition_overlap");
    t0 = Clock::now();
    auto compact = be.prove_partition_compact(in, &tc);
    const double wall_c = seconds_since(t0);
    if (!compact) return fail(compact.status(), "prove_partition_compact");
    for (const PartitionSums& o : alt)
      equal = equal && o.a.to_affine() == compact->a.to_affine() &&
              o.b_g1.to_affine() == compact->b_g1.to_affine() &&
              o.b_g2.to_affine() == compact->b_g2.to_affine() &&
              o.l.to_affine() == compact->l.to_affine() &&
              o.h.to_affine() == compact->h.to_affine();
    alt.clear();
    if (plain) alt.push_back(*plain);
    // The device path only reads the host vectors; a step-wise fallback writes h over a.
    if (!host_fresh) {
      t0 = Clock::now();
      auto st = host_vectors(z, a, b, c);
      if (!st.ok()) return fail(st, "host z, a, b, c");
      line(args, "prove_host_vectors", num("wall_s", seconds_since(t0)));
      host_fresh = true;
    }
    t0 = Clock::now();
    auto host = be.prove_partition(partition_inputs_of(in, a, b, c, z), &th);
    const double wall_h = seconds_since(t0);
    if (!host) return fail(host.status(), "prove_partition");
    host_fresh = th.upload_bytes != 0;
    // The device path uploads the compact witness only; a fallback (no room for the partition in
    // the arena, tables streamed) expands on the host and shows other bytes.
    line(args, "prove_compact_path",
         std::string(", \"device\": ") + (tc.upload_bytes == cw.bytes() ? "true" : "false"));
    print_timings("prove_compact", wall_c, tc);
    print_timings("prove_host_abc", wall_h, th);
    equal = equal && compact->a.to_affine() == host->a.to_affine() &&
            compact->b_g1.to_affine() == host->b_g1.to_affine() &&
            compact->b_g2.to_affine() == host->b_g2.to_affine() &&
            compact->l.to_affine() == host->l.to_affine() &&
            compact->h.to_affine() == host->h.to_affine();
  }
  line(args, "prove_check", std::string(", \"equal\": ") + (equal ? "true" : "false"));
  return equal ? 0 : 1;
}

// --size bench-K: the benchmark circuit of 2^K rows (r1cs/bench_circuit.hpp: PoRep-like densities,
// 72.6 % of the witness 0/1) as one compact block (compact_from_matrices); --prove only. The host
// path's a, b, c come from the plain SpMV on all threads (the compact form's host SpMV is one
// segment, one thread).
int run_bench_circuit(const Args& args, unsigned log_rows) {
  if (!args.prove) usage("--size bench-K needs --prove 1");
  cuzk::ThreadPool pool(args.threads);
  auto t0 = Clock::now();
  auto bench = cuzk::generate_bench_r1cs(pool, {.log_rows = log_rows, .seed = args.seed});
  if (!bench) return fail(bench.status(), "generate_bench_r1cs");
  auto z = std::make_shared<const std::vector<Fr>>(bench->assignment());
  line(args, "bench_circuit",
       num("wall_s", seconds_since(t0)) +
           num("rows", static_cast<double>(bench->matrices.num_constraints)) +
           num("columns", static_cast<double>(z->size())));
  t0 = Clock::now();
  auto form = cuzk::compact_from_matrices(bench->matrices);
  if (!form) return fail(form.status(), "compact_from_matrices");
  auto cw = cuzk::compact_witness_from_z(pool, *z, form->num_inputs);
  if (!cw) return fail(cw.status(), "compact_witness_from_z");
  line(args, "compact_form",
       num("wall_s", seconds_since(t0)) +
           num("compact_mb", static_cast<double>(cw->bytes()) / 1e6) +
           num("runs", static_cast<double>(cw->num_runs())));
  const cuzk::R1csMatrices& m = bench->matrices;
  auto host_vectors = [&](std::span<Fr> hz, std::span<Fr> a, std::span<Fr> b,
                          std::span<Fr> c) -> cuzk::Status {
    std::copy(z->begin(), z->end(), hz.begin());
    const std::size_t rows = m.num_constraints;
    CUZK_RETURN_IF_ERROR(
        cuzk::pce_evaluate_into(pool, m, *z, a.first(rows), b.first(rows), c.first(rows)));
    for (std::span<Fr> v : {a, b, c}) std::fill(v.begin() + rows, v.end(), Fr::zero());
    return {};
  };
  return prove_partition_bench(
      args, pool, std::make_shared<const cuzk::CompactR1cs>(std::move(*form)), *cw, host_vectors);
}

int run(const Args& args) {
  if (args.size.rfind("bench-", 0) == 0)
    return run_bench_circuit(args, static_cast<unsigned>(std::stoul(args.size.substr(6))));
  auto proof = fc::seal_proof("StackedDrg" + args.size + "V1_1");
  if (!proof) return fail(proof.status(), "registered proof");
  const cf::PorepCircuitShape shape = cf::porep_circuit_shape(*proof);
  cuzk::ThreadPool pool(args.threads);

  // 1. The witness and its compact form.
  auto t0 = Clock::now();
  auto synth = fc::synth_c1(*proof, args.seed, pool);
  if (!synth) return fail(synth.status(), "synth_c1");
  const fc::SealCommitPhase1Output& c1 = synth->c1;
  auto pc = cf::porep_partition_from_c1(*proof, c1, args.partition);
  if (!pc) return fail(pc.status(), "partition of the C1");
  auto z = cf::porep_partition_witness(pc->shape, pc->pub, pc->priv, pool);
  if (!z) return fail(z.status(), "porep_partition_witness");
  line(args, "witness", num("wall_s", seconds_since(t0)) + num("threads", pool.size()));

  // 2. The compact R1CS (cached) and its flat layout.
  t0 = Clock::now();
  auto record = [&]() -> cuzk::Result<cuzk::CompactR1cs> {
    cf::PorepCircuit blank(shape);
    return cuzk::record_compact(blank);
  };
  cuzk::CompactR1cs form;
  if (!args.cache.empty()) {
    auto c = cuzk::load_or_build_compact(
        args.cache, cuzk::compact_circuit_key("pce_gpu_bench porep " + args.size), record);
    if (!c) return fail(c.status(), "compact form");
    form = std::move(c->compact);
  } else {
    auto c = record();
    if (!c) return fail(c.status(), "record_compact");
    form = std::move(*c);
  }
  if (form.num_columns() != z->size()) {
    std::fprintf(stderr, "pce_gpu_bench: the form has %llu columns, the witness %zu values\n",
                 static_cast<unsigned long long>(form.num_columns()), z->size());
    return 1;
  }
  line(args, "compact_form",
       num("wall_s", seconds_since(t0)) + num("rows", static_cast<double>(form.num_constraints)) +
           num("segments", static_cast<double>(form.segments.size())) +
           num("blocks", static_cast<double>(form.blocks.size())));
  t0 = Clock::now();
  auto flat = cuzk::compact_flatten(
      form, {.tile_rows = args.tile_rows, .long_row_words = args.long_row_words});
  if (!flat) return fail(flat.status(), "compact_flatten");
  line(args, "flatten",
       num("wall_s", seconds_since(t0)) + num("tiles", flat->num_tiles()) +
           num("long_rows", flat->num_long_rows()) +
           num("flat_mb", static_cast<double>(flat->bytes()) / 1e6));
  t0 = Clock::now();
  auto cw = cuzk::compact_witness_from_z(pool, *z, form.num_inputs);
  if (!cw) return fail(cw.status(), "compact_witness_from_z");
  line(args, "compact_witness",
       num("wall_s", seconds_since(t0)) +
           num("compact_mb", static_cast<double>(cw->bytes()) / 1e6) +
           num("z_mb", static_cast<double>(z->size() * sizeof(Fr)) / 1e6) +
           num("runs", static_cast<double>(cw->num_runs())) +
           num("others", static_cast<double>(cw->values.size())));
  // The same form straight from the synthesis (no z held), as a prover would make it.
  std::vector<double> direct_s;
  for (int rep = 0; rep < args.repeats; ++rep) {
    t0 = Clock::now();
    auto direct = cf::porep_partition_compact_witness(pc->shape, pc->pub, pc->priv, pool);
    if (!direct) return fail(direct.status(), "porep_partition_compact_witness");
    direct_s.push_back(seconds_since(t0));
    if (!(*direct == *cw)) {
      std::fprintf(stderr, "pce_gpu_bench: the direct compact witness differs from z's\n");
      return 1;
    }
  }
  line(args, "compact_witness_direct",
       num("wall_s", median(direct_s)) + num("threads", pool.size()));
  if (args.prove) {
    z->clear();
    z->shrink_to_fit();
    auto shared_form = std::make_shared<const cuzk::CompactR1cs>(std::move(form));
    auto host_vectors = [&](std::span<Fr> hz, std::span<Fr> a, std::span<Fr> b, std::span<Fr> c) {
      return cuzk::compact_partition_vectors_host(pool, *shared_form, *cw, hz, a, b, c);
    };
    return prove_partition_bench(args, pool, shared_form, *cw, host_vectors);
  }

  // 3. The device.
  auto ctx_r = gpu::DeviceContext::create({});
  if (!ctx_r) return fail(ctx_r.status(), "device context");
  gpu::DeviceContext& ctx = **ctx_r;
  cudaStream_t st = ctx.stream(0);
  t0 = Clock::now();
  const gpu::DeviceCompactR1cs dm = gpu::upload_compact_r1cs(ctx, *flat, st);
  line(args, "upload_form",
       num("wall_s", seconds_since(t0)) + num("device_mb", static_cast<double>(dm.bytes()) / 1e6));
  const std::size_t n = form.num_constraints, nz = z->size();
  gpu::DeviceBuffer d_z = ctx.alloc_or_throw(nz * sizeof(Fr), "z");
  gpu::DeviceBuffer d_abc[3];
  for (auto& d : d_abc) d = ctx.alloc_or_throw(std::max<std::size_t>(n, 1) * sizeof(Fr), "a/b/c");
  cudaEvent_t ev[3];
  for (auto& e : ev) CUZK_CUDA_CHECK(cudaEventCreate(&e));
  std::vector<double> up_s, expand_ms, spmv_ms;
  for (int rep = 0; rep <= args.repeats; ++rep) {  // rep 0: warm-up
    t0 = Clock::now();
    const gpu::DeviceCompactWitness dw = gpu::upload_compact_witness(ctx, *cw, st);
    const double up = seconds_since(t0);
    CUZK_CUDA_CHECK(cudaEventRecord(ev[0], st));
    gpu::expand_compact_witness_device(dw, d_z.as<Fr>(), st);
    CUZK_CUDA_CHECK(cudaEventRecord(ev[1], st));
    gpu::compact_spmv_device(dm, d_z.as<Fr>(), d_abc[0].as<Fr>(), d_abc[1].as<Fr>(),
                             d_abc[2].as<Fr>(), st);
    CUZK_CUDA_CHECK(cudaEventRecord(ev[2], st));
    CUZK_CUDA_CHECK(cudaEventSynchronize(ev[2]));
    float e_ms = 0, s_ms = 0;
    CUZK_CUDA_CHECK(cudaEventElapsedTime(&e_ms, ev[0], ev[1]));
    CUZK_CUDA_CHECK(cudaEventElapsedTime(&s_ms, ev[1], ev[2]));
    if (rep == 0) continue;
    up_s.push_back(up);
    expand_ms.push_back(e_ms);
    spmv_ms.push_back(s_ms);
  }
  const double e = median(expand_ms), s = median(spmv_ms);
  line(args, "device",
       num("upload_witness_mb", static_cast<double>(cw->bytes()) / 1e6) +
           num("upload_witness_s", median(up_s)) + num("expand_ms", e) + num("spmv_ms", s) +
           num("expand_spmv_ms", e + s) + num("repeats", args.repeats) +
           num("tile_rows", args.tile_rows) + num("long_row_words", args.long_row_words) +
           num("spmv_out_gb_per_s", 3.0 * static_cast<double>(n) * 32 / (s * 1e-3) / 1e9));

  // 4. The host's compact SpMV, and the device's result against it.
  std::vector<Fr> a(n), b(n), c(n);
  std::vector<double> host_s;
  for (int rep = 0; rep <= std::min(args.repeats, 2); ++rep) {
    t0 = Clock::now();
    auto st_h = cuzk::pce_compact_evaluate_into(pool, form, *z, a, b, c);
    if (!st_h.ok()) return fail(st_h, "pce_compact_evaluate_into");
    if (rep > 0) host_s.push_back(seconds_since(t0));
  }
  line(args, "host_spmv", num("wall_s", median(host_s)) + num("threads", pool.size()));
  constexpr std::size_t kPiece = std::size_t{1} << 22;
  std::vector<Fr> piece(std::min(n, kPiece));
  const std::vector<Fr>* want[3] = {&a, &b, &c};
  bool equal = true;
  for (int m = 0; m < 3 && equal; ++m) {
    for (std::size_t off = 0; off < n && equal; off += kPiece) {
      const std::size_t len = std::min(kPiece, n - off);
      ctx.download(piece.data(), d_abc[m].as<Fr>() + off, len * sizeof(Fr), st);
      if (!std::equal(piece.begin(), piece.begin() + static_cast<std::ptrdiff_t>(len),
                      want[m]->begin() + static_cast<std::ptrdiff_t>(off))) {
        std::fprintf(stderr,
                     "pce_gpu_bench: device %c differs from the host's in rows [%zu, %zu)\n",
                     "abc"[m], off, off + len);
        equal = false;
      }
    }
  }
  line(args, "check", std::string(", \"equal\": ") + (equal ? "true" : "false"));
  for (auto& ev_i : ev) CUZK_CUDA_CHECK(cudaEventDestroy(ev_i));
  return equal ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = parse(argc, argv);
  try {
    return run(args);
  } catch (const gpu::CudaError& e) {
    std::fprintf(stderr, "pce_gpu_bench: %s\n", e.what());
    return 1;
  }
}
