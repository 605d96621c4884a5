#include "cuzk/base/huge_pages.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <new>
#include <string>
#include <vector>

namespace cuzk {
namespace {

bool huge_aligned(const void* p) {
  return reinterpret_cast<std::uintptr_t>(p) % kHugePageBytes == 0;
}

// The VmFlags line of the /proc/self/smaps mapping that holds |p| ("" when not found).
std::string vm_flags_of(std::uintptr_t a) {
  std::ifstream f("/proc/self/smaps");
  std::string line;
  bool inside = false;
  while (std::getline(f, line)) {
    unsigned long long lo = 0, hi = 0;
    if (std::sscanf(line.c_str(), "%llx-%llx ", &lo, &hi) == 2 && line.find('-') < 17)
      inside = lo <= a && a < hi;
    else if (inside && line.rfind("VmFlags:", 0) == 0)
      return line;
  }
  return "";
}

std::string vm_flags_of(const void* p) { return vm_flags_of(reinterpret_cast<std::uintptr_t>(p)); }

bool thp_available() { return std::ifstream("/sys/kernel/mm/transparent_hugepage/enabled").good(); }

TEST(HugePages, MapRoundsAlignsAndAdvises) {
  for (std::size_t bytes :
       {std::size_t{1}, kHugePageBytes - 1, kHugePageBytes, 3 * kHugePageBytes + 5}) {
    SCOPED_TRACE(bytes);
    void* p = huge_page_map(bytes);
    ASSERT_NE(p, nullptr);
    EXPECT_TRUE(huge_aligned(p));
    const auto* z = static_cast<const unsigned char*>(p);
    EXPECT_EQ(z[0] | z[huge_page_round(bytes) - 1], 0);
    std::memset(p, 0x5a, huge_page_round(bytes));  // the whole rounded block is ours
    if (thp_available()) {
      EXPECT_NE(vm_flags_of(p).find(" hg"), std::string::npos) << vm_flags_of(p);
    }
    huge_page_unmap(p, bytes);
    EXPECT_EQ(vm_flags_of(p), "");
  }
  EXPECT_EQ(huge_page_map(0), nullptr);
  EXPECT_EQ(huge_page_map(~std::size_t{0}), nullptr);
}

// The replaced operator new and delete (huge_pages_new.cpp, linked into this test as into `cuzk`):
// large blocks get their own mapping only while switched on, and delete unmaps them whatever the
// switch says then; every form allocates and frees.
TEST(HugePages, OperatorNewSwitch) {
  ASSERT_FALSE(huge_page_new());
  set_huge_page_new(true);
  ASSERT_TRUE(huge_page_new());
  {
    std::vector<std::uint64_t> big(kHugePageNewMinBytes / 8 + 1, 7);
    EXPECT_TRUE(huge_aligned(big.data()));
    if (thp_available()) {
      EXPECT_NE(vm_flags_of(big.data()).find(" hg"), std::string::npos);
    }
    auto arr = std::make_unique<char[]>(3 * kHugePageBytes);
    EXPECT_TRUE(huge_aligned(arr.get()));
    void* a64 = ::operator new (kHugePageNewMinBytes, std::align_val_t{64});
    EXPECT_TRUE(huge_aligned(a64));
    ::operator delete (a64, std::align_val_t{64});
    // Alignments above a huge page and small blocks go to malloc as before.
    void* a4m = ::operator new (kHugePageNewMinBytes, std::align_val_t{4 * kHugePageBytes});
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(a4m) % (4 * kHugePageBytes), 0u);
    ::operator delete (a4m, kHugePageNewMinBytes, std::align_val_t{4 * kHugePageBytes});
    auto* small = new std::uint64_t[16]();
    EXPECT_EQ(small[15], 0u);
    delete[] small;
    void* nt = ::operator new(kHugePageNewMinBytes, std::nothrow);
    ASSERT_NE(nt, nullptr);
    EXPECT_TRUE(huge_aligned(nt));
    ::operator delete(nt, std::nothrow);
    EXPECT_EQ(big.back(), 7u);
  }
  // Freed while switched off: still unmapped.
  auto* late = new char[kHugePageNewMinBytes];
  const auto late_addr = reinterpret_cast<std::uintptr_t>(late);
  ASSERT_TRUE(huge_aligned(late));
  set_huge_page_new(false);
  delete[] late;
  EXPECT_EQ(vm_flags_of(late_addr), "");
  std::vector<std::uint64_t> plain(kHugePageNewMinBytes / 8 + 1, 3);
  EXPECT_EQ(plain.back(), 3u);
  // An impossible size still throws bad_alloc, on or off.
  set_huge_page_new(true);
  EXPECT_THROW((void)::operator new (~std::size_t{0} / 2), std::bad_alloc);
  set_huge_page_new(false);
  EXPECT_THROW((void)::operator new (~std::size_t{0} / 2), std::bad_alloc);
}

}  // namespace
}  // namespace cuzk
