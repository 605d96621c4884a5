// G2 XYZZ arithmetic split over a pair of lanes (threads 2k, 2k + 1 of a warp): the even lane holds
// the c0 component of every Fp2 value, the odd lane c1, and the two exchange components by shuffles.
//
// Why: one thread holding a whole Fp2 XYZZ accumulator, the affine base and the Karatsuba
// temporaries needs 255 registers and spills (ptxas, sm_90), so the bucket accumulation ran at
// 12.5 % occupancy (ncu, docs/perf/log/gpu.md Version 3). A lane of a pair holds half of that, the
// footprint of a G1 lane.
//
// Cost (M = Fp2 mul, S = Fp2 square, m = Fp Montgomery product), per lane, both lanes in step:
//   M: c0 = a0·b0 − a1·b1 (even), c1 = a1·b0 + a0·b1 (odd), written uniformly as u·b + w·b' with
//      b' the partner's component: lane 0 u = a, w = −a'; lane 1 u = a', w = a. 2 m per lane, 24
//      shuffles; the fused form (mul_add below) does both products under one Montgomery reduction
//      (≈ 1.5 m).
//   S: c0 = (a0 + a1)(a0 − a1), c1 = 2·a0·a1: 1 m per lane, 12 shuffles.
// madd-2008-s (8M + 2S) is thus 18 m per lane, 36 per point (one thread with Karatsuba: 28), or
// 14 / 28 with the fused product. Every branch of the formulas depends on pair-wide tests only, so
// the two lanes never diverge.
#pragma once

#include "cuzk/gpu/ec/dev_curves.cuh"

namespace cuzk::gpu {

/// How a lane computes its component of an Fp2 product (LanePair::mul).
enum class PairProduct {
  separate,             ///< two Montgomery products, u·b + w·b'
  fused,                ///< both under one reduction (mul_add_mont), rows unrolled
  fused_rolled,         ///< the same, rows walked by a loop over two copies (smaller code)
  fused_rolled2_ahead,  ///< fused_rolled with the partner's limb fetched a row ahead
};

namespace pair_detail {

/// r = (a·b + c·d)·R^{-1} mod p for a, b, c, d < p: both products accumulated row by row with one
/// interleaved reduction (DevMont::alternating_product: the alternating rows of mont_rows.cuh).
/// Bound: a·b + c·d < 2p² and p < R/8, so the final value (a·b + c·d + M·p)/R < p(1 + 2p/R) < 2p
/// and one conditional subtraction ends in [0, p); the rows keep t < a + c + p < 3p.
/// d is the partner lane's b (|mask|: the pair), fetched one limb per row so it never occupies
/// twelve registers.
/// |kRowsPerStep| = 0: the twelve rows unrolled (≈ 8 k instructions for a whole G2 addition's
/// products). kRowsPerStep = s > 0 (even: the rows alternate their accumulators): the rows run as
/// a loop over s copies of the row, b's limbs rotated down s per step (DevMont::for_rows:
/// 12 − s moves a step); aimed at the instruction-fetch stalls ncu measured in the unrolled form
/// (38.5 % of the accumulation's cycles, docs/perf/gpu.md). |kAhead|: the partner's limb of the
/// next row is fetched before this row's products (one register); two rows a step with it is the
/// default.
template <int kRowsPerStep, bool kAhead>
CUZK_DEV void mul_add_mont(std::uint32_t r[DevFp::N], const std::uint32_t a[DevFp::N],
                           const std::uint32_t b[DevFp::N], const std::uint32_t c[DevFp::N],
                           unsigned mask) {
  // The next row's partner limb when fetching ahead (after the last row a stale one, unused).
  std::uint32_t d_next = kAhead ? __shfl_xor_sync(mask, b[0], 1) : 0;
  DevFp::alternating_product<kRowsPerStep, true, false>(
      r, a, b, c, nullptr, [&](std::uint32_t bi, std::uint32_t b_next, std::uint32_t) {
        if constexpr (kAhead) {
          const std::uint32_t di = d_next;
          d_next = __shfl_xor_sync(mask, b_next, 1);
          return di;
        } else {
          return __shfl_xor_sync(mask, bi, 1);
        }
      });
}

/// The rows a loop step of the fused form |kP| (0: unrolled) and whether it fetches ahead.
constexpr int rows_per_step(PairProduct kP) { return kP == PairProduct::fused ? 0 : 2; }
constexpr bool fetches_ahead(PairProduct kP) { return kP == PairProduct::fused_rolled2_ahead; }

}  // namespace pair_detail

/// The lane's place in its pair and the pair's exchanges.
struct LanePair {
  unsigned mask;  // the pair's two lanes
  bool odd;       // this lane holds c1

