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
//        [--compact-cache FILE]  (the compact form loaded from FILE, or recorded and saved there)
//        [--z-file FILE]  (z saved there after the paths; with --paths none, mapped from there)
//        [--compact-stats on]  (per block: uses, rows by the plan's forms, long rows' terms)
//        [--spmv-pieces N] [--spmv-variants V,...] [--spmv-check on]
// The compact SpMV's variants (fast, fast_nt, csr, csr_nt: spmv_options) and floors (floor_copy:
// z read and a, b, c written once; floor_write; floor_arith: an xor row's arithmetic on values in
// L1) run in turn, repeats + 1 times each; best_spmv_compact_V gives each one's least CPU time
// over the repeats and its ns per row. --spmv-check compares every variant's a, b, c (a digest
// per piece) with the first's before timing.
// One JSON line per measurement: op, size, partition, threads, wall_s, cpu_s, peak_rss_mib, rows
// (constraints, input constraints included).
#include <fcntl.h>
#include <immintrin.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

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
#include <span>
#include <string>
#include <vector>

#include "bench/bench_args.hpp"
#include "bench/comma_items.hpp"
#include "cuzk/base/huge_pages.hpp"
#include "cuzk/base/thread_pool.hpp"
#include "cuzk/circuits/filecoin/porep_circuit.hpp"
#include "cuzk/circuits/filecoin/porep_witness.hpp"
#include "cuzk/filecoin/c1_json.hpp"
#include "cuzk/filecoin/synth_inputs.hpp"
#include "cuzk/r1cs/pce.hpp"
#include "cuzk/r1cs/pce_compact.hpp"
#include "cuzk/r1cs/pce_compact_cache.hpp"
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
  std::string c1;              ///< a C1 JSON file instead of a generated one
  std::string compact_cache;   ///< the compact form's cache file (loaded, or recorded and written)
  bool compact_stats = false;  ///< per block: uses, rows by form, terms (to stderr)
  /// The SpMV's witness: written here after the paths ran; with --paths none, read from here
  /// (mapped) instead, so SpMV runs skip synthesis.
  std::string z_file;
  /// Compact SpMV: pieces measured (of 2^23 rows; all by default), variants (spmv_options,
  /// floor_kernel) and whether their outputs are compared first.
  std::size_t spmv_pieces = SIZE_MAX;
  std::vector<std::string> spmv_variants{"fast"};
  bool spmv_check = false;
};

const cuzk::bench::BenchFlags kFlags(
    "porep_synth_bench",
    "porep_synth_bench [--size 32GiB|64GiB|512MiB|8MiB|"
    "2KiB] [--partition K] [--seed N] [--threads 1,2,16] [--repeats R] "
    "[--paths slow,fast,parallel] [--spmv auto|compact|plain|on|off] [--c1 FILE] "
    "[--compact-cache FILE] [--compact-stats on] [--z-file FILE] [--spmv-pieces N] "
    "[--spmv-variants fast,fast_nt,csr,csr_nt,floor_copy,floor_write,floor_arith] "
    "[--spmv-check on]");

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
      a.threads.clear();
      for (const std::string& t : cuzk::bench::comma_items(v)) a.threads.push_back(std::stoul(t));
      if (a.threads.empty()) usage("--threads needs at least one thread count");
    } else if (f == "--repeats") {
      a.repeats = std::stoi(v);
    } else if (f == "--paths") {
      a.paths = v;
    } else if (f == "--spmv") {
      a.spmv = v;
    } else if (f == "--c1") {
      a.c1 = v;
    } else if (f == "--compact-cache") {
      a.compact_cache = v;
    } else if (f == "--spmv-pieces") {
      a.spmv_pieces = std::stoul(v);
    } else if (f == "--spmv-variants") {
      a.spmv_variants = cuzk::bench::comma_items(v);
      if (a.spmv_variants.empty()) usage("--spmv-variants needs at least one variant");
    } else if (f == "--spmv-check") {
      a.spmv_check = v == "1" || v == "on";
    } else if (f == "--z-file") {
      a.z_file = v;
    } else if (f == "--compact-stats") {
      a.compact_stats = v == "1" || v == "on";
    } else {
      return false;
    }
    return true;
  });
  return a;
}

