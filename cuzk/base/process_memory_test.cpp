#include "cuzk/base/process_memory.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>

namespace cuzk {
namespace {

// Touching 64 MiB raises RSS and the peak by about that much; the peak never falls below RSS.
TEST(ProcessMemory, TracksTouchedPages) {
  const ProcessMemory before = read_process_memory();
  ASSERT_GT(before.rss_bytes, 0u);
  ASSERT_GE(before.peak_rss_bytes, before.rss_bytes);
  constexpr std::size_t kBytes = 64u << 20;
  auto buf = std::make_unique<char[]>(kBytes);
  std::memset(buf.get(), 1, kBytes);
  const ProcessMemory during = read_process_memory();
  EXPECT_GE(during.rss_bytes, before.rss_bytes + kBytes / 2);
  EXPECT_GE(during.peak_rss_bytes, during.rss_bytes);
  EXPECT_EQ(buf[kBytes - 1], 1);
}

}  // namespace
}  // namespace cuzk
