#include "cuzk/filecoin/bytes32.hpp"

namespace cuzk::filecoin {

std::string to_hex(std::span<const std::uint8_t> bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s;
  s.reserve(2 * bytes.size());
  for (std::uint8_t b : bytes) {
    s.push_back(kDigits[b >> 4]);
    s.push_back(kDigits[b & 15]);
  }
  return s;
}

namespace {
int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
}  // namespace

Result<Bytes32> parse_hex32(std::string_view text, std::string_view what) {
  if (text.starts_with("0x") || text.starts_with("0X")) text.remove_prefix(2);
  if (text.size() != 64)
    return Status(Errc::bad_encoding, std::string(what) +
                                          ": expected 64 hex digits (32 bytes), got " +
                                          std::to_string(text.size()) + " characters");
  Bytes32 out{};
  for (std::size_t i = 0; i < 32; ++i) {
    const int hi = hex_digit(text[2 * i]), lo = hex_digit(text[2 * i + 1]);
    if (hi < 0 || lo < 0)
      return Status(Errc::bad_encoding, std::string(what) + ": not a hex digit at position " +
                                            std::to_string(2 * i + (hi < 0 ? 0 : 1)));
    out[i] = static_cast<std::uint8_t>(hi << 4 | lo);
  }
  return out;
}

Result<Fr> fr_from_bytes32(const Bytes32& b, std::string_view what) {
  auto x = Fr::from_bytes_le(std::span<const std::uint8_t, 32>(b));
  if (!x.ok())
    return Status(Errc::out_of_range,
                  std::string(what) + " " + to_hex(b) + " is not a field element (not below r)");
  return *x;
}

Bytes32 bytes32_from_fr(const Fr& x) {
  Bytes32 b{};
  x.to_bytes_le(std::span<std::uint8_t, 32>(b));
  return b;
}

}  // namespace cuzk::filecoin
