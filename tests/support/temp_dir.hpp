// A fresh, empty directory for a test: <temp>/cuzk-<name>-<pid>, emptied if a former run left it.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <string>

namespace cuzk::test {

inline std::string fresh_temp_dir(const std::string& name) {
  auto p =
      std::filesystem::temp_directory_path() / ("cuzk-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(p);
  std::filesystem::create_directories(p);
  return p.string();
}

}  // namespace cuzk::test
