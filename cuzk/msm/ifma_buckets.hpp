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
#include <memory>
#include <vector>

#include "cuzk/ec/affine.hpp"
#include "cuzk/ec/g1.hpp"
#include "cuzk/ec/g2.hpp"
#include "cuzk/ec/xyzz.hpp"
#include "cuzk/ff/fp_ifma.hpp"
#include "cuzk/msm/batch_schedule.hpp"
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
inline Fp2 to_rp(const Fp2& x) { return {to_rp(x.c0), to_rp(x.c1)}; }
inline Fp2 from_rp(const Fp2& x) { return {from_rp(x.c0), from_rp(x.c1)}; }
inline G2Affine to_rp(const G2Affine& p) { return {to_rp(p.x), to_rp(p.y), p.infinity}; }
inline G2Affine from_rp(const G2Affine& p) { return {from_rp(p.x), from_rp(p.y), p.infinity}; }

#if CUZK_FF_IFMA

inline bool ifma_kernel_available() { return cpu_has_ifma(); }

namespace vec {

using V = __m512i;
#define CUZK_IFMA_INLINE [[gnu::target("avx512f,avx512ifma"), gnu::always_inline]] inline

// k·p in radix 2^52 (limbs < 2^52, the top one holding the rest).
struct MultP {
  std::uint64_t p1[kLimbs], p2[kLimbs], p4[kLimbs], p8[kLimbs];
};
constexpr MultP make_multp() {
  MultP m{};
  to_radix52(Fp::kModulus, m.p1);
  Limbs<6> two{}, four{}, eight{};
  limbs_add(two, Fp::kModulus, Fp::kModulus);
  limbs_add(four, two, two);
  limbs_add(eight, four, four);  // 8p < 2^384
  to_radix52(two, m.p2);
  to_radix52(four, m.p4);
  to_radix52(eight, m.p8);
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
  for (unsigned j = 0; j < kLimbs; ++j)
    r[j] = _mm512_add_epi64(_mm512_sub_epi64(a[j], b[j]), bcast(kp[j]));
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

// r = a·b·2^-416 mod p per lane: limbs normalized, a·b < p·2^416 gives r < 2p; r may alias a or b.
CUZK_IFMA_INLINE void mul(V* r, const V* a, const V* b) { mont_mul_lanes(r, a, b); }

// Transposes an 8×8 matrix of 64-bit words held as eight rows.
CUZK_IFMA_INLINE void transpose8(V* r) {
  V t[8], u[8];
#pragma GCC unroll 4
  for (unsigned i = 0; i < 4; ++i) {
    t[2 * i] =
        _mm512_maskz_unpacklo_epi64(0xff, r[2 * i], r[2 * i + 1]);  // r0[0] r1[0] r0[2] r1[2] …
    t[2 * i + 1] =
        _mm512_maskz_unpackhi_epi64(0xff, r[2 * i], r[2 * i + 1]);  // r0[1] r1[1] r0[3] r1[3] …
  }
  const V lo = _mm512_setr_epi64(0, 1, 8, 9, 4, 5, 12, 13),
          hi = _mm512_setr_epi64(2, 3, 10, 11, 6, 7, 14, 15);
#pragma GCC unroll 2
  for (unsigned h = 0; h < 2; ++h) {  // rows 0–3 (h = 0) and 4–7 (h = 1)
    u[4 * h + 0] = _mm512_permutex2var_epi64(t[4 * h], lo, t[4 * h + 2]);      // columns 0, 4
    u[4 * h + 1] = _mm512_permutex2var_epi64(t[4 * h + 1], lo, t[4 * h + 3]);  // columns 1, 5
    u[4 * h + 2] = _mm512_permutex2var_epi64(t[4 * h], hi, t[4 * h + 2]);      // columns 2, 6
    u[4 * h + 3] = _mm512_permutex2var_epi64(t[4 * h + 1], hi, t[4 * h + 3]);  // columns 3, 7
  }
#pragma GCC unroll 4
  for (unsigned c = 0; c < 4; ++c) {
    r[c] = _mm512_maskz_shuffle_i64x2(0xff, u[c], u[4 + c], 0x44);
    r[c + 4] = _mm512_maskz_shuffle_i64x2(0xff, u[c], u[4 + c], 0xee);
  }
}

// Eight packed values (six 64-bit words at src[k], below 2^384) → limb-major radix 2^52.
CUZK_IFMA_INLINE void gather(V* out, const std::uint64_t* const* src) {
  // Limb j = bits 52j..52j+51: word w = 52j / 64 shifted right by s = 52j mod 64, or'd with word
  // w + 1 shifted left by 64 − s (a count of 64 gives 0; word 6 is a zero lane of the load).
  const V wlo = _mm512_setr_epi64(0, 0, 1, 2, 3, 4, 4, 5),
          whi = _mm512_setr_epi64(1, 1, 2, 3, 4, 5, 5, 6);
  const V slo = _mm512_setr_epi64(0, 52, 40, 28, 16, 4, 56, 44),
          shi = _mm512_setr_epi64(64, 12, 24, 36, 48, 60, 8, 20);
  const V mask = bcast(kMask52);
#pragma GCC unroll 8
  for (unsigned k = 0; k < kLanes; ++k) {
    const V x = _mm512_maskz_loadu_epi64(0x3f, src[k]);
    const V a = _mm512_maskz_srlv_epi64(0xff, _mm512_maskz_permutexvar_epi64(0xff, wlo, x), slo);
    const V b = _mm512_maskz_sllv_epi64(0xff, _mm512_maskz_permutexvar_epi64(0xff, whi, x), shi);
    out[k] = _mm512_and_si512(_mm512_or_si512(a, b), mask);
  }
  transpose8(out);
}

// The inverse of gather for normalized values below 2^384: lane k's value packed into dst[k]
// (six words; v is clobbered). Lanes with dst[k] null are skipped.
CUZK_IFMA_INLINE void scatter(std::uint64_t* const* dst, V* v) {
  // Word w = bits 64w..64w+63 = limb a >> o | limb a+1 << (52 − o) [| limb a+2 << (104 − o)].
  const V ia = _mm512_setr_epi64(0, 1, 2, 3, 4, 6, 7, 7),
          sa = _mm512_setr_epi64(0, 12, 24, 36, 48, 8, 64, 64);
  const V ib = _mm512_setr_epi64(1, 2, 3, 4, 5, 7, 7, 7),
          sb = _mm512_setr_epi64(52, 40, 28, 16, 4, 44, 64, 64);
  const V ic = _mm512_setr_epi64(7, 7, 7, 7, 6, 7, 7, 7),
          sc = _mm512_setr_epi64(64, 64, 64, 64, 56, 64, 64, 64);
  transpose8(v);
#pragma GCC unroll 8
  for (unsigned k = 0; k < kLanes; ++k) {
    if (dst[k] == nullptr) continue;
    const V x = v[k];
    const V w = _mm512_or_si512(
        _mm512_or_si512(
            _mm512_maskz_srlv_epi64(0xff, _mm512_maskz_permutexvar_epi64(0xff, ia, x), sa),
            _mm512_maskz_sllv_epi64(0xff, _mm512_maskz_permutexvar_epi64(0xff, ib, x), sb)),
        _mm512_maskz_sllv_epi64(0xff, _mm512_maskz_permutexvar_epi64(0xff, ic, x), sc));
    _mm512_mask_storeu_epi64(dst[k], 0x3f, w);
  }
}

}  // namespace vec

namespace vec {

// Fp2 = Fp[u]/(u² + 1) on lanes: two Fp vectors.
struct V2 {
  V c0[kLimbs], c1[kLimbs];
};

// a + b (normalized; a, b non-negative).
CUZK_IFMA_INLINE void vadd(V* r, const V* a, const V* b) {
#pragma GCC unroll 8
  for (unsigned j = 0; j < kLimbs; ++j) r[j] = _mm512_add_epi64(a[j], b[j]);
  normalize(r);
}

// r = a·b in Fp2 (Karatsuba); inputs with normalized limbs below 12p, r.c0 < 4p, r.c1 < 6p.
CUZK_IFMA_INLINE void mul2(V2& r, const V2& a, const V2& b) {
  V t0[kLimbs], t1[kLimbs], sa[kLimbs], sb[kLimbs];
  mul(t0, a.c0, b.c0);
  mul(t1, a.c1, b.c1);
  vadd(sa, a.c0, a.c1);
  vadd(sb, b.c0, b.c1);
  mul(sa, sa, sb);
#pragma GCC unroll 8
  for (unsigned j = 0; j < kLimbs; ++j) {
    r.c0[j] = _mm512_add_epi64(_mm512_sub_epi64(t0[j], t1[j]), bcast(kMultP.p2[j]));
    r.c1[j] = _mm512_add_epi64(_mm512_sub_epi64(sa[j], _mm512_add_epi64(t0[j], t1[j])),
                               bcast(kMultP.p4[j]));
  }
  normalize(r.c0);
  normalize(r.c1);
}

// r = a² in Fp2: ((a0 + a1)(a0 − a1), 2·a0·a1); a's limbs normalized, a1 < 8p. r.c0 < 2p, r.c1 < 4p.
CUZK_IFMA_INLINE void sqr2(V2& r, const V2& a) {
  V s[kLimbs], d[kLimbs], t[kLimbs];
  vadd(s, a.c0, a.c1);
  sub_plus(d, a.c0, a.c1, kMultP.p8);
  mul(t, a.c0, a.c1);
  mul(r.c0, s, d);
  vadd(r.c1, t, t);
}

// Canonical from below 8p.
CUZK_IFMA_INLINE void reduce8(V* v) {
  cond_sub(v, kMultP.p4);
  cond_sub(v, kMultP.p2);
  cond_sub(v, kMultP.p1);
}

}  // namespace vec

/// Batch-affine buckets in IFMA lanes for G1 (coordinates in Fp) and G2 (Fp2); the interface of
/// pippenger.cpp's AffineBuckets. Points passed to add() are in R' form (to_rp); reduce() returns
/// the usual (R-form) XYZZ sum. On G2 the shared inversion runs over the denominators' norms in Fp
/// (as AffineBuckets does): 1/d = conj(d)/N(d), N(d) = d0² + d1².
template <class C>
class IfmaBuckets : public BatchSchedule<IfmaBuckets<C>, C> {
  using Schedule = BatchSchedule<IfmaBuckets<C>, C>;
  friend Schedule;
  using Schedule::batch_;
  using Schedule::flushed_;
  using Schedule::m_;
  using Schedule::max_batch_;

