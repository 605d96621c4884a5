// Scratch arrays of the MSM (compacted scalars, split scalars, mapped bases, bucket arrays):
// uninitialised (every element is written before it is read), and backed by transparent huge pages
// from 1 MiB up. On the development VM a first touch of a 4 KiB page costs about 15 µs of CPU (a
// page fault through the hypervisor) against about 0.3 µs per 4 KiB inside a 2 MiB huge page
// (measured 2026-12-02, docs/perf/msm.md): at 2^20 points the split tables alone would otherwise
// fault 40k pages (≈ 0.6 s). Without THP (or on other kernels) madvise fails and nothing changes.
// Even in huge pages the kernel zeroes every page on first touch (clear_page: 7 % of a 2^16 Groth16
// prove's CPU with the IFMA MSMs, docs/perf/msm.md Version 4), so freed huge-page blocks are kept in
// a small process-wide cache (at most kCacheBlocks blocks, kCacheBytes in all) and handed to the
// next array that fits (between half and all of a block); scratch_release_cached() frees them.
#pragma once

#include <sys/mman.h>

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <mutex>
#include <new>
#include <span>
#include <type_traits>
#include <vector>

namespace cuzk {

namespace scratch_detail {
inline constexpr std::size_t kCacheBlocks = 8;
inline constexpr std::size_t kCacheBytes = std::size_t{256} << 20;
struct Cache {
  struct Block {
    void* p;
    std::size_t bytes;
  };
  std::mutex mu;
  std::vector<Block> blocks;
  std::size_t total = 0;
  ~Cache() {
    for (const auto& b : blocks) std::free(b.p);
  }
};
inline Cache& cache() {
  static Cache c;
  return c;
}
// A cached block of |bytes| to 2·|bytes| (the smallest; its size in |got|), or null.
inline void* take(std::size_t bytes, std::size_t& got) {
  Cache& c = cache();
  std::lock_guard lock(c.mu);
  std::size_t best = c.blocks.size();
  for (std::size_t i = 0; i < c.blocks.size(); ++i) {
    const std::size_t b = c.blocks[i].bytes;
    if (b >= bytes && b <= 2 * bytes && (best == c.blocks.size() || b < c.blocks[best].bytes))
      best = i;
  }
  if (best == c.blocks.size()) return nullptr;
  void* p = c.blocks[best].p;
  got = c.blocks[best].bytes;
  c.total -= got;
  c.blocks.erase(c.blocks.begin() + static_cast<std::ptrdiff_t>(best));
  return p;
}
// Keeps |p| (|bytes|, huge-page aligned) for a later take, or frees it when the cache is full.
inline void give(void* p, std::size_t bytes) {
  Cache& c = cache();
  {
    std::lock_guard lock(c.mu);
    if (c.blocks.size() < kCacheBlocks && c.total + bytes <= kCacheBytes) {
      c.blocks.push_back({p, bytes});
      c.total += bytes;
      return;
    }
  }
  std::free(p);
}
}  // namespace scratch_detail

/// Frees the huge-page blocks the scratch cache keeps (scratch.hpp).
inline void scratch_release_cached() {
  scratch_detail::Cache& c = scratch_detail::cache();
  std::lock_guard lock(c.mu);
  for (const auto& b : c.blocks) std::free(b.p);
  c.blocks.clear();
  c.total = 0;
}

template <class T>
class ScratchArray {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);

 public:
  static constexpr std::size_t kHugePage = std::size_t{2} << 20;
  static constexpr std::size_t kHugeFrom = std::size_t{1} << 20;

  ScratchArray() = default;
  explicit ScratchArray(std::size_t n) : n_(n) {
    if (n == 0) return;
    const std::size_t bytes = n * sizeof(T);
    void* p = nullptr;
    if (bytes >= kHugeFrom) {
      const std::size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
      p = scratch_detail::take(rounded, cap_);
      if (p == nullptr) {
        p = std::aligned_alloc(kHugePage, rounded);
        if (p != nullptr) ::madvise(p, rounded, MADV_HUGEPAGE);
        cap_ = rounded;
      }
    } else {
      p = std::aligned_alloc(alignof(T) < 64 ? 64 : alignof(T), (bytes + 63) / 64 * 64);
    }
    if (p == nullptr) throw std::bad_alloc();
    data_ = static_cast<T*>(p);
  }
  ScratchArray(const ScratchArray&) = delete;
  ScratchArray& operator=(const ScratchArray&) = delete;
  ScratchArray(ScratchArray&& o) noexcept : data_(o.data_), n_(o.n_), cap_(o.cap_) {
    o.data_ = nullptr;
    o.n_ = 0;
    o.cap_ = 0;
  }
  ScratchArray& operator=(ScratchArray&& o) noexcept {
    if (this != &o) {
      release();
      data_ = o.data_;
      n_ = o.n_;
      cap_ = o.cap_;
      o.data_ = nullptr;
      o.n_ = 0;
      o.cap_ = 0;
    }
    return *this;
  }
  ~ScratchArray() { release(); }

  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t size() const { return n_; }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }
  std::span<T> span() { return {data_, n_}; }
  std::span<const T> span() const { return {data_, n_}; }

 private:
  void release() {
    if (data_ == nullptr) return;
    if (cap_ != 0) {
      scratch_detail::give(data_, cap_);
    } else {
      std::free(data_);
    }
    data_ = nullptr;
  }

  T* data_ = nullptr;
  std::size_t n_ = 0;
  std::size_t cap_ = 0;  // bytes of a huge-page block (returned to the cache), 0 otherwise
};

}  // namespace cuzk
