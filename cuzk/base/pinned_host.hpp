// Page-locked host memory for a partition's vectors (z, a, b, c), reserved once at start-up.
//
// A CUDA device context (gpu::DeviceContext, the only place allowed to pin memory: DESIGN.md §3,
// the interlock rule) reserves such a pool when it is created and registers it here; the engine
// draws a partition's vectors from the registered pools, so synthesis writes straight into memory
// the DMA engine reads (no staging memcpy on upload), and gives them back when the partition ends.
// Nothing on the proving path pins or unpins memory: a block is carved from a pool or, when every
// pool is exhausted (or none is registered: CPU builds, tests), the caller uses plain memory.
//
// The registry is process-wide and header-only (inline statics), so the engine needs no CUDA: a
// pool deregisters itself before its memory is freed; a block given back after that is ignored.
#pragma once

#include <algorithm>
#include <cstddef>
#include <mutex>
#include <utility>
#include <vector>

namespace cuzk {

class PinnedHostPool {
 public:
  virtual ~PinnedHostPool() = default;
  /// A block of at least |bytes| (aligned to 256), or nullptr when none that large is free.
  virtual void* allocate(std::size_t bytes) = 0;
  /// Returns a block allocate() gave (the same |bytes|).
  virtual void deallocate(void* p, std::size_t bytes) = 0;
  /// True when [p, p + bytes) lies inside the pool.
  virtual bool contains(const void* p, std::size_t bytes) const = 0;
};

class PinnedHostPools {
 public:
  static void add(PinnedHostPool* pool) {
    std::lock_guard lock(mu());
    pools().push_back(pool);
  }
  static void remove(PinnedHostPool* pool) {
    std::lock_guard lock(mu());
    auto& v = pools();
    v.erase(std::remove(v.begin(), v.end(), pool), v.end());
  }
  /// A block from the first registered pool with room, or nullptr.
  static void* allocate(std::size_t bytes) {
    std::lock_guard lock(mu());
    for (PinnedHostPool* p : pools())
      if (void* b = p->allocate(bytes)) return b;
    return nullptr;
  }
  /// Gives |p| back to the pool holding it (nothing if that pool is gone).
  static void deallocate(void* p, std::size_t bytes) {
    if (p == nullptr) return;
    std::lock_guard lock(mu());
    for (PinnedHostPool* pool : pools())
      if (pool->contains(p, bytes)) return pool->deallocate(p, bytes);
  }
  /// True when [p, p + bytes) lies in a registered pool (a copy from or to it needs no staging).
  static bool contains(const void* p, std::size_t bytes) {
    std::lock_guard lock(mu());
    for (PinnedHostPool* pool : pools())
      if (pool->contains(p, bytes)) return true;
    return false;
  }
  static bool any() {
    std::lock_guard lock(mu());
    return !pools().empty();
  }

 private:
  static std::mutex& mu() {
    static std::mutex m;
    return m;
  }
  static std::vector<PinnedHostPool*>& pools() {
    static std::vector<PinnedHostPool*> v;
    return v;
  }
};

/// A block of a registered pinned pool holding |n| values of T (move-only; given back on
/// destruction). Empty when no pool had room.
template <class T>
class PinnedArray {
 public:
  PinnedArray() = default;
  /// Tries the registered pools; empty() when none has room for |n| values.
  static PinnedArray take(std::size_t n) {
    PinnedArray a;
    if (n == 0) return a;
    a.p_ = static_cast<T*>(PinnedHostPools::allocate(n * sizeof(T)));
    if (a.p_) a.n_ = n;
    return a;
  }
  PinnedArray(PinnedArray&& o) noexcept
      : p_(std::exchange(o.p_, nullptr)), n_(std::exchange(o.n_, 0)) {}
  PinnedArray& operator=(PinnedArray&& o) noexcept {
    if (this != &o) {
      reset();
      p_ = std::exchange(o.p_, nullptr);
      n_ = std::exchange(o.n_, 0);
    }
    return *this;
  }
  PinnedArray(const PinnedArray&) = delete;
  PinnedArray& operator=(const PinnedArray&) = delete;
  ~PinnedArray() { reset(); }
  void reset() {
    if (p_) PinnedHostPools::deallocate(p_, n_ * sizeof(T));
    p_ = nullptr;
    n_ = 0;
  }
  bool empty() const { return p_ == nullptr; }
  T* data() const { return p_; }
  std::size_t size() const { return n_; }

 private:
  T* p_ = nullptr;
  std::size_t n_ = 0;
};

}  // namespace cuzk
