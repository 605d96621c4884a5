// GPU multi-scalar multiplication for G1 and G2 over resident bases (msm/pippenger.cpp is the CPU
// twin). One call: Σ s_i·B[base(i)] with bellperson density (FORMATS.md §2.3) and the 0/1 split.
//
//  1. classify   per scalar: density bit and rank (msm/density.hpp, with a popcount prefix over the
//                bitmap words), Montgomery → canonical, then 0 → skipped, 1 → "ones" list, else →
//                "tail" list (warp-aggregated appends; order is irrelevant to a sum). Scalars that
//                are variables of a compact witness in VRAM (GpuMsmConfig::compact) are split from
//                its bits and runs instead (compact_classify.cuh: n/8 bytes read, not n·32).
//  2. ones       batch addition of the selected bases: per-thread chunks with mixed XYZZ additions,
//                then a tree of full additions.
//  3. tail       Pippenger with signed c-bit digits (msm/digits.hpp, the CPU's recoding; c, K and the
//                reduction chunks from msm/msm_plan.hpp's plan; 2^(c−1) buckets per window):
//                digits → (bucket key, base index·2 + sign) pairs → CUB radix sort by key → bucket
//                ranges → mixed XYZZ additions over segments of sorted pairs (128, or the sizes
//                of segment_rule.hpp), one thread each (a bucket that crosses segments is summed
//                from its pieces, so a bucket that repeated scalars fill is not one thread's
//                serial work) → per window, the
//                running-sum reduction Σ j·S_j split over chunks of buckets → Horner over windows.
//                Windows are processed in groups sized to the arena (a 16 GiB cap runs more groups).
//                Optionally (G1, GpuMsmConfig::precomputed) over k copies 2^(j·S)·P of the table:
//                K' = ⌈K/k⌉ bucket windows of k·m pairs (msm/precomputed_windows.hpp), so wider
//                windows pay; the accumulation reads a pair's point from the copy it names.
//                G2's batch addition and segment accumulation split each point over a lane pair
//                (pippenger_g2_pair.cuh; GpuMsmConfig::g2_accumulation).
// Everything after the scalar upload stays on the device; one point comes back.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <span>

#include "cuzk/ec/g1.hpp"
#include "cuzk/ec/g2.hpp"
#include "cuzk/ff/fr.hpp"
#include "cuzk/gpu/device_context.hpp"
#include "cuzk/gpu/msm/compact_classify.cuh"
#include "cuzk/gpu/msm/segment_rule.hpp"

