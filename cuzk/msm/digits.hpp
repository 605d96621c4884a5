// Signed-window decomposition of MSM scalars (Pippenger with signed digits), shared by the CPU
// Pippenger and the CUDA kernels (CUZK_HD, plain limb arrays, no std:: calls).
//
// A scalar k < 2^255 is cut into K = ⌈256/c⌉ windows of c bits. Signed digits d_j with
// k = Σ d_j·2^(c·j) and |d_j| ≤ 2^(c−1) halve the buckets (2^(c−1) per window: −P goes to the
// bucket of P with the sign flipped). Instead of a carry chain from window to window, add
// H = Σ_{j<K−1} 2^(c−1)·2^(c·j) once ("recode"): with k' = k + H,
//   d_j = window_j(k') − 2^(c−1)   for j < K−1, in [−2^(c−1), 2^(c−1) − 1]
//   d_{K−1} = window_{K−1}(k')      in [0, 2^(c−1)]
// because Σ_j window_j(k')·2^(cj) = k' = k + H. Every digit is then a function of k' and j alone,
// so windows are independent (one thread or one GPU block per window). Bounds: H < 2^((K−1)c) and
// k < 2^255 ≤ 2^(Kc−1), so k' < 2^256 (4 limbs) and the top window is ≤ ⌊k/2^((K−1)c)⌋ + 1 ≤ 2^(c−1).
// Shorter scalars k < 2^b (the halves of an endomorphism split) use K = ⌈(b+1)/c⌉ and the same bounds
// with b for 255.
#pragma once

#include <cstdint>

#include "cuzk/ec/hd.hpp"

namespace cuzk {

/// Limbs of a canonical MSM scalar (Fr, 255 bits).
inline constexpr unsigned kMsmScalarLimbs = 4;
/// Bits of the scalar field modulus r.
inline constexpr unsigned kMsmScalarBits = 255;

/// K = ⌈(bits + 1)/c⌉ signed windows of width |c| for scalars below 2^|bits|.
CUZK_HD constexpr unsigned msm_window_count(unsigned c, unsigned bits = kMsmScalarBits) {
  return (bits + 1 + c - 1) / c;
}

/// The recoding constant H = Σ_{j<K−1} 2^(c−1)·2^(c·j) as 4 limbs, for 1 ≤ c ≤ 32.
struct SignedWindowPlan {
  unsigned c = 0;        ///< window width in bits
  unsigned windows = 0;  ///< K
  std::uint64_t h[kMsmScalarLimbs] = {};

  /// Plan for scalars below 2^|bits| (255 for Fr; the endomorphism split's halves are shorter).
  CUZK_HD constexpr static SignedWindowPlan make(unsigned c, unsigned bits = kMsmScalarBits) {
    SignedWindowPlan p;
    p.c = c;
    p.windows = msm_window_count(c, bits);
    for (unsigned j = 0; j + 1 < p.windows; ++j) {
      const unsigned bit = c * j + c - 1;  // < 256 since (K−1)c < 256
      p.h[bit / 64] |= std::uint64_t{1} << (bit % 64);
    }
    return p;
  }
  /// Buckets per window: 2^(c−1) (bucket b holds the points whose digit is ±(b + 1)).
  CUZK_HD constexpr std::uint32_t buckets() const { return std::uint32_t{1} << (c - 1); }
};

/// |out| ← k + H (k canonical, < 2^255; no carry out by the bounds above).
CUZK_HD constexpr void msm_recode(const SignedWindowPlan& plan, const std::uint64_t* k,
                                  std::uint64_t* out) {
  std::uint64_t carry = 0;
  for (unsigned i = 0; i < kMsmScalarLimbs; ++i) {
    const std::uint64_t s = k[i] + carry;
    const std::uint64_t c1 = s < carry ? 1 : 0;
    const std::uint64_t t = s + plan.h[i];
    const std::uint64_t c2 = t < s ? 1 : 0;
    out[i] = t;
    carry = c1 + c2;
  }
}

/// Limb |i| < 4 of |v|. On the device by selects: an indexed read of a thread's recoded scalar
/// puts it in local memory (a 32-byte stack frame in the GPU's digit kernel), selects keep it in
/// registers.
CUZK_HD constexpr std::uint64_t msm_limb(const std::uint64_t* v, unsigned i) {
#if defined(__CUDA_ARCH__)
  return i == 0 ? v[0] : i == 1 ? v[1] : i == 2 ? v[2] : v[3];
#else
  return v[i];
#endif
}

/// Bits [offset, offset + c) of a 4-limb integer (bits past 256 read as 0); c ≤ 32.
CUZK_HD constexpr std::uint32_t msm_extract_bits(const std::uint64_t* v, unsigned offset,
                                                 unsigned c) {
  const unsigned limb = offset / 64, shift = offset % 64;
  if (limb >= kMsmScalarLimbs) return 0;
  std::uint64_t w = msm_limb(v, limb) >> shift;
  if (shift + c > 64 && limb + 1 < kMsmScalarLimbs) w |= msm_limb(v, limb + 1) << (64 - shift);
  return static_cast<std::uint32_t>(w & ((std::uint64_t{1} << c) - 1));
}

/// The signed digit of window |j| of a recoded scalar |kr| (see the header comment).
CUZK_HD constexpr std::int32_t msm_signed_digit(const SignedWindowPlan& plan,
                                                const std::uint64_t* kr, unsigned j) {
  const std::int32_t w = static_cast<std::int32_t>(msm_extract_bits(kr, j * plan.c, plan.c));
  return j + 1 == plan.windows ? w : w - static_cast<std::int32_t>(plan.buckets());
}

}  // namespace cuzk
