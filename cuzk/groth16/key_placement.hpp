// Key placement on a device with memory of its own (the vram tier, DESIGN.md §3): which of a
// proving key's five query tables become resident in the device's arena and which stay in host
// memory and stream through the arena on each MSM (the small-card path, gpu/msm/streamed.cuh).
// Decided before anything is uploaded, so the SRS manager's figures (the resident bytes, the
// streamed tables' host bytes) are those the copy will hold:
//
//   1. a table the backend streams by its own rule (DeviceMemoryReport::streams_table: larger
//      than half the arena) streams;
//   2. while the resident tables plus one partition's working set
//      (DeviceMemoryReport::partition_working_bytes of the key's domain and witness columns)
//      exceed the arena, the largest table still resident streams too. Largest first takes the
//      fewest tables (and so the fewest MSMs that stream) to reach the bound.
//
// A backend that cannot stream (can_stream_tables() false) keeps every table resident.
// Example: the 32 GiB WindowPoSt key (60.8 GB; 2^27 domain, 126.9 M columns) on an 80 GB H100
// (72.5 GB arena): resident 60.8 GB + 21.5 GB of partition > 72.5 GB, so B_G2 (≈ 15.7 GB, the
// largest table) streams and 45.1 + 21.5 GB fit; on an H200 (≈ 125 GB arena) nothing streams.
// The 32 GiB PoRep key (47.4 GB) stays whole on the H100: 47.4 + 21.5 GB fit.
#pragma once

#include <cstdint>

#include "cuzk/backend/device_memory.hpp"
#include "cuzk/groth16/keys.hpp"

namespace cuzk {

/// Which of a key's queries stay in host memory and stream (true) instead of becoming resident.
struct StreamedQueries {
  bool h = false, l = false, a = false, b_g1 = false, b_g2 = false;
  bool any() const { return h || l || a || b_g1 || b_g2; }
  friend bool operator==(const StreamedQueries&, const StreamedQueries&) = default;
};

/// A key's placement on one device and what it costs there.
struct KeyPlacement {
  StreamedQueries streamed;
  /// Arena bytes of the resident tables (DeviceMemoryReport::resident_bases_bytes).
  std::uint64_t resident_bytes = 0;
  /// Host bytes of the streamed tables, packed as the device reads them (96 B per G1 point, 192
  /// per G2), in the device's pinned pool or plain memory.
  std::uint64_t streamed_host_bytes = 0;
  /// The working set kept free for one partition (partition_working_bytes).
  std::uint64_t working_bytes = 0;
};

/// The placement of a key with |counts| points per query, whose partitions have a |domain|-row H
/// step over |columns| witness values, on the device |device| reports (rules in the file comment).
KeyPlacement plan_key_placement(const DeviceMemoryReport& device, const QueryCounts& counts,
                                std::uint64_t domain, std::uint64_t columns);

}  // namespace cuzk