namespace cuzk::gpu {

class GpuTrace;
struct PrecomputedBases;

/// A base table in the compact device layout (96 bytes per G1 point, 192 per G2 point).
struct ResidentBases {
  DeviceBuffer points;
  std::size_t count = 0;
  bool g2 = false;
};

/// Uploads host affine points (through the pinned pool, in chunks) and packs them on the device.
ResidentBases upload_bases_g1(DeviceContext& ctx, std::span<const G1Affine> bases,
                              cudaStream_t stream);
ResidentBases upload_bases_g2(DeviceContext& ctx, std::span<const G2Affine> bases,
                              cudaStream_t stream);

/// How the G2 bucket sums (Pippenger's segment accumulation and the 1-scalars' batch addition) lay
/// a point addition over threads (gpu/ec/dev_g2_pair.cuh); G1 ignores it.
enum class G2Accumulation {
  one_thread,        ///< the whole Fp2 XYZZ point in one thread (255 registers, spills)
  lane_pair,         ///< two lanes per point, two Montgomery products per Fp2 product component
  lane_pair_fused,   ///< two lanes per point, one reduction per Fp2 product component
  lane_pair_rolled,  ///< lane_pair_fused with the product's rows as a loop of two (smaller code)
  lane_pair_rolled2_ahead,  ///< lane_pair_rolled with the partner's limb fetched a row ahead
};

struct GpuMsmConfig {
  /// bellperson density bitmap (empty: every scalar takes part) and the base offset.
  std::span<const std::uint64_t> density_bits{};
  std::size_t base_offset = 0;
  /// The scalars as variables of a compact witness in VRAM (compact_classify.cuh): step 1 reads
  /// the 0/1/tail split from its bits and runs instead of from the scalars, which are then not
  /// read at all (the device pointer may be null). Absent: classified from the scalars.
  MsmCompactScalars compact{};
  /// Sum the 1-scalars by batch addition (otherwise they go through Pippenger): the caller's
  /// MsmSplit under the GPU's rule, msm_split_used(cuda_msm_prices().cuda.split, ...).
  bool bit_split = true;
  /// The scalars are dense (H's: uniform, nearly none 0 or 1): every one goes through Pippenger as
  /// it lies in VRAM, read in place by the digit pass (a 0 gives only empty digits, a 1 one digit);
  /// no classification pass, tail lists or read-back of their counts (at 2^27 a pass of ≈ 8 ms,
  /// 5 GiB of lists and a host round trip). bit_split is then unused and the stats count every
  /// scalar in the tail. Needs device scalars without density bits or a compact witness
  /// (CudaError, cudaErrorInvalidValue otherwise); false classifies (the tested twin).
  bool dense_scalars = false;
  /// Window width; 0: the plan's (make_msm_plan with the GPU's prices, from the tail size).
  int window_bits = 0;
  /// Most windows sorted together (0: as many as the free arena holds); tests force small groups.
  int max_windows_per_group = 0;
  /// Most arena bytes the call may take for its Pippenger windows (0: the largest free block);
  /// set when another MSM runs beside it on another stream.
  std::size_t arena_budget = 0;
  /// The G2 accumulation kernels (benchmarks and tests compare them; the default 4–6 % faster
  /// than one row a step at 2^20–2^25, docs/perf/gpu.md).
  G2Accumulation g2_accumulation = G2Accumulation::lane_pair_rolled2_ahead;
  /// The Pippenger accumulation's register cap: 3 caps it for three blocks of 128 threads an SM
  /// (≤ 168 registers; 0.3–1.9 % faster, docs/perf/gpu.md), 0 lets ptxas take what it wants (172,
  /// two blocks: the slow twin). Other values are refused (CudaError, cudaErrorInvalidValue). G1
  /// only: G2's lane-pair kernels have their own cap (CUZK_G2_PAIR_MIN_BLOCKS).
  int accumulate_min_blocks = 3;
  /// G1: the accumulation's field products as rolled loops of this many CIOS rows a step
  /// (DevMont::mul_mont, rolled): 3 (a third of the unrolled code; 10–11 % faster at 2^24–2^27,
  /// docs/perf/gpu.md), or 0: unrolled (the slow twin; required with accumulate_min_blocks = 0).
  /// Other values, and 3 without the cap, are refused (CudaError, cudaErrorInvalidValue).
  int accumulate_rows_per_step = 3;
  /// G1, with accumulate_rows_per_step = 3: the accumulator's coordinates in the lazy form
  /// (DevMont's kLazy: values in [0, 2p), no conditional subtraction after each of an addition's
  /// ten products; reduced when they leave the kernel): 1.2–1.5 % faster at 2^24–2^27
  /// (docs/perf/gpu.md); false: reduced after every product (the twin). The unrolled products
  /// have no lazy form and G2 none either: both ignore it.
  bool accumulate_lazy = true;
  /// G1, with accumulate_rows_per_step = 3 and accumulate_lazy: the mixed addition's two squares
  /// (P², R²) by the square rows (DevMont's kSquareRows, unrolled: 444 multiply-adds against the
  /// rolled product's 576; 2.7–5.5 % faster at 2^24–2^27, docs/perf/gpu.md "Square rows"); false:
  /// by the rolled product (the twin).
  bool accumulate_square_rows = true;
  /// Benchmarks: phase marks on |trace| (gpu/trace.cuh) named after |trace_name|.
  GpuTrace* trace = nullptr;
  const char* trace_name = "msm";
  /// G1 only: shifted copies of |bases| (precompute_bases_g1; null: none). The Pippenger tail then
  /// runs the copies' plan (msm/precomputed_windows.hpp): width precomputed->window_bits (a
  /// window_bits set here must equal it), K' = ⌈K/k⌉ bucket windows of k·m pairs each.
  const PrecomputedBases* precomputed = nullptr;
  /// Chunks of each window's running-sum reduction, a power of two (0: the plan's, ≤ 2048;
  /// clamped to 2^(c−1)). Wide windows want more: at c = 20 the plan's 2048 chunks leave 256
  /// buckets of serial work per thread on 13·2048 threads.
  unsigned reduction_chunks = 0;
  /// A window group of g < K windows (the arena holds fewer than all K) takes 2^j·chunks per
  /// window, the least with g·2^j·chunks ≥ K·chunks, so its window sums still fill the SMs. On
  /// since measured (H100, 2^27: 7 groups 1049.9 → 1014.5 ms, 13 groups 1110.5 → 1039.9;
  /// docs/perf/gpu.md); false: the plan's chunks in every group (the slow twin, tested).
  bool scale_group_chunks = true;
  /// Sorted pairs a thread of the bucket accumulation sums (its segment; 1..2^16; 128 the timed
  /// default). 0: the rule of segment_pairs_for (about twice a bucket's average pairs, sized so
  /// the segments make whole waves of the resident threads, so a bucket crosses few segments and
  /// no wave runs part-empty): opt-in until timed (docs/perf/gpu.md "Segment size"). Other values
  /// are refused (CudaError, cudaErrorInvalidValue).
  std::uint32_t segment_pairs = 128;
};

/// Shifted copies of a resident G1 table for the precomputed-window MSM: copy j (1 ≤ j < copies)
/// holds 2^(j·S)·P_i for every point P_i of the table, S = c·⌈K/copies⌉ (PrecomputedWindowPlan);
/// copy 0 is the table itself. (copies − 1)·count·96 bytes of the arena.
struct PrecomputedBases {
  DeviceBuffer points;  ///< copies 1 .. copies − 1, |count| points each, compact layout
  std::size_t count = 0;
  unsigned window_bits = 0;
  unsigned copies = 1;
};

/// Points |cfg| at the window copies |pre| of its table (null: none) for an MSM of the table's
/// points from the first (no density rule, no base offset; others keep the plan's path). The MSM
/// then takes the copies' window and CudaMsmPrices::copies_reduction_chunks, or the plan's path
/// where one window of k·m pairs does not fit its arena.
inline void use_window_copies(GpuMsmConfig& cfg, const PrecomputedBases* pre) {
  if (pre == nullptr || pre->copies < 2 || !cfg.density_bits.empty() || cfg.base_offset != 0)
    return;
  cfg.precomputed = pre;
}

/// Builds the copies on the device (S doublings per point and copy in XYZZ, then affine by one
/// inversion per thread over ≈ 32 points). |window_bits| 1..31, |copies| 1..kMaxPrecomputedCopies
/// with copies·count < 2^31; throws CudaError (cudaErrorInvalidValue) otherwise, or when the arena
/// has no room. Cost: (copies − 1)·S·count doublings (9 Fp products each): ≈ 9 s per copy at
/// 2^27 points and S = 132 (predicted from the accumulation's 18 G Fp products/s).
PrecomputedBases precompute_bases_g1(DeviceContext& ctx, const ResidentBases& bases,
                                     unsigned window_bits, unsigned copies, cudaStream_t stream);

/// Arena bytes an MSM of |n| scalars takes at most with every window in one group (tail
/// scalars and lists, the 16 windows of c = 16, sort scratch), |g2| for G2 points.
std::size_t msm_working_bytes(std::size_t n, bool g2);
/// Arena bytes an MSM of |n| scalars needs at least (one window per group, the plan's window
/// width), on a device of |sm_count| multiprocessors; |g2| for G2 points.
std::size_t msm_min_working_bytes(std::size_t n, bool g2, int sm_count);

/// What one MSM did, for benchmarks.
struct GpuMsmStats {
  std::size_t scalars = 0, zeros = 0, ones = 0, tail = 0;
  int window_bits = 0, windows = 0, window_groups = 0;
  std::uint32_t segment_pairs = 0;  ///< the accumulation's segment (the last window group's)
};

/// The MSM; throws CudaError on a device failure or when the arena is too small. |scalars| are
/// host Fr (Montgomery form). The caller checked that the bases cover every participating scalar.
G1Xyzz msm_g1_device(DeviceContext& ctx, const ResidentBases& bases, std::span<const Fr> scalars,
                     const GpuMsmConfig& config, cudaStream_t stream, GpuMsmStats* stats = nullptr);
G2Xyzz msm_g2_device(DeviceContext& ctx, const ResidentBases& bases, std::span<const Fr> scalars,
                     const GpuMsmConfig& config, cudaStream_t stream, GpuMsmStats* stats = nullptr);

/// The same with scalars already on the device (|d_scalars|, Montgomery form, |n| of them).
G1Xyzz msm_g1_device_resident(DeviceContext& ctx, const ResidentBases& bases, const Fr* d_scalars,
                              std::size_t n, const GpuMsmConfig& config, cudaStream_t stream,
                              GpuMsmStats* stats = nullptr);
G2Xyzz msm_g2_device_resident(DeviceContext& ctx, const ResidentBases& bases, const Fr* d_scalars,
                              std::size_t n, const GpuMsmConfig& config, cudaStream_t stream,
                              GpuMsmStats* stats = nullptr);

}  // namespace cuzk::gpu
