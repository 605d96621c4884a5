#include "cuzk/filecoin/node.hpp"

namespace cuzk::filecoin {

std::string hex_of(std::span<const std::uint8_t> bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s;
  s.reserve(bytes.size() * 2);
  for (std::uint8_t b : bytes) {
    s.push_back(kDigits[b >> 4]);
    s.push_back(kDigits[b & 15]);
  }
  return s;
}

Result<Node> parse_hex32(std::string_view text, std::string_view what) {
  if (text.size() >= 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))
    text.remove_prefix(2);
  if (text.size() != 2 * kNodeBytes)
    return Status(Errc::bad_encoding, std::string(what) +
                                          ": expected 64 hex digits (32 bytes), got " +
                                          std::to_string(text.size()));
  auto digit = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  Node out{};
  for (std::size_t i = 0; i < kNodeBytes; ++i) {
    int hi = digit(text[2 * i]), lo = digit(text[2 * i + 1]);
    if (hi < 0 || lo < 0)
      return Status(Errc::bad_encoding, std::string(what) + ": character " +
                                            std::to_string(2 * i + (hi < 0 ? 0 : 1)) +
                                            " is not a hex digit");
    out[i] = static_cast<std::uint8_t>(hi << 4 | lo);
  }
  return out;
}

}  // namespace cuzk::filecoin
