// Fuzz target: Curio's C2 request envelope (filecoin/curio_c1_request.hpp): a JSON object with
// SectorNum, SectorSize and Phase1Out, the C1 JSON in base64. Properties: an envelope that reads,
// written again (write_curio_c1_request, Go's form), reads to the same fields; read_curio_c1 and
// read_curio_c1_in_place agree (value, header, error) and the in-place one leaves the text as it
// was; a C1 that reads through the envelope is the C1 its Phase1Out holds, for the sector size
// the envelope names.
#include <cstdint>
#include <string>
#include <string_view>

#include "cuzk/filecoin/c1_json.hpp"
#include "cuzk/filecoin/curio_c1_request.hpp"
#include "fuzz/fuzz_check.hpp"

namespace fc = cuzk::filecoin;

namespace {

bool same(const fc::CurioC1Request& a, const fc::CurioC1Request& b) {
  return a.sector_num == b.sector_num && a.sector_size == b.sector_size &&
         a.phase1_out == b.phase1_out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto req = fc::read_curio_c1_request(text);
  if (req.ok()) {
    auto again = fc::read_curio_c1_request(fc::write_curio_c1_request(*req));
    FUZZ_CHECK(again.ok() && same(*again, *req));
  }

  fc::CurioC1Request header, header2;
  auto c1 = fc::read_curio_c1(text, &header);
  std::string copy(text);
  auto c1b = fc::read_curio_c1_in_place(copy, &header2);
  FUZZ_CHECK(copy == text);
  FUZZ_CHECK(c1.ok() == c1b.ok());
  if (!c1.ok()) {
    FUZZ_CHECK(c1.status().to_string() == c1b.status().to_string());
    return 0;
  }
  FUZZ_CHECK(*c1 == *c1b && same(header, header2));
  FUZZ_CHECK(req.ok() && same(header, *req));
  auto inner = fc::read_c1_json(req->phase1_out);
  FUZZ_CHECK(inner.ok() && *inner == *c1);
  FUZZ_CHECK(fc::sector_bytes(fc::seal_proof(c1->registered_proof)->size) == header.sector_size);
  return 0;
}
