// DevMont<P>: the device twin of MontField<P>. Same value, same bytes: Montgomery form a·R mod p with
// R = 2^(64·N64) = 2^(32·N), stored as N = 2·N64 little-endian 32-bit limbs, always fully reduced.
// A buffer of host Fp/Fr is copied to the device raw and read as DevFp/DevFr (STYLE.md rule 6).
//
// Multiplication: CIOS over 32-bit limbs with PTX carry chains (mad.lo.cc / madc.hi.cc), the rows
// of mont_rows.cuh: two accumulators X and Y (t = X + 2^32·Y) take the products by even and by
// odd limbs, so each chain writes every limb once (Emmart–Weems), and trade roles every row, so the
// division by 2^32 is one addition and a shift folded into the next row's multiply-adds. Per row
// 4N + 4 instructions (N = 12: 52), one fold after the last row, one conditional subtraction.
// MontRows::folding instead folds the odd accumulator into the even one every row (5N + 3): fewer
// registers live between rows, what the register-capped G1 accumulation runs faster with.
// Bound: with inputs < p < R/2 every row keeps t < 2p (mont_rows.cuh), the result is < 2p.
//
// Lazy form (|kLazy|, Fp only: needs p < R/8): values in [0, 2p), not reduced. A product of inputs
// < 2p is (a·b + M·p)/R < 4p²/R + p < 1.5p, so it skips the final subtraction; a row keeps
// t < 3p (5p fused: mul_add). Sums and differences stay in [0, 2p) by subtracting or
// adding 2p; zero is 0 or p; canonical() gives the reduced value. The G1 accumulation's option:
// ten products an addition without the ten subtractions on their dependency chain.
#pragma once

#include <cstdint>

#include "cuzk/ff/mont.hpp"
#include "cuzk/gpu/ff/mont_rows.cuh"

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

/// The rows of a product (mont_rows.cuh): alternating accumulators (fewer instructions), or a
/// fold every row (fewer registers live between rows; the register-capped G1 accumulation's).
enum class MontRows { alternating, folding };

/// |kRowsPerStep| > 0: products by mul_mont's rolled form (the rows as a loop over that many copies of
/// the row, for kernels whose unrolled code overflows the instruction cache); 0: unrolled. The
/// value and bytes are the same either way. |kLazy|: values in [0, 2p) (the header's lazy form);
/// canonical() gives the bytes of the reduced type. |kSquareRows|: square() by the square rows
/// (always unrolled) where p < R/8, else square() is a product. DevFp and the G1 accumulation
/// (GpuMsmConfig::accumulate_square_rows) turn it on (docs/perf/gpu.md "Square rows").
template <class P, int kRowsPerStep = 0, bool kLazy = false, MontRows kRows = MontRows::alternating,
          bool kSquareRows = false>
struct DevMont {
  using Host = MontField<P>;
  static constexpr int N = 2 * static_cast<int>(Host::N);
  static constexpr bool kIsLazy = kLazy;
  /// Whether square() takes the square rows: their bound needs 2a + p < R for inputs a < 2p.
  static constexpr bool kSquareByRows = kSquareRows && (P::modulus[Host::N - 1] >> 61) == 0;
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

  /// Limb |j| of p, as mont_rows wants it.
  struct PLimbs {
    CUZK_DEV std::uint32_t operator()(int j) const { return p32(j); }
  };

  /// One row of mont_rows (alternating accumulators; the header of mont_rows.cuh): t = x + 2^32·y
  /// plus a·b_i (+ c·d_i when |kPair|) and m·p, x[0] cleared; the caller swaps x and y next row.
  template <bool kFirst, bool kPair = false>
  CUZK_DEV static void row(std::uint32_t x[N], std::uint32_t y[N], const std::uint32_t a[N],
                           std::uint32_t bi, const std::uint32_t* c = nullptr,
                           std::uint32_t di = 0) {
    DeviceOps ops;
    mont_rows::row<N, kFirst, kPair>(ops, x, y, a, bi, c, di, PLimbs{}, kInv32);
  }

