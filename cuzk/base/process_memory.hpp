// This process's resident memory as the kernel counts it (/proc/self/status: VmRSS now, VmHWM the
// peak since start). The daemon reports both beside the memory budget, so the budget's accounting
// can be checked against what the process really holds. Zero where /proc is absent.
#pragma once

#include <cstdint>

namespace cuzk {

struct ProcessMemory {
  std::uint64_t rss_bytes = 0;       ///< VmRSS
  std::uint64_t peak_rss_bytes = 0;  ///< VmHWM
};

/// Reads /proc/self/status (≈ 20 µs); fields it cannot read stay 0.
ProcessMemory read_process_memory();

}  // namespace cuzk