 public:
  using A = Affine<C>;
  using F = typename C::Field;
  static constexpr unsigned kD = sizeof(F) / sizeof(Fp);  // Fp components per coordinate
  static_assert(kD == 1 || kD == 2);

  /// A point in the form add() takes: R' = 2^416 (to_rp).
  static A bucket_form(const A& p) { return to_rp(p); }

  IfmaBuckets(std::uint32_t nb, std::size_t batch)
      : Schedule((batch + kLanes - 1) / kLanes * kLanes),
        bucket_(nb),
        slot_(max_batch_),
        point_(max_batch_),
        dbl_(max_batch_ / kLanes),
        pre_(max_batch_ / kLanes),
        norm_(kD == 2 ? max_batch_ / kLanes : 0) {
    reset(batch);
  }

  void reset(std::size_t batch) {
    for (std::size_t b = 0; b < bucket_.size(); ++b) bucket_[b].state = kEmpty;
    this->reset_schedule(batch);
  }

  void prefetch(std::uint32_t b) const {
    for (std::size_t off = 0; off < sizeof(Slot); off += 64) {
      __builtin_prefetch(reinterpret_cast<const char*>(&bucket_[b]) + off);
    }
  }

  /// Σ_b bucket_b, unweighted (the 0/1 split's sum of the ones: one mixed addition per bucket).
  /// After finish() (which folds the overflow buckets in).
  Xyzz<C> total() const {
    Xyzz<C> sum = Xyzz<C>::identity();
    for (std::size_t b = 0; b < bucket_.size(); ++b) {
      const Slot& s = bucket_[b];
      if (s.state != kEmpty) sum.add_mixed(A{from_rp(s.x), from_rp(s.y), false});
    }
    return sum;
  }

