// The compact witness (r1cs/compact_witness.hpp) of one PoRep partition at production size (issue
// 22 item 1): a C1 from the data side's generator (synth_inputs.hpp, no sealing), partition k's
// witness z (porep_partition_witness on T threads), then
//   direct    porep_partition_compact_witness: the compact form straight from the synthesis, z
//             never held (time and peak RSS, taken before any z exists)
//   convert   compact_witness_from_z: z → bits + runs of other values (checked equal to direct)
//   expand    compact_witness_expand: the form → z again (checked equal, value for value)
// and the form's size against z's (4.17 GB at 32 GiB; the goal: ≤ 100 MB crosses PCIe).
// The non-bit values are also counted by size (canonical integer below 2^32, 2^64, 2^128, the
// rest) to show what a denser value encoding would save.
//
// Run: compact_witness_bench [--size 32GiB|512MiB|8MiB|2KiB] [--partition K] [--seed N]
//        [--threads T] [--repeats R] [--form]
// --form also records the circuit's compact R1CS (pce_compact.hpp; ≈ 70 s on one core at 32 GiB)
// and reports its flat layout (pce_compact_flat.hpp: what a device holds) and term counts.
// One JSON line per measurement.
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "bench/bench_args.hpp"
#include "cuzk/base/thread_pool.hpp"
#include "cuzk/circuits/filecoin/porep_circuit.hpp"
#include "cuzk/circuits/filecoin/porep_witness.hpp"
#include "cuzk/filecoin/synth_inputs.hpp"
#include "cuzk/r1cs/compact_witness.hpp"
#include "cuzk/r1cs/pce_compact_flat.hpp"
#include "cuzk/r1cs/pce_compact_recorder.hpp"

