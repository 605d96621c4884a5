// DevMont<P>: the device twin of MontField<P>. Same value, same bytes: Montgomery form a·R mod p with
// R = 2^(64·N64) = 2^(32·N), stored as N = 2·N64 little-endian 32-bit limbs, always fully reduced.
// A buffer of host Fp/Fr is copied to the device raw and read as DevFp/DevFr (STYLE.md rule 6).
//
// Multiplication: CIOS over 32-bit limbs with PTX carry chains (mad.lo.cc / madc.hi.cc). The
// products a_j·b_i of even j and of odd j go to two accumulators E and O so that each chain
// writes every limb once (the even/odd split of Emmart–Weems); O is folded into E once per row,
// together with the one-limb shift of CIOS. Per row: 2N wide products + 1 low product + N adds.
// Bound: with inputs < p < 2^(32N−2), every row keeps t < 2p (Koç–Acar–Kaliski), so E+O fits in
// N+1 limbs and the fold's carry out is zero; one conditional subtraction ends in [0, p).
//
// Lazy form (|kLazy|, Fp only: needs p < R/8): values in [0, 2p), not reduced. A product of inputs
// < 2p is (a·b + M·p)/R < 4p²/R + p < 1.5p, so it skips the final subtraction; a row keeps
// t < (t + 2p·2^32 + p·2^32)/2^32 < 4p. Sums and differences stay in [0, 2p) by subtracting or
// adding 2p; zero is 0 or p; canonical() gives the reduced value. The G1 accumulation's option:
// ten products an addition without the ten subtractions on their dependency chain.
#pragma once

#include <cstdint>

#include "cuzk/ff/mont.hpp"

#define CUZK_DEV __device__ __forceinline__

namespace cuzk::gpu {

namespace dev_detail {

/// p and R mod p as 32-bit limbs, for constant memory (host constexpr arrays are not visible in
/// device code; constant-bank operands feed IMAD directly).
template <class P>
struct DevConsts {
  std::uint32_t p[2 * MontField<P>::N];
  std::uint32_t p2[2 * MontField<P>::N];  // 2p (the lazy form's range), 0 where 2p ≥ R
  std::uint32_t one[2 * MontField<P>::N];
};

template <class P>
constexpr DevConsts<P> make_dev_consts() {
  DevConsts<P> c{};
  constexpr std::size_t n = MontField<P>::N;
  const bool p2_fits = (P::modulus[n - 1] >> 63) == 0;
  for (std::size_t i = 0; i < 2 * n; ++i) {
    const std::size_t k = i / 2;
    const std::uint64_t twice = (P::modulus[k] << 1) | (k > 0 ? P::modulus[k - 1] >> 63 : 0);
    c.p[i] = static_cast<std::uint32_t>(P::modulus[k] >> ((i % 2) * 32));
    c.p2[i] = p2_fits ? static_cast<std::uint32_t>(twice >> ((i % 2) * 32)) : 0;
    c.one[i] = static_cast<std::uint32_t>(MontField<P>::kR[k] >> ((i % 2) * 32));
  }
  return c;
}

template <class P>
__constant__ DevConsts<P> kConsts = make_dev_consts<P>();

}  // namespace dev_detail

/// |kRowsPerStep| > 0: products by mul_mont's rolled form (the rows as a loop over that many copies of
/// the row, for kernels whose unrolled code overflows the instruction cache); 0: unrolled. The
/// value and bytes are the same either way. |kLazy|: values in [0, 2p) (the header's lazy form);
/// canonical() gives the bytes of the reduced type.
template <class P, int kRowsPerStep = 0, bool kLazy = false>
struct DevMont {
  using Host = MontField<P>;
  static constexpr int N = 2 * static_cast<int>(Host::N);
  static constexpr bool kIsLazy = kLazy;
  static_assert(!kLazy || (P::modulus[Host::N - 1] >> 61) == 0,
                "the lazy form needs p < R/8 (a fused product of inputs < 2p stays below 2p)");

  std::uint32_t l[N];

  /// Limb |i| of p (a constant-bank operand after unrolling).
  CUZK_DEV static std::uint32_t p32(int i) { return dev_detail::kConsts<P>.p[i]; }
  /// Limb |i| of the range values live in: p, or 2p in the lazy form.
  CUZK_DEV static std::uint32_t range32(int i) {
    return kLazy ? dev_detail::kConsts<P>.p2[i] : dev_detail::kConsts<P>.p[i];
  }
  /// Limb |i| of R mod p (the Montgomery one).
  CUZK_DEV static std::uint32_t one32(int i) { return dev_detail::kConsts<P>.one[i]; }
  /// −p^{-1} mod 2^32 (the low word of the host's −p^{-1} mod 2^64).
  static constexpr std::uint32_t kInv32 = static_cast<std::uint32_t>(Host::kInv);

