// PointArray<T>: the storage of a proving key's query tables. Either
//   owned — a private array (arrays of 2 MiB and more are anonymous mappings advised
//           MADV_HUGEPAGE before their first touch: the VM's 4 KiB page faults cost ~15 µs each,
//           docs/perf/groth16.md), or an adopted std::vector; or
//   view  — read-only points inside memory someone else owns (a mapped key image,
//           formats/key_image.hpp), kept alive by a shared owner handle.
// Vector-like (size, data, [], iteration, resize, push_back, spans) so the readers, setup and
// tests that build keys compile unchanged; a write through a view first copies it (detach).
// Copying an owned array copies the points; copying a view shares the owner.
// T must be trivially copyable (the affine points are).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "cuzk/base/huge_pages.hpp"
#include "cuzk/base/thread_pool.hpp"

namespace cuzk {

namespace point_array_detail {

inline constexpr std::size_t kHugeThreshold = std::size_t{2} << 20;

/// |bytes| of zeroed host memory, huge-page advised when large (base/huge_pages.hpp: 2 MiB-aligned,
/// so the advice covers whole huge pages); throws bad_alloc on failure.
inline std::shared_ptr<void> allocate(std::size_t bytes) {
  if (bytes == 0) return nullptr;
  if (bytes >= kHugeThreshold) {
    void* p = huge_page_map(bytes);
    if (p == nullptr) throw std::bad_alloc();
    return std::shared_ptr<void>(p, [bytes](void* q) { huge_page_unmap(q, bytes); });
  }
  return std::shared_ptr<void>(::operator new (bytes, std::align_val_t{64}),
                               [](void* q) { ::operator delete (q, std::align_val_t{64}); });
}

}  // namespace point_array_detail

template <class T>
class PointArray {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  using value_type = T;
  using size_type = std::size_t;
  using iterator = T*;
  using const_iterator = const T*;
  using reference = T&;
  using const_reference = const T&;

  PointArray() = default;
  /// Adopts the vector's buffer (no copy).
  PointArray(std::vector<T>&& v) {  // NOLINT(google-explicit-constructor): drop-in for std::vector
    if (v.empty()) return;
    auto owner = std::make_shared<std::vector<T>>(std::move(v));
    data_ = owner->data();
    size_ = cap_ = owner->size();
    owner_ = std::move(owner);
  }
  PointArray(const std::vector<T>& v) {
    assign(v.begin(), v.end());
  }  // NOLINT(google-explicit-constructor)
  PointArray(std::initializer_list<T> l) { assign(l.begin(), l.end()); }
  explicit PointArray(std::size_t n) { resize(n); }
  PointArray(std::size_t n, const T& value) { resize(n, value); }

  /// A read-only view of |points| that keeps |owner| alive.
  static PointArray view(std::span<const T> points, std::shared_ptr<const void> owner) {
    PointArray a;
    a.data_ = const_cast<T*>(points.data());
    a.size_ = a.cap_ = points.size();
    a.view_ = true;
    a.owner_ = std::const_pointer_cast<void>(std::move(owner));
    return a;
  }
  /// An owned copy of |points| in fresh (huge-page advised) memory; with |pool|, copied in
  /// parallel (the first touch of fresh pages, page faults included, is most of the cost).
  static PointArray copy_of(std::span<const T> points, ThreadPool* pool = nullptr) {
    PointArray a;
    if (!pool || points.size_bytes() < (std::size_t{8} << 20)) {
      a.assign(points.begin(), points.end());
      return a;
    }
    a.reallocate(points.size());
    constexpr std::size_t kChunk = (std::size_t{2} << 20) / sizeof(T) + 1;  // ≥ one huge page
    const std::size_t chunks = (points.size() + kChunk - 1) / kChunk;
    pool->parallel_for(chunks, [&](std::size_t c) {
      const std::size_t lo = c * kChunk, n = std::min(kChunk, points.size() - lo);
      std::memcpy(static_cast<void*>(a.data_ + lo), static_cast<const void*>(points.data() + lo),
                  n * sizeof(T));
    });
    a.size_ = points.size();
    return a;
  }

