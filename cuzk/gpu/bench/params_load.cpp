// gpu_params_load: a bellperson .params made resident on one CUDA device, by either path, with
// the time to residency and the process's peak resident memory (VmHWM) — the figures of the
// direct path (docs/perf/gpu.md "A .params key to VRAM"). One path per process, so VmHWM is that
// path's:
//   gpu_params_load FILE.params direct  [device] — the key store's direct path: VK and sections
//       from the mapping (scan_params), each query decoded on the device from the raw bytes
//       (ResidentKey::load_encoded through engine::ParamsMapping, pages dropped as read);
//   gpu_params_load FILE.params decoded [device] — the host path: parse_params (unchecked, all
//       cores) into host tables, then ResidentKey::load (upload of the decoded tables).
// Prints one line: path,file_gib,header_s,resident_s,total_s,peak_rss_mib,rss_after_mib,
// arena_used_mib. Any .params serves (a cached bench-<K>.params from cuzk-cache, a Filecoin v28
// file); the arena takes 0.9 of the free VRAM, so a key larger than half of it streams (the
// small-card path) on either path.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>

#include "cuzk/backend/device_memory.hpp"
#include "cuzk/base/process_memory.hpp"
#include "cuzk/base/thread_pool.hpp"
#include "cuzk/engine/key_store.hpp"
#include "cuzk/formats/bellperson.hpp"
#include "cuzk/formats/mapped_file.hpp"
#include "cuzk/gpu/cuda_backend.hpp"
#include "cuzk/groth16/prove.hpp"

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

int fail(const cuzk::Status& st) {
  std::fprintf(stderr, "gpu_params_load: %s\n", st.to_string().c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace cuzk;
  if (argc < 3 || (std::string(argv[2]) != "direct" && std::string(argv[2]) != "decoded")) {
    std::fprintf(stderr, "usage: gpu_params_load FILE.params direct|decoded [device]\n");
    return 2;
  }
  const std::string path = argv[1], mode = argv[2];
  const std::string device = "cuda:" + std::string(argc > 3 ? argv[3] : "0");
  auto backend = make_cuda_backend(device, {.pinned_host_bytes = std::size_t{1} << 30});
  if (!backend) return fail(backend.status());
  const auto t0 = Clock::now();
  double header_s = 0;
  std::unique_ptr<ResidentKey> rk;
  ProvingKey pk;
  engine::ParamsMapping pm;
  if (mode == "direct") {
    auto mf = MappedFile::open(path);
    if (!mf) return fail(mf.status());
    pm.path = path;
    pm.file = std::move(*mf);
    auto lay = scan_params(pm.file.bytes());
    if (!lay) return fail(lay.status());
    pm.layout = std::move(*lay);
    pm.release_pages(0, pm.layout.h.offset);
    pk.vk = pm.layout.vk;
    pk.domain_size = pm.layout.domain_size;
    header_s = since(t0);
    const ParamsLayout& l = pm.layout;
    auto r = ResidentKey::load_encoded(**backend, pk,
                                       {.h = pm.encoded(l.h, false),
                                        .l = pm.encoded(l.l, false),
                                        .a = pm.encoded(l.a, false),
                                        .b_g1 = pm.encoded(l.b_g1, false),
                                        .b_g2 = pm.encoded(l.b_g2, true)});
    if (!r) return fail(r.status());
    rk = std::move(*r);
  } else {
    ThreadPool pool(std::thread::hardware_concurrency());
    auto p = read_params(path, {.checked = false, .pool = &pool});
    if (!p) return fail(p.status());
    pk = std::move(*p);
    header_s = since(t0);
    auto r = ResidentKey::load(**backend, pk);
    if (!r) return fail(r.status());
    rk = std::move(*r);
  }
  const double total_s = since(t0);
  const ProcessMemory mem = read_process_memory();
  const DeviceMemoryReport* rep = device_memory_report(**backend);
  const double gib = 1024.0 * 1024.0 * 1024.0, mib = 1024.0 * 1024.0;
  std::uint64_t file_bytes = 0;
  if (auto mf = MappedFile::open(path)) file_bytes = mf->bytes().size();
  std::printf(
      "path,file_gib,header_s,resident_s,total_s,peak_rss_mib,rss_after_mib,arena_used_mib\n");
  std::printf("%s,%.3f,%.3f,%.3f,%.3f,%.1f,%.1f,%.1f\n", mode.c_str(), file_bytes / gib, header_s,
              total_s - header_s, total_s, mem.peak_rss_bytes / mib, mem.rss_bytes / mib,
              rep ? rep->device_memory().used / mib : 0.0);
  return 0;
}
