// MemoryBudget: one byte budget for everything large (keys, partition witnesses, queued inputs).
// Reserve before allocating; the peak of reserved bytes is tracked and reported. Reservations
// below CRITICAL may not use the last |critical_headroom| bytes, so a CRITICAL job always finds
// room even when NORMAL work has filled everything else (DESIGN.md §3).
//
// try_reserve never blocks: waiting, priority order and FIFO order belong to the scheduler's
// admission loop, which retries when on_release wakes it.
#pragma once

#include <cstdint>
#include <functional>
#include <mutex>
#include <utility>

#include "cuzk/engine/job_types.hpp"

namespace cuzk::engine {

class MemoryBudget {
 public:
  MemoryBudget(std::uint64_t limit, std::uint64_t critical_headroom)
      : limit_(limit), headroom_(critical_headroom < limit ? critical_headroom : limit) {}

  /// Called (without the budget's lock) after every release; the scheduler wakes on it.
  void set_on_release(std::function<void()> fn) { on_release_ = std::move(fn); }

  /// Reserves |bytes| for work of priority |p| if they fit; false otherwise.
  bool try_reserve(std::uint64_t bytes, Priority p) {
    std::lock_guard lock(mu_);
    std::uint64_t cap = p == Priority::critical ? limit_ : limit_ - headroom_;
    if (bytes > cap || used_ > cap - bytes) return false;
    used_ += bytes;
    if (used_ > peak_) peak_ = used_;
    return true;
  }

  /// True when |bytes| could ever be reserved at priority |p| (an empty budget would hold it).
  bool can_ever_fit(std::uint64_t bytes, Priority p) const {
    return bytes <= (p == Priority::critical ? limit_ : limit_ - headroom_);
  }

  void release(std::uint64_t bytes) {
    {
      std::lock_guard lock(mu_);
      used_ = bytes > used_ ? 0 : used_ - bytes;
    }
    if (on_release_) on_release_();
  }

  std::uint64_t limit() const { return limit_; }
  std::uint64_t headroom() const { return headroom_; }
  std::uint64_t used() const {
    std::lock_guard lock(mu_);
    return used_;
  }
  std::uint64_t peak() const {
    std::lock_guard lock(mu_);
    return peak_;
  }
  void reset_peak() {
    std::lock_guard lock(mu_);
    peak_ = used_;
  }

 private:
  const std::uint64_t limit_;
  const std::uint64_t headroom_;
  mutable std::mutex mu_;
  std::uint64_t used_ = 0;
  std::uint64_t peak_ = 0;
  std::function<void()> on_release_;
};

/// RAII ownership of reserved bytes; release(n) gives part back early (a/b/c after the GPU stage).
class Reservation {
 public:
  Reservation() = default;
  Reservation(MemoryBudget* budget, std::uint64_t bytes) : budget_(budget), bytes_(bytes) {}
  Reservation(Reservation&& o) noexcept
      : budget_(std::exchange(o.budget_, nullptr)), bytes_(std::exchange(o.bytes_, 0)) {}
  Reservation& operator=(Reservation&& o) noexcept {
    if (this != &o) {
      reset();
      budget_ = std::exchange(o.budget_, nullptr);
      bytes_ = std::exchange(o.bytes_, 0);
    }
    return *this;
  }
  Reservation(const Reservation&) = delete;
  Reservation& operator=(const Reservation&) = delete;
  ~Reservation() { reset(); }

  /// Gives back min(n, held) bytes now.
  void release(std::uint64_t n) {
    if (!budget_) return;
    if (n > bytes_) n = bytes_;
    bytes_ -= n;
    if (n) budget_->release(n);
  }
  void reset() {
    if (budget_ && bytes_) budget_->release(bytes_);
    budget_ = nullptr;
    bytes_ = 0;
  }
  std::uint64_t bytes() const { return bytes_; }

 private:
  MemoryBudget* budget_ = nullptr;
  std::uint64_t bytes_ = 0;
};

}  // namespace cuzk::engine
