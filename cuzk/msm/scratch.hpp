// Scratch arrays of the MSM (compacted scalars, split scalars, mapped bases, bucket arrays):
// uninitialised (every element is written before it is read), and backed by transparent huge pages
// from 1 MiB up. On the development VM a first touch of a 4 KiB page costs about 15 µs of CPU (a
// page fault through the hypervisor) against about 0.3 µs per 4 KiB inside a 2 MiB huge page
// (measured 2026-12-02, docs/perf/msm.md): at 2^20 points the split tables alone would otherwise
// fault 40k pages (≈ 0.6 s). Without THP (or on other kernels) madvise fails and nothing changes.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdlib>
#include <new>
#include <span>
#include <type_traits>

namespace cuzk {

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
      p = std::aligned_alloc(kHugePage, rounded);
      if (p != nullptr) ::madvise(p, rounded, MADV_HUGEPAGE);
    } else {
      p = std::aligned_alloc(alignof(T) < 64 ? 64 : alignof(T), (bytes + 63) / 64 * 64);
    }
    if (p == nullptr) throw std::bad_alloc();
    data_ = static_cast<T*>(p);
  }
  ScratchArray(const ScratchArray&) = delete;
  ScratchArray& operator=(const ScratchArray&) = delete;
  ScratchArray(ScratchArray&& o) noexcept : data_(o.data_), n_(o.n_) {
    o.data_ = nullptr;
    o.n_ = 0;
  }
  ScratchArray& operator=(ScratchArray&& o) noexcept {
    if (this != &o) {
      std::free(data_);
      data_ = o.data_;
      n_ = o.n_;
      o.data_ = nullptr;
      o.n_ = 0;
    }
    return *this;
  }
  ~ScratchArray() { std::free(data_); }

  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t size() const { return n_; }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }
  std::span<T> span() { return {data_, n_}; }
  std::span<const T> span() const { return {data_, n_}; }

 private:
  T* data_ = nullptr;
  std::size_t n_ = 0;
};

}  // namespace cuzk