namespace {

namespace fc = cuzk::filecoin;
namespace cf = cuzk::circuits::filecoin;
using cuzk::Fr;
using Clock = std::chrono::steady_clock;

struct Args {
  std::string size = "32GiB";
  unsigned partition = 0;
  std::uint64_t seed = 1;
  std::size_t threads = 0;
  int repeats = 2;
  bool form = false;
};

const cuzk::bench::BenchFlags kFlags(
    "compact_witness_bench",
    "compact_witness_bench [--size 32GiB|64GiB|512MiB|"
    "8MiB|2KiB] [--partition K] [--seed N] [--threads T] [--repeats R] [--form]");

Args parse(int argc, char** argv) {
  Args a;
  kFlags.parse(argc, argv, {"--form"}, [&](const std::string& f, const std::string& v) {
    if (f == "--form") {
      a.form = true;
    } else if (f == "--size") {
      a.size = v;
    } else if (f == "--partition") {
      a.partition = static_cast<unsigned>(std::stoul(v));
    } else if (f == "--seed") {
      a.seed = std::stoull(v);
    } else if (f == "--threads") {
      a.threads = std::stoul(v);
    } else if (f == "--repeats") {
      a.repeats = std::stoi(v);
    } else {
      return false;
    }
    return true;
  });
  return a;
}

struct Measure {
  Clock::time_point t0 = Clock::now();
  double c0 = cuzk::bench::process_cpu_seconds();
  void report(const char* op, const Args& a, std::size_t threads, const std::string& extra = "") {
    const double wall = std::chrono::duration<double>(Clock::now() - t0).count();
    std::printf(
        "{\"op\": \"%s\", \"size\": \"%s\", \"partition\": %u, \"threads\": %zu, \"wall_s\": "
        "%.3f, \"cpu_s\": %.3f%s}\n",
        op, a.size.c_str(), a.partition, threads, wall, cuzk::bench::process_cpu_seconds() - c0,
        extra.c_str());
    std::fflush(stdout);
  }
};

// Resets the peak resident set (VmHWM) to the current one.
void reset_peak() {
  std::ofstream f("/proc/self/clear_refs");
  f << "5";
}

double peak_rss_mib() {
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::strtod(line.c_str() + 6, nullptr) / 1024.0;
  return -1;
}

int fail(const cuzk::Status& s, const char* what) {
  std::fprintf(stderr, "compact_witness_bench: %s: %s\n", what, s.to_string().c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = parse(argc, argv);
  auto proof = fc::seal_proof("StackedDrg" + args.size + "V1_1");
  if (!proof) return fail(proof.status(), "registered proof");
  const cf::PorepCircuitShape shape = cf::porep_circuit_shape(*proof);
  cuzk::ThreadPool pool(args.threads);
  fc::SealCommitPhase1Output c1;
  {
    Measure m;
    auto r = fc::synth_c1(*proof, args.seed, pool);
    if (!r) return fail(r.status(), "synth_c1");
    c1 = std::move(r->c1);
    m.report("synth_c1", args, pool.size());
  }
  auto part = cf::porep_partition_from_c1(*proof, c1, args.partition);
  if (!part) return fail(part.status(), "partition");
  const cf::PorepCircuitPublic& pub = part->pub;
  const cf::PorepCircuitPrivate& priv = part->priv;
  auto layout = cf::porep_witness_layout(shape);
  if (!layout) return fail(layout.status(), "layout");

  // Straight from the synthesis first, while no z exists: its peak is the form plus the running
  // parts' scratch (the C1 and what the process held before included).
  cuzk::CompactWitness direct;
  for (int rep = 0; rep < args.repeats; ++rep) {
    reset_peak();
    Measure m;
    auto r = cf::porep_partition_compact_witness(shape, pub, priv, pool);
    if (!r) return fail(r.status(), "porep_partition_compact_witness");
    direct = std::move(*r);
    char extra[96];
    std::snprintf(extra, sizeof extra, ", \"peak_rss_mib\": %.0f, \"compact_mb\": %.2f",
                  peak_rss_mib(), static_cast<double>(direct.bytes()) / 1e6);
    m.report("witness_compact_direct", args, pool.size(), extra);
  }

  std::vector<Fr> z;
  {
    reset_peak();
    Measure m;
    auto w = cf::porep_partition_witness(shape, pub, priv, pool);
    if (!w) return fail(w.status(), "porep_partition_witness");
    z = std::move(*w);
    char extra[64];
    std::snprintf(extra, sizeof extra, ", \"peak_rss_mib\": %.0f", peak_rss_mib());
    m.report("witness", args, pool.size(), extra);
  }

  cuzk::CompactWitness cw;
  for (int rep = 0; rep < args.repeats; ++rep) {
    Measure m;
    auto r = cuzk::compact_witness_from_z(pool, z, layout->num_inputs);
    if (!r) return fail(r.status(), "compact_witness_from_z");
    cw = std::move(*r);
    m.report("convert", args, pool.size());
  }
  if (!(cw == direct)) {
    std::fprintf(stderr, "compact_witness_bench: the direct compact witness differs\n");
    return 1;
  }
  const cuzk::CompactWitnessStats s = cuzk::compact_witness_stats(cw);
  // The non-bit values by the size of their canonical integer.
  std::uint64_t by_bits[4] = {};  // < 2^32, < 2^64, < 2^128, the rest
  for (const Fr& v : cw.values) {
    const auto c = v.to_canonical();
    const int k = (c[3] | c[2]) != 0 ? 3 : c[1] != 0 ? 2 : (c[0] >> 32) != 0 ? 1 : 0;
    ++by_bits[k];
  }
  // Run lengths: how many runs have 1, 2–15, 16+ values.
  std::uint64_t run_len[3] = {};
  for (std::size_t r = 0; r < cw.num_runs(); ++r) {
    const std::uint32_t len = cw.run_value[r + 1] - cw.run_value[r];
    ++run_len[len == 1 ? 0 : len < 16 ? 1 : 2];
  }
  char extra[768];
  std::snprintf(
      extra, sizeof extra,
      ", \"variables\": %" PRIu64 ", \"zeros\": %" PRIu64 ", \"ones\": %" PRIu64
      ", \"others\": %" PRIu64 ", \"runs\": %" PRIu64 ", \"runs_len1\": %" PRIu64
      ", \"runs_len2_15\": %" PRIu64 ", \"runs_len16plus\": %" PRIu64
      ", \"others_lt2_32\": %" PRIu64 ", \"others_lt2_64\": %" PRIu64
      ", \"others_lt2_128\": %" PRIu64 ", \"others_wide\": %" PRIu64
      ", \"bits_mb\": %.2f, \"runs_mb\": %.2f, \"values_mb\": %.2f, \"compact_mb\": "
      "%.2f, \"z_mb\": %.1f, \"ratio\": %.5f",
      cw.num_variables(), s.zeros, s.ones, s.others, s.runs, run_len[0], run_len[1], run_len[2],
      by_bits[0], by_bits[1], by_bits[2], by_bits[3], static_cast<double>(cw.bits.size() * 8) / 1e6,
      static_cast<double>(cw.run_first.size() * 4 + cw.run_value.size() * 4) / 1e6,
      static_cast<double>(cw.values.size() * 32) / 1e6, static_cast<double>(cw.bytes()) / 1e6,
      static_cast<double>(z.size() * sizeof(Fr)) / 1e6,
      static_cast<double>(cw.bytes()) / static_cast<double>(z.size() * sizeof(Fr)));
  Measure none;
  none.report("form", args, pool.size(), extra);

  std::vector<Fr> back(z.size());
  for (int rep = 0; rep < args.repeats; ++rep) {
    Measure m;
    auto st = cuzk::compact_witness_expand(pool, cw, back);
    if (!st.ok()) return fail(st, "compact_witness_expand");
    m.report("expand", args, pool.size());
  }
  if (back != z) {
    std::fprintf(stderr, "compact_witness_bench: the expanded witness differs from z\n");
    return 1;
  }
  if (!args.form) return 0;
  back = std::vector<Fr>();
  cuzk::CompactR1cs form;
  {
    Measure m;
    cf::PorepCircuit blank(shape);
    auto r = cuzk::record_compact(blank);
    if (!r) return fail(r.status(), "record_compact");
    form = std::move(*r);
    m.report("record_compact", args, 1);
  }
  for (const bool sorted : {false, true}) {  // rows in order, one thread each / the layout used
    Measure m;
    auto flat =
        cuzk::compact_flatten(form, {.long_row_words = sorted ? 128u : 0u, .sort_rows = sorted});
    if (!flat) return fail(flat.status(), "compact_flatten");
    // The flat words are one per block term plus one per general term.
    std::uint64_t general = 0, block_rows = 0;
    for (int k = 0; k < 3; ++k) general += flat->words[k].size();
    std::uint64_t block_nnz = 0;
    for (const cuzk::CompactBlock& blk : form.blocks) {
      block_nnz += blk.m.a.nnz() + blk.m.b.nnz() + blk.m.c.nnz();
      block_rows += blk.rows();
    }
    general -= block_nnz;
    // The kernels' SIMT efficiency: a warp of 32 threads of a tile (rows in row_order) walks
    // each matrix for as many steps as its longest short row there (a long row's lane leaves);
    // a long row's warp ⌈words / 32⌉ steps per matrix plus 5 for its shuffle tree. Useful steps:
    // the rows' words.
    std::uint64_t warp_steps = 0, words = 0;
    for (std::size_t t = 0; t < flat->num_tiles(); ++t) {
      const std::uint32_t sg = flat->tile_segment[t], b0 = flat->block_row0[flat->seg_block[sg]];
      const std::uint64_t rows = flat->seg_row_begin[sg + 1] - flat->seg_row_begin[sg];
      const std::uint64_t end = std::min<std::uint64_t>(rows, flat->tile_row[t] + 256ull);
      for (std::uint64_t w0 = flat->tile_row[t]; w0 < end; w0 += 32) {
        for (int k = 0; k < 3; ++k) {
          std::uint64_t longest = 0;
          for (std::uint64_t i = w0; i < std::min<std::uint64_t>(end, w0 + 32); ++i) {
            const std::uint64_t g = b0 + flat->row_order[b0 + i];
            if (flat->row_words(g) > flat->long_row_words) continue;
            const std::uint64_t len = flat->row_ptr[k][g + 1] - flat->row_ptr[k][g];
            longest = std::max(longest, len);
            words += len;
          }
          warp_steps += longest;
        }
      }
    }
    for (std::size_t t = 0; t < flat->num_long_rows(); ++t) {
      const std::uint64_t g =
          flat->block_row0[flat->seg_block[flat->long_segment[t]]] + flat->long_row[t];
      for (int k = 0; k < 3; ++k) {
        const std::uint64_t len = flat->row_ptr[k][g + 1] - flat->row_ptr[k][g];
        words += len;
        warp_steps += (len + 31) / 32 + 5;
      }
    }
    char fx[640];
    std::snprintf(fx, sizeof fx,
                  ", \"sorted_and_long_rows\": %s, \"long_rows\": %zu, \"rows\": %" PRIu64
                  ", \"blocks\": %zu, \"block_rows\": %" PRIu64 ", \"block_nnz\": %" PRIu64
                  ", \"block_general\": %" PRIu64
                  ", \"coeffs\": %zu, \"segments\": %zu, \"slots\": %zu, \"tiles\": %zu"
                  ", \"form_mb\": %.2f, \"flat_mb\": %.2f, \"row_words\": %" PRIu64
                  ", \"warp_steps\": %" PRIu64 ", \"lane_efficiency\": %.3f",
                  sorted ? "true" : "false", flat->num_long_rows(), form.num_constraints,
                  form.blocks.size(), block_rows, block_nnz, general, flat->coeffs.size(),
                  form.segments.size(), form.slots.size(), flat->num_tiles(),
                  static_cast<double>(form.memory_bytes()) / 1e6,
                  static_cast<double>(flat->bytes()) / 1e6, words, warp_steps,
                  static_cast<double>(words) / (32.0 * static_cast<double>(warp_steps)));
    m.report("flatten", args, 1, fx);
  }
  return 0;
}
