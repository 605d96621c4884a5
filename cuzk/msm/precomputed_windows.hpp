// Signed windows over precomputed base multiples (the GPU's H MSM option, gpu/msm/pippenger.cuh
// GpuMsmConfig::precomputed): with k copies of a base table, copy j holding 2^(j·S)·P_i where
// S = c·K' and K' = ⌈K/k⌉, the K windows of a scalar (digits.hpp: k_i = Σ_w d_w·2^(c·w)) are
// dealt out to the copies, K' each: window w = j·K' + w' of scalar i goes to "bucket window" w'
// with base 2^(j·S)·P_i. Then
//   Σ_i k_i·P_i = Σ_i Σ_j Σ_{w'} d_{jK'+w'}·2^(c·w')·(2^(j·S)·P_i)
//               = Σ_{w'} 2^(c·w') · Σ_{i,j} d_{jK'+w'}·(2^(j·S)·P_i),
// an MSM of k·n points over K' windows: the bucket additions are the same n·K (one per scalar and
// window), but only K' windows of 2^(c−1) buckets are reduced, so a wider c pays. Windows past K
// (j·K' + w' ≥ K, when k does not divide K) are empty. The tables cost (k − 1)·n points more.
// Shared by the device (the digit kernel) and the host (its CPU test): CUZK_HD, no std:: calls.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuzk/ec/hd.hpp"
#include "cuzk/msm/digits.hpp"

namespace cuzk {

/// Most copies a plan may take (the GPU packs copy·n + base into 31 bits).
inline constexpr unsigned kMaxPrecomputedCopies = 8;

/// The windows of one precomputed-multiple MSM.
struct PrecomputedWindowPlan {
  unsigned c = 0;               ///< window width
  unsigned windows = 0;         ///< K = msm_window_count(c): the scalar's signed windows
  unsigned copies = 1;          ///< k: the table itself (copy 0) and k − 1 shifted copies
  unsigned bucket_windows = 0;  ///< K' = ⌈K/k⌉: windows with buckets of their own
  unsigned shift_bits = 0;      ///< S = c·K': copy j holds 2^(j·S)·P

  /// Plan for width |c| (1..31) and |copies| (1..min(K, kMaxPrecomputedCopies)); anything else
  /// gives windows == 0 (invalid()).
  CUZK_HD constexpr static PrecomputedWindowPlan make(unsigned c, unsigned copies) {
    PrecomputedWindowPlan p;
    if (c < 1 || c > 31 || copies < 1 || copies > kMaxPrecomputedCopies) return p;
    const unsigned k = msm_window_count(c);
    if (copies > k) return p;
    p.c = c;
    p.windows = k;
    p.copies = copies;
    p.bucket_windows = (k + copies - 1) / copies;
    p.shift_bits = c * p.bucket_windows;
    return p;
  }
  CUZK_HD constexpr bool invalid() const { return windows == 0; }
  /// The scalar window that copy |j| contributes to bucket window |wp|, or −1 past the last.
  CUZK_HD constexpr int source_window(unsigned j, unsigned wp) const {
    const unsigned w = j * bucket_windows + wp;
    return w < windows ? static_cast<int>(w) : -1;
  }
  /// Bucket additions of |n| scalars (all digits non-zero): n·K, as without copies.
  constexpr std::size_t additions(std::size_t n) const { return n * windows; }
  /// Buckets reduced: K'·2^(c−1) (against K·2^(c−1) without copies).
  constexpr std::size_t reduced_buckets() const {
    return static_cast<std::size_t>(bucket_windows) << (c - 1);
  }
};

/// Bytes of the shifted copies of an |n|-point table with |point_bytes| per point.
constexpr std::size_t precomputed_copies_bytes(std::size_t n, unsigned copies,
                                               std::size_t point_bytes) {
  return copies > 1 ? static_cast<std::size_t>(copies - 1) * n * point_bytes : 0;
}

}  // namespace cuzk
