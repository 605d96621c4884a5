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
// CRTP: Derived provides bool try_add(b, p) (false when bucket b waits in the batch; runs the
// batch when it fills), void execute() (runs the batch, sets m_ = 0 and flushed_), and
// void add_overflow(b, p) (adds p to overflow bucket b through overflow_add_xyzz).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "cuzk/ec/affine.hpp"
#include "cuzk/ec/xyzz.hpp"

namespace cuzk {

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

  /// Runs everything pending; a nearly empty final batch sends the queue to the overflow buckets.
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
    overflow_.clear();
    early_runs_ = batch_ == max_batch_;
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

  /// overflow bucket b += q. The overflow array ends at the highest bucket used: skewed digits
  /// overflow into low buckets, and the reduction walks only up to there.
  void overflow_add_xyzz(std::uint32_t b, const A& q) {
    if (b >= overflow_.size()) overflow_.resize(b + 1, Xyzz<C>::identity());
    overflow_[b].add_mixed(q);
  }

  std::size_t max_batch_, batch_;
  std::vector<Pending> queue_;
  std::vector<Xyzz<C>> overflow_;
  std::size_t m_ = 0;          ///< additions in the pending batch
  bool flushed_ = false;       ///< a batch ran since the last drain
  bool early_runs_ = true;     ///< add() may run a batch early in this window

 private:
  Derived& self() { return static_cast<Derived&>(*this); }
};

}  // namespace cuzk
