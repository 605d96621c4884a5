// BatchSchedule: the insert schedule of the batch-affine bucket sets (pippenger.cpp's AffineBuckets,
// ifma_buckets.hpp's IfmaBuckets), which differ only in how a batch of affine additions is run.
// An addition goes into the pending batch unless its bucket already waits there; then into a queue
// of one batch's size, let in again after the batch runs; past that, into an XYZZ overflow bucket.
// A full queue in a full-size window means skewed digits (small scalars: most points wait on a few
// busy buckets): the batch then runs early once it holds kEarlyBatch additions (its inversion is
// paid by them), until a drain lets fewer than kEarlyBatch entries in (one hot bucket: the ones of a
// run without the 0/1 split), after which the window's rest overflows (cheaper then).
// Measured: docs/perf/msm.md Version 5 ("Skewed digits").
//
// The overflow buckets are kept compactly (a list of the buckets used, and a slot index per bucket),
// and finish() folds them into the batch-affine buckets: each becomes one affine point (one batch
// inversion for all) added to its bucket in a batch, so a reduction never walks them. (Before, the
// overflow array ran up to the highest bucket used: with one hot bucket, as the ones of a run
// without the 0/1 split, later collisions overflowed anywhere, and a G2 window at c = 17 filled and
// walked 2^16 XYZZ buckets; msm.md Version 6.)
//
// CRTP: Derived provides bool try_add(b, p) (false when bucket b waits in the batch; runs the
// batch when it fills), void execute() (runs the batch, sets m_ = 0 and flushed_),
// void add_overflow(b, p) (adds p to overflow bucket b through overflow_add_xyzz), and
// A bucket_form(const A& p) (public: an affine point in the form add() takes).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <type_traits>
#include <vector>

#include "cuzk/ec/affine.hpp"
#include "cuzk/ec/batch_affine.hpp"
#include "cuzk/ec/jacobian.hpp"
#include "cuzk/ec/xyzz.hpp"

namespace cuzk {

/// States of a batch-affine bucket: empty; set (its affine point is valid); busy (set, and waiting in
/// the pending batch).
inline constexpr std::uint8_t kBucketEmpty = 0, kBucketSet = 1, kBucketBusy = 2;

/// Field elements equal as stored (Montgomery form is canonical): an inline word compare, where the
/// field's operator== of the limb arrays goes through a memcmp call (7 % of a G1 MSM in perf).
template <class F>
inline bool equal_limbs(const F& a, const F& b) {
  static_assert(sizeof(F) % 8 == 0 && std::is_trivially_copyable_v<F>);
  std::uint64_t wa[sizeof(F) / 8], wb[sizeof(F) / 8];
  std::memcpy(wa, &a, sizeof(F));
  std::memcpy(wb, &b, sizeof(F));
  std::uint64_t diff = 0;
  for (std::size_t i = 0; i < sizeof(F) / 8; ++i) diff |= wa[i] ^ wb[i];
  return diff == 0;
}

/// What bucket |acc| (x, y, state) += p needs, in both bucket sets. Settled at once: an empty bucket
/// takes p; P + (−P), or a 2-torsion doubling, empties it. Otherwise p joins the batch, as a chord
/// addition or (equal points) a doubling; or waits, when the bucket is already in the batch.
enum class BucketInsert : std::uint8_t { busy, settled, add, doubling };
template <class Slot, class A>
inline BucketInsert bucket_insert(Slot& acc, const A& p) {
  if (acc.state == kBucketBusy) return BucketInsert::busy;
  if (acc.state == kBucketEmpty) {
    acc.x = p.x;
    acc.y = p.y;
    acc.state = kBucketSet;
    return BucketInsert::settled;
  }
  if (!equal_limbs(acc.x, p.x)) return BucketInsert::add;
  if (!equal_limbs(acc.y, p.y) || p.y.is_zero()) {
    acc.state = kBucketEmpty;
    return BucketInsert::settled;
  }
  return BucketInsert::doubling;
}

template <class Derived, class C>
class BatchSchedule {
 public:
  using A = Affine<C>;
  /// The fewest additions a batch runs with before its time.
  static constexpr std::size_t kEarlyBatch = 32;

  /// bucket[b] += p (p not the identity).
  void add(std::uint32_t b, const A& p) {
    if (insert(b, p)) return;
    if (early_runs_ && m_ >= kEarlyBatch) {
      self().execute();
      const std::size_t waiting = queue_.size();
      drain();
      if (waiting - queue_.size() < kEarlyBatch) early_runs_ = false;
      if (insert(b, p)) return;
    }
    self().add_overflow(b, p);
  }

