// Pippenger's bucket method for Σ k_i·P_i on the CPU, generic over the curve (G1 and G2 share the
// code; pippenger.cpp instantiates both).
//
// Scalars are recoded into signed windows (digits.hpp, on the fly per window); window j puts P_i into bucket
// |d_ij| − 1 with the sign of d_ij (XYZZ mixed add, 8M + 2S), reduces its 2^(c−1) buckets by running
// sums (2 full adds per bucket, 12M + 2S each), and the window sums are combined by Horner's rule
// with c doublings between windows. Work is split into K·P tasks, (window, chunk of points), run
// on the caller's ThreadPool; each thread's range of tasks reuses one bucket array. Cost (PERF.md §4d):
//   K·n mixed adds + K·P·2^c full adds + (K−1)·c doublings,   K = ⌈256/c⌉.
// The window c and chunk count P minimise ⌈K·P/t⌉·(a·n/P + 2.7·2^c) for t threads (a full add with
// its running-sum partner costs about 2.7 mixed adds; a = 1 for XYZZ buckets, ≈ 0.7 for the
// batch-affine accumulation used from c = 10 up).
// With the endomorphism split (endomorphism.hpp) the same run covers D·n terms of shorter scalars
// (G1: 2n of 127 bits, G2: 4n of 64 bits): the same bucket additions in K/D windows, so 1/D of the
// reductions; chosen when the model's cost drops by more than one mixed add per scalar.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "cuzk/base/thread_pool.hpp"
#include "cuzk/ec/affine.hpp"
#include "cuzk/ec/jacobian.hpp"
#include "cuzk/ff/limbs.hpp"

namespace cuzk {

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

/// Bucket memory of one task, at most: the 2 MiB L2 of the machines measured (docs/perf/msm.md:
/// c = 16 with 3.4 MiB of G1 buckets measured no faster than c = 13..15 at 2^20).
inline constexpr std::size_t kBucketBytesCap = std::size_t{2} << 20;
/// The cap on one thread, where no second task shares the caches: GLV with c = 16 (3.4 MiB of
/// buckets, K = 8) measured 5–7 % faster than c = 15 at G1 2^20 on one thread, equal on two.
inline constexpr std::size_t kBucketBytesCapOneThread = std::size_t{4} << 20;

/// The endomorphism split (endomorphism.hpp): G1 scalars as two 127-bit halves on P and σ²(P) (GLV),
/// G2 scalars as four 64-bit base-|x| digits on P, ψ(P), ψ²(P), ψ³(P) (GLS). Same bucket additions,
/// a fraction of the bucket reductions; costs a table of the mapped bases ((D − 1)·n points) per call.
enum class MsmEndomorphism { automatic, off, on };

/// Extra memory the automatic endomorphism split may take (mapped bases and split scalars).
inline constexpr std::size_t kEndomorphismMaxBytes = std::size_t{1} << 30;

/// Tuning knobs of one Pippenger run; zero values are chosen from n and the thread count.
struct PippengerOptions {
  unsigned window_bits = 0;  ///< c, 1..24; 0 = automatic
  unsigned chunks = 0;       ///< P, point chunks per window; 0 = automatic
  PippengerAccumulation accumulation = PippengerAccumulation::automatic;
  /// automatic: used when the cost model predicts a gain and the tables fit kEndomorphismMaxBytes.
  MsmEndomorphism endomorphism = MsmEndomorphism::automatic;
};

/// The window width, chunk count and accumulation Pippenger uses for |n| points on |threads|
/// threads, for points whose XYZZ form has |xyzz_bytes| bytes; one task's buckets stay within
/// kBucketBytesCap (kBucketBytesCapOneThread on one thread).
/// |scalar_bits|: the scalars are below 2^scalar_bits (255 for Fr, shorter after an endomorphism
/// split). |cost| is the model's figure in mixed-addition units (for comparing shapes).
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
/// With |ifma| (the batch-affine windows run in IFMA lanes, ifma_buckets.hpp; null: the scalar
/// AffineBuckets) each window is priced with its own batch: the top window's batch is a quarter of
/// its live buckets, and under 64 live buckets its additions run in XYZZ at full price; from 1024
/// buckets the reduction runs batched in lanes too (|ifma|->per_bucket). The IFMA bucket arrays
/// may take kBucketBytesCapIfma. Fit and checks: docs/perf/msm.md Version 5.
PippengerShape pippenger_shape(std::size_t n, std::size_t threads, std::size_t xyzz_bytes,
                               unsigned scalar_bits = 255, const PippengerCosts* ifma = nullptr);
/// Bucket memory of one task with IFMA buckets: the lanes' bucket slots are prefetched ahead, so
/// arrays past L2 cost little (G2 2^18 one thread: c = 17 with 13 MiB of buckets 4.15 µs/pt against
/// 4.71 for the best shape under 4 MiB, docs/perf/msm.md Version 5).
inline constexpr std::size_t kBucketBytesCapIfma = std::size_t{16} << 20;
/// ... and at most this much over all threads (16 threads: 8 MiB each), never below kBucketBytesCap.
inline constexpr std::size_t kBucketBytesTotalIfma = std::size_t{128} << 20;

/// Whether batch-affine accumulation (G1 and G2) runs in AVX-512 IFMA lanes (msm/ifma_buckets.hpp): on where
/// the CPU and OS support AVX-512 IFMA, unless the environment sets CUZK_MSM_IFMA=0 at start-up.
bool msm_ifma_enabled();
/// Sets that switch (it stays off where the CPU lacks IFMA); returns the previous value. Not to be
/// flipped while an MSM runs.
bool set_msm_ifma_enabled(bool on);

/// Σ scalars[i]·bases[indices[i]] (or bases[i] when |indices| is empty). The bases must lie in the
/// prime-order subgroup when the endomorphism split is used (σ² = [λ] and ψ = [x] hold only there). Scalars are canonical
/// (< r, 4 limbs); the bases may contain the identity and repeat. Unchecked: the caller guarantees
/// every index is in range (bases.size() ≥ scalars.size() when |indices| is empty) and that
/// |indices| is empty or as long as |scalars|.
template <class C>
Jacobian<C> msm_pippenger_unchecked(std::span<const Affine<C>> bases,
                                    std::span<const Limbs<4>> scalars,
                                    std::span<const std::uint32_t> indices, ThreadPool& pool,
                                    const PippengerOptions& options = {});

}  // namespace cuzk
