// cuzk-key-tiers: load times and resident memory of a bench-<K> proving key in the SRS tiers
// (docs/perf/engine.md "SRS tiers"). One step per process, so "first map in the process" is real:
//   gen     generate the key (cache .params + .sum) and its image
//   params  key_images off: decode the cached .params (unchecked behind its hash) into owned memory
//   image   key_images on, CPU backend: map the image (data checksum checked), copy to owned
//           memory; then host → mmap (map_key), one partition proved from the mapping, mmap →
//           host (unmap_key)
//   map     the image file alone: mmap, then the data checksum pass (what the first map in a
//           process adds)
// Prints one line per measurement: wall ms, process CPU ms, RssAnon (of which AnonHugePages) and
// RssFile (MiB).
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "cuzk/engine/groth16_prover.hpp"
#include "cuzk/formats/key_image.hpp"

namespace {

using Clock = std::chrono::steady_clock;

double cpu_ms() {
  rusage u{};
  ::getrusage(RUSAGE_SELF, &u);
  return (u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e3 +
         (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e3;
}

double rss_mib(const char* field, const char* file = "/proc/self/status") {
  std::ifstream f(file);
  std::string line;
  const std::string want = std::string(field) + ":";
  while (std::getline(f, line))
    if (line.rfind(want, 0) == 0) return std::strtod(line.c_str() + want.size(), nullptr) / 1024.0;
  return 0;
}

struct Lap {
  Clock::time_point t = Clock::now();
  double c = cpu_ms();
  void print(const char* what) {
    const double ms = std::chrono::duration<double, std::milli>(Clock::now() - t).count();
    std::printf(
        "%-34s wall %9.1f ms  cpu %9.1f ms  RssAnon %8.1f MiB (huge %7.1f)  RssFile %8.1f MiB\n",
        what, ms, cpu_ms() - c, rss_mib("RssAnon"),
        rss_mib("AnonHugePages", "/proc/self/smaps_rollup"), rss_mib("RssFile"));
    std::fflush(stdout);
    t = Clock::now();
    c = cpu_ms();
  }
};

int fail(const cuzk::Status& s) {
  std::fprintf(stderr, "cuzk-key-tiers: %s\n", s.to_string().c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace cuzk;
  using namespace cuzk::engine;
  if (argc < 4) {
    std::fprintf(stderr,
                 "usage: cuzk-key-tiers <cache dir> <K> <gen|params|image|map> [threads]\n");
    return 2;
  }
  const std::string dir = argv[1], step = argv[3];
  const int k = std::atoi(argv[2]);
  const std::string id = "bench-" + std::to_string(k);
  Groth16ProverOptions o;
  o.cache_dir = dir;
  o.threads = argc > 4 ? static_cast<std::size_t>(std::atoi(argv[4])) : 0;
  o.key_images = step != "params";
  auto p = Groth16Prover::create(o);
  if (!p) return fail(p.status());
  Groth16Prover& prover = **p;
  if (auto m = prover.matrices(id); !m) return fail(m.status());  // built / read before timing
  Lap lap;
  lap.print("start (matrices ready)");
  if (step == "map") {
    ThreadPool pool(o.threads);
    auto mf = MappedFile::open(prover.image_path(id));
    if (!mf) return fail(mf.status());
    lap.print("mmap (no reads)");
    const auto sum = key_image_checksum(mf->bytes().subspan(4096), &pool);
    lap.print("data checksum (reads the file)");
    std::printf("checksum %016llx over %.1f MiB\n", static_cast<unsigned long long>(sum),
                mf->bytes().size() / 1048576.0);
    return 0;
  }
  auto key = prover.load_key(id);
  if (!key) return fail(key.status());
  lap.print(step == "gen" ? "load_key (generate + image)" : "load_key");
  std::printf("keys generated %llu, mapped %d, size_bytes %.1f MiB\n",
              static_cast<unsigned long long>(prover.keys_generated()),
              prover.key_is_mapped(**key) ? 1 : 0, (*key)->size_bytes() / 1048576.0);
  if (step != "image") return 0;
  if (auto st = prover.map_key(**key); !st.ok()) return fail(st);
  lap.print("host -> mmap (map_key)");
  JobRequest req;
  req.request_id = "tiers";
  req.circuit_id = id;
  req.num_partitions = 1;
  auto plan = prover.plan(req);
  if (!plan) return fail(plan.status());
  CancelFlag cancel{false};
  auto part = prover.synthesize(req, *plan, 0, cancel);
  if (!part) return fail(part.status());
  lap.print("synthesize one partition");
  auto proof = prover.prove_partition(0, **key, req, 0, **part, cancel);
  if (!proof) return fail(proof.status());
  lap.print("prove from the mapping");
  part->reset();
  lap.print("partition freed");
  if (auto st = prover.unmap_key(**key); !st.ok()) return fail(st);
  lap.print("mmap -> host (unmap_key)");
  auto part2 = prover.synthesize(req, *plan, 0, cancel);
  if (!part2) return fail(part2.status());
  lap.t = Clock::now();
  lap.c = cpu_ms();
  auto proof2 = prover.prove_partition(0, **key, req, 0, **part2, cancel);
  if (!proof2) return fail(proof2.status());
  lap.print("prove from owned memory");
  if (auto st = prover.verify(**key, req, *proof + ""); !st.ok()) return fail(st);
  return 0;
}
