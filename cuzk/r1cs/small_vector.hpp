// SmallVector<T, N>: up to N elements stored inline, more on the heap. For trivially copyable T
// (LC terms); most R1CS linear combinations have 1–3 terms, so most never allocate.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <memory>
#include <span>
#include <type_traits>

namespace cuzk {

template <class T, std::size_t N>
class SmallVector {
  static_assert(std::is_trivially_copyable_v<T>, "SmallVector holds trivially copyable values");

 public:
  SmallVector() = default;
  SmallVector(const SmallVector& o) { assign(o.data(), o.size_); }
  SmallVector(SmallVector&& o) noexcept { steal(o); }
  SmallVector& operator=(const SmallVector& o) {
    if (this != &o) {
      size_ = 0;
      assign(o.data(), o.size_);
    }
    return *this;
  }
  SmallVector& operator=(SmallVector&& o) noexcept {
    if (this != &o) {
      heap_.reset();
      cap_ = N;
      steal(o);
    }
    return *this;
  }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* data() { return heap_ ? heap_.get() : inline_; }
  const T* data() const { return heap_ ? heap_.get() : inline_; }
  T& operator[](std::size_t i) { return data()[i]; }
  const T& operator[](std::size_t i) const { return data()[i]; }
  T* begin() { return data(); }
  T* end() { return data() + size_; }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size_; }
  std::span<const T> span() const { return {data(), size_}; }

  void push_back(const T& v) {
    if (size_ == cap_) grow(cap_ * 2);
    data()[size_++] = v;
  }
  void reserve(std::size_t n) {
    if (n > cap_) grow(n);
  }
  void resize_down(std::size_t n) { size_ = std::min(size_, n); }
  void clear() { size_ = 0; }

 private:
  void grow(std::size_t cap) {
    std::unique_ptr<T[]> h(new T[cap]);
    std::memcpy(static_cast<void*>(h.get()), data(), size_ * sizeof(T));
    heap_ = std::move(h);
    cap_ = cap;
  }
  void assign(const T* src, std::size_t n) {
    reserve(n);
    std::memcpy(static_cast<void*>(data()), src, n * sizeof(T));
    size_ = n;
  }
  void steal(SmallVector& o) {
    if (o.heap_) {
      heap_ = std::move(o.heap_);
      cap_ = o.cap_;
      size_ = o.size_;
    } else {
      std::memcpy(static_cast<void*>(inline_), o.inline_, o.size_ * sizeof(T));
      size_ = o.size_;
    }
    o.size_ = 0;
    o.cap_ = N;
  }

  T inline_[N];
  std::unique_ptr<T[]> heap_;
  std::size_t size_ = 0;
  std::size_t cap_ = N;
};

}  // namespace cuzk