bool has(const std::string& list, const char* item) {
  return ("," + list + ",").find("," + std::string(item) + ",") != std::string::npos;
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

// The compact SpMV's variants (CompactSpmvOptions): fast (the defaults), fast_nt (a, b, c with
// non-temporal stores), csr (long rows through the CSR walk, their slow twin).
cuzk::CompactSpmvOptions spmv_options(const std::string& v) {
  if (v == "fast") return {};
  if (v == "fast_nt") return {.nt_stores = true};
  if (v == "csr") return {.long_terms = false};
  if (v == "csr_nt") return {.nt_stores = true, .long_terms = false};
  usage(("unknown SpMV variant " + v).c_str());
}

[[gnu::always_inline]] inline void store_nt(Fr* dst, const Fr& v) {
  auto* d = reinterpret_cast<__m128i*>(dst);
  _mm_stream_si128(d, _mm_loadu_si128(reinterpret_cast<const __m128i*>(&v)));
  _mm_stream_si128(d + 1, _mm_loadu_si128(reinterpret_cast<const __m128i*>(&v) + 1));
}

// The floors of the SpMV of rows [lo, hi) (z: their values, one per row):
//   floor_copy   memory traffic: z read once, a, b, c written once (non-temporal);
//   floor_write  a, b, c written once, nothing read;
//   floor_arith  the arithmetic of an xor row (2x, y, x + y − w: two modular adds and a
//                subtraction), the most common row (50 % at 32 GiB), on values in L1.
void floor_kernel(const std::string& v, const Fr* z, Fr* a, Fr* b, Fr* c, std::size_t lo,
                  std::size_t hi) {
  if (v == "floor_copy") {
    for (std::size_t k = lo; k < hi; ++k) {
      const Fr x = z[k];
      store_nt(a + k, x);
      store_nt(b + k, x);
      store_nt(c + k, x);
    }
  } else if (v == "floor_write") {
    const Fr x = Fr::one();
    for (std::size_t k = lo; k < hi; ++k) {
      store_nt(a + k, x);
      store_nt(b + k, x);
      store_nt(c + k, x);
    }
  } else if (v == "floor_arith") {
    alignas(64) Fr in[64], out_a[64], out_c[64];
    for (std::size_t i = 0; i < 64; ++i) in[i] = z[i];
    for (std::size_t k = lo; k < hi; ++k) {
      const Fr& x = in[k & 63];
      const Fr& y = in[(k + 7) & 63];
      const Fr& w = in[(k + 13) & 63];
      cuzk::mont_x86::add4<Fr::kModulus>(out_a[k & 63].l, x.l, x.l);
      cuzk::mont_x86::add4<Fr::kModulus>(out_c[k & 63].l, x.l, y.l);
      cuzk::mont_x86::sub4<Fr::kModulus>(out_c[k & 63].l, out_c[k & 63].l, w.l);
    }
    a[lo] = out_a[0];
    c[lo] = out_c[0];
    for (std::size_t i = 1; i < 64; ++i) {
      cuzk::mont_x86::add4<Fr::kModulus>(a[lo].l, a[lo].l, out_a[i].l);
      cuzk::mont_x86::add4<Fr::kModulus>(c[lo].l, c[lo].l, out_c[i].l);
    }
  } else {
    usage(("unknown SpMV variant " + v).c_str());
  }
  _mm_sfence();
}

// A 64-bit digest of z (order-sensitive), to compare paths without holding two witnesses.
std::uint64_t digest(std::span<const Fr> z) {
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
    c0 = cuzk::bench::process_cpu_seconds();
    t0 = Clock::now();
  }
  void report(const char* op, const Args& a, std::size_t threads, std::uint64_t rows,
              const char* extra = "") const {
    const double wall = std::chrono::duration<double>(Clock::now() - t0).count();
    const double cpu = cuzk::bench::process_cpu_seconds() - c0;
    std::printf(
        "{\"op\": \"%s\", \"size\": \"%s\", \"partition\": %u, \"threads\": %zu, \"wall_s\": %.3f, "
        "\"cpu_s\": %.3f, \"peak_rss_mib\": %.0f, \"rows\": %" PRIu64 "%s}\n",
        op, a.size.c_str(), a.partition, threads, wall, cpu, peak_rss_mib(), rows, extra);
    std::fflush(stdout);
  }
};

