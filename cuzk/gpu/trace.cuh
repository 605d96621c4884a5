// GpuTrace: a device timeline of one partition for benchmarks (CUZK_GPU_TRACE=1 in the
// environment; off otherwise, and then nothing below runs). Each mark records an event on a
// stream at the end of a phase; a phase's span runs from the previous mark on the same stream (or
// the trace's origin) to its own, so a stream's spans tile its timeline and a gap before a
// kernel (a host wait, an upload) shows as a span of its own when the caller marks it. print()
// (after every marked stream is synchronized) writes one line per span and a sum per phase name.
// Events are created and destroyed here, never on a proving path with tracing off.
#pragma once

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace cuzk::gpu {

class GpuTrace {
 public:
  /// CUZK_GPU_TRACE is set to something other than "0" (read once).
  static bool enabled() {
    static const bool on = [] {
      const char* e = std::getenv("CUZK_GPU_TRACE");
      return e != nullptr && *e != '\0' && std::string(e) != "0";
    }();
    return on;
  }
  /// The origin is recorded on |origin| now.
  explicit GpuTrace(cudaStream_t origin) {
    cudaEventCreate(&origin_);
    cudaEventRecord(origin_, origin);
  }
  ~GpuTrace() {
    cudaEventDestroy(origin_);
    for (auto& m : marks_) cudaEventDestroy(m.ev);
  }
  GpuTrace(const GpuTrace&) = delete;
  GpuTrace& operator=(const GpuTrace&) = delete;

  /// Names the lane of |s| in the output (e.g. "compute", "copy", "g2").
  void lane(cudaStream_t s, std::string name) {
    std::lock_guard lock(mu_);
    lanes_[s] = std::move(name);
  }
  /// Phase |what| on |s| ends when the stream reaches this point.
  void mark(cudaStream_t s, std::string what) {
    cudaEvent_t e;
    cudaEventCreate(&e);
    cudaEventRecord(e, s);
    std::lock_guard lock(mu_);
    marks_.push_back({s, std::move(what), e});
  }
  /// Writes the spans to |out| under |title|; every marked stream must have completed its marks.
  void print(std::FILE* out, const std::string& title) {
    std::lock_guard lock(mu_);
    std::map<cudaStream_t, float> last;
    std::map<std::string, double> sums;
    std::vector<std::string> order;
    float end = 0;
    std::string lines;
    for (auto& m : marks_) {
      float t = 0;
      if (cudaEventElapsedTime(&t, origin_, m.ev) != cudaSuccess) {
        (void)cudaGetLastError();
        continue;
      }
      const float t0 = last.count(m.s) ? last[m.s] : 0.0f;
      last[m.s] = t;
      end = t > end ? t : end;
      const std::string lane = lanes_.count(m.s) ? lanes_[m.s] : "stream";
      char buf[256];
      std::snprintf(buf, sizeof buf, "  %-8s %-28s %9.3f -> %9.3f  %8.3f ms\n", lane.c_str(),
                    m.what.c_str(), t0, t, t - t0);
      lines += buf;
      const std::string key = lane + " " + m.what;
      if (!sums.count(key)) order.push_back(key);
      sums[key] += t - t0;
    }
    std::fprintf(out, "gpu-trace %s: %.3f ms\n%s", title.c_str(), end, lines.c_str());
    for (auto& k : order)
      std::fprintf(out, "gpu-trace-sum %s | %-36s %9.3f ms\n", title.c_str(), k.c_str(), sums[k]);
  }

 private:
  struct Mark {
    cudaStream_t s;
    std::string what;
    cudaEvent_t ev;
  };
  cudaEvent_t origin_{};
  std::mutex mu_;
  std::map<cudaStream_t, std::string> lanes_;
  std::vector<Mark> marks_;
};

}  // namespace cuzk::gpu
