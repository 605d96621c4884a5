// Key placement on a device with memory of its own (the vram tier, DESIGN.md §3): which of a
// proving key's five query tables become resident in the device's arena and which stay in host
// memory and stream through the arena on each MSM (the small-card path, gpu/msm/streamed.cuh).
// Decided before anything is uploaded, so the SRS manager's figures (the resident bytes, the
// streamed tables' host bytes) are those the copy will hold:
//
//   1. a table the backend streams by its own rule (DeviceMemoryReport::streams_table: larger
//      than half the arena) streams;
//   2. while the resident tables plus one partition's working set
//      (DeviceMemoryReport::partition_working_bytes of the key's domain and witness columns) plus
//      what the key keeps beside its tables (|beside_bytes|: the circuit's compact form on the
//      device, 37 MB at 32 GiB PoRep) exceed the arena, the largest table still resident streams
//      too. Largest first takes the
//      fewest tables (and so the fewest MSMs that stream) to reach the bound.
//
// A backend that cannot stream (can_stream_tables() false) keeps every table resident.
//
//   3. Optionally (|max_h_copies| > 1, off by default: the GPU's precomputed-window H MSM,
//      msm/precomputed_windows.hpp), shifted copies of a resident H table, as many as fit beside
//      the resident tables and the working set, each copy costing its table again (96 B a point)
//      and domain·16 bytes of sort pairs more in the working set (one bucket window holds k·m
//      pairs instead of m). Nothing streams for them: with any table streamed there are no copies.
//      The 32 GiB PoRep key on an H200 (125 GB arena) has room for 4 copies (three shifted ones
//      of 12.9 GB and 2.1 GB of pairs each, beside 47.4 + 21.5 GB), on an 80 GB H100 for none.
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
  /// The working set kept free for one partition (partition_working_bytes), with the copies'
  /// sort pairs when h_copies > 1.
  std::uint64_t working_bytes = 0;
  /// Copies of the H table for the precomputed-window H MSM (1: the table alone) and the arena
  /// bytes of the extra ones (h_copies − 1 tables of 96 B a point).
  unsigned h_copies = 1;
  std::uint64_t h_copies_bytes = 0;
};

/// The placement of a key with |counts| points per query, whose partitions have a |domain|-row H
/// step over |columns| witness values, on the device |device| reports (rules in the file comment).
/// |max_h_copies| (≥ 1; 1: none) bounds rule 3; |beside_bytes| are the device bytes the key holds
/// beside its tables (the circuit's device copy), counted in rules 2 and 3 but not in
/// resident_bytes.
KeyPlacement plan_key_placement(const DeviceMemoryReport& device, const QueryCounts& counts,
                                std::uint64_t domain, std::uint64_t columns,
                                unsigned max_h_copies = 1, std::uint64_t beside_bytes = 0);

}  // namespace cuzk
