// Live heap bytes of a test binary and their peak, for tests that check a memory bound against
// what a computation really holds (the Filecoin families' compact witnesses against
// compact_witness_peak_bytes). Include it from exactly one source of the binary: it replaces the
// global operator new and delete, counting every allocation at malloc's usable size.
#pragma once

#include <malloc.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <new>

namespace cuzk::test {
namespace heap_peak_detail {
inline std::atomic<std::int64_t> live{0}, peak{0};
inline void note_alloc(void* p) {
  if (!p) return;
  const auto n = static_cast<std::int64_t>(malloc_usable_size(p));
  const std::int64_t now = live.fetch_add(n) + n;
  for (std::int64_t old = peak.load(); now > old && !peak.compare_exchange_weak(old, now);) {
  }
}
inline void note_free(void* p) {
  if (p) live.fetch_sub(static_cast<std::int64_t>(malloc_usable_size(p)));
}
inline void* counted_alloc(std::size_t n, std::size_t align) {
  void* p = align <= alignof(std::max_align_t)
                ? std::malloc(n ? n : 1)
                : std::aligned_alloc(align, (n + align - 1) / align * align);
  if (!p) throw std::bad_alloc();
  note_alloc(p);
  return p;
}
inline void counted_free(void* p) {
  note_free(p);
  std::free(p);
}
}  // namespace heap_peak_detail

/// Heap bytes live now.
inline std::int64_t heap_live() { return heap_peak_detail::live.load(); }
/// Starts a new peak at the bytes live now; returns them.
inline std::int64_t heap_peak_reset() {
  const std::int64_t now = heap_live();
  heap_peak_detail::peak.store(now);
  return now;
}
/// The most heap bytes live at once since the last reset.
inline std::int64_t heap_peak() { return heap_peak_detail::peak.load(); }

}  // namespace cuzk::test

void* operator new(std::size_t n) { return cuzk::test::heap_peak_detail::counted_alloc(n, 0); }
void* operator new[](std::size_t n) { return cuzk::test::heap_peak_detail::counted_alloc(n, 0); }
void* operator new(std::size_t n, std::align_val_t a) {
  return cuzk::test::heap_peak_detail::counted_alloc(n, static_cast<std::size_t>(a));
}
void* operator new[](std::size_t n, std::align_val_t a) {
  return cuzk::test::heap_peak_detail::counted_alloc(n, static_cast<std::size_t>(a));
}
void operator delete(void* p) noexcept { cuzk::test::heap_peak_detail::counted_free(p); }
void operator delete[](void* p) noexcept { cuzk::test::heap_peak_detail::counted_free(p); }
void operator delete(void* p, std::size_t) noexcept {
  cuzk::test::heap_peak_detail::counted_free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  cuzk::test::heap_peak_detail::counted_free(p);
}
void operator delete(void* p, std::align_val_t) noexcept {
  cuzk::test::heap_peak_detail::counted_free(p);
}
void operator delete[](void* p, std::align_val_t) noexcept {
  cuzk::test::heap_peak_detail::counted_free(p);
}
void operator delete(void* p, std::size_t, std::align_val_t) noexcept {
  cuzk::test::heap_peak_detail::counted_free(p);
}
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept {
  cuzk::test::heap_peak_detail::counted_free(p);
}