  /// A product's end from the last row's x and y: the fold (y + x[1..], below 2p after the last
  /// row), reduced once or left in the lazy form, into r.
  CUZK_DEV static void finish_product(std::uint32_t r[N], const std::uint32_t x[N],
                                      const std::uint32_t y[N]) {
    DeviceOps ops;
    mont_rows::fold<N>(ops, r, x, y);
    if constexpr (!kLazy) reduce_once(r);
  }

  /// Calls row(k, b_i, b_{i+1}, d_i) for the N rows of a product, k a std::integral_constant:
  /// unrolled (|kStep| = 0: k = i) or as a loop of N / kStep steps over kStep unrolled rows (k = i
  /// mod kStep; alternating rows need kStep even, so each step starts with the same roles). d_i is
  /// limb i of |d| when |kWithD|, else 0; b_{i+1} after the last row is a stale limb (for callers
  /// that fetch ahead). A register array cannot be indexed by the loop counter, so the loop
  /// rotates b's (and d's) limbs down kStep a step: N − kStep moves an array, ≈ (N − kStep)/kStep
  /// a row against a row's 4N + 4.
  template <int kStep, bool kWithD, class Row>
  CUZK_DEV static void for_rows(const std::uint32_t b[N], const std::uint32_t* d, Row row) {
    if constexpr (kStep == 0) {
      mont_rows::static_for<N>([&](auto i) {
        constexpr int k = decltype(i)::value;
        row(i, b[k], b[k + 1 < N ? k + 1 : k], kWithD ? d[k] : 0u);
      });
    } else {
      static_assert(kStep > 0 && kStep < N && N % kStep == 0);
      constexpr int K = kWithD ? 2 : 1;
      std::uint32_t rot[K][N];
#pragma unroll
      for (int k = 0; k < N; ++k) {
        rot[0][k] = b[k];
        if constexpr (kWithD) rot[K - 1][k] = d[k];
      }
#pragma unroll 1
      for (int i = 0; i < N; i += kStep) {
        mont_rows::static_for<kStep>([&](auto s) {
          constexpr int k = decltype(s)::value;
          row(s, rot[0][k], rot[0][k + 1], kWithD ? rot[K - 1][k] : 0u);
        });
#pragma unroll
        for (int q = 0; q < K; ++q)
#pragma unroll
          for (int k = 0; k < N - kStep; ++k) rot[q][k] = rot[q][k + kStep];
      }
    }
  }

  /// r = (a·b (+ c·d when |kPair|))·R^{-1} by the folding rows: unrolled or rolled, E zeroed.
  template <bool kPair>
  CUZK_DEV static void folding_product(std::uint32_t r[N], const std::uint32_t a[N],
                                       const std::uint32_t b[N], const std::uint32_t* c,
                                       const std::uint32_t* d) {
    DeviceOps ops;
    std::uint32_t e[N + 1], o[N + 1];
#pragma unroll
    for (int k = 0; k <= N; ++k) e[k] = 0;
    for_rows<kRowsPerStep, kPair>(
        b, d, [&](auto, std::uint32_t bi, std::uint32_t, std::uint32_t di) {
          mont_rows::folding_row<N, kPair>(ops, e, o, a, bi, c, di, PLimbs{}, kInv32);
        });
    if constexpr (!kLazy) reduce_once(e);
#pragma unroll
    for (int k = 0; k < N; ++k) r[k] = e[k];
  }

