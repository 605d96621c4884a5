// Witness synthesis of one PoRep partition at production size (issue 19 item 8): a C1 made by the
// data side's generator (synth_inputs.hpp: a valid 32 GiB C1 without sealing), then partition k
// synthesised witness-only
//   slow      WitnessConstraintSystem, fast paths off: the generic gadget code, one thread
//   fast      WitnessConstraintSystem, fast paths on (native SHA-256 / Poseidon / bits), one thread
//   parallel  porep_partition_witness: the challenges in parallel on a pool of T threads
// each from a fresh witness vector (cold: every page first-touched) and reusing the previous one
// (warm, as the engine's buffer pool does); then A·w, B·w, C·w with the last z: over the compact
// PCE form (pce_compact.hpp, ≈ 77 MB at 32 GiB, recorded once here) in pieces of 2^23 rows, and
// over the plain matrices with the compiled SpMV plan where they fit (up to 512 MiB by default:
// at 32 GiB the plain CSR is 7.0 GB and, with its plan, z and whole a, b, c, ≈ 30 GB), each on 1
// and T threads. --spmv: auto (compact; plain too up to 512 MiB),
// compact, plain, on (both), off. Every path's z is compared with the first one's (a digest).
// Anchor (Curio, bellperson): 25–27 s single-threaded witness plus 4 s SpMV per 32 GiB partition. Peak memory: VmHWM after resetting it
// (/proc/self/clear_refs) before each measurement, so it is the peak of that measurement alone
// (the C1 and whatever the process held before included). floor_fill_z: one pass of stores over
// the warm z, the floor of any path that writes it.
//
// Run: porep_synth_bench [--size 32GiB|512MiB|8MiB|2KiB] [--partition K] [--seed N]
//        [--threads 1,2,16] [--repeats R] [--paths slow,fast,parallel]
//        [--spmv auto|compact|plain|on|off]
//        [--c1 FILE]   (a real C1 JSON instead of a generated one; its proof names the size)
// One JSON line per measurement: op, size, partition, threads, wall_s, cpu_s, peak_rss_mib, rows
// (constraints, input constraints included).
#include <sys/resource.h>
#include <time.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "cuzk/base/huge_pages.hpp"
#include "cuzk/base/thread_pool.hpp"
#include "cuzk/circuits/filecoin/porep_circuit.hpp"
#include "cuzk/circuits/filecoin/porep_witness.hpp"
#include "cuzk/filecoin/c1_json.hpp"
#include "cuzk/filecoin/synth_inputs.hpp"
#include "cuzk/r1cs/pce.hpp"
#include "cuzk/r1cs/pce_compact.hpp"
#include "cuzk/r1cs/pce_compact_recorder.hpp"
#include "cuzk/r1cs/recording_cs.hpp"
#include "cuzk/r1cs/witness_cs.hpp"

namespace {

namespace fc = cuzk::filecoin;
namespace cf = cuzk::circuits::filecoin;
using cuzk::Fr;
using Clock = std::chrono::steady_clock;

struct Args {
  std::string size = "32GiB";
  unsigned partition = 0;
  std::uint64_t seed = 1;
  std::vector<std::size_t> threads = {1, 2};
  int repeats = 1;
  std::string paths = "slow,fast,parallel";
  std::string spmv = "auto";
  std::string c1;  ///< a C1 JSON file instead of a generated one
};

[[noreturn]] void usage(const char* why) {
  std::fprintf(stderr,
               "porep_synth_bench: %s\nusage: porep_synth_bench [--size 32GiB|64GiB|512MiB|8MiB|"
               "2KiB] [--partition K] [--seed N] [--threads 1,2,16] [--repeats R] "
               "[--paths slow,fast,parallel] [--spmv auto|compact|plain|on|off] [--c1 FILE]\n",
               why);
  std::exit(2);
}

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string f = argv[i];
    if (i + 1 >= argc) usage(("missing value after " + f).c_str());
    const std::string v = argv[++i];
    if (f == "--size") {
      a.size = v;
    } else if (f == "--partition") {
      a.partition = static_cast<unsigned>(std::stoul(v));
    } else if (f == "--seed") {
      a.seed = std::stoull(v);
    } else if (f == "--threads") {
      a.threads.clear();
      for (std::size_t p = 0; p < v.size();) {
        std::size_t q = v.find(',', p);
        if (q == std::string::npos) q = v.size();
        a.threads.push_back(std::stoul(v.substr(p, q - p)));
        p = q + 1;
      }
    } else if (f == "--repeats") {
      a.repeats = std::stoi(v);
    } else if (f == "--paths") {
      a.paths = v;
    } else if (f == "--spmv") {
      a.spmv = v;
    } else if (f == "--c1") {
      a.c1 = v;
    } else {
      usage(("unknown flag " + f).c_str());
    }
  }
  return a;
}

