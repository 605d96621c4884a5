// The compact witness (r1cs/compact_witness.hpp) of one WindowPoSt, WinningPoSt or SnapDeals
// partition at production size (issue 22 item 1), before and after the synthesis by parts:
//   parts     post_partition_compact_witness / update_partition_compact_witness: the circuit
//             sectors or challenges synthesized into reused scratch, each converted as it ends,
//             z never held (parts_witness.hpp); once on one thread (what the family runs on the
//             engine's synthesis worker) and once on T threads
//   z+convert the path the families took before: the whole z through WitnessConstraintSystem
//             (sized by the circuit, as FilecoinFamily::synthesize_witness) then
//             compact_witness_from_z on one thread; both results checked equal
// Inputs come from the data side's generator (synth_inputs.hpp: synth_post, synth_snap), so no
// sector is sealed. Each measurement gives wall and CPU seconds and the peak RSS since it began
// (VmHWM reset through /proc/self/clear_refs) beside the RSS it started from (the inputs).
//
// Run: compact_witness_parts_bench [--kind window|winning|snap] [--size 32GiB|64GiB|2KiB]
//        [--partition K] [--seed N] [--threads T]
// One JSON line per measurement.
#include <malloc.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "bench/bench_args.hpp"
#include "cuzk/base/thread_pool.hpp"
#include "cuzk/circuits/filecoin/post_circuit.hpp"
#include "cuzk/circuits/filecoin/post_witness.hpp"
#include "cuzk/circuits/filecoin/update_circuit.hpp"
#include "cuzk/circuits/filecoin/update_witness.hpp"
#include "cuzk/filecoin/post_prove.hpp"
#include "cuzk/filecoin/synth_inputs.hpp"
#include "cuzk/r1cs/compact_witness.hpp"
#include "cuzk/r1cs/witness_cs.hpp"

namespace {

namespace fc = cuzk::filecoin;
namespace cf = cuzk::circuits::filecoin;
using cuzk::Fr;
using Clock = std::chrono::steady_clock;

struct Args {
  std::string kind = "window";
  std::string size = "32GiB";
  unsigned partition = 0;
  std::uint64_t seed = 1;
  std::size_t threads = 0;
};

const cuzk::bench::BenchFlags kFlags(
    "compact_witness_parts_bench",
    "compact_witness_parts_bench [--kind "
    "window|winning|snap] [--size 32GiB|64GiB|2KiB] [--partition K] [--seed N] "
    "[--threads T]");

[[noreturn]] void usage(const std::string& why) { kFlags.fail(why); }

Args parse(int argc, char** argv) {
  Args a;
  kFlags.parse(argc, argv, {}, [&](const std::string& f, const std::string& v) {
    if (f == "--kind") {
      a.kind = v;
    } else if (f == "--size") {
      a.size = v;
    } else if (f == "--partition") {
      a.partition = static_cast<unsigned>(std::stoul(v));
    } else if (f == "--seed") {
      a.seed = std::stoull(v);
    } else if (f == "--threads") {
      a.threads = std::stoul(v);
    } else {
      return false;
    }
    return true;
  });
  if (a.kind != "window" && a.kind != "winning" && a.kind != "snap")
    usage(("unknown kind " + a.kind).c_str());
  return a;
}

double status_mib(const char* field) {
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind(field, 0) == 0) return std::strtod(line.c_str() + 6, nullptr) / 1024.0;
  return -1;
}

// Resets the peak resident set (VmHWM) to the current one.
void reset_peak() {
  std::ofstream f("/proc/self/clear_refs");
  f << "5";
}

