// DeviceMemoryReport: what a backend with memory of its own (the CUDA backend's VRAM arena) tells
// the SRS manager: the arena's size and use, and what resident base tables would occupy in it.
// A separate interface beside Backend (found with device_memory_report, a cross-cast), so backends
// that keep everything in host memory (CpuBackend) implement nothing. The figures come from the
// backend's own arena bookkeeping, never from a device-global query (DESIGN.md §3, interlock rule).
#pragma once

#include <cstdint>

#include "cuzk/backend/backend.hpp"

namespace cuzk {

struct DeviceMemory {
  std::uint64_t total = 0;  ///< arena bytes
  std::uint64_t used = 0;   ///< arena bytes handed out now (resident tables and working buffers)
  std::uint64_t pinned_total = 0;    ///< pinned host pool reserved at start-up
  std::uint64_t pinned_used = 0;     ///< of which held by streamed tables
  std::uint64_t streamed_bytes = 0;  ///< host bytes of tables that stream (pinned or plain)
};

class DeviceMemoryReport {
 public:
  virtual ~DeviceMemoryReport() = default;
  virtual DeviceMemory device_memory() const = 0;
  /// Bytes that resident tables of |g1_points| G1 and |g2_points| G2 bases occupy on the device,
  /// in |tables| separate tables (each rounded to the arena's granule).
  virtual std::uint64_t resident_bases_bytes(std::uint64_t g1_points, std::uint64_t g2_points,
                                             std::uint32_t tables) const = 0;
  /// Whether a table of |points| bases stays in host memory and streams through the device
  /// (occupying nothing there between calls) instead of becoming resident.
  virtual bool streams_table(std::uint64_t points, bool g2) const {
    (void)points, (void)g2;
    return false;
  }
  /// Whether tables may stay in host memory and stream (streams_table, load_bases_*_streamed); a
  /// backend that cannot keeps every table resident.
  virtual bool can_stream_tables() const { return false; }
  /// The least arena bytes one partition runs in beside the resident tables (an upper bound of
  /// that path's peak): the H step over a |domain|-row domain and the MSMs over |columns| witness
  /// values. Key placement (groth16/key_placement.hpp) keeps this much free; 0: none needed.
  virtual std::uint64_t partition_working_bytes(std::uint64_t domain, std::uint64_t columns) const {
    (void)domain, (void)columns;
    return 0;
  }
  /// Host bytes of a streamed table |id| in plain memory (outside the pinned pool), and in the
  /// pinned pool; 0 for a resident table. The SRS manager charges the plain bytes to the budget.
  virtual std::uint64_t table_plain_host_bytes(BasesId id) const {
    (void)id;
    return 0;
  }
  virtual std::uint64_t table_pinned_bytes(BasesId id) const {
    (void)id;
    return 0;
  }
};

/// The report of |backend|, or nullptr when it has no device memory of its own.
inline const DeviceMemoryReport* device_memory_report(const Backend& backend) {
  return dynamic_cast<const DeviceMemoryReport*>(&backend);
}

}  // namespace cuzk
