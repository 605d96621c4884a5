// Real Filecoin data for tests (parameters, sealed sectors, vanilla proofs): never committed.
// Where a copy is at hand, CUZK_FILECOIN_DATA names its folder (.ci/run exports it when the
// machine has one). A test that needs it starts with CUZK_REQUIRE_FILECOIN_DATA(), which skips
// the test when the variable is unset or empty, then reads its files under *filecoin_data_dir():
//
//   #include "tests/support/filecoin_data.hpp"
//   TEST(Porep, ProvesARealSector) {
//     CUZK_REQUIRE_FILECOIN_DATA();
//     const std::filesystem::path dir = *cuzk::test::filecoin_data_dir();
//     ...
//   }
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <optional>

namespace cuzk::test {

/// The folder CUZK_FILECOIN_DATA names; nullopt when the variable is unset or empty.
inline std::optional<std::filesystem::path> filecoin_data_dir() {
  const char* v = std::getenv("CUZK_FILECOIN_DATA");
  if (v == nullptr || *v == '\0') return std::nullopt;
  return std::filesystem::path(v);
}

}  // namespace cuzk::test

/// Skips the calling test (or SetUp) when CUZK_FILECOIN_DATA is unset or empty.
#define CUZK_REQUIRE_FILECOIN_DATA()                                               \
  do {                                                                             \
    if (!::cuzk::test::filecoin_data_dir())                                        \
      GTEST_SKIP() << "CUZK_FILECOIN_DATA is unset: skipped (real Filecoin data)"; \
  } while (0)
