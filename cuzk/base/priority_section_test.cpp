// PrioritySection: waiters enter most urgent first, in arrival order among equals; the thread's
// work priority (ScopedWorkPriority) is what lock() takes, unset counting as most urgent; mutual
// exclusion under contention.
#include "cuzk/base/priority_section.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace cuzk {
namespace {

// Blocks until |n| callers wait at |s| (they arrive in the order the test starts them).
void wait_for_waiters(const PrioritySection& s, std::size_t n) {
  while (s.waiting() < n) std::this_thread::yield();
}

struct EntryLog {
  std::mutex mu;
  std::vector<std::string> order;
  void add(const std::string& who) {
    std::lock_guard lock(mu);
    order.push_back(who);
  }
};

TEST(PrioritySection, MostUrgentWaiterEntersFirstThenArrivalOrder) {
  PrioritySection s;
  EntryLog log;
  s.lock(2);  // a PoRep partition inside
  std::vector<std::thread> threads;
  const std::vector<std::pair<std::string, std::uint32_t>> arrivals = {
      {"low", 1}, {"critical-1", 4}, {"normal", 2}, {"critical-2", 4}, {"high", 3}};
  for (std::size_t i = 0; i < arrivals.size(); ++i) {
    threads.emplace_back([&, i] {
      s.lock(arrivals[i].second);
      log.add(arrivals[i].first);
      s.unlock();
    });
    wait_for_waiters(s, i + 1);
  }
  EXPECT_TRUE(s.held());
  s.unlock();
  for (auto& t : threads) t.join();
  EXPECT_EQ(log.order,
            (std::vector<std::string>{"critical-1", "critical-2", "high", "normal", "low"}));
  EXPECT_FALSE(s.held());
  EXPECT_EQ(s.waiting(), 0u);
}

TEST(PrioritySection, ThreadWorkPriorityIsScopedAndUnsetIsMostUrgent) {
  EXPECT_EQ(current_work_priority(), kUnsetWorkPriority);
  {
    ScopedWorkPriority outer(2);
    EXPECT_EQ(current_work_priority(), 2u);
    {
      ScopedWorkPriority inner(4);
      EXPECT_EQ(current_work_priority(), 4u);
    }
    EXPECT_EQ(current_work_priority(), 2u);
  }
  EXPECT_EQ(current_work_priority(), kUnsetWorkPriority);

  PrioritySection s;
  EntryLog log;
  s.lock(1);
  std::thread post([&] {
    ScopedWorkPriority p(4);
    std::lock_guard lock(s);  // lock() at the thread's priority
    log.add("critical");
  });
  wait_for_waiters(s, 1);
  std::thread load([&] {  // no priority set: a key load, most urgent
    std::lock_guard lock(s);
    log.add("unset");
  });
  wait_for_waiters(s, 2);
  s.unlock();
  post.join();
  load.join();
  EXPECT_EQ(log.order, (std::vector<std::string>{"unset", "critical"}));
}

TEST(PrioritySection, MutualExclusionUnderContention) {
  PrioritySection s;
  std::atomic<int> inside{0};
  std::atomic<bool> overlap{false};
  long counter = 0;
  constexpr int kThreads = 8, kRounds = 2000;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      ScopedWorkPriority p(static_cast<std::uint32_t>(t % 4));
      for (int i = 0; i < kRounds; ++i) {
        std::lock_guard lock(s);
        if (inside.fetch_add(1) != 0) overlap = true;
        ++counter;
        inside.fetch_sub(1);
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_FALSE(overlap.load());
  EXPECT_EQ(counter, long{kThreads} * kRounds);
}

}  // namespace
}  // namespace cuzk