  /// Σ_b (b + 1)·bucket_b, after finish(). From kSegmentedMinBuckets buckets up the running sums
  /// run as S = buckets / kSegment independent chains (one per segment of kSegment buckets) whose
  /// additions go through this class's batches, S at a time; otherwise by XYZZ running sums.
  Xyzz<C> reduce() {
    const std::size_t nb = bucket_.size();
    if (nb < kSegmentedMinBuckets) {
      Xyzz<C> running = Xyzz<C>::identity(), sum = Xyzz<C>::identity();
      for (std::size_t b = nb; b-- > 0;) {
        const Slot& s = bucket_[b];
        if (s.state != kEmpty) running.add_mixed(A{from_rp(s.x), from_rp(s.y), false});
        sum.add(running);
      }
      return sum;
    }
    return reduce_segmented();
  }

  /// Segment length of the batched reduction and the bucket count it starts from.
  static constexpr std::size_t kSegment = 64, kSegmentedMinBuckets = 1024;

 private:
  static constexpr std::uint8_t kEmpty = kBucketEmpty, kSet = kBucketSet, kBusy = kBucketBusy;
  struct Slot {
    F x, y;  // R' form, canonical
    std::uint8_t state = kEmpty;
  };
  // The coordinates of the unused lanes of a last group: bucket (0, 0) + point (1, 0), a non-zero
  // denominator; the results are dropped.
  static inline const Fp kPadZero = Fp::zero();
  static inline const Fp kPadOne = Fp::from_mont_unchecked(kToRp);

