// The live heap bytes of a test binary and their peak: replaces the global operator new and
// delete (every allocation counted by malloc's usable size), so that a test can check the bytes
// a synthesis really holds against the bound the engine reserves. Replacement allocation
// functions may not be inline: include this header in exactly one source file of a test binary.
#pragma once

#include <malloc.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>

namespace cuzk::testing_heap {

/// Live heap bytes, and their peak since a test last stored it (g_peak.store(g_live.load())).
inline std::atomic<std::int64_t> g_live{0}, g_peak{0};

inline void note_alloc(void* p) {
  if (!p) return;
  const auto n = static_cast<std::int64_t>(malloc_usable_size(p));
  const std::int64_t now = g_live.fetch_add(n) + n;
  for (std::int64_t peak = g_peak.load(); now > peak && !g_peak.compare_exchange_weak(peak, now);) {
  }
}
inline void note_free(void* p) {
  if (p) g_live.fetch_sub(static_cast<std::int64_t>(malloc_usable_size(p)));
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

}  // namespace cuzk::testing_heap

void* operator new(std::size_t n) { return cuzk::testing_heap::counted_alloc(n, 0); }
void* operator new[](std::size_t n) { return cuzk::testing_heap::counted_alloc(n, 0); }
void* operator new(std::size_t n, std::align_val_t a) {
  return cuzk::testing_heap::counted_alloc(n, static_cast<std::size_t>(a));
}
void* operator new[](std::size_t n, std::align_val_t a) {
  return cuzk::testing_heap::counted_alloc(n, static_cast<std::size_t>(a));
}
void operator delete(void* p) noexcept { cuzk::testing_heap::counted_free(p); }
void operator delete[](void* p) noexcept { cuzk::testing_heap::counted_free(p); }
void operator delete(void* p, std::size_t) noexcept { cuzk::testing_heap::counted_free(p); }
void operator delete[](void* p, std::size_t) noexcept { cuzk::testing_heap::counted_free(p); }
void operator delete(void* p, std::align_val_t) noexcept { cuzk::testing_heap::counted_free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { cuzk::testing_heap::counted_free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept {
  cuzk::testing_heap::counted_free(p);
}
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept {
  cuzk::testing_heap::counted_free(p);
}