  /// Runs everything pending (a nearly empty final batch sends the queue to the overflow buckets),
  /// then folds the overflow buckets in: afterwards every sum is in the batch-affine buckets.
  void finish() {
    Derived& d = self();
    for (;;) {
      if (m_ > 0) d.execute();
      if (queue_.empty()) break;
      drain();
      if (m_ < 16 && !queue_.empty()) {
        for (const auto& [b, p] : queue_) d.add_overflow(b, p);
        queue_.clear();
      }
    }
    fold_overflow();
  }

 protected:
  struct Pending {
    std::uint32_t bucket;
    A point;
  };

  explicit BatchSchedule(std::size_t max_batch) : max_batch_(max_batch), batch_(max_batch) {
    queue_.reserve(max_batch);
  }

  /// A new window: at most |batch| additions per run. A window whose batch is cut below the
  /// maximum (a top window of few live buckets, its batch a quarter of them) keeps the queue near
  /// full by design, so it runs no batch early (doing so made a 2^16 prove's G2 MSM 20 % slower).
  void reset_schedule(std::size_t batch) {
    batch_ = std::max<std::size_t>(1, std::min(batch, max_batch_));
    early_runs_ = batch_ == max_batch_;
    clear_overflow();
    queue_.clear();
    m_ = 0;
    flushed_ = false;
  }

  /// Into the batch (letting the queue in after a run), else into the queue; false when both are full.
  bool insert(std::uint32_t b, const A& p) {
    if (self().try_add(b, p)) {
      if (flushed_) drain();
      return true;
    }
    if (queue_.size() < batch_) {
      queue_.push_back({b, p});
      return true;
    }
    return false;
  }

  /// Lets queued entries into the (new) batch.
  void drain() {
    flushed_ = false;
    std::size_t keep = 0;
    for (std::size_t i = 0; i < queue_.size(); ++i) {
      if (!self().try_add(queue_[i].bucket, queue_[i].point)) queue_[keep++] = queue_[i];
    }
    queue_.resize(keep);
  }

  /// overflow bucket b += q (q in Fp's form).
  void overflow_add_xyzz(std::uint32_t b, const A& q) {
    if (b >= overflow_slot_.size()) overflow_slot_.resize(std::size_t{b} + 1, 0);
    std::uint32_t& slot = overflow_slot_[b];
    if (slot == 0) {
      overflow_.push_back({b, Xyzz<C>::identity()});
      slot = static_cast<std::uint32_t>(overflow_.size());
    }
    overflow_[slot - 1].sum.add_mixed(q);
  }

  struct OverflowBucket {
    std::uint32_t bucket;
    Xyzz<C> sum;
  };

  std::size_t max_batch_, batch_;
  std::vector<Pending> queue_;
  std::vector<OverflowBucket> overflow_;      ///< the overflow buckets used, in order of first use
  std::vector<std::uint32_t> overflow_slot_;  ///< per bucket: 1 + its place in overflow_, or 0
  std::size_t m_ = 0;                         ///< additions in the pending batch
  bool flushed_ = false;                      ///< a batch ran since the last drain
  bool early_runs_ = true;                    ///< add() may run a batch early in this window

 private:
  Derived& self() { return static_cast<Derived&>(*this); }

  void clear_overflow() {
    for (const auto& o : overflow_) overflow_slot_[o.bucket] = 0;
    overflow_.clear();
  }

  /// Each overflow bucket to affine (batch_to_affine_vartime: one inversion), then into its
  /// batch-affine bucket; the buckets are distinct and none waits in a batch, so each insert is
  /// taken at once (a busy one would run the batch first).
  void fold_overflow() {
    if (overflow_.empty()) return;
    Derived& d = self();
    std::vector<Jacobian<C>> jac(overflow_.size());
    for (std::size_t i = 0; i < overflow_.size(); ++i) jac[i] = overflow_[i].sum.to_jacobian();
    const std::vector<A> aff = batch_to_affine_vartime<C>(std::span<const Jacobian<C>>(jac));
    for (std::size_t i = 0; i < aff.size(); ++i) {
      if (aff[i].infinity) continue;
      const A p = d.bucket_form(aff[i]);
      while (!d.try_add(overflow_[i].bucket, p)) d.execute();
    }
    if (m_ > 0) d.execute();
    flushed_ = false;
    clear_overflow();
  }
};

}  // namespace cuzk