  // Segment s covers buckets [s·L, (s + 1)·L): its chain keeps T_s = Σ_{b ≥ t} B_b (running, slot s
  // of |red_|) and U_s = Σ_t T_s(t) = Σ_b (b − s·L + 1)·B_b (slot S + s), so the window sum is
  // Σ_s U_s + L·Σ_s s·T_s, the last by XYZZ running sums over the S segment totals.
  Xyzz<C> reduce_segmented() {
    const std::size_t nb = bucket_.size(), len = kSegment, segs = (nb + len - 1) / len;
    if (!red_) red_ = std::make_unique<IfmaBuckets>(static_cast<std::uint32_t>(2 * segs), segs);
    IfmaBuckets& r = *red_;
    r.reset(segs);
    for (std::size_t t = len; t-- > 0;) {
      for (std::size_t sg = 0; sg < segs; ++sg) {
        const std::size_t b = sg * len + t;
        if (b >= nb) continue;
        const Slot& s = bucket_[b];
        if (s.state != kEmpty) r.add_distinct(static_cast<std::uint32_t>(sg), A{s.x, s.y, false});
      }
      r.flush();
      for (std::size_t sg = 0; sg < segs; ++sg) {
        const Slot& run = r.bucket_[sg];
        if (run.state != kEmpty)
          r.add_distinct(static_cast<std::uint32_t>(segs + sg), A{run.x, run.y, false});
      }
      r.flush();
    }
    Xyzz<C> total = Xyzz<C>::identity(), running = Xyzz<C>::identity(),
            weighted = Xyzz<C>::identity();
    for (std::size_t sg = segs; sg-- > 0;) {
      const Slot& u = r.bucket_[segs + sg];
      if (u.state != kEmpty) total.add_mixed(A{from_rp(u.x), from_rp(u.y), false});
      if (sg == 0) break;
      const Slot& tt = r.bucket_[sg];
      if (tt.state != kEmpty) running.add_mixed(A{from_rp(tt.x), from_rp(tt.y), false});
      weighted.add(running);
    }
    for (std::size_t l = 1; l < len; l <<= 1) weighted.dbl();
    total.add(weighted);
    return total;
  }

