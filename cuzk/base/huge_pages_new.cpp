// The global operator new of the `cuzk` program (huge_pages.hpp): malloc as in libstdc++, except
// that while set_huge_page_new(true) is in force a block of at least kHugePageNewMinBytes comes
// from huge_page_alloc(). Every block, huge or not, is released with std::free, so the operator
// deletes below are libstdc++'s (written out to keep new and delete replaced together); the
// nothrow and array forms of libstdc++ call these.
#include <atomic>
#include <cstdlib>
#include <new>

#include "cuzk/base/huge_pages.hpp"

namespace cuzk {
namespace {
std::atomic<bool> g_huge_new{false};
}  // namespace

void set_huge_page_new(bool on) noexcept { g_huge_new.store(on, std::memory_order_relaxed); }
bool huge_page_new() noexcept { return g_huge_new.load(std::memory_order_relaxed); }

}  // namespace cuzk

namespace {

void* allocate(std::size_t bytes, std::size_t align) {
  if (bytes == 0) bytes = 1;
  for (;;) {
    void* p = nullptr;
    if (bytes >= cuzk::kHugePageNewMinBytes && align <= cuzk::kHugePageBytes && cuzk::huge_page_new())
      p = cuzk::huge_page_alloc(bytes);
    if (p == nullptr)
      p = align <= alignof(std::max_align_t) ? std::malloc(bytes)
                                             : std::aligned_alloc(align, (bytes + align - 1) / align * align);
    if (p != nullptr) return p;
    std::new_handler h = std::get_new_handler();
    if (h == nullptr) throw std::bad_alloc();
    h();
  }
}

}  // namespace

void* operator new(std::size_t bytes) { return allocate(bytes, alignof(std::max_align_t)); }
void* operator new(std::size_t bytes, std::align_val_t align) { return allocate(bytes, static_cast<std::size_t>(align)); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
