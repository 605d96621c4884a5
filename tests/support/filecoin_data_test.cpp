// tests/support/filecoin_data.hpp: the helper reads CUZK_FILECOIN_DATA, and the guard skips a test
// without it. CTest runs this binary twice: as the environment has it (filecoin_data_test: skips,
// or checks the folder exists) and with the variable removed (filecoin_data_skip: must skip).
#include "tests/support/filecoin_data.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>

namespace cuzk::test {
namespace {

// Sets (or with nullopt removes) CUZK_FILECOIN_DATA for one scope, then restores it.
class ScopedVar {
 public:
  explicit ScopedVar(const std::optional<std::string>& value) {
    if (const char* v = std::getenv(kName)) saved_ = v;
    set(value);
  }
  ~ScopedVar() { set(saved_); }
  ScopedVar(const ScopedVar&) = delete;
  ScopedVar& operator=(const ScopedVar&) = delete;

 private:
  static constexpr const char* kName = "CUZK_FILECOIN_DATA";
  static void set(const std::optional<std::string>& value) {
    if (value) {
      ::setenv(kName, value->c_str(), 1);
    } else {
      ::unsetenv(kName);
    }
  }
  std::optional<std::string> saved_;
};

TEST(FilecoinData, DirReadsTheVariable) {
  {
    ScopedVar unset{std::nullopt};
    EXPECT_FALSE(filecoin_data_dir().has_value());
  }
  {
    ScopedVar empty{std::string()};
    EXPECT_FALSE(filecoin_data_dir().has_value());
  }
  {
    ScopedVar set{std::string("/some/where")};
    ASSERT_TRUE(filecoin_data_dir().has_value());
    EXPECT_EQ(*filecoin_data_dir(), std::filesystem::path("/some/where"));
  }
}

// Skipped without the data; with it, the variable must name an existing folder.
TEST(FilecoinData, RequireSkipsOrNamesAFolder) {
  CUZK_REQUIRE_FILECOIN_DATA();
  const auto dir = filecoin_data_dir();
  ASSERT_TRUE(dir.has_value());
  EXPECT_TRUE(std::filesystem::is_directory(*dir)) << *dir << " is not a folder";
}

}  // namespace
}  // namespace cuzk::test
