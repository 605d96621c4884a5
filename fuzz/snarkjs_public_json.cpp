// Fuzz target: snarkjs public.json (public_from_snarkjs_json, formats/snarkjs_json.hpp). Inputs
// that parse write JSON that parses to the same inputs.
#include <cstdint>
#include <string_view>

#include "cuzk/formats/snarkjs_json.hpp"
#include "fuzz/fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto v =
      cuzk::public_from_snarkjs_json(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!v.ok()) return 0;
  auto again = cuzk::public_from_snarkjs_json(cuzk::public_to_snarkjs_json(*v));
  FUZZ_CHECK(again.ok() && *again == *v);
  return 0;
}
