// Lowercase hex of byte strings and its checked parse, as Filecoin's JSON and file names write
// them (hex::encode in rust-fil-proofs: two lowercase digits per byte, no prefix).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cuzk/base/status.hpp"

namespace cuzk::filecoin {

/// Two lowercase hex digits per byte of |bytes|.
inline std::string to_hex(std::span<const std::uint8_t> bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s;
  s.reserve(2 * bytes.size());
  for (std::uint8_t b : bytes) {
    s.push_back(kDigits[b >> 4]);
    s.push_back(kDigits[b & 15]);
  }
  return s;
}

/// Parses |text| (hex digits of either case, an optional "0x"), which must encode exactly
/// |expected_bytes| bytes; bad_encoding names the offending character, size_mismatch the length.
inline Result<std::vector<std::uint8_t>> parse_hex(std::string_view text,
                                                   std::size_t expected_bytes) {
  if (text.size() >= 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))
    text.remove_prefix(2);
  if (text.size() != 2 * expected_bytes)
    return Result<std::vector<std::uint8_t>>(
        Errc::size_mismatch, std::to_string(text.size()) + " hex digits, expected " +
                                 std::to_string(2 * expected_bytes) + " (" +
                                 std::to_string(expected_bytes) + " bytes)");
  auto digit = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::vector<std::uint8_t> out(expected_bytes);
  for (std::size_t i = 0; i < text.size(); ++i) {
    const int d = digit(text[i]);
    if (d < 0)
      return Result<std::vector<std::uint8_t>>(
          Errc::bad_encoding,
          "character '" + std::string(1, text[i]) + "' at " + std::to_string(i) + " is not hex");
    out[i / 2] = static_cast<std::uint8_t>(out[i / 2] << 4 | d);
  }
  return out;
}

}  // namespace cuzk::filecoin
