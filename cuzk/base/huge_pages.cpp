#include "cuzk/base/huge_pages.hpp"

#include <sys/mman.h>

#include <cstdlib>

namespace cuzk {

void* huge_page_alloc(std::size_t bytes) noexcept {
  if (bytes == 0 || bytes > ~std::size_t{0} - kHugePageBytes) return nullptr;
  const std::size_t rounded = (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
  void* p = std::aligned_alloc(kHugePageBytes, rounded);
  // On malloc's heap or in its own mapping: either way whole 2 MiB pages of this block, so the
  // advice splits no page another block uses. Freed blocks keep the advice when malloc reuses them.
  if (p != nullptr) (void)::madvise(p, rounded, MADV_HUGEPAGE);
  return p;
}

}  // namespace cuzk
