// One Groth16 partition on the device (Backend::prove_partition of CudaBackend): the inputs cross
// the bus once and the intermediate h never leaves the device.
//
//   1. staging, started before the backend's compute section: the H step's four arena buffers and
//      the witness buffer, then a host thread uploads a, b (c for bellperson) and z, in that order,
//      on the copy stream (DeviceContext::upload: the pinned staging copies run on several host
//      threads). With two device workers the uploads overlap the other partition's kernels; with
//      one, the H step's transforms of a run while b, c and z cross the bus;
//   2. the H step on the compute stream, each vector's transforms queued once it has arrived;
//   3. the G2 MSM (B_G2) on its own stream and host thread as soon as z has arrived, beside the H
//      step and the G1 MSMs, when the arena holds both MSMs' working sets (else after the G1 ones);
//   4. the H step's spare buffers (b, c, scratch) go back to the arena, h stays where it was
//      computed, and the G1 MSMs (A, B_G1, L, H; bellperson's inputs/aux pairs) run back to back
//      on the resident scalars (msm_*_device_resident): no scalar crosses the bus again;
//   5. (issue 21 item 4) the MSMs over the witness (A, B_G1, L; B_G2 when not beside) on a side
//      lane, stream 3 and a host thread, beside the H step or beside the H MSM, where the cost
//      rule and the arena allow it (plan_partition_schedule): on a Filecoin witness (98.7 % bits)
//      they are mostly classification (memory-bound), the 1-scalars' batch addition, short
//      reductions and host round trips that leave SMs idle, while the H MSM and the NTTs fill them.
// From a compact witness (prove_partition_compact, issue 22) step 1 is stage_compact_partition:
// the same five buffers, and only the compact witness crosses (on the copy stream); then
// expand_compact_partition writes z and a, b, c into them on the compute stream from the
// circuit's resident compact R1CS (gpu/pce/compact_partition.cuh), and steps 2–4 are the same
// code (prove_partition_device over the partition's shape), except that the MSMs over z (A, B_G1,
// B_G2, L) take their 0/1/tail split from the compact witness, which stays in the arena for them
// (GpuMsmConfig::compact, gpu/msm/compact_classify.cuh: n/8 bytes and the run values read per
// MSM instead of z's n·32), so z is freed once the SpMV has read it.
// Device memory: 4·n + |z| scalars (32 bytes each) during the H step, n + |z| plus the MSM working
// sets afterwards; from a compact witness with the MSM split from it, max(3·n + |z|, 4·n) (z
// until the SpMV is done, the H step's scratch after) and n, plus the compact witness. When the arena has no room for the staging, step 1 runs inside the compute
// section; when it cannot hold the partition at all, CudaBackend takes the step-wise calls.
// A table the key's placement keeps in host memory (msm/streamed.cuh) is streamed through the
// arena by its MSM, reading the scalars in place (msm_*_streamed_resident); it never runs beside
// another MSM (the streamed MSM's upload events are the device's one pair).
// CUZK_GPU_TRACE=1 prints each partition's device timeline to stderr (gpu/trace.cuh).
#pragma once

#include <cuda_runtime.h>

#include "cuzk/backend/backend.hpp"
#include "cuzk/base/status.hpp"
#include "cuzk/gpu/cuda_backend.hpp"
#include "cuzk/gpu/device_context.hpp"
#include "cuzk/gpu/msm/pippenger.cuh"
#include "cuzk/gpu/msm/streamed.cuh"
#include "cuzk/gpu/ntt/ntt.cuh"
#include "cuzk/gpu/pce/device_compact_r1cs.cuh"
#include "cuzk/gpu/pce/device_compact_witness.cuh"
#include "cuzk/r1cs/compact_witness.hpp"

