// G1 batch-affine bucket accumulation with AVX-512 IFMA (docs/perf/msm.md Version 4): the same
// algorithm as pippenger.cpp's AffineBuckets (chord rule, additions into distinct buckets share one
// inversion by Montgomery's trick, collisions queued, a full queue spills to XYZZ overflow buckets),
// with the batch's field arithmetic run eight additions at a time in 52-bit IFMA lanes
// (ff/fp_ifma.hpp's product, here on registers).
//
// Forms. The kernel's product is a·b·2^-416 (R' = 2^416), so every value it touches is kept as
// x·R' mod p: the bases are converted once per MSM call (to_rp: one Fp product per coordinate, a few
// ns per point against ≈ 10 bucket additions per point), the buckets stay in that form, canonical
// (< p) and packed in six 64-bit words (so equal x or y compare word by word, as in AffineBuckets),
// and go back to Fp's R = 2^384 form only for the XYZZ overflow buckets and the reduction (from_rp).
// Batch entry k sits in lane k mod 8 of group k / 8, limb-major (Fp8), unpacked when it is queued.
// Montgomery's trick runs as eight interleaved chains (one per lane); the eight chain products are
// inverted together in scalar Fp (one inversion per batch, as before).
//
// Callers check ifma_kernel_available() (CPU and OS support AVX-512F + IFMA) first.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "cuzk/ec/affine.hpp"
#include "cuzk/ec/g1.hpp"
#include "cuzk/ec/xyzz.hpp"
#include "cuzk/ff/fp_ifma.hpp"
#include "cuzk/msm/scratch.hpp"