  /// |n| points of unspecified content in fresh (huge-page advised) memory, for a caller that
  /// writes every entry: no serial fill, so the first touch (page faults included) happens on the
  /// caller's threads as they write.
  static PointArray for_overwrite(std::size_t n) {
    PointArray a;
    if (n != 0) a.reallocate(n);
    a.size_ = n;
    return a;
  }

  PointArray(const PointArray& o) {
    if (o.view_) {
      data_ = o.data_, size_ = cap_ = o.size_, view_ = true, owner_ = o.owner_;
    } else {
      assign(o.begin(), o.end());
    }
  }
  PointArray& operator=(const PointArray& o) {
    if (this != &o) {
      PointArray t(o);
      swap(t);
    }
    return *this;
  }
  PointArray(PointArray&& o) noexcept { swap(o); }
  PointArray& operator=(PointArray&& o) noexcept {
    PointArray t(std::move(o));
    swap(t);
    return *this;
  }
  PointArray& operator=(std::vector<T>&& v) { return *this = PointArray(std::move(v)); }
  void swap(PointArray& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
    std::swap(cap_, o.cap_);
    std::swap(view_, o.view_);
    std::swap(owner_, o.owner_);
  }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  std::size_t capacity() const { return cap_; }
  /// Whether the points live in memory this array does not own (a mapped image).
  bool is_view() const { return view_; }
  /// What keeps the points alive (the owned buffer, or the view's owner).
  const std::shared_ptr<void>& owner() const { return owner_; }
  std::size_t size_bytes() const { return size_ * sizeof(T); }

  const T* data() const { return data_; }
  T* data() {
    detach();
    return data_;
  }
  const T& operator[](std::size_t i) const { return data_[i]; }
  T& operator[](std::size_t i) {
    detach();
    return data_[i];
  }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  T* begin() {
    detach();
    return data_;
  }
  T* end() {
    detach();
    return data_ + size_;
  }
  const T* cbegin() const { return data_; }
  const T* cend() const { return data_ + size_; }
  const T& front() const { return data_[0]; }
  const T& back() const { return data_[size_ - 1]; }
  T& front() {
    detach();
    return data_[0];
  }
  T& back() {
    detach();
    return data_[size_ - 1];
  }

  std::span<const T> span() const { return {data_, size_}; }
  std::vector<T> to_vector() const { return std::vector<T>(begin(), end()); }

  void reserve(std::size_t n) {
    if (n > cap_ || view_) reallocate(std::max(n, size_));
  }
  void resize(std::size_t n) { resize(n, T{}); }
  void resize(std::size_t n, const T& value) {
    if (n > cap_ || view_) reallocate(std::max(n, n > cap_ ? grow(n) : cap_));
    for (std::size_t i = size_; i < n; ++i) data_[i] = value;
    size_ = n;
  }
  void clear() { *this = PointArray(); }
  void push_back(const T& v) {
    if (size_ == cap_ || view_) reallocate(grow(size_ + 1));
    data_[size_++] = v;
  }
  template <class... A>
  T& emplace_back(A&&... a) {
    push_back(T(std::forward<A>(a)...));
    return back();
  }
  void pop_back() {
    detach();
    --size_;
  }
  template <class It>
  void assign(It first, It last) {
    const auto n = static_cast<std::size_t>(std::distance(first, last));
    PointArray t;
    t.reallocate(n);
    std::copy(first, last, t.data_);
    t.size_ = n;
    swap(t);
  }

  friend bool operator==(const PointArray& a, const PointArray& b) {
    return a.size_ == b.size_ && std::equal(a.begin(), a.end(), b.begin());
  }

 private:
  std::size_t grow(std::size_t n) const { return std::max(n, cap_ + cap_ / 2); }
  void detach() {
    if (view_) reallocate(size_);
  }
  // Moves the points into fresh owned storage of |cap| entries (cap ≥ size).
  void reallocate(std::size_t cap) {
    auto store = point_array_detail::allocate(cap * sizeof(T));
    T* p = static_cast<T*>(store.get());
    if (size_ != 0)
      std::memcpy(static_cast<void*>(p), static_cast<const void*>(data_), size_ * sizeof(T));
    data_ = p;
    cap_ = cap;
    view_ = false;
    owner_ = std::move(store);
  }

  T* data_ = nullptr;
  std::size_t size_ = 0, cap_ = 0;
  bool view_ = false;
  std::shared_ptr<void> owner_;
};

}  // namespace cuzk