// FNV-1a over the form's arrays: results are compared by digest, each freed once measured, so
// that no measurement starts with another's result in memory.
std::uint64_t digest(const cuzk::CompactWitness& w) {
  std::uint64_t h = 1469598103934665603ull;
  auto mix = [&h](const void* p, std::size_t n) {
    const auto* b = static_cast<const unsigned char*>(p);
    for (std::size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 1099511628211ull;
  };
  mix(&w.num_inputs, 8);
  mix(&w.num_aux, 8);
  mix(w.bits.data(), w.bits.size() * 8);
  mix(w.run_first.data(), w.run_first.size() * 4);
  mix(w.run_value.data(), w.run_value.size() * 4);
  mix(w.values.data(), w.values.size() * sizeof(Fr));
  return h;
}

struct Measure {
  double rss0 = (malloc_trim(0), reset_peak(), status_mib("VmRSS:"));
  Clock::time_point t0 = Clock::now();
  double c0 = cuzk::bench::process_cpu_seconds();
  void report(const char* op, const Args& a, std::size_t threads, const std::string& extra = "") {
    const double wall = std::chrono::duration<double>(Clock::now() - t0).count();
    std::printf(
        "{\"op\": \"%s\", \"kind\": \"%s\", \"size\": \"%s\", \"partition\": %u, \"threads\": "
        "%zu, \"wall_s\": %.3f, \"cpu_s\": %.3f, \"rss_before_mib\": %.0f, \"peak_rss_mib\": "
        "%.0f%s}\n",
        op, a.kind.c_str(), a.size.c_str(), a.partition, threads, wall,
        cuzk::bench::process_cpu_seconds() - c0, rss0, status_mib("VmHWM:"), extra.c_str());
    std::fflush(stdout);
  }
};

int fail(const cuzk::Status& s, const char* what) {
  std::fprintf(stderr, "compact_witness_parts_bench: %s: %s\n", what, s.to_string().c_str());
  return 1;
}

// The partition's circuit for the z path, its compact witness by parts on a pool, and its layout.
struct Partition {
  std::function<std::unique_ptr<cuzk::Circuit>()> circuit;
  std::function<cuzk::Result<cuzk::CompactWitness>(cuzk::ThreadPool&)> by_parts;
  cf::PartsLayout layout;
};

std::string layout_json(const cf::PartsLayout& l) {
  char s[256];
  std::snprintf(s, sizeof s,
                ", \"parts\": %llu, \"part_values\": %llu, \"prefix_values\": %llu, "
                "\"variables\": %llu",
                static_cast<unsigned long long>(l.parts),
                static_cast<unsigned long long>(l.part_values()),
                static_cast<unsigned long long>(l.prefix_values()),
                static_cast<unsigned long long>(l.num_variables()));
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = parse(argc, argv);
  cuzk::ThreadPool pool(args.threads);
  cuzk::ThreadPool one(1);
  Partition part;
  // Kept alive for the closures.
  fc::SynthPost post;
  std::vector<fc::PostSectorProof> proofs;
  cf::PostCircuitParams params;
  cf::PostCircuitPublic pub;
  fc::SynthSnap snap;
  cf::UpdatePublic upub;
  if (args.kind == "window" || args.kind == "winning") {
    const std::string name = (args.kind == "window" ? "StackedDrgWindow" : "StackedDrgWinning") +
                             args.size + (args.kind == "window" ? "V1_2" : "V1");
    auto proof = fc::post_proof(name);
    if (!proof) return fail(proof.status(), "registered proof");
    {
      Measure m;
      const std::uint64_t sectors = args.kind == "window" ? proof->sector_count : 1;
      auto r = fc::synth_post(*proof, args.seed, sectors, pool);
      if (!r) return fail(r.status(), "synth_post");
      post = std::move(*r);
      m.report("synth_post", args, pool.size());
    }
    auto p = cf::post_circuit_params(*proof);
    if (!p) return fail(p.status(), "params");
    params = *p;
    if (args.kind == "window") {
      auto r = fc::window_post_partition_proof(*proof, post.vanilla, 0);
      if (!r) return fail(r.status(), "partition proofs");
      proofs = std::move(*r);
      pub = cf::PostCircuitPublic{.randomness = post.randomness,
                                  .prover_id = post.prover_id,
                                  .sectors = post.sectors,
                                  .partition = 0};
    } else {
      auto r = cf::winning_post_circuit_proofs(params, post.vanilla[0]);
      if (!r) return fail(r.status(), "winning proofs");
      proofs = std::move(*r);
      pub = cf::winning_post_public(params, post.randomness, post.prover_id, post.sectors[0]);
    }
    post.vanilla.clear();  // the circuit holds its own values
    part.circuit = [&]() -> std::unique_ptr<cuzk::Circuit> {
      auto c = cf::PostCircuit::create(params, pub, proofs);
      if (!c) return nullptr;
      return std::make_unique<cf::PostCircuit>(std::move(*c));
    };
    auto circuit = cf::PostCircuit::create(params, pub, proofs);
    if (!circuit) return fail(circuit.status(), "circuit");
    auto shared = std::make_shared<cf::PostCircuit>(std::move(*circuit));
    part.by_parts = [shared](cuzk::ThreadPool& tp) {
      return cf::post_partition_compact_witness(*shared, tp);
    };
    auto l = cf::post_witness_layout(params);
    if (!l) return fail(l.status(), "layout");
    part.layout = *l;
  } else {
    auto proof = fc::update_proof("StackedDrg" + args.size + "V1");
    if (!proof) return fail(proof.status(), "update proof");
    {
      Measure m;
      auto r = fc::synth_snap(*proof, args.seed, pool);
      if (!r) return fail(r.status(), "synth_snap");
      snap = std::move(*r);
      m.report("synth_snap", args, pool.size());
    }
    if (args.partition >= snap.partitions.size()) usage("no such partition");
    auto u = cf::update_public(fc::sector_nodes(proof->size), args.partition, snap.pub.h,
                               snap.pub.comm_r_old, snap.pub.comm_d_new, snap.pub.comm_r_new);
    if (!u) return fail(u.status(), "public data");
    upub = *u;
    const fc::SnapPartitionProof* vanilla = &snap.partitions[args.partition];
    part.circuit = [&, vanilla]() -> std::unique_ptr<cuzk::Circuit> {
      return std::make_unique<cf::UpdateCircuit>(upub, vanilla);
    };
    part.by_parts = [&, vanilla](cuzk::ThreadPool& tp) {
      return cf::update_partition_compact_witness(upub, *vanilla, tp);
    };
    auto l = cf::update_witness_layout(upub.nodes);
    if (!l) return fail(l.status(), "layout");
    part.layout = *l;
  }
  const std::string lj = layout_json(part.layout);

  // By parts: one thread (the family's engine call), then T after the z path. Each result is
  // digested and freed inside its measurement.
  std::uint64_t want = 0;
  auto by_parts = [&](cuzk::ThreadPool& tp) -> int {
    Measure m;
    auto r = part.by_parts(tp);
    if (!r) return fail(r.status(), "compact witness by parts");
    const std::uint64_t d = digest(*r);
    if (want != 0 && d != want) {
      std::fprintf(stderr, "compact_witness_parts_bench: the compact witness by parts differs\n");
      return 1;
    }
    want = d;
    char extra[64];
    std::snprintf(extra, sizeof extra, ", \"compact_mb\": %.2f",
                  static_cast<double>(r->bytes()) / 1e6);
    *r = cuzk::CompactWitness();
    m.report("compact_by_parts", args, tp.size(), extra + lj);
    return 0;
  };
  if (int rc = by_parts(one); rc != 0) return rc;

  // The path before: z, then the converter on one thread.
  {
    auto circuit = part.circuit();  // made before the measure, as the parts' circuit is
    if (!circuit) return fail(cuzk::Status(cuzk::Errc::invalid_argument, "circuit"), "circuit");
    Measure m;
    cuzk::WitnessOptions wo;
    wo.reserve_aux = part.layout.num_variables();
    wo.num_inputs_hint = part.layout.num_inputs();
    std::vector<Fr> z;
    {
      cuzk::WitnessConstraintSystem cs(wo);
      auto st = cuzk::synthesize_circuit(*circuit, cs);
      if (!st.ok()) return fail(st, "z synthesis");
      z = cs.take_assignment();
    }
    const double z_cpu = cuzk::bench::process_cpu_seconds() - m.c0;
    auto r = cuzk::compact_witness_from_z(one, z, part.layout.num_inputs());
    if (!r) return fail(r.status(), "compact_witness_from_z");
    if (digest(*r) != want) {
      std::fprintf(stderr, "compact_witness_parts_bench: the converter's form differs\n");
      return 1;
    }
    char extra[128];
    std::snprintf(extra, sizeof extra,
                  ", \"z_cpu_s\": %.3f, \"convert_cpu_s\": %.3f, \"z_mb\": %.1f", z_cpu,
                  cuzk::bench::process_cpu_seconds() - m.c0 - z_cpu,
                  static_cast<double>(z.size() * sizeof(Fr)) / 1e6);
    z = std::vector<Fr>();
    *r = cuzk::CompactWitness();
    m.report("z_then_convert", args, 1, extra + lj);
  }
  return by_parts(pool);
}
