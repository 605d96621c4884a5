// The global operator new and delete of the `cuzk` program (huge_pages.hpp). Off: malloc and free,
// as in libstdc++. On (set_huge_page_new): a block of at least kHugePageNewMinBytes gets its own
// huge-page mapping, entered in a fixed open-addressing table (address → length; no allocation, so
// usable inside operator new). operator delete looks a pointer up only when it is 2 MiB-aligned,
// which malloc's blocks almost never are; one found is unmapped, anything else goes to free. So a
// block keeps its kind whatever the switch says when it is freed. The table holds 4096 blocks (at
// least 4 GiB): past that, blocks come from malloc. libstdc++'s nothrow and array forms call these.
#include <sys/mman.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <new>

#include "cuzk/base/huge_pages.hpp"

namespace cuzk {
namespace {
std::atomic<bool> g_huge_new{false};
}  // namespace

void set_huge_page_new(bool on) noexcept { g_huge_new.store(on, std::memory_order_relaxed); }
bool huge_page_new() noexcept { return g_huge_new.load(std::memory_order_relaxed); }

}  // namespace cuzk

// Sanitizer builds (CMake CUZK_SANITIZE) keep the sanitizer's own operator new and delete, which
// track every block: the switch above is then a flag and nothing more.
#ifndef CUZK_NO_OPERATOR_NEW

namespace {

// Slots: address 0 empty, 1 a removed entry (the probe goes on past it).
constexpr std::size_t kSlots = 4096;
constexpr std::uintptr_t kEmpty = 0, kRemoved = 1;
struct Slot {
  std::uintptr_t addr;
  std::size_t bytes;
};
Slot g_slots[kSlots];  // trivially destructible, like the mutex: usable during static destruction
std::mutex g_mu;

std::size_t home(std::uintptr_t a) {
  return static_cast<std::size_t>(((a >> 21) * 0x9e3779b97f4a7c15ull) >> 52);
}

void* map_block(std::size_t bytes) {
  void* p = cuzk::huge_page_map(bytes);
  if (p == nullptr) return nullptr;
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  {
    std::lock_guard lock(g_mu);
    for (std::size_t i = home(a), n = 0; n < kSlots; ++n, i = (i + 1) % kSlots) {
      if (g_slots[i].addr == kEmpty || g_slots[i].addr == kRemoved) {
        g_slots[i] = {a, bytes};
        return p;
      }
    }
  }
  cuzk::huge_page_unmap(p, bytes);  // table full
  return nullptr;
}

// Unmaps |p| when it is a block of map_block; false otherwise.
bool unmap_block(void* p) {
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  if (a % cuzk::kHugePageBytes != 0) return false;
  std::size_t bytes = 0;
  {
    std::lock_guard lock(g_mu);
    for (std::size_t i = home(a), n = 0; n < kSlots && g_slots[i].addr != kEmpty;
         ++n, i = (i + 1) % kSlots) {
      if (g_slots[i].addr == a) {
        bytes = g_slots[i].bytes;
        g_slots[i].addr = kRemoved;
        break;
      }
    }
  }
  if (bytes == 0) return false;
  cuzk::huge_page_unmap(p, bytes);
  return true;
}

void* allocate(std::size_t bytes, std::size_t align) {
  if (bytes == 0) bytes = 1;
  for (;;) {
    void* p = nullptr;
    if (bytes >= cuzk::kHugePageNewMinBytes && align <= cuzk::kHugePageBytes &&
        cuzk::huge_page_new())
      p = map_block(bytes);
    if (p == nullptr)
      p = align <= alignof(std::max_align_t)
              ? std::malloc(bytes)
              : std::aligned_alloc(align, (bytes + align - 1) / align * align);
    if (p != nullptr) return p;
    std::new_handler h = std::get_new_handler();
    if (h == nullptr) throw std::bad_alloc();
    h();
  }
}

void release(void* p) {
  if (p != nullptr && !unmap_block(p)) std::free(p);
}

}  // namespace

void* operator new(std::size_t bytes) { return allocate(bytes, alignof(std::max_align_t)); }
void* operator new(std::size_t bytes, std::align_val_t align) {
  return allocate(bytes, static_cast<std::size_t>(align));
}
void operator delete(void* p) noexcept { release(p); }
void operator delete(void* p, std::size_t) noexcept { release(p); }
void operator delete(void* p, std::align_val_t) noexcept { release(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { release(p); }

#endif  // CUZK_NO_OPERATOR_NEW