bool has(const std::string& list, const char* item) {
  return ("," + list + ",").find("," + std::string(item) + ",") != std::string::npos;
}

double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         1e-6 * static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

// Resets the peak resident set (VmHWM) to the current one.
void reset_peak() {
  std::ofstream f("/proc/self/clear_refs");
  f << "5";
}

double peak_rss_mib() {
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::strtod(line.c_str() + 6, nullptr) / 1024.0;
  }
  return -1;
}

// A 64-bit digest of z (order-sensitive), to compare paths without holding two witnesses.
std::uint64_t digest(const std::vector<Fr>& z) {
  std::uint64_t h = 0x9e3779b97f4a7c15ull;
  static_assert(sizeof(Fr) == 32);
  for (const Fr& x : z) {
    std::uint64_t limbs[4];
    std::memcpy(limbs, &x, sizeof limbs);  // Montgomery form: one representation per value
    h = (h ^ limbs[0] ^ std::rotl(limbs[1], 16) ^ std::rotl(limbs[2], 32) ^
         std::rotl(limbs[3], 48)) *
        0xff51afd7ed558ccdull;
    h ^= h >> 29;
  }
  return h;
}

struct Measure {
  Clock::time_point t0;
  double c0;
  Measure() {
    reset_peak();
    c0 = cpu_seconds();
    t0 = Clock::now();
  }
  void report(const char* op, const Args& a, std::size_t threads, std::uint64_t rows,
              const char* extra = "") const {
    const double wall = std::chrono::duration<double>(Clock::now() - t0).count();
    const double cpu = cpu_seconds() - c0;
    std::printf(
        "{\"op\": \"%s\", \"size\": \"%s\", \"partition\": %u, \"threads\": %zu, \"wall_s\": %.3f, "
        "\"cpu_s\": %.3f, \"peak_rss_mib\": %.0f, \"rows\": %" PRIu64 "%s}\n",
        op, a.size.c_str(), a.partition, threads, wall, cpu, peak_rss_mib(), rows, extra);
    std::fflush(stdout);
  }
};