  // bucket[b] += p where no other pending entry targets b (the reduction's chains): never queued.
  void add_distinct(std::uint32_t b, const A& p) { [[maybe_unused]] const bool ok = try_add(b, p); }
  // Runs the pending batch now.
  void flush() {
    if (m_ > 0) execute();
    flushed_ = false;
  }

  static const std::uint64_t* words(const F& v, unsigned i) {
    return reinterpret_cast<const std::uint64_t*>(&v) + 6 * i;
  }
  static std::uint64_t* words(F& v, unsigned i) {
    return reinterpret_cast<std::uint64_t*>(&v) + 6 * i;
  }

  bool try_add(std::uint32_t b, const A& p) {
    Slot& acc = bucket_[b];
    const BucketInsert kind = bucket_insert(acc, p);
    if (kind == BucketInsert::busy) return false;
    if (kind == BucketInsert::settled) return true;
    const bool same_x = kind == BucketInsert::doubling;
    const std::size_t g = m_ / kLanes;
    const unsigned lane = static_cast<unsigned>(m_ % kLanes);
    if (lane == 0) dbl_[g] = 0;
    if (same_x) dbl_[g] = static_cast<std::uint8_t>(dbl_[g] | (1u << lane));
    point_[m_] = p;
    slot_[m_] = b;
    acc.state = kBusy;
    if (++m_ == batch_) execute();
    return true;
  }

  void add_overflow(std::uint32_t b, const A& p) { this->overflow_add_xyzz(b, from_rp(p)); }

  // The word pointers of group |g|'s bucket and point coordinates, per Fp component (pads past m_).
  struct Ptrs {
    const std::uint64_t *ax[kD][kLanes], *ay[kD][kLanes], *px[kD][kLanes], *py[kD][kLanes];
  };
  void pointers(std::size_t g, Ptrs& q) const {
    for (unsigned k = 0; k < kLanes; ++k) {
      const std::size_t e = g * kLanes + k;
      for (unsigned i = 0; i < kD; ++i) {
        if (e < m_) {
          const Slot& s = bucket_[slot_[e]];
          q.ax[i][k] = words(s.x, i);
          q.ay[i][k] = words(s.y, i);
          q.px[i][k] = words(point_[e].x, i);
          q.py[i][k] = words(point_[e].y, i);
        } else {
          q.ax[i][k] = q.ay[i][k] = q.py[i][k] = kPadZero.l.data();
          q.px[i][k] = i == 0 ? kPadOne.l.data() : kPadZero.l.data();
        }
      }
    }
  }
  void destinations(std::size_t g, std::uint64_t* (&dx)[kD][kLanes],
                    std::uint64_t* (&dy)[kD][kLanes]) {
    for (unsigned k = 0; k < kLanes; ++k) {
      const std::size_t e = g * kLanes + k;
      Slot* s = e < m_ ? &bucket_[slot_[e]] : nullptr;
      if (s != nullptr) s->state = kSet;
      for (unsigned i = 0; i < kD; ++i) {
        dx[i][k] = s != nullptr ? words(s->x, i) : nullptr;
        dy[i][k] = s != nullptr ? words(s->y, i) : nullptr;
      }
    }
  }

  // G1 denominators of a group: x_P − x_B (+p), or 2·y_P for a doubling.
  CUZK_IFMA_INLINE static void denominator(const vec::V* ax, const vec::V* px, const Ptrs& q,
                                           std::uint8_t dbl, vec::V* den) {
    using namespace vec;
    sub_plus(den, px, ax, kMultP.p1);
    if (dbl != 0) {
      V py[kLimbs];
      gather(py, q.py[0]);
      vadd(py, py, py);
#pragma GCC unroll 8
      for (unsigned j = 0; j < kLimbs; ++j) den[j] = _mm512_mask_blend_epi64(dbl, den[j], py[j]);
    }
  }

