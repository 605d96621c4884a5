// Fuzz target: snarkjs .zkey (parse_zkey, formats/zkey.hpp), points checked with the subgroup
// test and without. A key that parses is consistent: its matrices validate, and it writes a zkey
// that parses to the same key.
#include <cstdint>
#include <span>

#include "cuzk/formats/zkey.hpp"
#include "fuzz/fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::uint8_t> in(data, size);
  for (bool subgroup : {false, true}) {
    auto z = cuzk::parse_zkey(in, {.check_subgroup = subgroup});
    if (!z.ok()) continue;
    auto out = cuzk::write_zkey(z->pk, z->matrices);
    FUZZ_CHECK(out.ok());
    auto again = cuzk::parse_zkey(*out, {.check_subgroup = false});
    FUZZ_CHECK(again.ok());
    FUZZ_CHECK(again->pk == z->pk);
    FUZZ_CHECK(again->n_vars == z->n_vars && again->n_public == z->n_public);
  }
  return 0;
}
