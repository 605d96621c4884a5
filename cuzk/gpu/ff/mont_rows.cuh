// Montgomery multiplication (CIOS over 32-bit limbs) with alternating accumulators: the even/odd
// split of Emmart–Weems with the two accumulators trading roles every row, so the division by 2^32
// costs one addition a row instead of folding one accumulator into the other.
//
//   The running value is t = X + 2^32·Y, X and Y of N limbs. A row adds a·b_i (+ c·d_i) and m·p:
//   the products by even limbs a_2k land on X's limbs (2k, 2k + 1), those by odd limbs on Y's
//   (Y sits one limb up), so each chain of multiply-adds writes every limb once; m = X[0]·(−p^{-1})
//   mod 2^32 clears X[0]. Then t/2^32 = (Y + X[1]) + 2^32·(X >> 64): the next row's X is this
//   row's Y plus X[1] (one addition, its carry entering the next Y at limb 0), and its Y is X
//   shifted down two limbs, the shift folded into the next row's first chain as the multiply-adds'
//   addend (madc d = a·b + x[j + 2]). After the last row the result is Y + X[1..]: one fold.
//   Instructions a row: 4N + 4 (N = 12: 52; N = 8: 36), against 5N + 3 (63; 43) with a fold a row.
//
// Bound: a row maps t to (t + a·b_i + c·d_i + m·p)/2^32 ≤ (t + (2^32 − 1)·S)/2^32 with
// S = a + c + p, so from t = 0 every t stays below S, and a row's value before its division below
// 2^32·S. With S < 2^(32N) (reduced a < p < R/2; lazy a, c < 2p with p < R/8: S < 5p) that value is
// below 2^(32(N + 1)): X keeps N limbs (its chains' carries go to Y's top limb, of X's weight
// 2^(32N)), Y < 2^(32N), and a carry out of Y's top limb, which the chains drop, is zero (every
// partial sum is below the row's final value). The product itself ends below a·b/R + p (< 2p
// reduced, < 1.5p lazy, < 2p lazy fused: DevMont's header).
//
// The folding rows (folding_row): the same products into E[0..N] and O[1..N], O folded into E with
// the shift at the end of every row (5N + 3 instructions a row), so only E's N + 1 limbs live
// between rows instead of X's and Y's 2N, and each row has a block of plain multiplies (O's fresh
// products) beside its carry chains. The G1 accumulation, capped at 168 registers with three
// warps a scheduler, measured 0.6–2.7 % faster with them (docs/perf/gpu.md); the NTT, the field
// products and the G2 pair faster with the alternating rows.
//
// Written over a carry-ops policy (carry_ops.cuh): DevMont and the G2 lane pair run the rows with
// DeviceOps; mont_rows_test.cpp runs them with HostOps against the host fields.
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

#include "cuzk/gpu/ff/carry_ops.cuh"

