// Fuzz target: circom .r1cs (parse_circom_r1cs, r1cs/circom.hpp), with and without snarkjs's
// input rows. A circuit that parses has matrices that validate.
#include <cstdint>
#include <span>

#include "cuzk/r1cs/circom.hpp"
#include "fuzz/fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::uint8_t> in(data, size);
  for (bool rows : {true, false}) {
    auto r = cuzk::parse_circom_r1cs(in, {.append_input_constraints = rows});
    if (!r.ok()) continue;
    FUZZ_CHECK(r->matrices.validate().ok());
    FUZZ_CHECK(r->matrices.num_constraints == r->n_constraints + (rows ? r->num_public() + 1 : 0));
  }
  return 0;
}