namespace cuzk::gpu {

/// The table one of a partition's MSMs reads: resident in the arena, or kept in host memory by the
/// key's placement and streamed through the arena (one of the two is set).
struct PartitionTable {
  const ResidentBases* resident = nullptr;
  const StreamedBases* streamed = nullptr;
  /// The resident table's window copies (Backend::add_window_copies; null: none): its MSM over
  /// the whole table runs on them (use_window_copies).
  const PrecomputedBases* precomputed = nullptr;
  bool present() const { return resident != nullptr || streamed != nullptr; }
  bool g2() const {
    return resident != nullptr ? resident->g2 : streamed != nullptr && streamed->g2;
  }
  std::size_t count() const {
    return resident != nullptr ? resident->count : streamed != nullptr ? streamed->count : 0;
  }
};

/// The tables a partition's MSMs read (PartitionInputs names them by BasesId).
struct PartitionTables {
  PartitionTable a, b_g1, b_g2, l, h;
  /// Bases per arena slot of a streamed table's MSM (StreamedMsmConfig::slot_points; 0: sized
  /// from the free arena).
  std::size_t streamed_slot_points = 0;
};

/// The least arena one partition of a |domain|-row H step over |columns| witness values runs in
/// beside the resident tables (an upper bound of the step-wise path's peak, which CudaBackend takes
/// when the fused path does not fit or a table streams), on a device of |sm_count|
/// multiprocessors: the NTT twiddles of the domain (kept), then the larger of the H step (a, b, c,
/// scratch) and one MSM (its scalars and least scratch). The fused path (prove_partition_device)
/// takes 32 B more per column (z staged beside the H step) and runs when that is free too.
/// 32 GiB WindowPoSt and PoRep (2^27, ≈ 130 M columns): ≈ 21.5 GB.
std::size_t partition_working_bytes(std::size_t domain, std::size_t columns, int sm_count);

/// invalid_argument / size_mismatch unless a, b, c and z have lengths the device H step takes.
Status check_partition_lengths(const PartitionInputs& in);
/// The same, and |t| fits |in|: G1/G2 tables, densities that cover the scalars, tables that cover
/// the densities.
Status check_partition(const PartitionInputs& in, const PartitionTables& t);
/// |t| fits |shape| (the table and density checks of check_partition); invalid_argument for a
/// domain above 2^30 (the device H step's limit).
Status check_partition(const PartitionShape& shape, const PartitionTables& t);

/// The partition's inputs crossing to the device: a, b, c (c not for snarkjs), then z, uploaded in
/// that order on the copy stream by a host thread that stage_partition starts; the compute section
/// waits for each input only when it needs it. buf[0..2] = a, b, c, buf[3] the H step's scratch.
/// Destroying (or reassigning) it waits for the uploads first.
class StagedPartition {
 public:
  StagedPartition() = default;
  StagedPartition(StagedPartition&& o) noexcept { *this = std::move(o); }
  StagedPartition& operator=(StagedPartition&& o) noexcept;
  ~StagedPartition() { reset(); }
  explicit operator bool() const { return static_cast<bool>(buf[0]); }
  /// Blocks until input |i| (0 a, 1 b, 2 c, 3 z) is on the device; rethrows the upload's error.
  void wait(int i);
  /// Seconds from the start of staging to the end of the last upload (after wait(3)).
  double upload_seconds() const;
  /// Bytes that crossed host → device for this partition (z, a, b, c; or the compact witness).
  std::uint64_t upload_bytes() const { return upload_bytes_; }
  /// When input |i| had crossed, in seconds from the start of staging (0 until then).
  double item_seconds(int i) const;
  /// Waits for the uploads, then returns the buffers to the arena.
  void reset();

  DeviceBuffer buf[4];
  DeviceBuffer z;
  /// A compact partition's witness (expand_compact_partition makes z from it; the z-sourced MSMs
  /// split their scalars from it); empty for a partition staged from z.
  DeviceCompactWitness compact;

