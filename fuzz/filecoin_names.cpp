// Fuzz target: the Filecoin names a request or a command line carries (filecoin/
// registered_proof.hpp: sector sizes, API versions, seal / PoSt / update proof names) and the
// parameter files a registered proof needs (filecoin/parameter_files.hpp). A name that parses
// is the canonical name of what it parses to.
#include <cstdint>
#include <string_view>

#include "cuzk/filecoin/parameter_files.hpp"
#include "cuzk/filecoin/registered_proof.hpp"
#include "fuzz/fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace fc = cuzk::filecoin;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (auto s = fc::parse_sector_size(text); s.ok()) (void)fc::sector_size_name(*s);
  if (auto v = fc::parse_api_version(text); v.ok()) FUZZ_CHECK(fc::api_version_name(*v) == text);
  if (auto p = fc::seal_proof(text); p.ok()) FUZZ_CHECK(p->name == text);
  if (auto p = fc::post_proof(text); p.ok()) FUZZ_CHECK(p->name == text);
  if (auto p = fc::update_proof(text); p.ok()) FUZZ_CHECK(p->name == text);
  for (bool update : {false, true}) (void)fc::parameters_of_proof(text, update);
  return 0;
}
