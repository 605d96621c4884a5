// CudaBackend: the Backend interface (backend/backend.hpp) on one CUDA device. Plain C++ header, so
// callers outside gpu/ (the backend factory, the engine) need no CUDA headers.
//
// One DeviceContext per backend: the VRAM arena holds the resident bases (uploaded once per proving
// key), the NTT twiddle tables and each call's working buffers. Calls are serialized per device
// (the compute section of DESIGN.md §3); CUDA errors become device_failure, arena exhaustion
// out_of_memory, at this boundary only. The backend also implements DeviceMemoryReport
// (backend/device_memory.hpp): arena size and use from the arena's own bookkeeping.
//
// Small-card path: a base table that does not fit (over half the arena, or no room at upload), or
// that a key's placement keeps on the host so the arena holds one partition beside the key's other
// tables (groth16/key_placement.hpp, from partition_working_bytes), stays in host memory, packed,
// in the pinned host pool when it has room, and each MSM over it streams the bases through two
// arena slots (gpu/msm/streamed.cuh).
#pragma once

#include <cstddef>
#include <memory>
#include <string_view>

#include "cuzk/backend/backend.hpp"
#include "cuzk/base/status.hpp"

namespace cuzk {

/// When a base table stays in host memory and streams through the arena (msm/streamed.cuh).
enum class StreamBases {
  automatic,  ///< tables larger than half the arena, those a key's placement keeps on the host
              ///< (load_bases_*_streamed), and any whose upload finds no room
  always,     ///< every table (benchmarks, tests)
  never,      ///< none: a table that does not fit fails with out_of_memory
};

/// How a partition's MSMs over the witness (A, B_G1, L; B_G2 when it is not beside) share the
/// device with the H step and the H MSM (gpu/partition.cuh, plan_partition_schedule; issue 21 item 4). The side lane is a
/// fourth stream with its own host thread; sums are the same in every mode.
enum class PartitionOverlap {
  automatic,      ///< the cost rule and the arena's room decide (plan_partition_schedule)
  off,            ///< every G1 MSM on the compute stream after the H step (B_G2 beside as before)
  beside_h_step,  ///< all witness MSMs on the side lane from the start, where the arena has room
  beside_h_msm,   ///< all witness MSMs on the side lane once the H step is done, where it has room
};

struct CudaBackendOptions {
  /// VRAM arena size; 0 takes |arena_fraction| of the memory free at start.
  std::size_t arena_bytes = 0;
  /// Share of the free memory the arena takes when arena_bytes is 0; 0 means 0.90.
  double arena_fraction = 0;
  /// Upper bound on the arena (0: none), e.g. 16 GiB to behave as a small card.
  std::size_t vram_cap_bytes = 0;
  /// Pinned host pool reserved at creation for streamed base tables (0: none; such tables then
  /// live in plain host memory and their uploads do not overlap the MSM).
  std::size_t pinned_host_bytes = 0;
  /// Pinned host pool reserved at creation for partition vectors (z, a, b, c; 0: none): see
  /// DeviceContextOptions::partition_pinned_bytes.
  std::size_t partition_pinned_bytes = 0;
  StreamBases stream_bases = StreamBases::automatic;
  /// load_circuit puts the circuit's compact R1CS in the arena (where it has room) and
  /// prove_partition_compact makes z, a, b, c there; off: circuits stay on the host, each compact
  /// partition is expanded on the host and z, a, b, c cross (device_circuit_bytes is then 0).
  bool device_circuits = true;
  /// Bases per streaming slot (0: sized from the free arena).
  std::size_t stream_slot_points = 0;
  /// A compact partition's MSMs over z take their 0/1/tail split from the compact witness kept in
  /// the arena (gpu/msm/compact_classify.cuh) and z is freed after the SpMV; off: they classify
  /// the expanded z (the slow twin the tests compare). A partition with a streamed table keeps z
  /// (its streamed MSM classifies each chunk from z). With it a compact partition's peak is
  /// max(3·n + |z|, 4·n) scalars, the step-wise path's, which key placement leaves room for.
  bool compact_msm_split = true;
  /// A partition whose key keeps a table in host memory runs the fused path when its working set
  /// fits (from a compact witness: expanded on the device; the streamed table's MSM reads z or h
  /// in place, msm_*_streamed_resident); off: such partitions take the step-wise path with host
  /// vectors (the slow twin the tests compare).
  bool fused_streamed_partitions = true;
  /// The schedule of a partition's MSMs (PartitionOverlap); set_partition_overlap changes it later.
  PartitionOverlap partition_overlap = PartitionOverlap::automatic;
};

/// "cuda" or "cuda:N" → a backend on device N; invalid_argument for another spec, device_failure
/// where no such GPU is present.
Result<std::unique_ptr<Backend>> make_cuda_backend(std::string_view spec,
                                                   const CudaBackendOptions& options = {});

/// "off", "auto", "h_step", "h_msm" → PartitionOverlap; invalid_argument otherwise. The
/// environment variable CUZK_GPU_OVERLAP (benchmarks: compare schedules in the daemon or `cuzk
/// microbench` with no config change), when set, overrides CudaBackendOptions::partition_overlap in
/// every make_cuda_backend of the process; a bad value fails the backend's creation.
Result<PartitionOverlap> parse_partition_overlap(std::string_view name);

/// Benchmarks and tests: the schedule |be|'s next partitions take (CudaBackendOptions::
/// partition_overlap), so one process can compare them on one arena; invalid_argument when |be| is
/// not a CUDA backend.
Status set_partition_overlap(Backend& be, PartitionOverlap mode);

/// Number of CUDA devices present (0 when the driver or a GPU is missing).
int cuda_device_count();

}  // namespace cuzk
