// ThreadPool: a fixed set of worker threads for data-parallel loops. Never global: callers that
// want parallelism take a `ThreadPool&` (STYLE.md rule 9).
//
// A pool of size t owns t − 1 background threads; the calling thread works as the t-th, so a
// 1-thread pool runs every loop inline on the caller with no synchronisation. parallel_for splits
// [0, n) into chunks that the threads claim from one atomic counter (dynamic load balancing) and
// returns when every chunk has run. A parallel_for issued while the pool is busy (from inside a
// loop body, or from a second caller thread) runs inline on its caller, so nesting cannot deadlock.
#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

namespace cuzk {

class ThreadPool {
 public:
  /// A pool of |threads| workers, the caller included; 0 means std::thread::hardware_concurrency().
  explicit ThreadPool(std::size_t threads = 0) {
    if (threads == 0) threads = std::max<std::size_t>(1, std::thread::hardware_concurrency());
    size_ = threads;
    workers_.reserve(threads - 1);
    for (std::size_t i = 0; i + 1 < threads; ++i) workers_.emplace_back([this] { worker_loop(); });
  }
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;
  ~ThreadPool() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    wake_.notify_all();
    for (auto& t : workers_) t.join();
  }

  /// Number of threads that run a loop, the caller included.
  std::size_t size() const { return size_; }

  /// Runs |fn| over [0, n) and blocks until done. |fn| is called either as fn(begin, end) on
  /// disjoint chunks covering [0, n), or as fn(i) once per index, whichever it accepts. Chunks
  /// hold at least |min_chunk| indices (except the last); about 4 chunks per thread are made so
  /// uneven chunks balance. An exception thrown by |fn| is rethrown here after all chunks end.
  template <class F>
  void parallel_for(std::size_t n, F&& fn, std::size_t min_chunk = 1) {
    if (n == 0) return;
    auto body = [&fn](std::size_t b, std::size_t e) {
      if constexpr (std::is_invocable_v<F&, std::size_t, std::size_t>) {
        fn(b, e);
      } else {
        for (std::size_t i = b; i < e; ++i) fn(i);
      }
    };
    min_chunk = std::max<std::size_t>(1, min_chunk);
    if (size_ == 1 || n <= min_chunk) {
      body(0, n);
      return;
    }
    if (in_worker_ == this) {  // nested inside one of this pool's loops: run inline
      body(0, n);
      return;
    }
    std::unique_lock<std::mutex> submit(submit_mu_, std::try_to_lock);
    if (!submit.owns_lock()) {  // another thread's loop is running: run inline
      body(0, n);
      return;
    }
    const std::size_t target = size_ * 4;
    std::size_t chunk = std::max(min_chunk, (n + target - 1) / target);
    using Body = decltype(body);
    run(
        n, chunk, [](void* ctx, std::size_t b, std::size_t e) { (*static_cast<Body*>(ctx))(b, e); },
        &body);
  }

 private:
  using Call = void (*)(void*, std::size_t, std::size_t);

  struct Job {
    Call call = nullptr;
    void* ctx = nullptr;
    std::size_t n = 0;
    std::size_t chunk = 1;
    std::size_t chunks = 0;
  };

  // Claims chunks until none is left; returns how many this thread ran.
  std::size_t drain(const Job& job) {
    std::size_t ran = 0;
    for (;;) {
      std::size_t c = next_.fetch_add(1, std::memory_order_relaxed);
      if (c >= job.chunks) break;
      std::size_t b = c * job.chunk;
      std::size_t e = std::min(job.n, b + job.chunk);
      try {
        job.call(job.ctx, b, e);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mu_);
        if (!error_) error_ = std::current_exception();
      }
      ++ran;
    }
    return ran;
  }

  void run(std::size_t n, std::size_t chunk, Call call, void* ctx) {
    Job job{call, ctx, n, chunk, (n + chunk - 1) / chunk};
    {
      // A worker that woke late for the previous loop may still hold its copy of that job; wait
      // for it, so that resetting next_ cannot hand it a chunk of this one.
      std::unique_lock<std::mutex> lock(mu_);
      finished_.wait(lock, [&] { return busy_ == 0; });
      job_ = job;
      next_.store(0, std::memory_order_relaxed);
      done_ = 0;
      error_ = nullptr;
      ++generation_;
    }
    wake_.notify_all();
    in_worker_ = this;
    std::size_t ran = drain(job);
    in_worker_ = nullptr;
    std::unique_lock<std::mutex> lock(mu_);
    done_ += ran;
    finished_.wait(lock, [&] { return done_ == job.chunks && busy_ == 0; });
    std::exception_ptr err = std::exchange(error_, nullptr);
    lock.unlock();
    if (err) std::rethrow_exception(err);
  }

  void worker_loop() {
    in_worker_ = this;
    std::uint64_t seen = 0;
    std::unique_lock<std::mutex> lock(mu_);
    for (;;) {
      wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
      Job job = job_;
      ++busy_;
      lock.unlock();
      std::size_t ran = drain(job);
      lock.lock();
      done_ += ran;
      if (--busy_ == 0) finished_.notify_all();
    }
  }

  static inline thread_local const ThreadPool* in_worker_ = nullptr;

  std::size_t size_ = 1;
  std::vector<std::thread> workers_;
  std::mutex submit_mu_;  // one loop at a time
  std::mutex mu_;         // guards everything below except next_
  std::condition_variable wake_;
  std::condition_variable finished_;
  Job job_;
  std::atomic<std::size_t> next_{0};
  std::size_t done_ = 0;
  std::size_t busy_ = 0;
  std::uint64_t generation_ = 0;
  std::exception_ptr error_;
  bool stop_ = false;
};

}  // namespace cuzk
