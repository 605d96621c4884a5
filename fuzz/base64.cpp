// Fuzz target: the base64 decoder of Curio's C1 envelope (filecoin/base64.hpp: standard alphabet,
// padded, strict). Both directions: text the decoder accepts is canonical, so it encodes back to
// the same text (into a vector, and into a string with spare capacity, as the envelope reader
// decodes); any bytes encode to text that decodes back to them.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cuzk/filecoin/base64.hpp"
#include "fuzz/fuzz_check.hpp"

namespace fc = cuzk::filecoin;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::uint8_t> bytes(data, size);
  const std::string_view text(reinterpret_cast<const char*>(data), size);

  auto decoded = fc::base64_decode(text, "fuzz");
  std::string into = "left over";
  const std::size_t spare = size % 67;
  const cuzk::Status s = fc::base64_decode_into(text, into, "fuzz", spare);
  FUZZ_CHECK(decoded.ok() == s.ok());
  if (decoded.ok()) {
    FUZZ_CHECK(fc::base64_encode(*decoded) == text);
    FUZZ_CHECK(into.size() == decoded->size() &&
               (into.empty() || std::memcmp(into.data(), decoded->data(), into.size()) == 0));
    FUZZ_CHECK(into.capacity() >= into.size() + spare);
  }

  const std::string encoded = fc::base64_encode(bytes);
  FUZZ_CHECK(encoded.size() == (size + 2) / 3 * 4);
  auto back = fc::base64_decode(encoded, "fuzz");
  FUZZ_CHECK(back.ok() && std::equal(back->begin(), back->end(), bytes.begin(), bytes.end()));
  return 0;
}
