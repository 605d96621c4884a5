// Fuzz target: bellperson proof bytes, 192 per partition (parse_proofs, formats/bellperson.hpp).
// Proofs that parse write back to the same bytes.
#include <algorithm>
#include <cstdint>
#include <span>

#include "cuzk/formats/bellperson.hpp"
#include "fuzz/fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto proofs = cuzk::parse_proofs(std::span<const std::uint8_t>(data, size));
  if (!proofs.ok()) return 0;
  FUZZ_CHECK(proofs->size() * cuzk::kBellpersonProofBytes == size);
  const auto out = cuzk::write_proofs(*proofs);
  FUZZ_CHECK(out.size() == size && std::equal(out.begin(), out.end(), data));
  return 0;
}