  // G2 denominators of a group (x_P − x_B, or 2·y_P) and their norms.
  CUZK_IFMA_INLINE static void denominator2(const vec::V2& ax, const vec::V2& px, const Ptrs& q,
                                            std::uint8_t dbl, vec::V2& den) {
    using namespace vec;
    sub_plus(den.c0, px.c0, ax.c0, kMultP.p1);
    sub_plus(den.c1, px.c1, ax.c1, kMultP.p1);
    if (dbl != 0) {
      V2 py;
      gather(py.c0, q.py[0]);
      gather(py.c1, q.py[1]);
      vadd(py.c0, py.c0, py.c0);
      vadd(py.c1, py.c1, py.c1);
#pragma GCC unroll 8
      for (unsigned j = 0; j < kLimbs; ++j) {
        den.c0[j] = _mm512_mask_blend_epi64(dbl, den.c0[j], py.c0[j]);
        den.c1[j] = _mm512_mask_blend_epi64(dbl, den.c1[j], py.c1[j]);
      }
    }
  }

  // The eight lanes' chain products (< 2p, R' form) inverted together in Fp; acc in and out.
  [[gnu::target("avx512f,avx512ifma")]] static void invert_lanes(vec::V* acc) {
    using namespace vec;
    alignas(64) std::uint64_t w[kLanes][8];
    std::uint64_t* dst[kLanes];
    for (unsigned k = 0; k < kLanes; ++k) dst[k] = w[k];
    scatter(dst, acc);
    Fp total[kLanes], pre[kLanes];
    Fp run = Fp::one();
    for (unsigned k = 0; k < kLanes; ++k) {
      Limbs<6> v{}, s{};
      std::memcpy(v.data(), w[k], 48);
      if (!limbs_sub(s, v, Fp::kModulus)) v = s;  // < 2p → < p
      total[k] = Fp::from_mont_unchecked(v);
      pre[k] = run;
      run = run * total[k];
    }
    Fp inv = run.inverse_vartime();
    const Fp fix = Fp::from_mont_unchecked(kInvFix);
    const std::uint64_t* src[kLanes];
    for (unsigned k = kLanes; k-- > 0;) {
      const Fp r = inv * pre[k] * fix;
      std::memcpy(w[k], r.l.data(), 48);
      src[k] = w[k];
      inv = inv * total[k];
    }
    gather(acc, src);
  }

  void execute() {
    if (m_ % kLanes != 0)
      dbl_[(m_ - 1) / kLanes] &= static_cast<std::uint8_t>((1u << (m_ % kLanes)) - 1);
    if constexpr (kD == 1) {
      execute_g1();
    } else {
      execute_g2();
    }
    m_ = 0;
    flushed_ = true;
  }

