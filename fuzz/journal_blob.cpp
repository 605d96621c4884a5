// Fuzz target: the journal's request blob (decode_request_blob, engine/journal.hpp), read back
// from SQLite at every start. A blob that decodes encodes back to the same bytes.
#include <cstdint>
#include <string>

#include "cuzk/engine/journal.hpp"
#include "fuzz/fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string blob(reinterpret_cast<const char*>(data), size);
  cuzk::engine::JobRequest r;
  if (!cuzk::engine::decode_request_blob(blob, r).ok()) return 0;
  FUZZ_CHECK(cuzk::engine::encode_request_blob(r) == blob);
  return 0;
}
