// Huge-page backing for large heap blocks of the offline commands.
//
// On the development VM a first touch of a 4 KiB page costs about 15 µs (a page fault through the
// hypervisor: ≈ 0.25 GB/s) against 11–14 GB/s inside a 2 MiB transparent huge page, and the
// kernel here gives huge pages only to ranges advised MADV_HUGEPAGE (THP "madvise" mode). A 2^16
// zkey prove first-touches tens of MB of std::vectors spread over many modules (the zkey bytes,
// the coefficients and matrices, the witness, a/b/c, the H step, the MSM digit arrays).
//
// huge_page_map() is the helper: an anonymous mapping of |bytes| rounded up to 2 MiB, 2 MiB-aligned,
// advised MADV_HUGEPAGE. The `cuzk` program also links huge_pages_new.cpp, which replaces the
// global operator new and delete: while set_huge_page_new(true) is in force a block of at least
// kHugePageNewMinBytes gets its own such mapping (listed in a small table, so that operator delete
// unmaps it; every other block is malloc's, as in libstdc++). `cuzk setup` and `cuzk prove` switch
// it on; everything else (daemon, tests, the library) keeps plain malloc. This replaced a re-exec
// of the whole program with GLIBC_TUNABLES=glibc.malloc.hugetlb=1, which cost a second process
// start (docs/perf/groth16.md Version 8).
#pragma once

#include <cstddef>

namespace cuzk {

inline constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;
/// Smallest block operator new maps with huge pages when switched on (as the MSM's ScratchArray;
/// rounding up to whole huge pages wastes less than half a block). At 2^16 a prove's blocks of
/// 1 MiB and more cut its page faults from 7.5k to 3.4k (docs/perf/groth16.md Version 8).
inline constexpr std::size_t kHugePageNewMinBytes = std::size_t{1} << 20;

/// |bytes| rounded up to whole 2 MiB pages: the size huge_page_map maps.
constexpr std::size_t huge_page_round(std::size_t bytes) {
  return (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
}

/// A zeroed anonymous mapping of huge_page_round(|bytes|) (|bytes| > 0), 2 MiB-aligned, advised
/// MADV_HUGEPAGE (a hint: without THP the pages are ordinary); null when mmap fails. Release it
/// with huge_page_unmap(p, |bytes|).
void* huge_page_map(std::size_t bytes) noexcept;
void huge_page_unmap(void* p, std::size_t bytes) noexcept;

/// Switches the huge-page operator new on or off for the whole process (huge_pages_new.cpp must be
/// linked in; it is in `cuzk`). Off by default. Blocks already mapped stay valid either way.
void set_huge_page_new(bool on) noexcept;
bool huge_page_new() noexcept;

}  // namespace cuzk
