// AffineBuckets: batch-affine bucket accumulation in scalar Montgomery arithmetic (the
// portable twin of ifma_buckets.hpp's IfmaBuckets), for pippenger.cpp's windows and the 0/1
// split's sum of the ones (bit_split.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "cuzk/ec/affine.hpp"
#include "cuzk/ec/g1.hpp"
#include "cuzk/ec/g2.hpp"
#include "cuzk/ec/xyzz.hpp"
#include "cuzk/msm/batch_schedule.hpp"
#include "cuzk/msm/scratch.hpp"

namespace cuzk {

// Batch-affine bucket accumulation (the affine chord rule with one shared inversion):
//   λ = (y2 − y1)/(x2 − x1) (or 3x²/2y for equal points), x3 = λ² − x1 − x2, y3 = λ(x1 − x3) − y1.
// Up to |batch| additions into distinct buckets are collected; their denominators are inverted
// together by Montgomery's trick (3M each plus one inversion per batch), so an addition costs
// 5M + 1S plus inversion/batch, against 8M + 2S for an XYZZ mixed add. A point whose bucket already
// waits in the batch goes to a queue, retried after the batch runs; when the queue is full (many
// equal digits) it is added in XYZZ to an overflow bucket instead, so no input degenerates into one
// inversion per point. Identity results, empty buckets and P + (−P) are settled without the batch.
// On G2 the shared inversion runs in Fp: 1/d = conj(d)/N(d) with N(d) = d0² + d1², so the batch
// multiplies norms (3 Fp products per entry) instead of Fp2 elements (3 Fp2 products, ≈ 9 Fp), and
// each entry pays the norm (2 Fp squarings) and conj(d)·N⁻¹ (2 Fp products) on top.
template <class F>
struct BatchField {
  using B = F;  // the field the batch inversion runs in
  static const B& value(const F& d) { return d; }
  static const F& inverse(const F&, const B& inv) { return inv; }
};
template <>
struct BatchField<Fp2> {
  using B = Fp;
  static Fp value(const Fp2& d) { return d.norm(); }
  static Fp2 inverse(const Fp2& d, const Fp& inv_norm) { return d.conjugate().mul_fp(inv_norm); }
};

template <class C>
class AffineBuckets : public BatchSchedule<AffineBuckets<C>, C> {
  using Schedule = BatchSchedule<AffineBuckets<C>, C>;
  friend Schedule;
  using Schedule::batch_;
  using Schedule::flushed_;
  using Schedule::m_;

 public:
  using F = typename C::Field;
  using A = Affine<C>;
  using BF = BatchField<F>;
  using B = typename BF::B;

  /// A point in the form add() takes (here Fp's own: unchanged).
  static const A& bucket_form(const A& p) { return p; }

  AffineBuckets(std::uint32_t nb, std::size_t batch)
      : Schedule(batch),
        bucket_(nb),
        slot_(batch),
        doubling_(batch),
        point_(batch),
        den_(batch),
        prefix_(batch),
        norm_(std::is_same_v<B, F> ? 0 : batch) {
    reset(batch);
  }

  // Empties every bucket (the object serves several windows in turn); at most |batch| additions
  // per inversion from now on.
  void reset(std::size_t batch) {
    for (std::size_t b = 0; b < bucket_.size(); ++b) bucket_[b].state = kEmpty;
    this->reset_schedule(batch);
  }

  void prefetch(std::uint32_t b) const {
    __builtin_prefetch(&bucket_[b]);
    __builtin_prefetch(reinterpret_cast<const char*>(&bucket_[b]) + 64);
  }

  // Σ_b bucket_b, unweighted (the 0/1 split's sum of the ones: one mixed addition per bucket).
  // After finish() (which folds the overflow buckets in).
  Xyzz<C> total() const {
    Xyzz<C> sum = Xyzz<C>::identity();
    for (std::size_t b = 0; b < bucket_.size(); ++b) {
      const Slot& s = bucket_[b];
      if (s.state != kEmpty) sum.add_mixed(A{s.x, s.y, false});
    }
    return sum;
  }

  // Σ_b (b + 1)·bucket_b by running sums from the top bucket down, after finish().
  Xyzz<C> reduce() const {
    Xyzz<C> running = Xyzz<C>::identity(), sum = Xyzz<C>::identity();
    for (std::size_t b = bucket_.size(); b-- > 0;) {
      const Slot& s = bucket_[b];
      if (s.state != kEmpty) running.add_mixed(A{s.x, s.y, false});
      sum.add(running);
    }
    return sum;
  }

 private:
  static constexpr std::uint8_t kEmpty = kBucketEmpty, kSet = kBucketSet, kBusy = kBucketBusy;
  // A bucket: affine coordinates and its state in one record, so an insert touches one place.
  struct Slot {
    F x, y;
    std::uint8_t state = kEmpty;
  };
  // Puts bucket[b] += p into the batch; false when bucket b already waits in it.
  bool try_add(std::uint32_t b, const A& p) {
    Slot& acc = bucket_[b];
    const BucketInsert kind = bucket_insert(acc, p);
    if (kind == BucketInsert::busy) return false;
    if (kind == BucketInsert::settled) return true;
    const bool same_x = kind == BucketInsert::doubling;
    den_[m_] = same_x ? p.y.dbl() : p.x - acc.x;
    doubling_[m_] = same_x ? 1 : 0;
    slot_[m_] = b;
    point_[m_] = p;
    acc.state = kBusy;
    if (++m_ == batch_) execute();
    return true;
  }

  void add_overflow(std::uint32_t b, const A& p) { this->overflow_add_xyzz(b, p); }

  // Entry k's value in the batch inversion: its denominator, or on G2 the denominator's norm.
  const B& batch_value(std::size_t k) const {
    if constexpr (std::is_same_v<B, F>) {
      return den_[k];
    } else {
      return norm_[k];
    }
  }

  void execute() {
    if constexpr (!std::is_same_v<B, F>) {
      for (std::size_t k = 0; k < m_; ++k) norm_[k] = BF::value(den_[k]);
    }
    prefix_[0] = batch_value(0);
    for (std::size_t k = 1; k < m_; ++k) prefix_[k] = prefix_[k - 1] * batch_value(k);
    B inv = prefix_[m_ - 1].inverse_vartime();
    for (std::size_t k = m_; k-- > 0;) {
      const F d_inv = BF::inverse(den_[k], k > 0 ? inv * prefix_[k - 1] : inv);
      if (k > 0) inv *= batch_value(k);
      Slot& a = bucket_[slot_[k]];
      const A& p = point_[k];
      F lambda;
      if (doubling_[k]) {
        const F xx = p.x.square();
        lambda = (xx.dbl() + xx) * d_inv;
      } else {
        lambda = (p.y - a.y) * d_inv;
      }
      const F x3 = lambda.square() - a.x - p.x;
      a.y = lambda * (a.x - x3) - a.y;
      a.x = x3;
      a.state = kSet;
    }
    m_ = 0;
    flushed_ = true;
  }

  ScratchArray<Slot> bucket_;
  std::vector<std::uint32_t> slot_;
  std::vector<std::uint8_t> doubling_;  // the batch entry is P + P (denominator 2y)
  std::vector<A> point_;
  std::vector<F> den_;
  std::vector<B> prefix_, norm_;  // norm_: G2 only (empty when B = F)
};

}  // namespace cuzk
