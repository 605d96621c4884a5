// Fuzz target: rust-fil-proofs parameters.json (parse_manifest, filecoin/parameter_manifest.hpp),
// which the daemon reads at start when [filecoin] names a manifest.
#include <cstdint>
#include <string_view>

#include "cuzk/filecoin/parameter_manifest.hpp"
#include "fuzz/fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto m =
      cuzk::filecoin::parse_manifest(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!m.ok()) return 0;
  for (const auto& [name, e] : *m) FUZZ_CHECK(e.digest.size() == 32);
  return 0;
}
