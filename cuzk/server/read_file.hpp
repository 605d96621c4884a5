// A whole file's bytes as a std::string (request payloads read by `cuzk submit`, PEM files for
// TLS): io_error naming the path when it cannot be opened.
#pragma once

#include <fstream>
#include <sstream>
#include <string>

#include "cuzk/base/status.hpp"

namespace cuzk::server {

inline Result<std::string> read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return Status(Errc::io_error, "cannot read " + path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

}  // namespace cuzk::server