  [[gnu::target("avx512f,avx512ifma")]] void execute_g1() {
    using namespace vec;
    const std::size_t ng = (m_ + kLanes - 1) / kLanes;
    Ptrs q;
    V acc[kLimbs], den[kLimbs], ax[kLimbs], px[kLimbs];
#pragma GCC unroll 8
    for (unsigned j = 0; j < kLimbs; ++j) acc[j] = _mm512_setzero_si512();
    for (std::size_t gi = 0; gi < ng; ++gi) {
      pointers(gi, q);
      gather(ax, q.ax[0]);
      gather(px, q.px[0]);
      denominator(ax, px, q, dbl_[gi], den);
      if (gi == 0) {
#pragma GCC unroll 8
        for (unsigned j = 0; j < kLimbs; ++j) acc[j] = den[j];
      } else {
        mul(acc, acc, den);
      }
      store(pre_[gi], acc);
    }
    invert_lanes(acc);
    for (std::size_t gi = ng; gi-- > 0;) {
      pointers(gi, q);
      gather(ax, q.ax[0]);
      gather(px, q.px[0]);
      V dinv[kLimbs];
      if (gi > 0) {
        V pre_prev[kLimbs];
        load(pre_prev, pre_[gi - 1]);
        mul(dinv, acc, pre_prev);
        denominator(ax, px, q, dbl_[gi], den);
        mul(acc, acc, den);
      } else {
#pragma GCC unroll 8
        for (unsigned j = 0; j < kLimbs; ++j) dinv[j] = acc[j];
      }
      V ay[kLimbs], py[kLimbs], num[kLimbs];
      gather(ay, q.ay[0]);
      gather(py, q.py[0]);
      sub_plus(num, py, ay, kMultP.p1);
      if (dbl_[gi] != 0) {  // 3·x_P²
        V xx[kLimbs];
        mul(xx, px, px);
#pragma GCC unroll 8
        for (unsigned j = 0; j < kLimbs; ++j)
          xx[j] = _mm512_add_epi64(_mm512_add_epi64(xx[j], xx[j]), xx[j]);
        normalize(xx);
#pragma GCC unroll 8
        for (unsigned j = 0; j < kLimbs; ++j)
          num[j] = _mm512_mask_blend_epi64(dbl_[gi], num[j], xx[j]);
      }
      V lambda[kLimbs], x3[kLimbs], t[kLimbs];
      mul(lambda, num, dinv);
      mul(x3, lambda, lambda);
      // x3 = λ² − x_B − x_P (+2p) ∈ (0, 4p) → canonical
#pragma GCC unroll 8
      for (unsigned j = 0; j < kLimbs; ++j)
        x3[j] = _mm512_sub_epi64(_mm512_add_epi64(x3[j], bcast(kMultP.p2[j])),
                                 _mm512_add_epi64(ax[j], px[j]));
      normalize(x3);
      cond_sub(x3, kMultP.p2);
      cond_sub(x3, kMultP.p1);
      // y3 = λ·(x_B − x3 + p) − y_B (+p) ∈ (0, 3p) → canonical
      sub_plus(t, ax, x3, kMultP.p1);
      mul(t, lambda, t);
      sub_plus(t, t, ay, kMultP.p1);
      cond_sub(t, kMultP.p2);
      cond_sub(t, kMultP.p1);
      std::uint64_t *dx[kD][kLanes], *dy[kD][kLanes];
      destinations(gi, dx, dy);
      scatter(dx[0], x3);
      scatter(dy[0], t);
    }
  }