namespace cuzk::ifma {

/// Fp::mul(x·R, kToRp) = x·R' (kToRp = R' mod p as raw limbs).
inline constexpr Limbs<6> kToRp = mont_detail::pow2_mod(Fp::kModulus, 416);
/// Fp::mul(x·R', kFromRp) = x·R (R²/R' = 2^352 mod p).
inline constexpr Limbs<6> kFromRp = mont_detail::pow2_mod(Fp::kModulus, 352);
/// Fp::mul(R²/s, kInvFix) = R'²/s: Fp's inverse of the raw value s = x·R' turned into (1/x)·R'.
inline constexpr Limbs<6> kInvFix = mont_detail::pow2_mod(Fp::kModulus, 448);

inline Fp to_rp(const Fp& x) { return x * Fp::from_mont_unchecked(kToRp); }
inline Fp from_rp(const Fp& x) { return x * Fp::from_mont_unchecked(kFromRp); }
inline G1Affine to_rp(const G1Affine& p) { return {to_rp(p.x), to_rp(p.y), p.infinity}; }
inline G1Affine from_rp(const G1Affine& p) { return {from_rp(p.x), from_rp(p.y), p.infinity}; }

#if CUZK_FF_IFMA

inline bool ifma_kernel_available() { return cpu_has_ifma(); }

namespace vec {

using V = __m512i;
#define CUZK_IFMA_INLINE [[gnu::target("avx512f,avx512ifma"), gnu::always_inline]] inline

// k·p in radix 2^52 (limbs < 2^52, the top one holding the rest).
struct MultP {
  std::uint64_t p1[kLimbs], p2[kLimbs];
};
constexpr MultP make_multp() {
  MultP m{};
  to_radix52(Fp::kModulus, m.p1);
  Limbs<6> two{};
  limbs_add(two, Fp::kModulus, Fp::kModulus);
  to_radix52(two, m.p2);
  return m;
}
inline constexpr MultP kMultP = make_multp();

CUZK_IFMA_INLINE V bcast(std::uint64_t v) { return _mm512_set1_epi64(static_cast<long long>(v)); }

CUZK_IFMA_INLINE void load(V* r, const Fp8& a) {
#pragma GCC unroll 8
  for (unsigned j = 0; j < kLimbs; ++j) r[j] = _mm512_load_si512(a.l[j]);
}
CUZK_IFMA_INLINE void store(Fp8& a, const V* r) {
#pragma GCC unroll 8
  for (unsigned j = 0; j < kLimbs; ++j) _mm512_store_si512(a.l[j], r[j]);
}

// Signed carry propagation: limbs 0..6 into [0, 2^52), the top limb keeps the rest (the value is
// non-negative and below 2^63·2^364, so the top limb ends non-negative).
CUZK_IFMA_INLINE void normalize(V* t) {
  const V mask = bcast(kMask52);
#pragma GCC unroll 8
  for (unsigned j = 0; j + 1 < kLimbs; ++j) {
    t[j + 1] = _mm512_add_epi64(t[j + 1], _mm512_maskz_srai_epi64(0xff, t[j], 52));
    t[j] = _mm512_and_si512(t[j], mask);
  }
}

// r = a − b + kp (kp: the limbs of a multiple of p large enough that the value stays non-negative).
CUZK_IFMA_INLINE void sub_plus(V* r, const V* a, const V* b, const std::uint64_t* kp) {
#pragma GCC unroll 8
  for (unsigned j = 0; j < kLimbs; ++j) r[j] = _mm512_add_epi64(_mm512_sub_epi64(a[j], b[j]), bcast(kp[j]));
  normalize(r);
}

// v −= kp where v ≥ kp, per lane (v normalized; kp p or 2p).
CUZK_IFMA_INLINE void cond_sub(V* v, const std::uint64_t* kp) {
  V w[kLimbs];
#pragma GCC unroll 8
  for (unsigned j = 0; j < kLimbs; ++j) w[j] = _mm512_sub_epi64(v[j], bcast(kp[j]));
  normalize(w);
  const __mmask8 ge = _mm512_cmpge_epi64_mask(w[kLimbs - 1], _mm512_setzero_si512());
#pragma GCC unroll 8
  for (unsigned j = 0; j < kLimbs; ++j) v[j] = _mm512_mask_blend_epi64(ge, v[j], w[j]);
}

// r = a·b·2^-416 mod p per lane (ff/fp_ifma.hpp's mul8_ifma on registers): limbs normalized,
// a·b < p·2^416 gives r < 2p. r may alias a or b.
CUZK_IFMA_INLINE void mul(V* r, const V* a, const V* b) {
  const auto& c = detail::kConsts;
  const V mask = bcast(kMask52);
  const V inv = bcast(c.inv);
  const V zero = _mm512_setzero_si512();
  V av[kLimbs], bv[kLimbs], t[kLimbs + 1];
#pragma GCC unroll 8
  for (unsigned j = 0; j < kLimbs; ++j) {
    av[j] = a[j];
    bv[j] = b[j];
    t[j] = zero;
  }
  t[kLimbs] = zero;
#pragma GCC unroll 8
  for (unsigned i = 0; i < kLimbs; ++i) {
    const V bi = bv[i];
#pragma GCC unroll 8
    for (unsigned j = 0; j < kLimbs; ++j) {
      t[j] = _mm512_madd52lo_epu64(t[j], av[j], bi);
      t[j + 1] = _mm512_madd52hi_epu64(t[j + 1], av[j], bi);
    }
    const V m = _mm512_madd52lo_epu64(zero, _mm512_and_si512(t[0], mask), inv);
#pragma GCC unroll 8
    for (unsigned j = 0; j < kLimbs; ++j) {
      const V pj = bcast(c.p[j]);
      t[j] = _mm512_madd52lo_epu64(t[j], pj, m);
      t[j + 1] = _mm512_madd52hi_epu64(t[j + 1], pj, m);
    }
    const V carry = _mm512_maskz_srli_epi64(0xff, t[0], 52);
#pragma GCC unroll 8
    for (unsigned j = 0; j < kLimbs; ++j) t[j] = t[j + 1];
    t[0] = _mm512_add_epi64(t[0], carry);
    t[kLimbs] = zero;
  }
#pragma GCC unroll 8
  for (unsigned j = 0; j + 1 < kLimbs; ++j) {
    t[j + 1] = _mm512_add_epi64(t[j + 1], _mm512_maskz_srli_epi64(0xff, t[j], 52));
    t[j] = _mm512_and_si512(t[j], mask);
  }
#pragma GCC unroll 8
  for (unsigned j = 0; j < kLimbs; ++j) r[j] = t[j];
}

}  // namespace vec

/// G1 batch-affine buckets in IFMA lanes; the interface of pippenger.cpp's AffineBuckets. Points
/// passed to add() are in R' form (to_rp); reduce() returns the usual (R-form) XYZZ sum.
class IfmaG1Buckets {
 public:
  using A = G1Affine;

