// Fuzz target: snarkjs verification_key.json (vk_from_snarkjs_json, formats/snarkjs_json.hpp),
// which also checks vk_alphabeta_12 against a pairing. A key that parses writes JSON that parses
// to the same key.
#include <cstdint>
#include <string_view>

#include "cuzk/formats/snarkjs_json.hpp"
#include "fuzz/fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto vk = cuzk::vk_from_snarkjs_json(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!vk.ok()) return 0;
  auto again = cuzk::vk_from_snarkjs_json(cuzk::vk_to_snarkjs_json(*vk));
  FUZZ_CHECK(again.ok() && *again == *vk);
  return 0;
}