  [[gnu::target("avx512f,avx512ifma")]] void execute_g2() {
    using namespace vec;
    const std::size_t ng = (m_ + kLanes - 1) / kLanes;
    Ptrs q;
    V acc[kLimbs];
#pragma GCC unroll 8
    for (unsigned j = 0; j < kLimbs; ++j) acc[j] = _mm512_setzero_si512();
    for (std::size_t gi = 0; gi < ng; ++gi) {
      pointers(gi, q);
      V2 ax, px, den;
      gather(ax.c0, q.ax[0]);
      gather(ax.c1, q.ax[1]);
      gather(px.c0, q.px[0]);
      gather(px.c1, q.px[1]);
      denominator2(ax, px, q, dbl_[gi], den);
      V n0[kLimbs], n1[kLimbs];
      mul(n0, den.c0, den.c0);
      mul(n1, den.c1, den.c1);
      vadd(n0, n0, n1);  // N(d) < 4p
      store(norm_[gi], n0);
      if (gi == 0) {
#pragma GCC unroll 8
        for (unsigned j = 0; j < kLimbs; ++j) acc[j] = n0[j];
      } else {
        mul(acc, acc, n0);
      }
      store(pre_[gi], acc);
    }
    invert_lanes(acc);
    for (std::size_t gi = ng; gi-- > 0;) {
      pointers(gi, q);
      V2 ax, px, den;
      gather(ax.c0, q.ax[0]);
      gather(ax.c1, q.ax[1]);
      gather(px.c0, q.px[0]);
      gather(px.c1, q.px[1]);
      V ninv[kLimbs];  // N(d)^-1
      if (gi > 0) {
        V t[kLimbs];
        load(t, pre_[gi - 1]);
        mul(ninv, acc, t);
        load(t, norm_[gi]);
        mul(acc, acc, t);
      } else {
#pragma GCC unroll 8
        for (unsigned j = 0; j < kLimbs; ++j) ninv[j] = acc[j];
      }
      denominator2(ax, px, q, dbl_[gi], den);
      V2 dinv;  // conj(d)·N^-1
      mul(dinv.c0, den.c0, ninv);
      mul(dinv.c1, den.c1, ninv);
      {
        const V zero[kLimbs] = {};
        sub_plus(dinv.c1, zero, dinv.c1, kMultP.p2);
      }
      V2 ay, py, num;
      gather(ay.c0, q.ay[0]);
      gather(ay.c1, q.ay[1]);
      gather(py.c0, q.py[0]);
      gather(py.c1, q.py[1]);
      sub_plus(num.c0, py.c0, ay.c0, kMultP.p1);
      sub_plus(num.c1, py.c1, ay.c1, kMultP.p1);
      if (dbl_[gi] != 0) {  // 3·x_P²
        V2 xx;
        sqr2(xx, px);
#pragma GCC unroll 8
        for (unsigned j = 0; j < kLimbs; ++j) {
          xx.c0[j] = _mm512_add_epi64(_mm512_add_epi64(xx.c0[j], xx.c0[j]), xx.c0[j]);
          xx.c1[j] = _mm512_add_epi64(_mm512_add_epi64(xx.c1[j], xx.c1[j]), xx.c1[j]);
        }
        normalize(xx.c0);
        normalize(xx.c1);
#pragma GCC unroll 8
        for (unsigned j = 0; j < kLimbs; ++j) {
          num.c0[j] = _mm512_mask_blend_epi64(dbl_[gi], num.c0[j], xx.c0[j]);
          num.c1[j] = _mm512_mask_blend_epi64(dbl_[gi], num.c1[j], xx.c1[j]);
        }
      }
      V2 lambda, x3, t;
      mul2(lambda, num, dinv);  // c0 < 4p, c1 < 6p
      sqr2(x3, lambda);         // c0 < 2p, c1 < 4p
                                // x3 = λ² − x_B − x_P (+2p) < 6p → canonical
#pragma GCC unroll 8
      for (unsigned j = 0; j < kLimbs; ++j) {
        x3.c0[j] = _mm512_sub_epi64(_mm512_add_epi64(x3.c0[j], bcast(kMultP.p2[j])),
                                    _mm512_add_epi64(ax.c0[j], px.c0[j]));
        x3.c1[j] = _mm512_sub_epi64(_mm512_add_epi64(x3.c1[j], bcast(kMultP.p2[j])),
                                    _mm512_add_epi64(ax.c1[j], px.c1[j]));
      }
      normalize(x3.c0);
      normalize(x3.c1);
      reduce8(x3.c0);
      reduce8(x3.c1);
      // y3 = λ·(x_B − x3 + p) − y_B (+p) < 7p → canonical
      sub_plus(t.c0, ax.c0, x3.c0, kMultP.p1);
      sub_plus(t.c1, ax.c1, x3.c1, kMultP.p1);
      mul2(t, lambda, t);
      sub_plus(t.c0, t.c0, ay.c0, kMultP.p1);
      sub_plus(t.c1, t.c1, ay.c1, kMultP.p1);
      reduce8(t.c0);
      reduce8(t.c1);
      std::uint64_t *dx[kD][kLanes], *dy[kD][kLanes];
      destinations(gi, dx, dy);
      scatter(dx[0], x3.c0);
      scatter(dx[1], x3.c1);
      scatter(dy[0], t.c0);
      scatter(dy[1], t.c1);
    }
  }

  ScratchArray<Slot> bucket_;
  std::vector<std::uint32_t> slot_;
  std::vector<A> point_;
  std::vector<std::uint8_t> dbl_;     // per group: lanes whose entry is P + P
  std::vector<Fp8> pre_;              // per group: the lanes' prefix products
  std::vector<Fp8> norm_;             // G2, per group: the denominators' norms
  std::unique_ptr<IfmaBuckets> red_;  // the segmented reduction's chains
};

using IfmaG1Buckets = IfmaBuckets<G1Curve>;
using IfmaG2Buckets = IfmaBuckets<G2Curve>;

#else

inline bool ifma_kernel_available() { return false; }

#endif

}  // namespace cuzk::ifma
