// Huge-page backing for large heap blocks of the offline commands.
//
// On the development VM a first touch of a 4 KiB page costs about 15 µs (a page fault through the
// hypervisor: ≈ 0.25 GB/s) against 11–14 GB/s inside a 2 MiB transparent huge page, and the
// kernel here gives huge pages only to ranges advised MADV_HUGEPAGE (THP "madvise" mode). A 2^16
// zkey prove first-touches ≈ 40 MB of std::vectors spread over many modules (the zkey bytes, the
// coefficients and matrices, the witness, a/b/c, the H step, the MSM digit and bucket arrays).
//
// huge_page_alloc() is the helper: |bytes| rounded up to 2 MiB, 2 MiB-aligned, from malloc
// (aligned_alloc), advised MADV_HUGEPAGE, released with std::free. The `cuzk` program also links
// huge_pages_new.cpp, which replaces the global operator new: while set_huge_page_new(true) is in
// force, a block of ≥ kHugePageNewMinBytes comes from huge_page_alloc() (operator delete is
// std::free for every block, as in libstdc++). `cuzk setup` and `cuzk prove` switch it on at
// start; everything else (daemon, tests, the library) keeps plain malloc. This replaced a re-exec
// of the whole program with GLIBC_TUNABLES=glibc.malloc.hugetlb=1 (a second process start, ≈ 20–30
// ms; docs/perf/groth16.md Version 8).
#pragma once

#include <cstddef>

namespace cuzk {

inline constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;
/// Smallest block operator new serves with huge pages when switched on (as the MSM's ScratchArray;
/// rounding up to whole huge pages wastes at most half a block). At 2^16 the prove's blocks of 1 MiB
/// and more are ≈ 28 MB: faults 7.5k → 3.3k, peak RSS +8 MB (171 → 179 MB); from 256 KiB 2.0k faults
/// but +22 MB (docs/perf/groth16.md Version 8).
inline constexpr std::size_t kHugePageNewMinBytes = std::size_t{1} << 20;

/// |bytes| (> 0) rounded up to whole 2 MiB pages, 2 MiB-aligned, advised MADV_HUGEPAGE (a hint:
/// without THP the memory is ordinary); free it with std::free. Null when malloc fails.
void* huge_page_alloc(std::size_t bytes) noexcept;

/// Switches the huge-page operator new on or off for the whole process (huge_pages_new.cpp must be
/// linked in for it to take effect; it is in `cuzk`). Off by default.
void set_huge_page_new(bool on) noexcept;
bool huge_page_new() noexcept;

}  // namespace cuzk