  CUZK_DEV static LanePair of_this_thread() {
    const unsigned lane = threadIdx.x & 31u;
    return {3u << (lane & 30u), (lane & 1u) != 0};
  }
  /// The partner's value of |a| (12 shuffles).
  CUZK_DEV DevFp other(const DevFp& a) const {
    DevFp r;
#pragma unroll
    for (int i = 0; i < DevFp::N; ++i) r.l[i] = __shfl_xor_sync(mask, a.l[i], 1);
    return r;
  }
  /// |b| on both lanes.
  CUZK_DEV bool both(bool b) const { return (__ballot_sync(mask, b) & mask) == mask; }
  CUZK_DEV static DevFp select(bool pick_first, const DevFp& x, const DevFp& y) {
    DevFp r;
#pragma unroll
    for (int i = 0; i < DevFp::N; ++i) r.l[i] = pick_first ? x.l[i] : y.l[i];
    return r;
  }

  /// The Fp2 one's component.
  CUZK_DEV DevFp one() const { return odd ? DevFp::zero() : DevFp::one(); }
  /// Whether the Fp2 value is zero.
  CUZK_DEV bool is_zero(const DevFp& a) const { return both(a.is_zero()); }

  /// This lane's component of a·b (the header's uniform form), in the product form |kP|.
  template <PairProduct kP>
  CUZK_DEV DevFp mul(const DevFp& a, const DevFp& b) const {
    const DevFp ao = other(a);
    const DevFp u = select(odd, ao, a);
    const DevFp w = select(odd, a, -ao);
    if constexpr (kP == PairProduct::separate) {
      return u * b + w * other(b);
    } else {
      DevFp r;
      pair_detail::mul_add_mont<pair_detail::rows_per_step(kP), pair_detail::fetches_ahead(kP)>(
          r.l, u.l, b.l, w.l, mask);
      return r;
    }
  }
  /// This lane's component of a²: lane 0 (a0 + a1)(a0 − a1), lane 1 (a1 + a1)·a0.
  CUZK_DEV DevFp sqr(const DevFp& a) const {
    const DevFp ao = other(a);
    const DevFp u = a + select(odd, a, ao);
    const DevFp w = select(odd, ao, a - ao);
    return u * w;
  }
};

/// One lane's half of a G2 XYZZ point (the components c_odd of X, Y, ZZ, ZZZ).
struct PairXyzz {
  DevFp X, Y, ZZ, ZZZ;

  CUZK_DEV static PairXyzz identity(const LanePair& lp) {
    return {lp.one(), lp.one(), DevFp::zero(), DevFp::zero()};
  }
  CUZK_DEV bool is_identity(const LanePair& lp) const { return lp.is_zero(ZZ); }

  CUZK_DEV static const DevFp& half(const DevFp2& a, bool odd) { return odd ? a.c1 : a.c0; }
  CUZK_DEV static DevFp& half(DevFp2& a, bool odd) { return odd ? a.c1 : a.c0; }

  CUZK_DEV static PairXyzz load(const DevG2Xyzz& p, const LanePair& lp) {
    return {half(p.X, lp.odd), half(p.Y, lp.odd), half(p.ZZ, lp.odd), half(p.ZZZ, lp.odd)};
  }
  CUZK_DEV void store(DevG2Xyzz& p, const LanePair& lp) const {
    half(p.X, lp.odd) = X;
    half(p.Y, lp.odd) = Y;
    half(p.ZZ, lp.odd) = ZZ;
    half(p.ZZZ, lp.odd) = ZZZ;
  }

