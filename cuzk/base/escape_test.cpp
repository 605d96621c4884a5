#include "cuzk/base/escape.hpp"

#include <gtest/gtest.h>

namespace cuzk {
namespace {

TEST(Escape, JsonControlAndPrometheus) {
  const std::string evil = std::string("a\"b\\c\nd") + '\0' + "e\x1b[31m\x7f";
  std::string j;
  append_json_escaped(evil, j);
  EXPECT_EQ(j, "a\\\"b\\\\c\\u000ad\\u0000e\\u001b[31m\\u007f");
  std::string t;
  append_control_escaped(evil, t);
  EXPECT_EQ(t, "a\"b\\c\\x0ad\\x00e\\x1b[31m\\x7f");
  EXPECT_EQ(t.find('\n'), std::string::npos);
  EXPECT_EQ(prometheus_label("x\"} 1\ncuzk_fake 2"), "x\\\"} 1\\ncuzk_fake 2");
  std::string plain;
  append_json_escaped("job-42 ok", plain);
  EXPECT_EQ(plain, "job-42 ok");
}

}  // namespace
}  // namespace cuzk
