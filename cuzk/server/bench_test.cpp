// steady_window: the bench client's steady-state busy fraction. The window opens at the first
// completion and closes at the last submission, snapped inward to the GetStatus samples; busy is
// the busy_any increase between those two samples over their distance. Synthetic timelines with
// known answers, including a random one checked against a slow twin (seed printed).
#include "cuzk/server/bench.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <random>

namespace cuzk::server {
namespace {

// A device busy exactly on [on, off) intervals; samples every |dt| from 0 to |end|.
std::vector<BusySample> sample_intervals(const std::vector<std::pair<double, double>>& busy,
                                         double dt, double end) {
  std::vector<BusySample> out;
  for (double t = 0; t <= end + 1e-12; t += dt) {
    double acc = 0;
    for (auto [on, off] : busy) acc += std::max(0.0, std::min(t, off) - on) * (t > on);
    out.push_back(BusySample{.t = t, .busy_any = {{0, acc}}});
  }
  return out;
}

TEST(SteadyWindow, FillAndDrainExcluded) {
  // Idle 0..5 s (pipeline fill), busy 5..25 s, idle 25..30 s (drain). First completion at 6 s,
  // last submission at 20 s: the window [6, 20] is all busy although the whole run is 20/30.
  auto s = sample_intervals({{5, 25}}, 0.5, 30);
  auto w = steady_window(s, {0, 0, 3, 8, 13, 20}, {6, 11, 16, 21, 26, 30});
  ASSERT_TRUE(w.valid);
  EXPECT_DOUBLE_EQ(w.open, 6);
  EXPECT_DOUBLE_EQ(w.close, 20);
  EXPECT_DOUBLE_EQ(w.t0, 6);
  EXPECT_DOUBLE_EQ(w.t1, 20);
  EXPECT_NEAR(w.busy_fraction.at(0), 1.0, 1e-12);
  EXPECT_EQ(w.completions, 3u);  // 6, 11, 16
  EXPECT_NEAR(w.seconds_per_job, 5.0, 1e-12);
}

TEST(SteadyWindow, SnapsInwardToSamples) {
  // Busy half of every second ([k, k + 0.5)); samples every 0.3 s. open 1.1 → sample 1.2,
  // close 4.0 → sample 3.9; busy between them: 1.2..1.5 (0.3) + 2..2.5 + 3..3.5 = 1.3 over 2.7.
  std::vector<std::pair<double, double>> iv;
  for (int k = 0; k < 10; ++k) iv.push_back({k, k + 0.5});
  auto s = sample_intervals(iv, 0.3, 10);
  auto w = steady_window(s, {0, 4.0}, {1.1, 9});
  ASSERT_TRUE(w.valid);
  EXPECT_NEAR(w.t0, 1.2, 1e-9);
  EXPECT_NEAR(w.t1, 3.9, 1e-9);
  EXPECT_NEAR(w.busy_fraction.at(0), 1.3 / 2.7, 1e-9);
  EXPECT_EQ(w.completions, 1u);
  EXPECT_EQ(w.seconds_per_job, 0.0);
}

TEST(SteadyWindow, NoWindowWhenAllJobsSubmittedBeforeTheFirstCompletes) {
  // count ≤ concurrency: every job is submitted at the start, so the window is empty.
  auto s = sample_intervals({{0, 10}}, 0.2, 10);
  EXPECT_FALSE(steady_window(s, {0, 0.01, 0.02}, {5, 6, 7}).valid);
  EXPECT_FALSE(steady_window(s, {}, {}).valid);
  EXPECT_FALSE(steady_window({}, {0, 6}, {5, 9}).valid);
  // One sample inside only.
  EXPECT_FALSE(steady_window(sample_intervals({{0, 10}}, 1.0, 10), {0, 5.5}, {5.2, 9}).valid);
}

TEST(SteadyWindow, TwoDevicesAndADeviceMissingAtTheStart) {
  std::vector<BusySample> s;
  for (int i = 0; i <= 10; ++i) {
    BusySample b{.t = double(i), .busy_any = {{0, 0.5 * i}, {1, 0.25 * i}}};
    if (i < 3)
      b.busy_any.erase(2);
    else
      b.busy_any[2] = i;  // a device that appears later is reported only when both samples hold it
    s.push_back(b);
  }
  auto w = steady_window(s, {0, 8}, {2, 10});
  ASSERT_TRUE(w.valid);
  EXPECT_NEAR(w.busy_fraction.at(0), 0.5, 1e-12);
  EXPECT_NEAR(w.busy_fraction.at(1), 0.25, 1e-12);
  EXPECT_EQ(w.busy_fraction.count(2), 0u);
}

TEST(SteadyWindow, RandomTimelinesMatchSlowTwin) {
  const std::uint64_t seed = std::random_device{}();
  std::printf("seed %llu\n", static_cast<unsigned long long>(seed));
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  for (int t = 0; t < 50; ++t) {
    std::vector<std::pair<double, double>> iv;
    for (double x = u(rng); x < 40; x += 0.1 + 2 * u(rng)) {
      double len = 0.05 + 1.5 * u(rng);
      iv.push_back({x, x + len});
      x += len;
    }
    const double dt = 0.05 + 0.4 * u(rng);
    auto s = sample_intervals(iv, dt, 40);
    std::vector<double> sub, done;
    for (int j = 0; j < 8; ++j) {
      sub.push_back(30 * u(rng));
      done.push_back(sub.back() + 1 + 8 * u(rng));
    }
    auto w = steady_window(s, sub, done);
    const double open = *std::min_element(done.begin(), done.end());
    const double close = *std::max_element(sub.begin(), sub.end());
    // Slow twin: the samples' own grid, busy measured from the intervals directly.
    double t0 = -1, t1 = -1;
    for (auto& b : s) {
      if (t0 < 0 && b.t >= open) t0 = b.t;
      if (b.t <= close) t1 = b.t;
    }
    if (t0 < 0 || t1 <= t0) {
      EXPECT_FALSE(w.valid) << "trial " << t;
      continue;
    }
    ASSERT_TRUE(w.valid) << "trial " << t;
    double busy = 0;
    for (auto [on, off] : iv) busy += std::max(0.0, std::min(off, t1) - std::max(on, t0));
    EXPECT_NEAR(w.busy_fraction.at(0), busy / (t1 - t0), 1e-9) << "trial " << t;
    std::size_t n = 0;
    for (double d : done) n += d >= open && d <= close;
    EXPECT_EQ(w.completions, n) << "trial " << t;
  }
}

}  // namespace
}  // namespace cuzk::server