  CUZK_DEV static DevMont zero() {
    DevMont r;
#pragma unroll
    for (int i = 0; i < N; ++i) r.l[i] = 0;
    return r;
  }
  CUZK_DEV static DevMont one() {
    DevMont r;
#pragma unroll
    for (int i = 0; i < N; ++i) r.l[i] = one32(i);
    return r;
  }
  /// Zero: 0, or 0 or p in the lazy form.
  CUZK_DEV bool is_zero() const {
    std::uint32_t acc = 0, acc_p = 0;
#pragma unroll
    for (int i = 0; i < N; ++i) {
      acc |= l[i];
      if constexpr (kLazy) acc_p |= l[i] ^ p32(i);
    }
    return acc == 0 || (kLazy && acc_p == 0);
  }
  CUZK_DEV bool is_one() const {
    const DevMont c = canonical();
    std::uint32_t acc = 0;
#pragma unroll
    for (int i = 0; i < N; ++i) acc |= c.l[i] ^ one32(i);
    return acc == 0;
  }
  CUZK_DEV friend bool operator==(const DevMont& a, const DevMont& b) {
    const DevMont x = a.canonical(), y = b.canonical();
    std::uint32_t acc = 0;
#pragma unroll
    for (int i = 0; i < N; ++i) acc |= x.l[i] ^ y.l[i];
    return acc == 0;
  }
  /// The reduced value (< p): itself, or one conditional subtraction in the lazy form.
  CUZK_DEV DevMont canonical() const {
    DevMont r = *this;
    if constexpr (kLazy) reduce_once(r.l);
    return r;
  }
  CUZK_DEV friend bool operator!=(const DevMont& a, const DevMont& b) { return !(a == b); }

  /// v − p when v ≥ p, else v (v < 2p); with |kByRange| the range (p, or 2p in the lazy form):
  /// v − 2p when v ≥ 2p (v < 4p).
  template <bool kByRange = false>
  CUZK_DEV static void reduce_once(std::uint32_t v[N]) {
    const auto m = [](int i) { return kByRange ? range32(i) : p32(i); };
    std::uint32_t s[N], br;
    asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(s[0]) : "r"(v[0]), "r"(m(0)));
#pragma unroll
    for (int i = 1; i < N; ++i)
      asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(s[i]) : "r"(v[i]), "r"(m(i)));
    asm volatile("subc.u32 %0, 0, 0;" : "=r"(br));  // 0xffffffff when v < p
#pragma unroll
    for (int i = 0; i < N; ++i) v[i] = (v[i] & br) | (s[i] & ~br);
  }

  CUZK_DEV friend DevMont operator+(const DevMont& a, const DevMont& b) {
    DevMont r;
    asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(r.l[0]) : "r"(a.l[0]), "r"(b.l[0]));
#pragma unroll
    for (int i = 1; i < N; ++i)
      asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(r.l[i]) : "r"(a.l[i]), "r"(b.l[i]));
    reduce_once<true>(r.l);  // a + b < 2·range ≤ 4p < 2^(32N): no carry out
    return r;
  }
  CUZK_DEV friend DevMont operator-(const DevMont& a, const DevMont& b) {
    DevMont r;
    std::uint32_t br;
    asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(r.l[0]) : "r"(a.l[0]), "r"(b.l[0]));
#pragma unroll
    for (int i = 1; i < N; ++i)
      asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(r.l[i]) : "r"(a.l[i]), "r"(b.l[i]));
    asm volatile("subc.u32 %0, 0, 0;" : "=r"(br));  // all ones on borrow: add the range back
    asm volatile("add.cc.u32 %0, %0, %1;" : "+r"(r.l[0]) : "r"(range32(0) & br));