  IfmaG1Buckets(std::uint32_t nb, std::size_t batch)
      : max_batch_((batch + kLanes - 1) / kLanes * kLanes), batch_(max_batch_), bucket_(nb), slot_(max_batch_),
        groups_(max_batch_ / kLanes) {
    queue_.reserve(max_batch_);
    reset(batch);
  }

  void reset(std::size_t batch) {
    batch_ = std::max<std::size_t>(1, std::min(batch, max_batch_));
    for (std::size_t b = 0; b < bucket_.size(); ++b) bucket_[b].state = kEmpty;
    overflow_.clear();
    queue_.clear();
    m_ = 0;
    flushed_ = false;
  }

  void add(std::uint32_t b, const A& p) {
    if (try_add(b, p)) {
      if (flushed_) drain();
      return;
    }
    if (queue_.size() < batch_) queue_.push_back({b, p});
    else add_overflow(b, p);
  }

  void prefetch(std::uint32_t b) const {
    __builtin_prefetch(&bucket_[b]);
    __builtin_prefetch(reinterpret_cast<const char*>(&bucket_[b]) + 64);
  }

  void finish() {
    for (;;) {
      if (m_ > 0) execute();
      if (queue_.empty()) break;
      drain();
      if (m_ < 16 && !queue_.empty()) {
        for (const auto& [b, p] : queue_) add_overflow(b, p);
        queue_.clear();
      }
    }
  }

  Xyzz<G1Curve> reduce() const {
    Xyzz<G1Curve> running = Xyzz<G1Curve>::identity(), sum = Xyzz<G1Curve>::identity();
    const bool overflow = !overflow_.empty();
    for (std::size_t b = bucket_.size(); b-- > 0;) {
      const Slot& s = bucket_[b];
      if (s.state != kEmpty) running.add_mixed(A{from_rp(s.x), from_rp(s.y), false});
      if (overflow) running.add(overflow_[b]);
      sum.add(running);
    }
    return sum;
  }

 private:
  static constexpr std::uint8_t kEmpty = 0, kSet = 1, kBusy = 2;
  struct Slot {
    Fp x, y;  // R' form, canonical
    std::uint8_t state = kEmpty;
  };
  struct Pending {
    std::uint32_t bucket;
    A point;
  };
  // One group of eight batch entries: bucket and point coordinates, the chain's prefix product.
  struct Group {
    Fp8 ax, ay, px, py, pre;
    std::uint8_t dbl = 0;  // lanes whose entry is P + P
  };

  static bool equal(const Fp& a, const Fp& b) {
    std::uint64_t d = 0;
    for (unsigned i = 0; i < 6; ++i) d |= a.l[i] ^ b.l[i];
    return d == 0;
  }
  static void put(Fp8& dst, unsigned lane, const Fp& v) {
    std::uint64_t t[kLimbs];
    to_radix52(v.l, t);
    for (unsigned j = 0; j < kLimbs; ++j) dst.l[j][lane] = t[j];
  }
  static Fp get(const Fp8& src, unsigned lane) {
    std::uint64_t t[kLimbs];
    for (unsigned j = 0; j < kLimbs; ++j) t[j] = src.l[j][lane];
    return Fp::from_mont_unchecked(from_radix52(t));
  }

