// Fuzz target: snarkjs .wtns (parse_snarkjs_wtns, r1cs/circom.hpp). A witness that parses starts
// with the constant wire 1.
#include <cstdint>
#include <span>

#include "cuzk/r1cs/circom.hpp"
#include "fuzz/fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto w = cuzk::parse_snarkjs_wtns(std::span<const std::uint8_t>(data, size));
  if (!w.ok()) return 0;
  FUZZ_CHECK(!w->empty() && (*w)[0].is_one() && w->size() * 32 <= size);
  return 0;
}
