// Stage timing on the steady clock (stage times in PartitionTimings, prove timings, CLI reports).
#pragma once

#include <chrono>

namespace cuzk {

/// Seconds from |t| to now on the steady clock.
inline double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace cuzk
