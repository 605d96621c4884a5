// ThreadPool: every index is visited exactly once for random n and pool sizes, chunk bounds are
// respected, nesting and concurrent callers run inline instead of deadlocking.
#include "cuzk/base/thread_pool.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <random>
#include <stdexcept>
#include <thread>
#include <vector>

namespace cuzk {
namespace {

std::uint64_t test_seed() {
  // CUZK_TEST_SEED=<n> replays a run.
  const char* env = std::getenv("CUZK_TEST_SEED");
  std::uint64_t seed = env ? std::strtoull(env, nullptr, 10) : std::random_device{}();
  std::printf("thread_pool_test seed=%llu\n", static_cast<unsigned long long>(seed));
  return seed;
}

TEST(ThreadPool, SizeAndDefault) {
  EXPECT_EQ(ThreadPool(1).size(), 1u);
  EXPECT_EQ(ThreadPool(3).size(), 3u);
  EXPECT_GE(ThreadPool(0).size(), 1u);
}

TEST(ThreadPool, EachIndexOnceRandomSizes) {
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  for (std::size_t threads : {1, 2, 3, 5}) {
    ThreadPool pool(threads);
    for (int rep = 0; rep < 40; ++rep) {
      const std::size_t n = rng() % 5000;
      const std::size_t min_chunk = 1 + rng() % 300;
      std::vector<std::atomic<int>> hits(n);
      pool.parallel_for(
          n, [&](std::size_t i) { hits[i].fetch_add(1); }, min_chunk);
      for (std::size_t i = 0; i < n; ++i)
        ASSERT_EQ(hits[i].load(), 1)
            << "i=" << i << " n=" << n << " threads=" << threads << " seed=" << seed;

      std::vector<std::atomic<int>> hits2(n);
      std::atomic<std::size_t> small{0};
      pool.parallel_for(
          n,
          [&](std::size_t b, std::size_t e) {
            ASSERT_LT(b, e);
            ASSERT_LE(e, n);
            if (e - b < min_chunk && e != n) small.fetch_add(1);
            for (std::size_t i = b; i < e; ++i) hits2[i].fetch_add(1);
          },
          min_chunk);
      EXPECT_EQ(small.load(), 0u) << "seed=" << seed;
      for (std::size_t i = 0; i < n; ++i)
        ASSERT_EQ(hits2[i].load(), 1) << "i=" << i << " seed=" << seed;
    }
  }
}

TEST(ThreadPool, UsesSeveralThreads) {
  ThreadPool pool(3);
  std::mutex mu;
  std::vector<std::thread::id> ids;
  // Each chunk waits until three distinct threads have arrived (or gives up after a while), so a
  // pool that ran everything on one thread is detected.
  std::atomic<int> arrived{0};
  pool.parallel_for(
      3,
      [&](std::size_t, std::size_t) {
        {
          std::lock_guard<std::mutex> lock(mu);
          ids.push_back(std::this_thread::get_id());
        }
        arrived.fetch_add(1);
        for (int spin = 0; spin < 2000 && arrived.load() < 3; ++spin)
          std::this_thread::sleep_for(std::chrono::milliseconds(1));
      },
      1);
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(std::unique(ids.begin(), ids.end()) - ids.begin(), 3);
}

TEST(ThreadPool, NestedRunsInline) {
  ThreadPool pool(3);
  std::atomic<std::size_t> sum{0};
  pool.parallel_for(7, [&](std::size_t i) {
    pool.parallel_for(11, [&](std::size_t j) { sum.fetch_add(i * 11 + j); });
  });
  EXPECT_EQ(sum.load(), 77u * 76u / 2u);
}

TEST(ThreadPool, ConcurrentCallers) {
  ThreadPool pool(2);
  std::atomic<std::size_t> total{0};
  std::vector<std::thread> callers;
  for (int c = 0; c < 3; ++c)
    callers.emplace_back([&] {
      for (int rep = 0; rep < 200; ++rep)
        pool.parallel_for(100, [&](std::size_t i) { total.fetch_add(i); });
    });
  for (auto& t : callers) t.join();
  EXPECT_EQ(total.load(), 3u * 200u * (100u * 99u / 2u));
}

TEST(ThreadPool, ManySmallLoops) {
  ThreadPool pool(3);
  std::uint64_t expect = 0;
  std::atomic<std::uint64_t> got{0};
  for (std::size_t rep = 0; rep < 3000; ++rep) {
    const std::size_t n = rep % 17;
    pool.parallel_for(n, [&](std::size_t i) { got.fetch_add(i + 1); });
    expect += n * (n + 1) / 2;
  }
  EXPECT_EQ(got.load(), expect);
}

TEST(ThreadPool, ExceptionPropagates) {
  ThreadPool pool(2);
  EXPECT_THROW(pool.parallel_for(100,
                                 [](std::size_t i) {
                                   if (i == 57) throw std::runtime_error("57");
                                 }),
               std::runtime_error);
  std::atomic<int> after{0};
  pool.parallel_for(10, [&](std::size_t) { after.fetch_add(1); });
  EXPECT_EQ(after.load(), 10);
}

}  // namespace
}  // namespace cuzk
