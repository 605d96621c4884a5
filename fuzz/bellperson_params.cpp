// Fuzz target: bellperson .params (parse_params, formats/bellperson.hpp), with and without the
// subgroup checks of the queries. A key that parses writes back to the same bytes.
#include <cstdint>
#include <span>

#include "cuzk/formats/bellperson.hpp"
#include "fuzz/fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::uint8_t> in(data, size);
  for (bool checked : {false, true}) {
    auto pk = cuzk::parse_params(in, {.checked = checked});
    if (!pk.ok()) continue;
    auto out = cuzk::write_params(*pk);
    FUZZ_CHECK(out.ok());
    FUZZ_CHECK(out->size() == size && std::equal(out->begin(), out->end(), data));
  }
  return 0;
}