  bool try_add(std::uint32_t b, const A& p) {
    Slot& acc = bucket_[b];
    if (acc.state == kBusy) return false;
    if (acc.state == kEmpty) {
      acc.x = p.x;
      acc.y = p.y;
      acc.state = kSet;
      return true;
    }
    const bool same_x = equal(acc.x, p.x);
    if (same_x && (!equal(acc.y, p.y) || p.y.is_zero())) {  // P + (−P), or a 2-torsion doubling
      acc.state = kEmpty;
      return true;
    }
    Group& g = groups_[m_ / kLanes];
    const unsigned lane = static_cast<unsigned>(m_ % kLanes);
    if (lane == 0) g.dbl = 0;
    if (same_x) g.dbl = static_cast<std::uint8_t>(g.dbl | (1u << lane));
    put(g.ax, lane, acc.x);
    put(g.ay, lane, acc.y);
    put(g.px, lane, p.x);
    put(g.py, lane, p.y);
    slot_[m_] = b;
    acc.state = kBusy;
    if (++m_ == batch_) execute();
    return true;
  }

  void drain() {
    flushed_ = false;
    std::size_t keep = 0;
    for (std::size_t i = 0; i < queue_.size(); ++i) {
      if (!try_add(queue_[i].bucket, queue_[i].point)) queue_[keep++] = queue_[i];
    }
    queue_.resize(keep);
  }

  void add_overflow(std::uint32_t b, const A& p) {
    if (overflow_.empty()) overflow_.assign(bucket_.size(), Xyzz<G1Curve>::identity());
    overflow_[b].add_mixed(from_rp(p));
  }

  // Denominators of group |g|: x_P − x_B (+p), or 2·y_P for a doubling.
  CUZK_IFMA_INLINE static void denominator(const Group& g, vec::V* den) {
    using namespace vec;
    V ax[kLimbs], px[kLimbs];
    load(ax, g.ax);
    load(px, g.px);
    sub_plus(den, px, ax, kMultP.p1);
    if (g.dbl != 0) {
      V py[kLimbs], d2[kLimbs];
      load(py, g.py);
#pragma GCC unroll 8
      for (unsigned j = 0; j < kLimbs; ++j) d2[j] = _mm512_add_epi64(py[j], py[j]);
      normalize(d2);
#pragma GCC unroll 8
      for (unsigned j = 0; j < kLimbs; ++j) den[j] = _mm512_mask_blend_epi64(g.dbl, den[j], d2[j]);
    }
  }

