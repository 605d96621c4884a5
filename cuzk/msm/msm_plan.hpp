// One plan per MSM, run by both executors (the CPU Pippenger of pippenger.cpp and the CUDA one of
// gpu/msm/pippenger.cuh): every decision an MSM takes before it reads a point, as a pure function
// of the scalar count, the thread count, the curve and the executor's price table:
//
//   split        scalars 0 dropped and 1 summed apart (bit_split.hpp): the CPU when zeros and ones
//                are ≥ 1/16 of the scalars taking part (decided after counting them), the GPU
//                whenever the caller allows it (its classify kernel does both at once);
//   endomorphism the CPU's GLV (G1: 2n terms of 127 bits) or GLS (G2: 4n terms of 64 bits) split
//                when the shape model predicts a gain (endomorphism.hpp); never on the GPU;
//   window       c and K = ⌈(bits + 1)/c⌉ (digits.hpp): the CPU's cost model (pippenger_shape),
//                the GPU's measured thresholds (8, 16, and 20 for large G1 MSMs);
//   chunks       the CPU's point chunks per window (tasks = K·P); the GPU's reduction chunks;
//   buckets      XYZZ or batch-affine (CPU from c = 10), in IFMA lanes where the CPU has them, and
//                the top window in XYZZ when it has few live buckets.
//
// The 0/1 split runs first, so an executor plans its Pippenger for the scalars left after it (the
// "tail"). Where the decisions come from: docs/perf/msm.md and docs/perf/gpu.md; the plans of
// today are pinned over a grid by msm_plan_test.cpp.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuzk/msm/digits.hpp"

