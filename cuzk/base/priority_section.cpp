#include "cuzk/base/priority_section.hpp"

namespace cuzk {

namespace {
thread_local std::uint32_t t_work_priority = kUnsetWorkPriority;
}  // namespace

std::uint32_t current_work_priority() { return t_work_priority; }

ScopedWorkPriority::ScopedWorkPriority(std::uint32_t priority) : previous_(t_work_priority) {
  t_work_priority = priority;
}
ScopedWorkPriority::~ScopedWorkPriority() { t_work_priority = previous_; }

void PrioritySection::lock(std::uint32_t priority) {
  std::unique_lock lock(mu_);
  const std::pair<std::uint32_t, std::uint64_t> me{priority, next_ticket_++};
  if (!held_ && waiters_.empty()) {
    held_ = true;
    return;
  }
  waiters_.insert(me);
  cv_.wait(lock, [&] { return !held_ && *waiters_.begin() == me; });
  waiters_.erase(waiters_.begin());
  held_ = true;
}

void PrioritySection::unlock() {
  {
    std::lock_guard lock(mu_);
    held_ = false;
  }
  cv_.notify_all();  // the most urgent waiter enters; the others wait again
}

std::size_t PrioritySection::waiting() const {
  std::lock_guard lock(mu_);
  return waiters_.size();
}

bool PrioritySection::held() const {
  std::lock_guard lock(mu_);
  return held_;
}

}  // namespace cuzk
