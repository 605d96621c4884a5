// What the plain benchmark programs (JSON lines, no Google Benchmark) share: the "--flag value"
// loop with its usage message, and the process's CPU seconds.
//   const cuzk::bench::BenchFlags flags("my_bench", "my_bench [--size S] [--verbose]");
//   flags.parse(argc, argv, {"--verbose"}, [&](const std::string& f, const std::string& v) {
//     if (f == "--size") a.size = v; else if (f == "--verbose") a.verbose = true; else return false;
//     return true;
//   });
#pragma once

#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>

namespace cuzk::bench {

class BenchFlags {
 public:
  BenchFlags(std::string program, std::string usage)
      : program_(std::move(program)), usage_(std::move(usage)) {}

  /// Prints "|program|: |why|" and the usage line to stderr and exits with status 2.
  [[noreturn]] void fail(const std::string& why) const {
    std::fprintf(stderr, "%s: %s\nusage: %s\n", program_.c_str(), why.c_str(), usage_.c_str());
    std::exit(2);
  }

  /// Calls |on(flag, value)| for each flag of argv in order; the flags in |switches| take no
  /// value (|value| is empty). |on| returns false for a flag it does not know: fail("unknown flag
  /// ..."); a flag with no value after it: fail("missing value after ...").
  template <class On>
  void parse(int argc, char** argv, std::initializer_list<std::string_view> switches,
             On&& on) const {
    for (int i = 1; i < argc; ++i) {
      const std::string flag = argv[i];
      std::string value;
      if (std::find(switches.begin(), switches.end(), flag) == switches.end()) {
        if (i + 1 >= argc) fail("missing value after " + flag);
        value = argv[++i];
      }
      if (!on(flag, value)) fail("unknown flag " + flag);
    }
  }

 private:
  std::string program_, usage_;
};

/// User + system CPU seconds of this process so far (getrusage).
inline double process_cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         1e-6 * static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

}  // namespace cuzk::bench
