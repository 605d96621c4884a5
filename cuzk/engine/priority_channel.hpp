// PriorityChannel<T>: a bounded multi-producer multi-consumer queue that hands out the most urgent
// item first: higher priority, then older job (smaller sequence number), then lower partition
// index — so within a class the order is FIFO by submission and a job's partitions go in order.
// close() wakes everyone; remove_if() takes items out (cancellation) and returns them, so their
// destructors (memory reservations) run outside the channel's lock.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

#include "cuzk/engine/job_types.hpp"

namespace cuzk::engine {

/// Order key of a partition: (priority, job sequence, partition index).
struct WorkKey {
  Priority priority = Priority::normal;
  std::uint64_t seq = 0;
  std::uint32_t partition = 0;
  friend bool operator<(const WorkKey& a, const WorkKey& b) {
    // Larger priority first, then smaller seq, then smaller partition.
    return std::make_tuple(-static_cast<int>(a.priority), a.seq, a.partition) <
           std::make_tuple(-static_cast<int>(b.priority), b.seq, b.partition);
  }
};

template <class T>
class PriorityChannel {
 public:
  /// |capacity| bounds push(); CRITICAL items may exceed it (they never wait behind a full queue).
  explicit PriorityChannel(std::size_t capacity) : capacity_(capacity ? capacity : 1) {}

  /// Blocks while full (unless critical); false when closed (the item is dropped).
  bool push(const WorkKey& key, T item) {
    std::unique_lock lock(mu_);
    not_full_.wait(lock, [&] {
      return closed_ || items_.size() < capacity_ || key.priority == Priority::critical;
    });
    if (closed_) return false;
    items_.emplace(key, std::move(item));
    not_empty_.notify_all();  // pop_matching waiters may not want it; wake everyone
    return true;
  }

  /// Returns an item its consumer took and will not run now, in its place (its key keeps its
  /// order), whatever the capacity: it was counted in before. False once closed.
  bool put_back(const WorkKey& key, T item) {
    std::unique_lock lock(mu_);
    if (closed_) return false;
    items_.emplace(key, std::move(item));
    not_empty_.notify_all();
    return true;
  }

  /// Blocks until an item is available or the channel is closed and empty (then nullopt).
  std::optional<std::pair<WorkKey, T>> pop() {
    std::unique_lock lock(mu_);
    not_empty_.wait(lock, [&] { return closed_ || !items_.empty(); });
    if (items_.empty()) return std::nullopt;
    auto node = items_.extract(items_.begin());
    not_full_.notify_one();
    return std::make_pair(node.key(), std::move(node.mapped()));
  }

  /// Blocks until an item matching |pred| is available (the first such in order) and takes it;
  /// nullopt once the channel is closed and holds no matching item.
  template <class Pred>
  std::optional<std::pair<WorkKey, T>> pop_if(Pred pred) {
    std::unique_lock lock(mu_);
    for (;;) {
      for (auto it = items_.begin(); it != items_.end(); ++it) {
        if (pred(it->first, it->second)) {
          auto node = items_.extract(it);
          not_full_.notify_one();
          return std::make_pair(node.key(), std::move(node.mapped()));
        }
      }
      if (closed_) return std::nullopt;
      not_empty_.wait(lock);
    }
  }

  /// Takes the most urgent item matching |first| or |second|; between items of the same
  /// priority, one matching |first| (a device's own work before work it may take over). Blocks
  /// until there is one; nullopt once closed with none.
  template <class First, class Second>
  std::optional<std::pair<WorkKey, T>> pop_prefer(First first, Second second) {
    std::unique_lock lock(mu_);
    for (;;) {
      auto cand = items_.end();
      for (auto it = items_.begin(); it != items_.end(); ++it) {
        if (first(it->first, it->second)) {
          if (cand == items_.end() || cand->first.priority == it->first.priority) cand = it;
          break;
        }
        if (cand == items_.end() && second(it->first, it->second)) cand = it;
      }
      if (cand != items_.end()) {
        auto node = items_.extract(cand);
        not_full_.notify_one();
        return std::make_pair(node.key(), std::move(node.mapped()));
      }
      if (closed_) return std::nullopt;
      not_empty_.wait(lock);
    }
  }

  /// Waits until |deadline| for the first item (in order) matching |pred| and takes it.
  template <class Pred>
  std::optional<std::pair<WorkKey, T>> pop_matching(
      Pred pred, std::chrono::steady_clock::time_point deadline) {
    std::unique_lock lock(mu_);
    for (;;) {
      for (auto it = items_.begin(); it != items_.end(); ++it) {
        if (pred(it->first, it->second)) {
          auto node = items_.extract(it);
          not_full_.notify_one();
          return std::make_pair(node.key(), std::move(node.mapped()));
        }
      }
      if (closed_ || not_empty_.wait_until(lock, deadline) == std::cv_status::timeout) {
        // One last look after the wait ends.
        for (auto it = items_.begin(); it != items_.end(); ++it) {
          if (pred(it->first, it->second)) {
            auto node = items_.extract(it);
            not_full_.notify_one();
            return std::make_pair(node.key(), std::move(node.mapped()));
          }
        }
        return std::nullopt;
      }
    }
  }

  /// Removes every item whose key or value matches |pred|; returns them.
  template <class Pred>
  std::vector<T> remove_if(Pred pred) {
    std::vector<T> out;
    {
      std::lock_guard lock(mu_);
      for (auto it = items_.begin(); it != items_.end();) {
        if (pred(it->first, it->second)) {
          out.push_back(std::move(it->second));
          it = items_.erase(it);
        } else {
          ++it;
        }
      }
    }
    not_full_.notify_all();
    return out;
  }

  void close() {
    std::lock_guard lock(mu_);
    closed_ = true;
    not_empty_.notify_all();
    not_full_.notify_all();
  }

  std::size_t size() const {
    std::lock_guard lock(mu_);
    return items_.size();
  }
  std::size_t capacity() const { return capacity_; }

  /// Calls fn(key, item) for each queued item in order (for status figures).
  template <class Fn>
  void for_each(Fn fn) const {
    std::lock_guard lock(mu_);
    for (const auto& [k, v] : items_) fn(k, v);
  }

 private:
  const std::size_t capacity_;
  mutable std::mutex mu_;
  std::condition_variable not_empty_, not_full_;
  std::multimap<WorkKey, T> items_;
  bool closed_ = false;
};

}  // namespace cuzk::engine
