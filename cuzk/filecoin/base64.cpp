#include "cuzk/filecoin/base64.hpp"

#include <array>

namespace cuzk::filecoin {

namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// 0..63 for alphabet characters, 64 for '=', 255 for anything else.
constexpr std::array<std::uint8_t, 256> kDecode = [] {
  std::array<std::uint8_t, 256> t{};
  for (auto& x : t) x = 255;
  for (std::uint8_t i = 0; i < 64; ++i) t[static_cast<unsigned char>(kAlphabet[i])] = i;
  t['='] = 64;
  return t;
}();

}  // namespace

std::string base64_encode(std::span<const std::uint8_t> bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const std::uint32_t v = bytes[i] << 16 | bytes[i + 1] << 8 | bytes[i + 2];
    out.push_back(kAlphabet[v >> 18]);
    out.push_back(kAlphabet[(v >> 12) & 63]);
    out.push_back(kAlphabet[(v >> 6) & 63]);
    out.push_back(kAlphabet[v & 63]);
  }
  const std::size_t rest = bytes.size() - i;
  if (rest) {
    const std::uint32_t v = bytes[i] << 16 | (rest == 2 ? bytes[i + 1] << 8 : 0);
    out.push_back(kAlphabet[v >> 18]);
    out.push_back(kAlphabet[(v >> 12) & 63]);
    out.push_back(rest == 2 ? kAlphabet[(v >> 6) & 63] : '=');
    out.push_back('=');
  }
  return out;
}

namespace {

// Decodes |text| into |out| (a std::string or std::vector<std::uint8_t>), which is cleared first.
template <class Out>
Status decode(std::string_view text, Out& out, std::string_view what, std::size_t spare) {
  auto bad = [&](std::size_t pos, const std::string& why) {
    return Status(Errc::bad_encoding, std::string(what) + ": bad base64 at character " +
                                          std::to_string(pos) + ": " + why);
  };
  if (text.size() % 4 != 0)
    return Status(Errc::bad_encoding, std::string(what) + ": bad base64: length " +
                                          std::to_string(text.size()) + " is not a multiple of 4");
  out.clear();
  out.reserve(text.size() / 4 * 3 + spare);
  // Every quad but the last, while all four are alphabet characters (bits 6–7 of the table value
  // clear; '=' is 64, others 255): written straight into |out|. The checked loop below takes the
  // last quad and any defect (and names it).
  using T = typename Out::value_type;
  std::size_t i = 0;
  if (text.size() > 4) {
    const std::size_t quads = text.size() / 4 - 1;
    out.resize(quads * 3);
    T* dst = out.data();
    const auto* src = reinterpret_cast<const unsigned char*>(text.data());
    for (; i < quads * 4; i += 4, dst += 3) {
      const std::uint32_t a = kDecode[src[i]], b = kDecode[src[i + 1]], c = kDecode[src[i + 2]],
                          d = kDecode[src[i + 3]];
      if ((a | b | c | d) & 0xc0) break;
      const std::uint32_t v = a << 18 | b << 12 | c << 6 | d;
      dst[0] = static_cast<T>(v >> 16);
      dst[1] = static_cast<T>(v >> 8);
      dst[2] = static_cast<T>(v);
    }
    out.resize(i / 4 * 3);
  }
  for (; i < text.size(); i += 4) {
    std::uint8_t d[4];
    std::size_t pad = 0;
    for (std::size_t j = 0; j < 4; ++j) {
      d[j] = kDecode[static_cast<unsigned char>(text[i + j])];
      if (d[j] == 255) return bad(i + j, "not a base64 character");
      if (d[j] == 64) {
        if (i + 4 != text.size() || j < 2) return bad(i + j, "'=' before the end");
        ++pad;
        d[j] = 0;
      } else if (pad) {
        return bad(i + j, "a character after '='");
      }
    }
    const std::uint32_t v = d[0] << 18 | d[1] << 12 | d[2] << 6 | d[3];
    out.push_back(static_cast<T>(v >> 16));
    if (pad < 2) out.push_back(static_cast<T>(v >> 8));
    if (pad < 1) out.push_back(static_cast<T>(v));
    if ((pad == 1 && (v & 0xff)) || (pad == 2 && (v & 0xffff)))
      return bad(i + 3 - pad, "unused bits are not zero");
  }
  return {};
}

}  // namespace

Result<std::vector<std::uint8_t>> base64_decode(std::string_view text, std::string_view what) {
  std::vector<std::uint8_t> out;
  CUZK_RETURN_IF_ERROR(decode(text, out, what, 0));
  return out;
}

Status base64_decode_into(std::string_view text, std::string& out, std::string_view what,
                          std::size_t spare) {
  return decode(text, out, what, spare);
}

}  // namespace cuzk::filecoin
