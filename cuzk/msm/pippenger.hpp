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
// Every choice above (window, chunks, accumulation, endomorphism, IFMA, top window) is made by
// make_msm_plan (msm_plan.hpp) with the CPU's price table; this file runs the plan.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "cuzk/base/thread_pool.hpp"
#include "cuzk/ec/affine.hpp"
#include "cuzk/ec/jacobian.hpp"
#include "cuzk/ff/limbs.hpp"
#include "cuzk/msm/msm_plan.hpp"

namespace cuzk {

/// Whether batch-affine accumulation (G1 and G2) runs in AVX-512 IFMA lanes (msm/ifma_buckets.hpp): on where
/// the CPU and OS support AVX-512 IFMA, unless the environment sets CUZK_MSM_IFMA=0 at start-up.
bool msm_ifma_enabled();
/// Sets that switch (it stays off where the CPU lacks IFMA); returns the previous value. Not to be
/// flipped while an MSM runs.
bool set_msm_ifma_enabled(bool on);

/// The CPU's price table now: IFMA lanes as msm_ifma_enabled() says.
MsmPrices cpu_msm_prices_now();

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
