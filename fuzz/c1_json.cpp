// Fuzz target: the C1 output JSON (filecoin/c1_json.hpp), which Curio sends and the daemon reads
// before anything else of a PoRep job. Two readers read the same text: the fast one-pass reader of
// serde's form and the simdjson reference reader (its slow twin). Properties:
//   * whatever the fast reader returns, the reference reader returns too (the fast one may only
//     give up, never disagree); read_c1_json and read_c1_json_in_place return the reference's
//     answer and leave the text as it was;
//   * what parses, written again (write_c1_json, serde's form), is read by both readers to the
//     same value, and written again to the same text;
// then the vanilla verifier (porep_verify.hpp) checks it against the public data it carries: it
// must answer (the seed seed-2KiB passes; a mutated proof fails with a Status), not crash.
#include <cstdint>
#include <string>
#include <string_view>

#include "cuzk/filecoin/c1_json.hpp"
#include "cuzk/filecoin/porep_verify.hpp"
#include "fuzz/fuzz_check.hpp"

namespace fc = cuzk::filecoin;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto fast = fc::read_c1_json_fast(text);
  auto ref = fc::read_c1_json_reference(text);
  if (fast) FUZZ_CHECK(ref.ok() && *fast == *ref);
  auto both = fc::read_c1_json(text);
  FUZZ_CHECK(both.ok() == ref.ok());
  std::string copy(text);
  auto in_place = fc::read_c1_json_in_place(copy);
  FUZZ_CHECK(in_place.ok() == ref.ok() && copy == text);
  if (!ref.ok()) {
    FUZZ_CHECK(both.status().to_string() == ref.status().to_string());
    FUZZ_CHECK(in_place.status().to_string() == ref.status().to_string());
    return 0;
  }
  FUZZ_CHECK(*both == *ref && *in_place == *ref);

  const std::string again = fc::write_c1_json(*ref);
  auto fast2 = fc::read_c1_json_fast(again);
  FUZZ_CHECK(fast2 && *fast2 == *ref);
  auto ref2 = fc::read_c1_json_reference(again);
  FUZZ_CHECK(ref2.ok() && *ref2 == *ref);
  FUZZ_CHECK(fc::write_c1_json(*fast2) == again);

  auto proof = fc::seal_proof(ref->registered_proof);
  FUZZ_CHECK(proof.ok());  // the readers refuse an unknown name
  (void)fc::verify_porep_vanilla(*proof, fc::porep_public_inputs(*ref), *ref);
  return 0;
}