 private:
  friend StagedPartition stage_partition(DeviceContext& ctx, const PartitionInputs& in);
  friend StagedPartition stage_compact_partition(DeviceContext& ctx, const CompactWitness& w,
                                                 std::size_t n);
  struct State;
  State* state_ = nullptr;
  std::uint64_t upload_bytes_ = 0;
  double compact_seconds_ = 0;  // the compact witness's upload (no State)
};

/// Step 1 (after check_partition_lengths): allocates the H step's four buffers and the witness
/// buffer, then starts the uploads (a, b, c, z) on the copy stream from a host thread and returns.
/// Throws CudaError; cudaErrorMemoryAllocation when the arena has no room now.
StagedPartition stage_partition(DeviceContext& ctx, const PartitionInputs& in);

/// Step 1 from a compact witness: a, b, c's buffers (n scalars each; the H step's scratch comes
/// with expand_compact_partition) and the witness buffer (w.num_variables()), then |w| uploaded on the copy stream (returns when it is on the device;
/// upload_bytes() its bytes). Nothing is waited for afterwards (wait() returns at once). Throws
/// CudaError; cudaErrorMemoryAllocation when the arena has no room now.
StagedPartition stage_compact_partition(DeviceContext& ctx, const CompactWitness& w, std::size_t n);

/// z and a, b, c (zero past the constraints, up to the domain n) into |s|'s buffers from its
/// compact witness and the circuit |m| (compact_partition_vectors), on |stream|, which is then
/// synchronized. With |msm_split_from_compact| z then goes back to the arena (s.z is empty: no
/// later step reads it) and the witness's buffers stay (the MSMs classify from them); without,
/// the witness's buffers go and the MSMs classify z. Then the H step's scratch buffer, which
/// stage_compact_partition leaves out. Throws CudaError (cudaErrorInvalidValue when |m| and the
/// witness disagree; cudaErrorMemoryAllocation when the arena has no room for the scratch).
void expand_compact_partition(DeviceContext& ctx, const DeviceCompactR1cs& m, StagedPartition& s,
                              std::size_t n, cudaStream_t stream, bool msm_split_from_compact);

/// Where the side lane (stream 3) of a partition starts.
enum class SideLane {
  none,           ///< every G1 MSM on the compute stream
  beside_h_step,  ///< from the start (once z is on the device), beside the H step's NTTs
  beside_h_msm,   ///< once the H step is done, beside the H MSM
};

/// The arena and device as plan_partition_schedule sees them when the partition starts.
struct ScheduleRoom {
  std::size_t largest_free = 0;  ///< arena_largest_free() with the H step's buffers and z taken
  std::size_t h_step_frees = 0;  ///< bytes the H step gives back (b, c and the scratch: 3·32·n)
  int streams = 0;               ///< DeviceContext::stream_count()
  int sm_count = 0;
};

/// The schedule of one partition's MSMs over the compute stream (0), the G2 stream (2) and the
/// side lane (3).
struct PartitionSchedule {
  bool g2_beside = false;     ///< B_G2 on stream 2 from the start, beside the rest
  std::size_t g2_budget = 0;  ///< its arena cap (GpuMsmConfig::arena_budget)
  SideLane side = SideLane::none;
  unsigned side_sums = 0;       ///< bit s: every term of PartitionMsm::Sum s runs on the side lane
  std::size_t side_budget = 0;  ///< the arena cap of each side MSM
  /// The arena cap of a compute-stream MSM while the side lane still runs (after it: none).
  std::size_t main_budget = 0;
  /// The cost rule's estimates (ms): the H step and the H MSM, and the side lane's sums.
  double main_ms = 0, side_ms = 0;
  bool on_side(PartitionMsm::Sum s) const { return (side_sums >> static_cast<unsigned>(s)) & 1u; }
};

/// The schedule of |shape|'s MSMs in |mode| on a device with |room| (pure; no device call).
///
/// B_G2 goes beside (stream 2) when the arena holds its working set and the largest G1 MSM's
/// with 512 MiB to spare (the rule from before the side lane). The side lane needs a fourth stream
/// and takes whole sums of witness scalars: A, B_G1, L, and B_G2 when it is not beside.
/// Cost rule (automatic; prices from docs/perf/gpu.md, H100/H200): the compute stream's work is
/// the H step (2.5 ns a row) and the H MSM (uniform scalars: 7.5 ns a point + 3 ms); a witness sum
/// costs 3 ms a term + 2.5 ns (G1) or 9.5 ns (G2) per selected scalar (the benchmark circuit's
/// mixes: A and L 332 ms over 2^27 with a 27 % tail; B_G2 158.6 ms over 2^24 — upper bounds for a
/// Filecoin witness, whose tail is 1.3 %). List scheduling: in the order A, B_G1, L, B_G2 each sum
/// goes to the side lane while the side lane's estimated load is below the compute stream's, else
/// it stays on the compute stream (whose load grows by the sum). Forced modes take them all.
/// Room: each side MSM gets an arena cap (GpuMsmConfig::arena_budget) of at least the largest
/// side term's msm_min_working_bytes + 256 MiB (msm_impl's sort headroom: one window group then
/// fits whatever the tail) and at most its msm_working_bytes; while the side lane runs the
/// compute stream's MSMs are capped too, keeping at least as much for their largest (the H MSM,
/// or B_G2 left there); 512 MiB stay free besides B_G2's cap. The side lane starts beside the H
/// step when that fits with the H step's buffers still taken, else beside the H MSM when it fits
/// once the H step has freed b, c and the scratch (forced modes: only where asked), else B_G2 is
/// left out and the G1 sums tried alone, else there is none (a forced mode never runs out of
/// arena by choice). Of what is free after the H step the compute stream gets its full working
/// set first, the side lane the rest (within its bounds).
PartitionSchedule plan_partition_schedule(const PartitionShape& shape, PartitionOverlap mode,
                                          const ScheduleRoom& room);

/// Steps 2–4 (after check_partition) over |staged|, whose inputs are on the device or being
/// uploaded (stage_partition, or stage_compact_partition + expand_compact_partition). Throws
/// CudaError; its code is cudaErrorMemoryAllocation when the arena cannot hold the working set.
/// Uses streams 0 (compute), 1 (copy), 2 (the G2 MSM) and 3 (the side lane), where the context
/// has them, as plan_partition_schedule(|overlap|) decides; |schedule| (optional) receives it.
/// With a side lane the MSMs' stage times overlap (each is its own wall time).
PartitionSums prove_partition_device(DeviceContext& ctx, NttTables& tables,
                                     const PartitionShape& shape, const PartitionTables& t,
                                     StagedPartition staged, PartitionTimings* timings = nullptr,
                                     PartitionOverlap overlap = PartitionOverlap::automatic,
                                     PartitionSchedule* schedule = nullptr);
/// The same from host vectors, staging them first when |staged| is empty.
PartitionSums prove_partition_device(DeviceContext& ctx, NttTables& tables,
                                     const PartitionInputs& in, const PartitionTables& t,
                                     StagedPartition staged, PartitionTimings* timings = nullptr,
                                     PartitionOverlap overlap = PartitionOverlap::automatic,
                                     PartitionSchedule* schedule = nullptr);

}  // namespace cuzk::gpu