#pragma unroll
    for (int i = 1; i < N; ++i)
      asm volatile("addc.cc.u32 %0, %0, %1;" : "+r"(r.l[i]) : "r"(range32(i) & br));
    return r;
  }
  CUZK_DEV DevMont operator-() const { return zero() - *this; }
  CUZK_DEV DevMont dbl() const { return *this + *this; }
  CUZK_DEV DevMont& operator+=(const DevMont& b) { return *this = *this + b; }
  CUZK_DEV DevMont& operator-=(const DevMont& b) { return *this = *this - b; }
  CUZK_DEV DevMont& operator*=(const DevMont& b) { return *this = *this * b; }

  /// One carry chain of a row: acc[j], acc[j + 1] += lhs(j)·rhs(j) (low and high words) for j =
  /// kFirst, kFirst + 2, … < N, the carry running through the whole chain. A chain from
  /// kFirst = 0 ends in acc[N] (|kCarryOut|: addc); one from 1 ends exactly at acc[N].
  template <int kFirst, bool kCarryOut, typename Lhs, typename Rhs>
  CUZK_DEV static void mad_chain(std::uint32_t acc[N + 1], Lhs lhs, Rhs rhs) {
    asm volatile("mad.lo.cc.u32 %0, %2, %3, %0; madc.hi.cc.u32 %1, %2, %3, %1;"
                 : "+r"(acc[kFirst]), "+r"(acc[kFirst + 1])
                 : "r"(lhs(kFirst)), "r"(rhs(kFirst)));
#pragma unroll
    for (int j = kFirst + 2; j < N; j += 2)
      asm volatile("madc.lo.cc.u32 %0, %2, %3, %0; madc.hi.cc.u32 %1, %2, %3, %1;"
                   : "+r"(acc[j]), "+r"(acc[j + 1])
                   : "r"(lhs(j)), "r"(rhs(j)));
    if constexpr (kCarryOut) asm volatile("addc.u32 %0, %0, 0;" : "+r"(acc[N]));
  }

  /// One CIOS row: E[0..N], O[1..N] += a·b_i (+ c·d_i when |kPair|), one quotient digit m,
  /// E += m·p, then O folded into E with the one-limb shift. The products a_j·b_i of even j go
  /// to E and those of odd j to O, so each chain writes every limb once (see the header comment).
  /// Written once: mul_mont unrolls it or loops over it, and the lane-pair Fp2
  /// product (gpu/ec/dev_g2_pair.cuh: mul_add_mont) takes the second product, unrolled or in a
  /// loop.
  template <bool kPair = false>
  CUZK_DEV static void mont_row(std::uint32_t e[N + 1], std::uint32_t o[N + 1],
                                const std::uint32_t a[N], std::uint32_t bi,
                                const std::uint32_t* c = nullptr, std::uint32_t di = 0) {
    const auto limb_a = [a](int j) { return a[j]; };
    const auto limb_c = [c](int j) { return c[j]; };
    const auto limb_p = [](int j) { return p32(j); };
    const auto word_b = [bi](int) { return bi; };
    const auto word_d = [di](int) { return di; };
    // E[0..N-1] += a_even·b_i (+ c_even·d_i), carries into E[N].
    mad_chain<0, true>(e, limb_a, word_b);
    if constexpr (kPair) mad_chain<0, true>(e, limb_c, word_d);
      // O[1..N] = a_odd·b_i (fresh: disjoint limbs, no carries), then += c_odd·d_i.
#pragma unroll
    for (int j = 1; j < N; j += 2)
      asm("mul.lo.u32 %0, %2, %3; mul.hi.u32 %1, %2, %3;"
          : "=r"(o[j]), "=r"(o[j + 1])
          : "r"(a[j]), "r"(bi));
    if constexpr (kPair) mad_chain<1, false>(o, limb_c, word_d);
    // Quotient digit: O does not touch limb 0.
    const std::uint32_t m = e[0] * kInv32;
    const auto word_m = [m](int) { return m; };
    mad_chain<0, true>(e, word_m, limb_p);
    mad_chain<1, false>(o, word_m, limb_p);
    // E[0] is now 0 mod 2^32: fold O in and shift down one limb.
    asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(e[0]) : "r"(e[1]), "r"(o[1]));