// Per block of the compact form, the rows the circuit evaluates through it (uses × rows), by
// the plan's row forms, heaviest first (stderr): where the SpMV's time goes.
void print_compact_stats(const cuzk::CompactR1cs& form) {
  std::vector<std::uint64_t> uses(form.blocks.size(), 0);
  for (const cuzk::CompactSegment& s : form.segments) ++uses[s.block];
  std::vector<std::size_t> order(form.blocks.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
    return uses[x] * form.blocks[x].rows() > uses[y] * form.blocks[y].rows();
  });
  std::uint64_t total[5] = {};
  for (std::size_t i : order) {
    const cuzk::CompactBlock& b = form.blocks[i];
    const std::uint64_t* f = b.plan.rows_by_form;
    for (int k = 0; k < 5; ++k) total[k] += uses[i] * f[k];
    std::uint64_t long_terms = 0, long_general = 0;
    for (std::size_t blk = 0; blk + 1 < b.plan.long_off.size(); ++blk)
      for (std::uint64_t e = b.plan.long_off[blk]; e < b.plan.long_off[blk + 1]; ++e) {
        const std::size_t k = blk * cuzk::SparseMatrix::kBlockRows + b.plan.long_[e];
        for (const cuzk::SparseMatrix* x : {&b.m.a, &b.m.b, &b.m.c})
          x->for_each_term(k, [&](std::uint32_t, const Fr& q) {
            ++long_terms;
            long_general += !cuzk::fr_is_one(q) && !cuzk::fr_is_minus_one(q);
          });
      }
    std::fprintf(stderr, "  long rows' terms %" PRIu64 " (general %" PRIu64 ") of nnz %zu\n",
                 long_terms, long_general, b.m.a.nnz() + b.m.b.nnz() + b.m.c.nnz());
    std::fprintf(
        stderr,
        "block %3zu: uses %7" PRIu64 " rows %6" PRIu64
        " (%.1f%% of all) locals %6u "
        "slots %5u nnz/row %.2f %.2f %.2f | boolean %" PRIu64 " xor %" PRIu64 " mul %" PRIu64
        " linear %" PRIu64 " (flat %zu) long %" PRIu64 "\n",
        i, uses[i], b.rows(),
        100.0 * static_cast<double>(uses[i] * b.rows()) / static_cast<double>(form.num_constraints),
        b.locals, b.slots, static_cast<double>(b.m.a.nnz()) / static_cast<double>(b.rows()),
        static_cast<double>(b.m.b.nnz()) / static_cast<double>(b.rows()),
        static_cast<double>(b.m.c.nnz()) / static_cast<double>(b.rows()), f[0], f[1], f[2], f[3],
        b.plan.lin_rows.size(), f[4]);
  }
  std::fprintf(stderr,
               "all rows: boolean %" PRIu64 " xor %" PRIu64 " mul %" PRIu64 " linear %" PRIu64
               " long %" PRIu64 "\n",
               total[0], total[1], total[2], total[3], total[4]);
}

