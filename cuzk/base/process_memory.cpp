#include "cuzk/base/process_memory.hpp"

#include <cstdio>
#include <cstring>

namespace cuzk {

ProcessMemory read_process_memory() {
  ProcessMemory m;
  std::FILE* f = std::fopen("/proc/self/status", "r");
  if (f == nullptr) return m;
  char line[256];
  while (std::fgets(line, sizeof line, f) != nullptr) {
    unsigned long long kib = 0;
    // Lines read "VmRSS:\t  123456 kB".
    if (std::strncmp(line, "VmRSS:", 6) == 0 && std::sscanf(line + 6, "%llu", &kib) == 1)
      m.rss_bytes = kib * 1024;
    if (std::strncmp(line, "VmHWM:", 6) == 0 && std::sscanf(line + 6, "%llu", &kib) == 1)
      m.peak_rss_bytes = kib * 1024;
  }
  std::fclose(f);
  return m;
}

}  // namespace cuzk
