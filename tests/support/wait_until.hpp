// wait_until: for tests that must see another thread reach a state (a job in synthesis, a budget
// back to the key) before they act or assert. Polls |reached| every millisecond until it holds or
// |limit| passes; the limit is generous and only turns a hang into a clear failure — a test never
// measures it, and a correct engine reaches the state long before it on any machine.
#pragma once

#include <chrono>
#include <thread>

namespace cuzk::test {

inline constexpr std::chrono::seconds kStateDeadline{30};

/// Whether |reached()| held before |limit| passed (it is checked once more at the deadline).
template <class Predicate>
bool wait_until(Predicate&& reached, std::chrono::milliseconds limit = kStateDeadline) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (!reached()) {
    if (std::chrono::steady_clock::now() >= deadline) return reached();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

}  // namespace cuzk::test