  /// r = (a·b (+ c·d when |kPair|))·R^{-1} by the alternating rows: |kStep| rows a loop step
  /// (even; from zeroed accumulators) or unrolled (0; the first row fresh), d_i = d_of(b_i,
  /// b_{i+1}, d's limb i or 0 without |kWithD|), then finish_product. DevMont's products and the
  /// G2 lane pair's (d_i: the partner lane's b_i, shuffled; gpu/ec/dev_g2_pair.cuh) share it.
  template <int kStep, bool kPair, bool kWithD, class DOf>
  CUZK_DEV static void alternating_product(std::uint32_t r[N], const std::uint32_t a[N],
                                           const std::uint32_t b[N], const std::uint32_t* c,
                                           const std::uint32_t* d, DOf d_of) {
    static_assert(kStep % 2 == 0, "alternating rows roll an even count a step");
    std::uint32_t u[N], v[N];  // X of the even rows, X of the odd rows
    if constexpr (kStep > 0) {
#pragma unroll
      for (int k = 0; k < N; ++k) u[k] = v[k] = 0;
    }
    for_rows<kStep, kWithD>(
        b, d, [&](auto i, std::uint32_t bi, std::uint32_t b_next, std::uint32_t d_limb) {
          constexpr int k = decltype(i)::value;
          const std::uint32_t di = kPair ? d_of(bi, b_next, d_limb) : 0u;
          if constexpr (k % 2 == 0)
            row<kStep == 0 && k == 0, kPair>(u, v, a, bi, c, di);
          else
            row<false, kPair>(v, u, a, bi, c, di);
        });
    finish_product(r, v, u);  // N even: the last row's X is v
  }

  /// r = (a·b (+ c·d when |kPair|))·R^{-1}: the rows of |kRows|, unrolled (kRowsPerStep = 0) or
  /// rolled.
  template <bool kPair>
  CUZK_DEV static void product(std::uint32_t r[N], const std::uint32_t a[N],
                               const std::uint32_t b[N], const std::uint32_t* c = nullptr,
                               const std::uint32_t* d = nullptr) {
    if constexpr (kRows == MontRows::folding)
      folding_product<kPair>(r, a, b, c, d);
    else
      alternating_product<kRowsPerStep, kPair, kPair>(
          r, a, b, c, d, [](std::uint32_t, std::uint32_t, std::uint32_t di) { return di; });
  }

  /// r = a·b·R^{-1} mod p; see the header comment. |kRowsPerStep| > 0: the N rows as a loop of
  /// that many rows a step (for_rows): ≈ 52·s (alternating) or 63·s (folding) instructions
  /// of code a product instead of ≈ 640 or 760, ≈ (12 − s)/s more a row executed (PTX; ncu
  /// counted +16.5 % instructions in the G1 accumulation at 3 folding rows a step, which ran
  /// 10–11 % faster for the instruction-fetch stalls it lost; docs/perf/gpu.md).
  CUZK_DEV static void mul_mont(std::uint32_t r[N], const std::uint32_t a[N],
                                const std::uint32_t b[N]) {
    product<false>(r, a, b);
  }

  /// a·b + c·d under one Montgomery reduction (the rows of mont_rows::row<…, true>, unrolled or
  /// rolled as the products): one m·p a row instead of two, ≈ 3N + 2 of a row's 7N + 6
  /// instructions saved against two products and an addition. Bound: a·b + c·d < 2p² (reduced
  /// inputs) or < 8p² (lazy inputs < 2p, p < R/8), so (a·b + c·d + M·p)/R < 2p: reduced once, or
  /// not at all in the lazy form; the rows keep t < 5p (mont_rows.cuh).
  CUZK_DEV static DevMont mul_add(const DevMont& a, const DevMont& b, const DevMont& c,
                                  const DevMont& d) {
    static_assert((P::modulus[Host::N - 1] >> 62) == 0,
                  "mul_add's rows need a + c + p < R: p < R/4 (Fp; not Fr)");
    DevMont r;
    product<true>(r.l, a.l, b.l, c.l, d.l);
    return r;
  }

  CUZK_DEV friend DevMont operator*(const DevMont& a, const DevMont& b) {
    DevMont r;
    mul_mont(r.l, a.l, b.l);
    return r;
  }
  /// a²·R^{-1} mod p: the square rows (mont_rows.cuh: a_i times the limbs of 2a from position i
  /// on; Fp 444 multiply-adds against a product's 576), reduced once or left lazy (< 1.5p);
  /// without kSquareByRows a product.
  CUZK_DEV DevMont square() const {
    if constexpr (kSquareByRows) {
      DevMont r;
      DeviceOps ops;
      mont_rows::square_product<N>(ops, r.l, l, PLimbs{}, kInv32);
      if constexpr (!kLazy) reduce_once(r.l);
      return r;
    } else {
      return *this * *this;
    }
  }

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
