// Fuzz target: bellperson .vk (parse_vk, formats/bellperson.hpp). A key that parses writes back
// to the same bytes.
#include <algorithm>
#include <cstdint>
#include <span>

#include "cuzk/formats/bellperson.hpp"
#include "fuzz/fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto vk = cuzk::parse_vk(std::span<const std::uint8_t>(data, size));
  if (!vk.ok()) return 0;
  const auto out = cuzk::write_vk(*vk);
  FUZZ_CHECK(out.size() == size && std::equal(out.begin(), out.end(), data));
  return 0;
}
