#include "cuzk/base/huge_pages.hpp"

#include <sys/mman.h>

#include <cstdint>

namespace cuzk {

void* huge_page_map(std::size_t bytes) noexcept {
  if (bytes == 0 || bytes > ~std::size_t{0} / 2) return nullptr;
  const std::size_t len = huge_page_round(bytes);
  // Map one huge page more and cut the unaligned head and tail, so that the advice covers whole
  // 2 MiB pages (mmap alone aligns to 4 KiB).
  void* raw = ::mmap(nullptr, len + kHugePageBytes, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  const auto r = reinterpret_cast<std::uintptr_t>(raw);
  const std::uintptr_t a = (r + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
  if (a > r) ::munmap(raw, a - r);
  if (const std::uintptr_t end = r + len + kHugePageBytes; end > a + len)
    ::munmap(reinterpret_cast<void*>(a + len), end - (a + len));
  (void)::madvise(reinterpret_cast<void*>(a), len, MADV_HUGEPAGE);
  return reinterpret_cast<void*>(a);
}

void huge_page_unmap(void* p, std::size_t bytes) noexcept {
  if (p != nullptr) ::munmap(p, huge_page_round(bytes));
}

}  // namespace cuzk
