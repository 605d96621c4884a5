#include "cuzk/filecoin/curio_c1_request.hpp"

#include <simdjson.h>

#include "cuzk/filecoin/base64.hpp"
#include "cuzk/filecoin/c1_json.hpp"

namespace cuzk::filecoin {

namespace od = simdjson::ondemand;

Result<CurioC1Request> read_curio_c1_request(std::string_view json) {
  auto fail = [](Errc code, const std::string& field, const std::string& what) {
    return Status(code, "Curio C1 request, field " + field + ": " + what);
  };
  simdjson::padded_string padded(json);
  od::parser parser;
  od::document doc;
  od::object obj;
  if (auto e = parser.iterate(padded).get(doc))
    return fail(Errc::bad_encoding, "(top)", simdjson::error_message(e));
  if (auto e = doc.get_object().get(obj))
    return fail(Errc::bad_encoding, "(top)",
                std::string("expected a JSON object (") + simdjson::error_message(e) + ")");
  CurioC1Request req;
  bool have_num = false, have_out = false, have_size = false;
  for (auto field : obj) {
    std::string_view key;
    if (auto e = field.unescaped_key().get(key))
      return fail(Errc::bad_encoding, "(top)", simdjson::error_message(e));
    if (key == "SectorNum" || key == "SectorSize") {
      const bool num = key == "SectorNum";
      bool& have = num ? have_num : have_size;
      if (have) return fail(Errc::bad_encoding, std::string(key), "duplicate field");
      have = true;
      if (auto e = field.value().get_uint64().get(num ? req.sector_num : req.sector_size))
        return fail(
            Errc::bad_encoding, num ? "SectorNum" : "SectorSize",
            std::string("expected an unsigned integer (") + simdjson::error_message(e) + ")");
    } else if (key == "Phase1Out") {
      if (have_out) return fail(Errc::bad_encoding, "Phase1Out", "duplicate field");
      have_out = true;
      std::string_view text;
      if (auto e = field.value().get_string().get(text))
        return fail(Errc::bad_encoding, "Phase1Out",
                    std::string("expected a base64 string (") + simdjson::error_message(e) + ")");
      auto bytes = base64_decode(text, "Curio C1 request, field Phase1Out");
      if (!bytes.ok()) return bytes.status();
      req.phase1_out.assign(bytes->begin(), bytes->end());
    }
  }
  if (doc.current_location().error() != simdjson::OUT_OF_BOUNDS)
    return fail(Errc::bad_encoding, "(top)", "trailing characters after the object");
  if (!have_num) return fail(Errc::bad_encoding, "SectorNum", "missing");
  if (!have_out) return fail(Errc::bad_encoding, "Phase1Out", "missing");
  if (!have_size) return fail(Errc::bad_encoding, "SectorSize", "missing");
  return req;
}

std::string write_curio_c1_request(const CurioC1Request& req) {
  const auto* p = reinterpret_cast<const std::uint8_t*>(req.phase1_out.data());
  return "{\"SectorNum\":" + std::to_string(req.sector_num) + ",\"Phase1Out\":\"" +
         base64_encode({p, req.phase1_out.size()}) +
         "\",\"SectorSize\":" + std::to_string(req.sector_size) + "}";
}

Result<SealCommitPhase1Output> read_curio_c1(std::string_view json, CurioC1Request* header) {
  auto req = read_curio_c1_request(json);
  if (!req.ok()) return req.status();
  auto c1 = read_c1_json(req->phase1_out);
  if (!c1.ok()) return c1.status().with_context("Curio C1 request, field Phase1Out");
  const SectorSize size = seal_proof(c1->registered_proof)->size;
  if (req->sector_size != sector_bytes(size))
    return Status(Errc::size_mismatch,
                  "Curio C1 request, field SectorSize: " + std::to_string(req->sector_size) +
                      " but the C1 is for " + c1->registered_proof + " (" +
                      std::to_string(sector_bytes(size)) + " bytes)");
  if (header) *header = std::move(*req);
  return c1;
}

}  // namespace cuzk::filecoin