  [[gnu::target("avx512f,avx512ifma")]] void execute() {
    using namespace vec;
    const std::size_t ng = (m_ + kLanes - 1) / kLanes;
    // Unused lanes of the last group: 0 + 1 (a non-zero denominator), results dropped.
    for (std::size_t k = m_; k < ng * kLanes; ++k) {
      Group& g = groups_[k / kLanes];
      const unsigned lane = static_cast<unsigned>(k % kLanes);
      if (lane == 0) g.dbl = 0;
      put(g.ax, lane, Fp::zero());
      put(g.ay, lane, Fp::zero());
      put(g.px, lane, Fp::from_mont_unchecked(kToRp));
      put(g.py, lane, Fp::zero());
    }
    V acc[kLimbs], den[kLimbs];
    for (std::size_t gi = 0; gi < ng; ++gi) {
      Group& g = groups_[gi];
      denominator(g, den);
      if (gi == 0) {
#pragma GCC unroll 8
        for (unsigned j = 0; j < kLimbs; ++j) acc[j] = den[j];
      } else {
        mul(acc, acc, den);
      }
      store(g.pre, acc);
    }
    // The eight chain products (< 2p, R' form) inverted together in Fp.
    Fp total[kLanes], pre[kLanes];
    {
      const Fp8& last = groups_[ng - 1].pre;
      Fp run = Fp::one();
      for (unsigned k = 0; k < kLanes; ++k) {
        Fp v = get(last, k);
        Limbs<6> s{};
        if (!limbs_sub(s, v.l, Fp::kModulus)) v = Fp::from_mont_unchecked(s);  // < 2p → < p
        total[k] = v;
        pre[k] = run;
        run = run * v;
      }
      Fp inv = run.inverse_vartime();
      const Fp fix = Fp::from_mont_unchecked(kInvFix);
      Fp8 invs;
      for (unsigned k = kLanes; k-- > 0;) {
        put(invs, k, inv * pre[k] * fix);
        inv = inv * total[k];
      }
      load(acc, invs);
    }
    Fp8 x3s, y3s;
    for (std::size_t gi = ng; gi-- > 0;) {
      const Group& g = groups_[gi];
      V dinv[kLimbs];
      if (gi > 0) {
        V pre_prev[kLimbs];
        load(pre_prev, groups_[gi - 1].pre);
        mul(dinv, acc, pre_prev);
        denominator(g, den);
        mul(acc, acc, den);
      } else {
#pragma GCC unroll 8
        for (unsigned j = 0; j < kLimbs; ++j) dinv[j] = acc[j];
      }
      V ax[kLimbs], ay[kLimbs], px[kLimbs], py[kLimbs], num[kLimbs];
      load(ax, g.ax);
      load(ay, g.ay);
      load(px, g.px);
      load(py, g.py);
      sub_plus(num, py, ay, kMultP.p1);
      if (g.dbl != 0) {  // 3·x_P²
        V xx[kLimbs];
        mul(xx, px, px);
#pragma GCC unroll 8
        for (unsigned j = 0; j < kLimbs; ++j)
          xx[j] = _mm512_add_epi64(_mm512_add_epi64(xx[j], xx[j]), xx[j]);
        normalize(xx);
#pragma GCC unroll 8
        for (unsigned j = 0; j < kLimbs; ++j) num[j] = _mm512_mask_blend_epi64(g.dbl, num[j], xx[j]);
      }
      V lambda[kLimbs], x3[kLimbs], t[kLimbs];
      mul(lambda, num, dinv);
      mul(x3, lambda, lambda);
      // x3 = λ² − x_B − x_P (+2p) ∈ (0, 4p) → canonical
#pragma GCC unroll 8
      for (unsigned j = 0; j < kLimbs; ++j)
        x3[j] = _mm512_sub_epi64(_mm512_add_epi64(x3[j], bcast(kMultP.p2[j])), _mm512_add_epi64(ax[j], px[j]));
      normalize(x3);
      cond_sub(x3, kMultP.p2);
      cond_sub(x3, kMultP.p1);
      // y3 = λ·(x_B − x3 + p) − y_B (+p) ∈ (0, 3p) → canonical
      sub_plus(t, ax, x3, kMultP.p1);
      mul(t, lambda, t);
      sub_plus(t, t, ay, kMultP.p1);
      cond_sub(t, kMultP.p2);
      cond_sub(t, kMultP.p1);
      store(x3s, x3);
      store(y3s, t);
      const std::size_t lanes = std::min<std::size_t>(kLanes, m_ - gi * kLanes);
      for (unsigned k = 0; k < lanes; ++k) {
        Slot& s = bucket_[slot_[gi * kLanes + k]];
        s.x = get(x3s, k);
        s.y = get(y3s, k);
        s.state = kSet;
      }
    }
    m_ = 0;
    flushed_ = true;
  }

  std::size_t max_batch_, batch_;
  ScratchArray<Slot> bucket_;
  std::vector<std::uint32_t> slot_;
  std::vector<Group> groups_;
  std::vector<Pending> queue_;
  std::vector<Xyzz<G1Curve>> overflow_;
  std::size_t m_ = 0;
  bool flushed_ = false;
};

#else

inline bool ifma_kernel_available() { return false; }

#endif

}  // namespace cuzk::ifma