int fail(const cuzk::Status& s, const char* what) {
  std::fprintf(stderr, "porep_synth_bench: %s: %s\n", what, s.to_string().c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  Args args = parse(argc, argv);
  cuzk::set_huge_page_new(true);  // the witness and a, b, c in 2 MiB pages, as `cuzk prove` does
  fc::SealCommitPhase1Output c1;
  if (!args.c1.empty()) {
    // A real C1 (filecoin-ffi's JSON, e.g. from a Curio host): its proof names the size.
    Measure m;
    std::ifstream in(args.c1, std::ios::binary);
    const std::string json((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!in.good() && !in.eof()) usage(("cannot read " + args.c1).c_str());
    auto r = fc::read_c1_json(json);
    if (!r) return fail(r.status(), args.c1.c_str());
    c1 = std::move(*r);
    args.size = c1.registered_proof;  // what the JSON lines name
    m.report("read_c1", args, 1, 0);
  }
  auto proof =
      fc::seal_proof(args.c1.empty() ? "StackedDrg" + args.size + "V1_1" : c1.registered_proof);
  if (!proof) return fail(proof.status(), "registered proof");
  const cf::PorepCircuitShape shape = cf::porep_circuit_shape(*proof);
  if (args.c1.empty()) {
    cuzk::ThreadPool gen_pool(0);
    Measure m;
    auto r = fc::synth_c1(*proof, args.seed, gen_pool);
    if (!r) return fail(r.status(), "synth_c1");
    c1 = std::move(r->c1);
    m.report("synth_c1", args, gen_pool.size(), 0);
  }
  auto pub = cf::porep_circuit_public(*proof, c1.replica_id, c1.comm_d, c1.comm_r, c1.seed,
                                      args.partition);
  if (!pub) return fail(pub.status(), "public data");
  auto priv = cf::porep_circuit_private(c1, args.partition);
  if (!priv) return fail(priv.status(), "private data");

  // The layout (counted once per shape from the blank circuit): exact sizes for every path.
  cf::PorepWitnessLayout layout;
  {
    Measure m;
    auto l = cf::porep_witness_layout(shape);
    if (!l) return fail(l.status(), "layout");
    layout = *l;
    m.report("count_layout", args, 1, layout.num_constraints);
  }
  std::optional<std::uint64_t> reference;
  std::uint64_t rows = 0;
  std::vector<Fr> z;  // the last witness, for the SpMV
  auto check = [&](const char* op, const std::vector<Fr>& w) {
    const std::uint64_t d = digest(w);
    if (!reference) reference = d;
    if (d != *reference) {
      std::fprintf(stderr, "porep_synth_bench: %s gives another z than the first path\n", op);
      std::exit(1);
    }
  };

  // Sequential paths, cold then warm.
  for (const char* path : {"slow", "fast"}) {
    if (!has(args.paths, path)) continue;
    const bool fast = std::strcmp(path, "fast") == 0;
    z = std::vector<Fr>();  // each path's peak counts its own witness only
    std::vector<Fr> storage;
    for (int rep = 0; rep <= args.repeats; ++rep) {
      const bool warm = rep > 0;
      Measure m;
      const cuzk::WitnessOptions opt{
          .reserve_aux = layout.num_aux, .num_inputs_hint = layout.num_inputs, .fast_paths = fast};
      cuzk::WitnessConstraintSystem cs(opt, std::move(storage));
      cf::PorepCircuit circuit(shape, *pub, *priv);
      auto st = cuzk::synthesize_circuit(circuit, cs);
      if (!st.ok()) return fail(st, path);
      rows = cs.num_constraints();
      storage = cs.take_assignment();
      const std::string op = std::string("witness_") + path + (warm ? "_warm" : "_cold");
      m.report(op.c_str(), args, 1, rows);
      check(op.c_str(), storage);
    }
    z = std::move(storage);
  }

  // The floor of any path that writes z: one pass of stores over the warm buffer.
  if (!z.empty()) {
    for (int rep = 0; rep < args.repeats; ++rep) {
      Measure m;
      std::fill(z.begin(), z.end(), Fr::one());
      m.report("floor_fill_z", args, 1, rows);
    }
  }

  // The challenges in parallel.
  if (has(args.paths, "parallel")) {
    for (std::size_t t : args.threads) {
      cuzk::ThreadPool pool(t);
      z = std::vector<Fr>();
      std::vector<Fr> storage;
      for (int rep = 0; rep <= args.repeats; ++rep) {
        const bool warm = rep > 0;
        Measure m;
        auto w = cf::porep_partition_witness(shape, *pub, *priv, pool, {}, std::move(storage));
        if (!w) return fail(w.status(), "porep_partition_witness");
        storage = std::move(*w);
        const std::string op = std::string("witness_parallel") + (warm ? "_warm" : "_cold");
        m.report(op.c_str(), args, t, rows);
        check(op.c_str(), storage);
      }
      z = std::move(storage);
    }
  }

  // A·w, B·w, C·w over the compact form (pce_compact.hpp: ≈ 77 MB at 32 GiB), in pieces of at
  // most 2^23 rows (a, b, c: 0.8 GB, not 12.5 GB), as a prover streams them out.
  const bool compact = args.spmv == "auto" || args.spmv == "compact" || args.spmv == "on";
  if (compact && !z.empty()) {
    cuzk::CompactR1cs form;
    {
      Measure m;
      cf::PorepCircuit blank(shape);
      auto r = cuzk::record_compact(blank);
      if (!r) return fail(r.status(), "record_compact");
      form = std::move(*r);
      char extra[64];
      std::snprintf(extra, sizeof extra, ", \"compact_mb\": %.1f",
                    static_cast<double>(form.memory_bytes()) / 1e6);
      m.report("record_compact", args, 1, form.num_constraints, extra);
    }
    constexpr std::size_t kPieceRows = std::size_t{1} << 23;
    std::vector<std::size_t> cuts = {0};
    for (std::size_t s = 0; s < form.segments.size(); ++s)
      if (form.row_begin[s + 1] - form.row_begin[cuts.back()] > kPieceRows) cuts.push_back(s);
    cuts.push_back(form.segments.size());
    std::size_t widest = 0;
    for (std::size_t i = 0; i + 1 < cuts.size(); ++i)
      widest = std::max<std::size_t>(widest, form.row_begin[cuts[i + 1]] - form.row_begin[cuts[i]]);
    std::vector<Fr> a(widest), b(widest), c(widest);
    for (std::size_t t : args.threads) {
      cuzk::ThreadPool pool(t);
      for (int rep = 0; rep <= args.repeats; ++rep) {
        Measure m;
        for (std::size_t i = 0; i + 1 < cuts.size(); ++i) {
          const std::size_t n = form.row_begin[cuts[i + 1]] - form.row_begin[cuts[i]];
          auto st = cuzk::pce_compact_evaluate_segments(
              pool, form, z, cuts[i], cuts[i + 1], std::span(a).first(n), std::span(b).first(n),
              std::span(c).first(n));
          if (!st.ok()) return fail(st, "pce_compact_evaluate_segments");
        }
        m.report(rep == 0 ? "spmv_compact_first" : "spmv_compact", args, t, form.num_constraints);
      }
    }
  }

  // A·w, B·w, C·w over the plain matrices where they fit this machine (≈ 30 GB at 32 GiB).
  const bool spmv = args.spmv == "plain" || args.spmv == "on" ||
                    (args.spmv == "auto" && shape.nodes <= (1u << 24));
  if (spmv && !z.empty()) {
    cuzk::R1csMatrices matrices;
    {
      Measure m;
      cuzk::RecordingConstraintSystem rec({.with_values = false, .record_matrices = true});
      cf::PorepCircuit blank(shape);
      auto st = cuzk::synthesize_circuit(blank, rec);
      if (!st.ok()) return fail(st, "recording");
      matrices = std::move(rec.take().matrices);
      char extra[64];
      std::snprintf(extra, sizeof extra, ", \"matrix_mb\": %.0f",
                    static_cast<double>(matrices.memory_bytes()) / 1e6);
      m.report("record_matrices", args, 1, matrices.num_constraints, extra);
    }
    const cuzk::PcePlan plan = cuzk::pce_plan(matrices);
    const std::size_t n = matrices.num_constraints;
    std::vector<Fr> a(n), b(n), c(n);
    for (std::size_t t : args.threads) {
      cuzk::ThreadPool pool(t);
      for (int rep = 0; rep <= args.repeats; ++rep) {
        Measure m;
        auto st = cuzk::pce_evaluate_into(pool, matrices, z, a, b, c, {.plan = &plan});
        if (!st.ok()) return fail(st, "pce_evaluate_into");
        m.report(rep == 0 ? "spmv_first" : "spmv", args, t, n);
      }
    }
  }
  return 0;
}
