// The NTT's Fr multiplication: the rows of mont_rows.cuh (alternating accumulators, one addition a
// row for the division by 2^32), less the products by the two low limbs of r, which are 1 and
// 2^32 − 1 (r ≡ 2^64 − 2^32 + 1 mod 2^64):
//   m = −t0 · r^{-1} = −t0 mod 2^32,   m·r0 = m (high word 0),
//   m·r1 = m·2^32 − m: low word −m = t0, high word m − [t0 ≠ 0].
// Per row 28 multiply-adds and 10 other instructions against the general row's 32 and 4 (N = 8;
// the multiply-adds' pipe is what the NTT waits on, docs/perf/gpu.md); the same values as DevFr's
// operator* limb for limb (same bound: every row keeps t < 2r, output < r).
//
// Written over the carry-ops policy (carry_ops.cuh), in plain C++: DeviceOps on the device
// (fr_mul.cuh), HostOps in the CPU test (ntt_program_test.cpp, built with or without CUDA) against
// the host Fr.
#pragma once

#include <cstdint>

#include "cuzk/ff/fr.hpp"
#include "cuzk/gpu/ff/carry_ops.cuh"
#include "cuzk/gpu/ff/mont_rows.cuh"

namespace cuzk::gpu {

namespace fr_mul_detail {

/// Limb |j| of r (host and device alike: an immediate operand after unrolling).
CUZK_LIMB_HD constexpr std::uint32_t kR(int j) {
  constexpr std::uint64_t r[4] = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL,
                                  0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL};
  return static_cast<std::uint32_t>(r[j / 2] >> (32 * (j % 2)));
}
static_assert(FrParams::modulus[0] == 0xffffffff00000001ULL &&
                  FrParams::modulus[1] == 0x53bda402fffe5bfeULL &&
                  FrParams::modulus[2] == 0x3339d80809a1d805ULL &&
                  FrParams::modulus[3] == 0x73eda753299d7d48ULL,
              "fr_mul is specialised to the BLS12-381 scalar field");

/// One row of mont_rows::row for r: x, y the alternating accumulators (|kFirst|: written fresh).
template <bool kFirst, class Ops>
CUZK_LIMB_HD void fr_row(Ops& ops, std::uint32_t x[8], std::uint32_t y[8], const std::uint32_t a[8],
                         std::uint32_t bi) {
  constexpr int N = 8;
  mont_rows::shift_add_product<N, kFirst>(
      ops, x, y, [a](int q) { return a[q]; }, bi);
  // m = −t0 mod 2^32; m·r0 = m; m·r1 = t0 + (m − [t0 ≠ 0])·2^32.
  const std::uint32_t t0 = x[0];
  std::uint32_t m, c0;
  ops.sub_cc(m, 0, t0);  // borrow = [t0 ≠ 0]
  ops.subc(c0, 0, 0);    // −[t0 ≠ 0]
  const std::uint32_t hi1 = m + c0;
  // Y += m·r_odd: limb 0 takes t0, limb 1 m − [t0 ≠ 0], then r3, r5, r7 (carry out 0).
  ops.add_cc(y[0], y[0], t0);
  ops.addc_cc(y[1], y[1], hi1);
  CUZK_LIMB_UNROLL
  for (int j = 2; j < N; j += 2) {
    ops.madc_lo_cc(y[j], m, kR(j + 1), y[j]);
    ops.madc_hi_cc(y[j + 1], m, kR(j + 1), y[j + 1]);
  }
  // X += m·r_even: limb 0 takes m (to 0, carry [t0 ≠ 0]), limb 1 only the carry, then r2, r4, r6.
  ops.add_cc(x[0], x[0], m);
  ops.addc_cc(x[1], x[1], 0);
  CUZK_LIMB_UNROLL
  for (int j = 2; j < N; j += 2) {
    ops.madc_lo_cc(x[j], m, kR(j), x[j]);
    ops.madc_hi_cc(x[j + 1], m, kR(j), x[j + 1]);
  }
  ops.addc(y[N - 1], y[N - 1], 0);
}

/// r = a·b·2^{-256} mod r (inputs < r, output < r), limb for limb DevFr's operator*.
#ifdef __CUDACC__
#pragma nv_exec_check_disable
#endif
template <class Ops>
CUZK_LIMB_HD void fr_mul_limbs(Ops& ops, std::uint32_t out[8], const std::uint32_t a[8],
                               const std::uint32_t b[8]) {
  constexpr int N = 8;
  std::uint32_t u[N], v[N];  // X of the even rows, X of the odd rows
  mont_rows::static_for<N>([&](auto i) {
    constexpr int k = decltype(i)::value;
    if constexpr (k % 2 == 0)
      fr_row<k == 0>(ops, u, v, a, b[k]);
    else
      fr_row<false>(ops, v, u, a, b[k]);
  });
  std::uint32_t e[N];
  mont_rows::fold<N>(ops, e, v, u);  // t < 2r
  // One conditional subtraction.
  std::uint32_t s[N], br;
  ops.sub_cc(s[0], e[0], kR(0));
  CUZK_LIMB_UNROLL
  for (int k = 1; k < N; ++k) ops.subc_cc(s[k], e[k], kR(k));
  ops.subc(br, 0, 0);  // all ones when t < r
  CUZK_LIMB_UNROLL
  for (int k = 0; k < N; ++k) out[k] = (e[k] & br) | (s[k] & ~br);
}

}  // namespace fr_mul_detail

}  // namespace cuzk::gpu