  /// this ← 2·this, dbl-2008-s-1 (6M + 3S; ec/xyzz.hpp).
  template <PairProduct kP>
  CUZK_DEV void dbl(const LanePair& lp) {
    const DevFp u = Y.dbl();
    const DevFp v = lp.sqr(u);
    const DevFp w = lp.mul<kP>(u, v);
    const DevFp s = lp.mul<kP>(X, v);
    const DevFp x2 = lp.sqr(X);
    const DevFp m = x2.dbl() + x2;
    const DevFp x3 = lp.sqr(m) - s.dbl();
    Y = lp.mul<kP>(m, s - x3) - lp.mul<kP>(w, Y);
    X = x3;
    ZZ = lp.mul<kP>(v, ZZ);
    ZZZ = lp.mul<kP>(w, ZZZ);
  }

  /// this ← this + (qx, qy) for an affine point (not the identity), madd-2008-s (8M + 2S), the
  /// products ordered so that at most seven Fp2 halves are live. Equal points take the doubling
  /// (of the accumulator, which then equals q), opposite ones give the identity.
  template <PairProduct kP>
  CUZK_DEV void add_mixed(const DevFp& qx, const DevFp& qy, const LanePair& lp) {
    if (is_identity(lp)) {
      X = qx;
      Y = qy;
      ZZ = ZZZ = lp.one();
      return;
    }
    const DevFp p = lp.mul<kP>(qx, ZZ) - X;
    const DevFp r = lp.mul<kP>(qy, ZZZ) - Y;
    if (lp.is_zero(p)) {
      if (lp.is_zero(r))
        dbl_out_of_line<kP>(lp);
      else
        *this = identity(lp);
      return;
    }
    const DevFp pp = lp.sqr(p);
    ZZ = lp.mul<kP>(ZZ, pp);
    const DevFp ppp = lp.mul<kP>(p, pp);
    ZZZ = lp.mul<kP>(ZZZ, ppp);
    const DevFp qq = lp.mul<kP>(X, pp);
    const DevFp yppp = lp.mul<kP>(Y, ppp);
    X = lp.sqr(r) - ppp - qq.dbl();
    Y = lp.mul<kP>(r, qq - X) - yppp;
  }

  /// this ← this + q, add-2008-s (12M + 2S; ec/xyzz.hpp).
  template <PairProduct kP>
  CUZK_DEV void add(const PairXyzz& q, const LanePair& lp) {
    if (q.is_identity(lp)) return;
    if (is_identity(lp)) {
      *this = q;
      return;
    }
    const DevFp u1 = lp.mul<kP>(X, q.ZZ);
    const DevFp s1 = lp.mul<kP>(Y, q.ZZZ);
    const DevFp p = lp.mul<kP>(q.X, ZZ) - u1;
    const DevFp r = lp.mul<kP>(q.Y, ZZZ) - s1;
    if (lp.is_zero(p)) {
      if (lp.is_zero(r))
        dbl_out_of_line<kP>(lp);
      else
        *this = identity(lp);
      return;
    }
    const DevFp pp = lp.sqr(p);
    const DevFp ppp = lp.mul<kP>(p, pp);
    ZZ = lp.mul<kP>(lp.mul<kP>(ZZ, q.ZZ), pp);
    ZZZ = lp.mul<kP>(lp.mul<kP>(ZZZ, q.ZZZ), ppp);
    const DevFp qq = lp.mul<kP>(u1, pp);
    X = lp.sqr(r) - ppp - qq.dbl();
    Y = lp.mul<kP>(r, qq - X) - lp.mul<kP>(s1, ppp);
  }

  /// The rare doubling out of line, so its temporaries do not count against the hot loop.
  template <PairProduct kP>
  static __device__ __noinline__ void dbl_noinline(PairXyzz& a, const LanePair& lp) {
    a.dbl<kP>(lp);
  }
  /// dbl_noinline on a copy: the callee takes the copy's address, not the accumulator's, so the
  /// accumulator need not live in local memory.
  template <PairProduct kP>
  CUZK_DEV void dbl_out_of_line(const LanePair& lp) {
    PairXyzz t = *this;
    dbl_noinline<kP>(t, lp);
    *this = t;
  }
};

}  // namespace cuzk::gpu
