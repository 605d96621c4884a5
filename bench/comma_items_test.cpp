#include "bench/comma_items.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using cuzk::bench::comma_items;
using Items = std::vector<std::string>;

TEST(CommaItems, EmptyListHasNoItems) {
  EXPECT_EQ(comma_items(""), Items{});
  EXPECT_EQ(comma_items(","), Items{});
  EXPECT_EQ(comma_items(",,,"), Items{});
}

TEST(CommaItems, SingleItem) {
  EXPECT_EQ(comma_items("auto"), Items{"auto"});
  EXPECT_EQ(comma_items("x"), Items{"x"});
}

TEST(CommaItems, ItemsInOrder) {
  EXPECT_EQ(comma_items("1,2,16"), (Items{"1", "2", "16"}));
  EXPECT_EQ(comma_items("off,auto,h_step,h_msm"), (Items{"off", "auto", "h_step", "h_msm"}));
}

TEST(CommaItems, EmptyItemsAreDropped) {
  EXPECT_EQ(comma_items("a,,b"), (Items{"a", "b"}));
  EXPECT_EQ(comma_items("a,,,b,,c"), (Items{"a", "b", "c"}));
}

TEST(CommaItems, LeadingAndTrailingCommasAreDropped) {
  EXPECT_EQ(comma_items("a,,b,"), (Items{"a", "b"}));
  EXPECT_EQ(comma_items(",a"), Items{"a"});
  EXPECT_EQ(comma_items(",,a,b,,"), (Items{"a", "b"}));
}

TEST(CommaItems, ColonsAndSpacesStayInsideItems) {
  EXPECT_EQ(comma_items("legacy,10:1,11:2"), (Items{"legacy", "10:1", "11:2"}));
  EXPECT_EQ(comma_items("plain,22:2:16384"), (Items{"plain", "22:2:16384"}));
  EXPECT_EQ(comma_items(":,a:"), (Items{":", "a:"}));
  EXPECT_EQ(comma_items(" a, b "), (Items{" a", " b "}));  // no trimming
}

}  // namespace