#pragma unroll
    for (int k = 1; k < N - 1; ++k)
      asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(e[k]) : "r"(e[k + 1]), "r"(o[k + 1]));
    asm volatile("addc.u32 %0, %1, %2;" : "=r"(e[N - 1]) : "r"(e[N]), "r"(o[N]));
    e[N] = 0;
  }

  /// A product's end: E (below 2p after the last row) reduced once, or left in the lazy form,
  /// into r.
  CUZK_DEV static void finish_product(std::uint32_t e[N + 1], std::uint32_t r[N]) {
    if constexpr (!kLazy) reduce_once(e);
#pragma unroll
    for (int k = 0; k < N; ++k) r[k] = e[k];
  }

  /// r = a·b·R^{-1} mod p; see the header comment. |kRowsPerStep| > 0: the N rows as a loop of
  /// that many rows a step (rows_rotated, below): ≈ 64·s + 15 instructions of code a product
  /// instead of ≈ 800, ≈ (12 − s)/s + 2 more a row executed (PTX; ncu counted +16.5 % in the G1
  /// accumulation at s = 3, which ran 10–11 % faster for the instruction-fetch stalls it lost).
  /// The shared-column form (one load a row) measured 43 % more instructions there and was
  /// removed (docs/perf/gpu.md).
  CUZK_DEV static void mul_mont(std::uint32_t r[N], const std::uint32_t a[N],
                                const std::uint32_t b[N]) {
    std::uint32_t e[N + 1], o[N + 1];
#pragma unroll
    for (int k = 0; k <= N; ++k) e[k] = 0;
    if constexpr (kRowsPerStep > 0) {
      rows_rotated<kRowsPerStep>(b,
                                 [&](std::uint32_t bi, std::uint32_t) { mont_row(e, o, a, bi); });
    } else {
#pragma unroll
      for (int i = 0; i < N; ++i) mont_row(e, o, a, b[i]);
    }
    finish_product(e, r);
  }

  /// Calls row(b_i, b_{i+1}) for i = 0 … N − 1 as a loop of N / |kStep| steps over |kStep|
  /// unrolled calls (b_N: a stale limb, for callers that fetch ahead). A register array cannot be
  /// indexed by the loop counter, so b's limbs are rotated down |kStep| a step: N − kStep moves,
  /// ≈ (N − kStep) / kStep a row against a row's ≈ 64 instructions (PTX, sm_90).
  template <int kStep, class Row>
  CUZK_DEV static void rows_rotated(const std::uint32_t b[N], Row row) {
    static_assert(kStep > 0 && kStep < N && N % kStep == 0);
    std::uint32_t bb[N];
#pragma unroll
    for (int k = 0; k < N; ++k) bb[k] = b[k];
#pragma unroll 1
    for (int i = 0; i < N; i += kStep) {
#pragma unroll
      for (int s = 0; s < kStep; ++s) row(bb[s], bb[s + 1]);
#pragma unroll
      for (int k = 0; k < N - kStep; ++k) bb[k] = bb[k + kStep];
    }
  }

  /// rows_rotated over two arrays: row(b_i, d_i) for i = 0 … N − 1, both rotated alike.
  template <int kStep, class Row>
  CUZK_DEV static void rows_rotated_two(const std::uint32_t b[N], const std::uint32_t d[N],
                                        Row row) {
    static_assert(kStep > 0 && kStep < N && N % kStep == 0);
    std::uint32_t bb[N], dd[N];
#pragma unroll
    for (int k = 0; k < N; ++k) {
      bb[k] = b[k];
      dd[k] = d[k];
    }
#pragma unroll 1
    for (int i = 0; i < N; i += kStep) {
#pragma unroll
      for (int s = 0; s < kStep; ++s) row(bb[s], dd[s]);
#pragma unroll
      for (int k = 0; k < N - kStep; ++k) {
        bb[k] = bb[k + kStep];
        dd[k] = dd[k + kStep];
      }
    }
  }

  /// a·b + c·d under one Montgomery reduction (CIOS rows of mont_row<true>, unrolled or rolled as
  /// the products): one m·p and one fold a row instead of two, ≈ 37 of a row's ≈ 122 instructions
  /// saved against two products and an addition. Bound: a·b + c·d < 2p² (reduced inputs) or
  /// < 8p² (lazy inputs < 2p, p < R/8), so (a·b + c·d + M·p)/R < 2p and a row keeps t < 6p
  /// (O < 5·2^32·p < 2^(32(N + 1))): reduced once, or not at all in the lazy form.
  CUZK_DEV static DevMont mul_add(const DevMont& a, const DevMont& b, const DevMont& c,
                                  const DevMont& d) {
    std::uint32_t e[N + 1], o[N + 1];
#pragma unroll
    for (int k = 0; k <= N; ++k) e[k] = 0;
    if constexpr (kRowsPerStep > 0) {
      rows_rotated_two<kRowsPerStep>(b.l, d.l, [&](std::uint32_t bi, std::uint32_t di) {
        mont_row<true>(e, o, a.l, bi, c.l, di);
      });
    } else {
#pragma unroll
      for (int i = 0; i < N; ++i) mont_row<true>(e, o, a.l, b.l[i], c.l, d.l[i]);
    }
    DevMont r;
    finish_product(e, r.l);
    return r;
  }

  CUZK_DEV friend DevMont operator*(const DevMont& a, const DevMont& b) {
    DevMont r;
    mul_mont(r.l, a.l, b.l);
    return r;
  }
  CUZK_DEV DevMont square() const { return *this * *this; }

  /// The canonical integer (a·R^{-1}): one Montgomery multiplication by the integer 1.
  CUZK_DEV DevMont to_canonical() const {
    DevMont one_c = zero();
    one_c.l[0] = 1;
    return (*this * one_c).canonical();
  }

  /// a^(p−2), the inverse by Fermat; 0 maps to 0. Time depends only on p.
  CUZK_DEV DevMont inverse() const {
    DevMont r = one();
#pragma unroll 1
    for (int i = 32 * N - 1; i >= 0; --i) {
      r = r.square();
      // bit i of p − 2: p is odd and p[0] ≥ 2, so p − 2 differs from p only in limb 0.
      const std::uint32_t limb = (i < 32) ? p32(0) - 2 : p32(i >> 5);
      if ((limb >> (i & 31)) & 1) r = r * *this;
    }
    return r;
  }
};

}  // namespace cuzk::gpu