// A file mapped read-only, every page read in at open (MAP_POPULATE).
struct MappedFile {
  void* data = nullptr;
  std::size_t size = 0;
  bool open(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY);
    if (fd < 0) return false;
    struct stat st {};
    if (fstat(fd, &st) != 0) {
      ::close(fd);
      return false;
    }
    size = static_cast<std::size_t>(st.st_size);
    void* p = mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
    ::close(fd);
    if (p == MAP_FAILED) return false;
    data = p;
    return true;
  }
  ~MappedFile() {
    if (data != nullptr) munmap(data, size);
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
  auto part = cf::porep_partition_from_c1(*proof, c1, args.partition);
  if (!part) return fail(part.status(), "partition");
  const cf::PorepCircuitPublic& pub = part->pub;
  const cf::PorepCircuitPrivate& priv = part->priv;

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
      cf::PorepCircuit circuit(shape, pub, priv);
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
        auto w = cf::porep_partition_witness(shape, pub, priv, pool, {}, std::move(storage));
        if (!w) return fail(w.status(), "porep_partition_witness");
        storage = std::move(*w);
        const std::string op = std::string("witness_parallel") + (warm ? "_warm" : "_cold");
        m.report(op.c_str(), args, t, rows);
        check(op.c_str(), storage);
      }
      z = std::move(storage);
    }
  }

  // The SpMV's witness: the last path's, or one saved by an earlier run.
  std::span<const Fr> zs = z;
  MappedFile mapped;
  if (!args.z_file.empty()) {
    if (!z.empty()) {
      std::ofstream out(args.z_file, std::ios::binary | std::ios::trunc);
      out.write(reinterpret_cast<const char*>(z.data()),
                static_cast<std::streamsize>(z.size() * sizeof(Fr)));
      if (!out.good()) usage(("cannot write " + args.z_file).c_str());
    } else {
      Measure m;
      if (!mapped.open(args.z_file)) usage(("cannot map " + args.z_file).c_str());
      zs = std::span(reinterpret_cast<const Fr*>(mapped.data), mapped.size / sizeof(Fr));
      rows = layout.num_constraints;
      m.report("map_z", args, 1, rows);
    }
  }

  // A·w, B·w, C·w over the compact form (pce_compact.hpp: ≈ 77 MB at 32 GiB), in pieces of at
  // most 2^23 rows (a, b, c: 0.8 GB, not 12.5 GB), as a prover streams them out.
  const bool compact = args.spmv == "auto" || args.spmv == "compact" || args.spmv == "on";
  if (compact && !zs.empty()) {
    cuzk::CompactR1cs form;
    {
      Measure m;
      auto build = [&]() -> cuzk::Result<cuzk::CompactR1cs> {
        cf::PorepCircuit blank(shape);
        return cuzk::record_compact(blank);
      };
      bool from_cache = false;
      if (args.compact_cache.empty()) {
        auto r = build();
        if (!r) return fail(r.status(), "record_compact");
        form = std::move(*r);
      } else {
        auto r = cuzk::load_or_build_compact(
            args.compact_cache,
            cuzk::compact_circuit_key("porep_synth_bench " + std::string(proof->name)), build);
        if (!r) return fail(r.status(), "record_compact");
        form = std::move(r->compact);
        from_cache = r->from_cache;
      }
      char extra[64];
      std::snprintf(extra, sizeof extra, ", \"compact_mb\": %.1f",
                    static_cast<double>(form.memory_bytes()) / 1e6);
      m.report(from_cache ? "load_compact" : "record_compact", args, 1, form.num_constraints,
               extra);
    }
    if (args.compact_stats) print_compact_stats(form);
    constexpr std::size_t kPieceRows = std::size_t{1} << 23;
    std::vector<std::size_t> cuts = {0};
    for (std::size_t s = 0; s < form.segments.size(); ++s)
      if (form.row_begin[s + 1] - form.row_begin[cuts.back()] > kPieceRows) cuts.push_back(s);
    cuts.push_back(form.segments.size());
    std::size_t widest = 0;
    for (std::size_t i = 0; i + 1 < cuts.size(); ++i)
      widest = std::max<std::size_t>(widest, form.row_begin[cuts[i + 1]] - form.row_begin[cuts[i]]);
    std::vector<Fr> a(widest), b(widest), c(widest);
    const std::size_t pieces = std::min(args.spmv_pieces, cuts.size() - 1);
    const std::uint64_t measured_rows = form.row_begin[cuts[pieces]];
    const std::vector<std::string>& variants = args.spmv_variants;
    auto run_piece = [&](const std::string& v, cuzk::ThreadPool& pool,
                         std::size_t i) -> cuzk::Status {
      const std::size_t n = form.row_begin[cuts[i + 1]] - form.row_begin[cuts[i]];
      const std::span<Fr> pa = std::span(a).first(n), pb = std::span(b).first(n),
                          pc = std::span(c).first(n);
      if (v.rfind("floor", 0) == 0) {
        // One piece's memory traffic and nothing else: z's values of its rows (one aux value
        // per row at 32 GiB, read in order), a, b, c written once with non-temporal stores.
        const std::size_t z0 =
            std::min<std::size_t>(form.num_inputs + form.row_begin[cuts[i]], zs.size() - n);
        pool.parallel_for(n, [&](std::size_t lo, std::size_t hi) {
          floor_kernel(v, zs.data() + z0, pa.data(), pb.data(), pc.data(), lo, hi);
        });
        return {};
      }
      return cuzk::pce_compact_evaluate_segments(pool, form, zs, cuts[i], cuts[i + 1], pa, pb, pc,
                                                 spmv_options(v));
    };
    if (args.spmv_check) {
      // Every variant's a, b, c against the first's, piece by piece (outside the timings).
      cuzk::ThreadPool pool(args.threads.back());
      for (std::size_t i = 0; i < pieces; ++i) {
        const std::size_t n = form.row_begin[cuts[i + 1]] - form.row_begin[cuts[i]];
        std::uint64_t want = 0;
        for (std::size_t j = 0; j < variants.size(); ++j) {
          if (variants[j].rfind("floor", 0) == 0) continue;
          auto st = run_piece(variants[j], pool, i);
          if (!st.ok()) return fail(st, "pce_compact_evaluate_segments");
          const std::uint64_t d = digest(std::span<const Fr>(a).first(n)) ^
                                  std::rotl(digest(std::span<const Fr>(b).first(n)), 21) ^
                                  std::rotl(digest(std::span<const Fr>(c).first(n)), 42);
          if (j == 0) want = d;
          if (d != want) {
            std::fprintf(stderr,
                         "porep_synth_bench: spmv variant %s differs from %s in piece %zu\n",
                         variants[j].c_str(), variants[0].c_str(), i);
            return 1;
          }
        }
      }
      std::fprintf(stderr, "spmv check: %zu variants equal on %zu pieces\n", variants.size(),
                   pieces);
    }
    for (std::size_t t : args.threads) {
      cuzk::ThreadPool pool(t);
      std::vector<double> best(variants.size(), 1e30);
      // Variants in turn, so a shared machine's load falls on each alike; the best of the runs.
      for (int rep = 0; rep <= args.repeats; ++rep) {
        for (std::size_t j = 0; j < variants.size(); ++j) {
          Measure m;
          for (std::size_t i = 0; i < pieces; ++i) {
            auto st = run_piece(variants[j], pool, i);
            if (!st.ok()) return fail(st, "pce_compact_evaluate_segments");
          }
          const double cpu = cuzk::bench::process_cpu_seconds() - m.c0;
          if (rep > 0) best[j] = std::min(best[j], cpu);
          const std::string op = "spmv_compact_" + variants[j] + (rep == 0 ? "_first" : "");
          m.report(op.c_str(), args, t, measured_rows);
        }
      }
      for (std::size_t j = 0; j < variants.size() && args.repeats > 0; ++j)
        std::printf(
            "{\"op\": \"best_spmv_compact_%s\", \"threads\": %zu, \"cpu_s\": %.3f, "
            "\"ns_per_row_cpu\": %.2f, \"rows\": %" PRIu64 "}\n",
            variants[j].c_str(), t, best[j], 1e9 * best[j] / static_cast<double>(measured_rows),
            measured_rows);
    }
  }

  // A·w, B·w, C·w over the plain matrices where they fit this machine (≈ 30 GB at 32 GiB).
  const bool spmv = args.spmv == "plain" || args.spmv == "on" ||
                    (args.spmv == "auto" && shape.nodes <= (1u << 24));
  if (spmv && !zs.empty()) {
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
        auto st = cuzk::pce_evaluate_into(pool, matrices, zs, a, b, c, {.plan = &plan});
        if (!st.ok()) return fail(st, "pce_evaluate_into");
        m.report(rep == 0 ? "spmv_first" : "spmv", args, t, n);
      }
    }
  }
  return 0;
}
