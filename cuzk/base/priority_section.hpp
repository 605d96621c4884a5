// PrioritySection: a device's compute section (DESIGN.md §3, "compute section serialized per
// device") whose waiters enter most urgent first, in arrival order among equals. A plain mutex
// lets whichever waiter wins the race in: a PoSt partition that reaches the device while a PoRep
// partition computes and another PoRep partition waits could wait for both (≈ 2 × 1.6 s at 32 GiB);
// here it enters next.
//
// The priority is the calling thread's work priority (ScopedWorkPriority, set by the engine's
// device workers around a device call), so a backend takes its section with std::lock_guard and
// no argument. A thread that never set one (key loads and releases, status, the CLI) counts as
// most urgent: those calls are short or were always serialized with partitions, and a key load
// that partitions of other keys kept out would stall the jobs that need it.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <limits>
#include <mutex>
#include <set>
#include <utility>

namespace cuzk {

/// The calling thread's work priority: larger is more urgent (cuzk.v1.Priority's numbers);
/// kUnsetWorkPriority unless a ScopedWorkPriority is alive on this thread.
inline constexpr std::uint32_t kUnsetWorkPriority = std::numeric_limits<std::uint32_t>::max();
std::uint32_t current_work_priority();

/// Sets the calling thread's work priority for its lifetime, then restores the previous one.
class ScopedWorkPriority {
 public:
  explicit ScopedWorkPriority(std::uint32_t priority);
  ~ScopedWorkPriority();
  ScopedWorkPriority(const ScopedWorkPriority&) = delete;
  ScopedWorkPriority& operator=(const ScopedWorkPriority&) = delete;

 private:
  std::uint32_t previous_;
};

class PrioritySection {
 public:
  /// Enters at current_work_priority(): waits while the section is held or a more urgent caller
  /// (or an equally urgent earlier one) waits. BasicLockable: std::lock_guard works.
  void lock() { lock(current_work_priority()); }
  void lock(std::uint32_t priority);
  void unlock();
  /// Callers waiting to enter now (tests, status).
  std::size_t waiting() const;
  /// Whether a caller is inside.
  bool held() const;

 private:
  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool held_ = false;
  std::uint64_t next_ticket_ = 0;
  // (priority, ticket), most urgent first: higher priority, then the earlier ticket.
  struct Order {
    bool operator()(const std::pair<std::uint32_t, std::uint64_t>& a,
                    const std::pair<std::uint32_t, std::uint64_t>& b) const {
      return a.first != b.first ? a.first > b.first : a.second < b.second;
    }
  };
  std::set<std::pair<std::uint32_t, std::uint64_t>, Order> waiters_;
};

}  // namespace cuzk
