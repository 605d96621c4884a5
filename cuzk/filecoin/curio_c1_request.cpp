#include "cuzk/filecoin/curio_c1_request.hpp"

#include <simdjson.h>

#include "cuzk/filecoin/base64.hpp"
#include "cuzk/filecoin/c1_json.hpp"

namespace cuzk::filecoin {

namespace od = simdjson::ondemand;

namespace {

Result<CurioC1Request> read_request(simdjson::padded_string_view padded) {
  auto fail = [](Errc code, const std::string& field, const std::string& what) {
    return Status(code, "Curio C1 request, field " + field + ": " + what);
  };
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
      // Base64 needs no JSON escapes: take the string's raw text when it has none (no copy into
      // simdjson's string buffer), else let simdjson unescape it.
      od::value val;
      std::string_view text;
      if (auto e = field.value().get(val))
        return fail(Errc::bad_encoding, "Phase1Out", simdjson::error_message(e));
      text = val.raw_json_token();
      if (text.size() < 2 || text.front() != '"' || text.find('\\') != std::string_view::npos) {
        if (auto e = val.get_string().get(text))
          return fail(Errc::bad_encoding, "Phase1Out",
                      std::string("expected a base64 string (") + simdjson::error_message(e) + ")");
      } else {
        text = text.substr(1, text.find_last_of('"') - 1);
      }
      CUZK_RETURN_IF_ERROR(base64_decode_into(
          text, req.phase1_out, "Curio C1 request, field Phase1Out", simdjson::SIMDJSON_PADDING));
    }
  }
  if (doc.current_location().error() != simdjson::OUT_OF_BOUNDS)
    return fail(Errc::bad_encoding, "(top)", "trailing characters after the object");
  if (!have_num) return fail(Errc::bad_encoding, "SectorNum", "missing");
  if (!have_out) return fail(Errc::bad_encoding, "Phase1Out", "missing");
  if (!have_size) return fail(Errc::bad_encoding, "SectorSize", "missing");
  return req;
}

Result<SealCommitPhase1Output> read_c1_of(Result<CurioC1Request> req, CurioC1Request* header) {
  if (!req.ok()) return req.status();
  auto c1 = read_c1_json_in_place(req->phase1_out);
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

}  // namespace

Result<CurioC1Request> read_curio_c1_request(std::string_view json) {
  const simdjson::padded_string padded(json);
  return read_request(padded);
}

std::string write_curio_c1_request(const CurioC1Request& req) {
  const auto* p = reinterpret_cast<const std::uint8_t*>(req.phase1_out.data());
  return "{\"SectorNum\":" + std::to_string(req.sector_num) + ",\"Phase1Out\":\"" +
         base64_encode({p, req.phase1_out.size()}) +
         "\",\"SectorSize\":" + std::to_string(req.sector_size) + "}";
}

Result<SealCommitPhase1Output> read_curio_c1(std::string_view json, CurioC1Request* header) {
  return read_c1_of(read_curio_c1_request(json), header);
}

Result<SealCommitPhase1Output> read_curio_c1_in_place(std::string& json, CurioC1Request* header) {
  if (json.capacity() < json.size() + simdjson::SIMDJSON_PADDING)
    json.reserve(json.size() + simdjson::SIMDJSON_PADDING);
  return read_c1_of(
      read_request(simdjson::padded_string_view(json.data(), json.size(), json.capacity())),
      header);
}

}  // namespace cuzk::filecoin
