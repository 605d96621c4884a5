// Fuzz target: snarkjs proof.json (proof_from_snarkjs_json, formats/snarkjs_json.hpp). A proof
// that parses writes JSON that parses to the same proof.
#include <cstdint>
#include <string_view>

#include "cuzk/formats/snarkjs_json.hpp"
#include "fuzz/fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto p =
      cuzk::proof_from_snarkjs_json(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!p.ok()) return 0;
  auto again = cuzk::proof_from_snarkjs_json(cuzk::proof_to_snarkjs_json(*p));
  FUZZ_CHECK(again.ok() && *again == *p);
  return 0;
}