namespace cuzk {

/// The two curves an MSM runs on.
enum class MsmCurve { g1, g2 };
/// Who runs the plan: the CPU Pippenger (msm/pippenger.cpp) or the CUDA one (gpu/msm/).
enum class MsmExecutor { cpu, cuda };

/// Whether scalars 0 and 1 are taken out of Pippenger: |automatic| leaves it to the executor's
/// rule (MsmSplitRule).
enum class MsmSplit { automatic, always, never };

/// How buckets accumulate points: XYZZ mixed additions (8M + 2S), or affine additions batched
/// over distinct buckets with one shared inversion (≈ 5M + 1S each, pippenger.cpp).
enum class PippengerAccumulation { automatic, xyzz, batch_affine };

/// Batch-affine accumulation is chosen from this window width up (2^(c−1) buckets leave room for
/// large collision-free batches); below it the XYZZ buckets win. Measured: docs/perf/msm.md.
inline constexpr unsigned kBatchAffineMinWindow = 10;
/// Cost of one batch-affine bucket addition in XYZZ mixed additions (measured, docs/perf/msm.md).
inline constexpr double kBatchAffineAddCost = 0.65;

/// Additions per shared inversion for window |c|: 2^(c−1)/4 (a quarter of the buckets, so about
/// one insert in eight collides with a waiting bucket and is queued), between 16 and 2048.
constexpr std::size_t batch_affine_batch_size(unsigned c) {
  const std::size_t quarter = (std::size_t{1} << (c - 1)) / 4;
  return quarter < 16 ? 16 : (quarter > 2048 ? 2048 : quarter);
}

/// Buckets the top window of width |c| can reach for scalars below 2^|bits|: its digits are
/// ≤ 2^(bits − (K−1)c) + 1 (digits.hpp), at most the 2^(c−1) of a full window.
constexpr std::size_t msm_top_live_buckets(unsigned c, unsigned bits) {
  const unsigned top_bits = bits - (msm_window_count(c, bits) - 1) * c;
  const std::size_t live = (std::size_t{1} << (top_bits < c ? top_bits : c)) + 1;
  const std::size_t full = std::size_t{1} << (c - 1);
  return live < full ? live : full;
}

/// Bucket memory of one task, at most: the 2 MiB L2 of the machines measured (docs/perf/msm.md:
/// c = 16 with 3.4 MiB of G1 buckets measured no faster than c = 13..15 at 2^20).
inline constexpr std::size_t kBucketBytesCap = std::size_t{2} << 20;
/// The cap on one thread, where no second task shares the caches: GLV with c = 16 (3.4 MiB of
/// buckets, K = 8) measured 5–7 % faster than c = 15 at G1 2^20 on one thread, equal on two.
inline constexpr std::size_t kBucketBytesCapOneThread = std::size_t{4} << 20;
/// Bucket memory of one task with IFMA buckets: the lanes' bucket slots are prefetched ahead, so
/// arrays past L2 cost little (G2 2^18 one thread: c = 17 with 13 MiB of buckets 4.15 µs/pt against
/// 4.71 for the best shape under 4 MiB, docs/perf/msm.md Version 5).
inline constexpr std::size_t kBucketBytesCapIfma = std::size_t{16} << 20;
/// ... and at most this much over all threads (16 threads: 8 MiB each), never below kBucketBytesCap.
inline constexpr std::size_t kBucketBytesTotalIfma = std::size_t{128} << 20;

/// The endomorphism split (endomorphism.hpp): G1 scalars as two 127-bit halves on P and σ²(P) (GLV),
/// G2 scalars as four 64-bit base-|x| digits on P, ψ(P), ψ²(P), ψ³(P) (GLS). Same bucket additions,
/// a fraction of the bucket reductions; costs a table of the mapped bases ((D − 1)·n points) per call.
enum class MsmEndomorphism { automatic, off, on };

/// Extra memory the automatic endomorphism split may take (mapped bases and split scalars).
inline constexpr std::size_t kEndomorphismMaxBytes = std::size_t{1} << 30;

/// The caller's overrides of a plan (tests and sweeps); zero values leave the planner's choice.
struct PippengerOptions {
  unsigned window_bits = 0;  ///< c, 1..24 on the CPU; 0 = automatic
  unsigned chunks = 0;       ///< P, point chunks per window (CPU); 0 = automatic
  PippengerAccumulation accumulation = PippengerAccumulation::automatic;  ///< CPU
  /// automatic: used when the cost model predicts a gain and the tables fit kEndomorphismMaxBytes.
  MsmEndomorphism endomorphism = MsmEndomorphism::automatic;
};

/// The CPU model's shape for |n| points: window width, chunk count and accumulation, and |cost|,
/// the model's figure in mixed-addition units (for comparing shapes).
struct PippengerShape {
  unsigned window_bits = 1;
  unsigned chunks = 1;
  PippengerAccumulation accumulation = PippengerAccumulation::xyzz;
  double cost = 0;
};
/// The model's prices, in XYZZ mixed additions of the curve, of one batch-affine bucket addition,
/// of one shared inversion (with its batch's bookkeeping), and of one bucket of the reduction.
struct PippengerCosts {
  double affine_add = kBatchAffineAddCost;
  double inversion = 40.0;
  double per_bucket = 2.4;
};

/// The CPU cost model (pippenger.hpp's header gives the derivation): the window c and chunk count
/// P minimising ⌈K·P/t⌉·(a·n/P + 2.7·2^c) for |threads| threads and points whose XYZZ form has
/// |xyzz_bytes| bytes; one task's buckets stay within kBucketBytesCap (kBucketBytesCapOneThread on
/// one thread). |scalar_bits|: the scalars are below 2^scalar_bits (255 for Fr, shorter after an
/// endomorphism split). With |ifma| (the batch-affine windows run in IFMA lanes,
/// ifma_buckets.hpp; null: the scalar AffineBuckets) each window is priced with its own batch: the
/// top window's batch is a quarter of its live buckets, and under 64 live buckets its additions
/// run in XYZZ at full price; from 1024 buckets the reduction runs batched in lanes too
/// (|ifma|->per_bucket). The IFMA bucket arrays may take kBucketBytesCapIfma. Fit and checks:
/// docs/perf/msm.md Version 5.
PippengerShape pippenger_shape(std::size_t n, std::size_t threads, std::size_t xyzz_bytes,
                               unsigned scalar_bits = 255, const PippengerCosts* ifma = nullptr);

/// An executor's rule for MsmSplit::automatic.
struct MsmSplitRule {
  /// Split whenever the caller allows it, before counting (the GPU's classify kernel).
  bool always = false;
  /// Otherwise split when zeros and ones are at least 1/|min_share_inverse| of the scalars taking
  /// part (docs/perf/msm.md Version 5: it pays from a sixteenth, one thread with IFMA: even at 10 %
  /// it was 3–13 % faster on G1 and 30 % on G2, at 2 % equal on G1 and slower on G2).
  std::size_t min_share_inverse = 16;
};

/// Whether the split is used for |requested|: never / always as asked; automatic by |rule| over
/// |selected| scalars taking part of which |zeros_and_ones| are 0 or 1 (not read when rule.always).
constexpr bool msm_split_used(const MsmSplitRule& rule, MsmSplit requested, std::size_t selected,
                              std::size_t zeros_and_ones) {
  if (requested != MsmSplit::automatic) return requested == MsmSplit::always;
  if (rule.always) return true;
  return selected > 0 && zeros_and_ones * rule.min_share_inverse >= selected;
}

/// The CPU's prices: its cost model's inputs and the margins of its endomorphism rule.
struct CpuMsmPrices {
  /// Batch-affine windows run in AVX-512 IFMA lanes (msm_ifma_enabled()).
  bool ifma = false;
  /// The IFMA model's prices per curve, fit to one-thread window sweeps of the endomorphism-split
  /// MSM at 2^16 and 2^18 (docs/perf/msm.md Version 5): G1 addition 0.106 µs, inversion 3.3 µs,
  /// reduction 0.10 µs per bucket against a 0.292 µs XYZZ mixed addition; G2 0.23, 3.6, 0.24
  /// against 1.17 µs.
  PippengerCosts ifma_g1{.affine_add = 0.36, .inversion = 11.3, .per_bucket = 0.34};
  PippengerCosts ifma_g2{.affine_add = 0.20, .inversion = 3.1, .per_bucket = 0.20};
  /// The endomorphism split is taken when the model's cost drops by more than this many mixed
  /// additions per scalar (the decomposition and the mapped table): one at scalar prices, a third
  /// of one with IFMA (a few Fp products per point against the cheaper lanes' windows; G1 2^16 one
  /// thread: GLV c = 16 2.13 µs/pt against 2.55 plain, docs/perf/msm.md Version 5) ...
  double endomorphism_margin = 1.0;
  double endomorphism_margin_ifma = 0.3;
  /// ... and its tables fit this many bytes.
  std::size_t endomorphism_max_bytes = kEndomorphismMaxBytes;
  MsmSplitRule split{};
};

/// The GPU's prices: measured window thresholds (docs/perf/gpu.md Version 7, on the H200).
struct CudaMsmPrices {
  /// c = |narrow_window| below |wide_from| tail scalars, |wide_window| from there ...
  std::size_t wide_from = std::size_t{1} << 17;
  unsigned narrow_window = 8;
  unsigned wide_window = 16;
  /// ... and for G1 |g1_widest_window| from |g1_widest_from| (K = 13 windows instead of 16: 19 %
  /// fewer bucket additions, against 2^19 buckets per window to reduce). G1 ms at 2^22 / 2^24 /
  /// 2^26: c = 16 41.4 / 151.5 / 586.7, c = 19 47.8 / 153.8 / 565.9, c = 20 51.5 / 146.0 / 509.8,
  /// c = 22 97.7 / 187.4 / 542.0. A line fit gives c = 20 ≈ 25 ms + 7.2 ns/pt against c = 16 ≈
  /// 6 ms + 8.7 ns/pt, equal near 2^23.6, so the threshold sits just below 2^24 (a 2^24
  /// partition's H MSM has 2^24 − 1 terms). Widths whose top window holds only a few bits are avoided:
  /// most points fall into its few buckets (c = 18, a 3-bit top window: 2.6× slower than c = 16
  /// at every size; c = 15 at 2^22 took 18.9 s before the segmented accumulation).
  std::size_t g1_widest_from = std::size_t{3} << 22;
  unsigned g1_widest_window = 20;
  /// G2 the same from |g2_widest_from|. With the lane-pair accumulation (docs/perf/gpu.md, G2
  /// MSM, H100) c = 16 took 473.0 / 921.4 ms at 2^24 / 2^25 and c = 20 459.8 / 859.1: lines of
  /// 24.6 ms + 26.7 ns/pt and 60.5 ms + 23.8 ns/pt, equal near 2^23.6, the G1 threshold again
  /// (the one-thread kernels had c = 16 ahead at 2^24: 892 against 999 ms).
  std::size_t g2_widest_from = std::size_t{3} << 22;
  unsigned g2_widest_window = 20;
  /// The running-sum reduction splits each window's 2^(c−1) buckets into at most this many chunks
  /// (one thread each: 32 additions and a ≤ 11-bit multiple at c = 16).
  unsigned max_reduction_chunks = 2048;
  /// With k shifted copies of a G1 table beside it (GpuMsmConfig::precomputed, the H table under
  /// key placement rule 3): window |copies_window| whatever k (K' = ⌈K/k⌉ windows to reduce) and
  /// |copies_reduction_chunks| a window. 2^27 on the H100 (docs/perf/gpu.md): c = 20 without
  /// copies 993.3 ms; c = 22 with 2 copies 944.4, with 4 924.6; c = 24 with 3 971.6 (four groups
  /// of bucket sorts), with 4 923.9 (a tie with c = 22, whose bucket arrays are a quarter).
  unsigned copies_window = 22;
  unsigned copies_reduction_chunks = 16384;
  MsmSplitRule split{.always = true};
};

/// An executor's price table.
struct MsmPrices {
  MsmExecutor executor = MsmExecutor::cpu;
  CpuMsmPrices cpu{};
  CudaMsmPrices cuda{};
};

/// The CPU's table, |ifma| whether its batch-affine windows run in IFMA lanes.
constexpr MsmPrices cpu_msm_prices(bool ifma) {
  MsmPrices p{.executor = MsmExecutor::cpu};
  p.cpu.ifma = ifma;
  return p;
}
/// The GPU's table.
constexpr MsmPrices cuda_msm_prices() { return MsmPrices{.executor = MsmExecutor::cuda}; }

/// Every decision of one MSM over |n| scalars (the tail, where the 0/1 split is taken).
struct MsmPlan {
  MsmExecutor executor = MsmExecutor::cpu;
  MsmCurve curve = MsmCurve::g1;
  std::size_t n = 0;
  /// The executor's rule for MsmSplit::automatic (applied before this plan's n is known).
  MsmSplitRule split{};
  /// The endomorphism split: Pippenger runs over |terms| = D·n terms of |scalar_bits| bits.
  bool endomorphism = false;
  std::size_t terms = 0;
  unsigned scalar_bits = kMsmScalarBits;
  /// c and K = msm_window_count(c, scalar_bits).
  unsigned window_bits = 1;
  unsigned windows = 0;
  /// CPU: point chunks per window (K·P tasks), ≤ terms. CUDA: 1.
  unsigned chunks = 1;
  PippengerAccumulation accumulation = PippengerAccumulation::xyzz;
  /// CPU: the batch-affine windows run in IFMA lanes.
  bool ifma = false;
  /// CPU: the top window accumulates in XYZZ (its live buckets / 4 under 16 in IFMA lanes, under
  /// 128 with the scalar AffineBuckets), the others as |accumulation|.
  bool top_window_xyzz = false;
  /// CUDA: chunks of each window's running-sum reduction (min(2^(c−1), max_reduction_chunks)).
  unsigned reduction_chunks = 0;
  /// CPU: the model's cost in mixed additions (0 on the GPU).
  double cost = 0;
};

/// The plan for |n| scalars on |threads| threads (the CPU pool's size; not read on the GPU) of
/// |curve| under |prices|, with the caller's |overrides|. Pure: same inputs, same plan.
MsmPlan make_msm_plan(std::size_t n, std::size_t threads, MsmCurve curve, const MsmPrices& prices,
                      const PippengerOptions& overrides = {});

}  // namespace cuzk