namespace cuzk::gpu::mont_rows {

/// acc[j], acc[j + 1] += lhs(j)·k for j = J0, J0 + 2, …, N − 2 (J0 even), one carry chain from
/// acc[J0]; the carry out of acc[N − 1] is left in the flag for the caller (addc, or dropped by a
/// fresh chain).
template <int N, int J0 = 0, class Ops, class Lhs>
CUZK_LIMB_HD void mad_pairs(Ops& ops, std::uint32_t acc[N], Lhs lhs, std::uint32_t k) {
  static_assert(J0 % 2 == 0 && J0 < N);
  ops.mad_lo_cc(acc[J0], lhs(J0), k, acc[J0]);
  ops.madc_hi_cc(acc[J0 + 1], lhs(J0), k, acc[J0 + 1]);
  CUZK_LIMB_UNROLL
  for (int j = J0 + 2; j < N; j += 2) {
    ops.madc_lo_cc(acc[j], lhs(j), k, acc[j]);
    ops.madc_hi_cc(acc[j + 1], lhs(j), k, acc[j + 1]);
  }
}

/// acc[j], acc[j + 1] = lhs(j)·k, fresh (the pairs are disjoint: no carries).
template <int N, class Ops, class Lhs>
CUZK_LIMB_HD void mul_pairs(Ops& ops, std::uint32_t acc[N], Lhs lhs, std::uint32_t k) {
  CUZK_LIMB_UNROLL
  for (int j = 0; j < N; j += 2) {
    ops.mul_lo(acc[j], lhs(j), k);
    ops.mul_hi(acc[j + 1], lhs(j), k);
  }
}

/// acc = (acc >> 64) + lhs(·)·k + the carry flag: the pairs' addends are the limbs two up, the top
/// pair's are 0, and the chain ends there (its value fits: the header's bound). Pairs below J0
/// (even, ≤ N − 2) take no product: they only shift, with the carry.
template <int N, int J0 = 0, class Ops, class Lhs>
CUZK_LIMB_HD void madc_pairs_down2(Ops& ops, std::uint32_t acc[N], Lhs lhs, std::uint32_t k) {
  static_assert(J0 % 2 == 0 && J0 <= N - 2);
  // Two loops, not one with a branch on j < J0: nvcc then kept acc in local memory.
  CUZK_LIMB_UNROLL
  for (int j = 0; j < J0; j += 2) {
    ops.addc_cc(acc[j], acc[j + 2], 0);
    ops.addc_cc(acc[j + 1], acc[j + 3], 0);
  }
  CUZK_LIMB_UNROLL
  for (int j = J0; j < N - 2; j += 2) {
    ops.madc_lo_cc(acc[j], lhs(j), k, acc[j + 2]);
    ops.madc_hi_cc(acc[j + 1], lhs(j), k, acc[j + 3]);
  }
  ops.madc_lo_cc(acc[N - 2], lhs(N - 2), k, 0);
  ops.madc_hi(acc[N - 1], lhs(N - 2), k, 0);
}

/// A row's first half: the previous row's division by 2^32 (x takes y plus the previous X's limb
/// 1, y takes that X two limbs down, folded into the multiply-adds) and t += w·b_i, w(q) the
/// multiplicand's limb at position q, from position |kFrom| on (the square rows' rows start late;
/// products take every position); |kFirst|: t = w·b_i, x and y written fresh (kFrom = 0). Shared
/// by row, square_row and the NTT's Fr row (ntt/fr_rows.cuh).
template <int N, bool kFirst, int kFrom = 0, class Ops, class W>
CUZK_LIMB_HD void shift_add_product(Ops& ops, std::uint32_t x[N], std::uint32_t y[N], W w,
                                    std::uint32_t bi) {
  static_assert(kFrom >= 0 && kFrom < N && (!kFirst || kFrom == 0));
  const auto w_odd = [w](int j) { return w(j + 1); };
  // X takes the even positions q ≥ kFrom (pairs from kFromX), Y the odd ones (pair j: q = j + 1).
  constexpr int kFromX = kFrom % 2 == 0 ? kFrom : kFrom + 1;
  constexpr int kFromY = kFrom % 2 == 0 ? kFrom : kFrom - 1;
  if constexpr (kFirst) {
    mul_pairs<N>(ops, y, w_odd, bi);
    mul_pairs<N>(ops, x, w, bi);
  } else {
    ops.add_cc(x[0], x[0], y[1]);  // X = Y_prev + X_prev[1]; the carry enters the new Y
    madc_pairs_down2<N, kFromY>(ops, y, w_odd, bi);
    if constexpr (kFromX < N) {  // no even position from the top row on
      mad_pairs<N, kFromX>(ops, x, w, bi);
      ops.addc(y[N - 1], y[N - 1], 0);
    }
  }
}

/// A row's second half: the quotient digit m = x[0]·inv and t += m·p, which clears x[0].
template <int N, class Ops, class PLimb>
CUZK_LIMB_HD void reduce_step(Ops& ops, std::uint32_t x[N], std::uint32_t y[N], PLimb p,
                              std::uint32_t inv) {
  const std::uint32_t m = x[0] * inv;
  mad_pairs<N>(
      ops, y, [p](int j) { return p(j + 1); }, m);  // carry out 0 (header)
  mad_pairs<N>(ops, x, p, m);
  ops.addc(y[N - 1], y[N - 1], 0);
}

/// One row: t = x + 2^32·y (x: this row's X, y: this row's Y, which still holds the previous
/// row's X unshifted unless |kFirst|) becomes t + a·b_i (+ c·d_i when |kPair|) + m·p with x[0]
/// cleared; the caller swaps x and y for the next row. |kFirst|: x and y are written fresh.
/// p(j): limb j of the modulus; inv: −p^{-1} mod 2^32.
template <int N, bool kFirst, bool kPair, class Ops, class PLimb>
CUZK_LIMB_HD void row(Ops& ops, std::uint32_t x[N], std::uint32_t y[N], const std::uint32_t a[N],
                      std::uint32_t bi, const std::uint32_t* c, std::uint32_t di, PLimb p,
                      std::uint32_t inv) {
  shift_add_product<N, kFirst>(
      ops, x, y, [a](int q) { return a[q]; }, bi);
  if constexpr (kPair) {
    const auto c_even = [c](int j) { return c[j]; };
    const auto c_odd = [c](int j) { return c[j + 1]; };
    mad_pairs<N>(ops, y, c_odd, di);  // carry out 0 (header)
    mad_pairs<N>(ops, x, c_even, di);
    ops.addc(y[N - 1], y[N - 1], 0);
  }
  reduce_step<N>(ops, x, y, p, inv);
}

/// The value after the last row, t/2^32 = y + (x >> 32) (x: the last row's X, its limb 0 zero),
/// into r (not reduced).
template <int N, class Ops>
CUZK_LIMB_HD void fold(Ops& ops, std::uint32_t r[N], const std::uint32_t x[N],
                       const std::uint32_t y[N]) {
  ops.add_cc(r[0], y[0], x[1]);
  CUZK_LIMB_UNROLL
  for (int k = 1; k < N - 1; ++k) ops.addc_cc(r[k], y[k], x[k + 1]);
  ops.addc(r[N - 1], y[N - 1], 0);
}

/// One folding row: E[0..N], O[1..N] += a·b_i (+ c·d_i when |kPair|), one quotient digit m,
/// E += m·p, then O folded into E with the one-limb shift (E[N] cleared). O is written fresh.
/// Bound as the alternating rows' (t < S); O's chains end exactly at O[N] (their carry out 0).
template <int N, bool kPair, class Ops, class PLimb>
CUZK_LIMB_HD void folding_row(Ops& ops, std::uint32_t e[N + 1], std::uint32_t o[N + 1],
                              const std::uint32_t a[N], std::uint32_t bi, const std::uint32_t* c,
                              std::uint32_t di, PLimb p, std::uint32_t inv) {
  const auto a_even = [a](int j) { return a[j]; };
  const auto a_odd = [a](int j) { return a[j + 1]; };
  mad_pairs<N>(ops, e, a_even, bi);
  ops.addc(e[N], e[N], 0);
  if constexpr (kPair) {
    mad_pairs<N>(
        ops, e, [c](int j) { return c[j]; }, di);
    ops.addc(e[N], e[N], 0);
  }
  mul_pairs<N>(ops, o + 1, a_odd, bi);
  if constexpr (kPair)
    mad_pairs<N>(
        ops, o + 1, [c](int j) { return c[j + 1]; }, di);
  const std::uint32_t m = e[0] * inv;  // O does not touch limb 0
  mad_pairs<N>(ops, e, p, m);
  ops.addc(e[N], e[N], 0);
  mad_pairs<N>(
      ops, o + 1, [p](int j) { return p(j + 1); }, m);
  // E[0] is now 0 mod 2^32: fold O in and shift down one limb.
  ops.add_cc(e[0], e[1], o[1]);
  CUZK_LIMB_UNROLL
  for (int k = 1; k < N - 1; ++k) ops.addc_cc(e[k], e[k + 1], o[k + 1]);
  ops.addc(e[N - 1], e[N], o[N]);
  e[N] = 0;
}

/// Calls f(std::integral_constant<int, k>{}) for k = 0 … kCount − 1 (the index a constant, so a
/// row can pick its accumulators with if constexpr).
template <int kCount, class F>
CUZK_LIMB_HD void static_for(F&& f) {
  [&]<int... k>(std::integer_sequence<int, k...>) { (f(std::integral_constant<int, k>{}), ...); }
  (std::make_integer_sequence<int, kCount>{});
}

/// The N rows unrolled, row i of a·b (+ c·d, with d_i = d(i, b_i)), into r (not reduced).
template <int N, bool kPair, class Ops, class PLimb, class D>
CUZK_LIMB_HD void product(Ops& ops, std::uint32_t r[N], const std::uint32_t a[N],
                          const std::uint32_t b[N], const std::uint32_t* c, D d, PLimb p,
                          std::uint32_t inv) {
  static_assert(N % 2 == 0);
  std::uint32_t u[N], v[N];
  static_for<N>([&](auto i) {
    constexpr int k = decltype(i)::value;
    if constexpr (k % 2 == 0)
      row<N, k == 0, kPair>(ops, u, v, a, b[k], c, d(k, b[k]), p, inv);
    else
      row<N, false, kPair>(ops, v, u, a, b[k], c, d(k, b[k]), p, inv);
  });
  fold<N>(ops, r, v, u);  // N even: the last row's X is v
}

// Squaring. a² = Σ_i a_i·(a_i·2^(32i) + 2·Σ_{j>i} a_j·2^(32j)): row i of a·a need only multiply
// a_i by the limbs at positions q ≥ i of w_i = (a_i, a_{i+1} << 1, (2a)_{i+2}, …, (2a)_{N−1}), where
// (2a)_q = (a_q << 1) | (a_{q−1} >> 31) (position i + 1 leaves out a_i's top bit: a_i is not
// doubled). In row i's frame (position q has weight 2^(32(q + i)) of the whole) that product is
// a_i·W_i with W_i = Σ_{q≥i} w_i(q)·2^(32q) ≤ 2a, so the rows' bound holds with S = 2a + p: a < 2p
// and p < R/8 keep it below R (the top bit of a is 0, so 2a has N limbs). N − i multiply pairs a
// row instead of N: the product part N(N + 1)/2 of N² (Fp: 78 of 144; with the reduction's 144,
// 444 multiply-adds against 576, −23 %). The result is (a² + M·p)/R < a²/R + p, as a product's.

/// Square row i (compile-time |I|) of the alternating rows: the previous row's shift as in row()
/// (I > 0), a_i·W_i on positions ≥ i, then reduce_step. a2: the limbs of 2a.
template <int N, int I, class Ops, class PLimb>
CUZK_LIMB_HD void square_row(Ops& ops, std::uint32_t x[N], std::uint32_t y[N],
                             const std::uint32_t a[N], const std::uint32_t a2[N], PLimb p,
                             std::uint32_t inv) {
  constexpr int kNext = I + 1 < N ? I + 1 : I;  // position I + 1 exists below the top row
  const auto w = [a, a2](int q) { return q == I ? a[I] : q == I + 1 ? a[kNext] << 1 : a2[q]; };
  shift_add_product<N, I == 0, I>(ops, x, y, w, a[I]);
  reduce_step<N>(ops, x, y, p, inv);
}

/// r = a²·R^{-1}, unreduced (< a²/R + p), by the N square rows unrolled; a < 2p, p < R/8.
template <int N, class Ops, class PLimb>
CUZK_LIMB_HD void square_product(Ops& ops, std::uint32_t r[N], const std::uint32_t a[N], PLimb p,
                                 std::uint32_t inv) {
  static_assert(N % 2 == 0);
  std::uint32_t a2[N];
  a2[0] = a[0] << 1;
  CUZK_LIMB_UNROLL
  for (int q = 1; q < N; ++q) a2[q] = (a[q] << 1) | (a[q - 1] >> 31);
  std::uint32_t u[N], v[N];
  static_for<N>([&](auto i) {
    constexpr int k = decltype(i)::value;
    if constexpr (k % 2 == 0)
      square_row<N, k>(ops, u, v, a, a2, p, inv);
    else
      square_row<N, k>(ops, v, u, a, a2, p, inv);
  });
  fold<N>(ops, r, v, u);  // N even: the last row's X is v
}

}  // namespace cuzk::gpu::mont_rows
