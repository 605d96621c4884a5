#include "cuzk/filecoin/sector_dir.hpp"

#include <cstdio>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <system_error>

#include "cuzk/filecoin/aux_files.hpp"

namespace cuzk::filecoin {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

Status io_error(const fs::path& file, const std::string& what) {
  return Status(Errc::io_error, what + " " + file.string());
}

Status write_bytes(const fs::path& file, std::span<const std::uint8_t> bytes) {
  File f(std::fopen(file.c_str(), "wb"));
  if (!f) return io_error(file, "cannot create");
  if (!bytes.empty() && std::fwrite(bytes.data(), 1, bytes.size(), f.get()) != bytes.size())
    return io_error(file, "cannot write");
  if (std::fclose(f.release()) != 0) return io_error(file, "cannot finish writing");
  return {};
}

// Writes Fr values as canonical little-endian nodes.
Status write_fr_file(const fs::path& file, std::span<const Fr> values) {
  File f(std::fopen(file.c_str(), "wb"));
  if (!f) return io_error(file, "cannot create");
  std::vector<Node> buf;
  constexpr std::size_t kBatch = 1 << 15;
  for (std::size_t at = 0; at < values.size(); at += kBatch) {
    const std::size_t n = std::min(kBatch, values.size() - at);
    buf.resize(n);
    for (std::size_t i = 0; i < n; ++i) buf[i] = node_from_fr(values[at + i]);
    if (std::fwrite(buf.data(), kNodeBytes, n, f.get()) != n) return io_error(file, "cannot write");
  }
  if (std::fclose(f.release()) != 0) return io_error(file, "cannot finish writing");
  return {};
}

Result<Node> hex_field(const json& j, const char* key) {
  if (!j.contains(key) || !j[key].is_string())
    return Status(Errc::bad_encoding,
                  std::string("sector.json: field '") + key + "' is missing or not a string");
  return parse_hex32(j[key].get<std::string>(), std::string("sector.json field '") + key + "'");
}

Result<std::string> string_field(const json& j, const char* key) {
  if (!j.contains(key) || !j[key].is_string())
    return Status(Errc::bad_encoding,
                  std::string("sector.json: field '") + key + "' is missing or not a string");
  return j[key].get<std::string>();
}

Result<std::uint64_t> u64_field(const json& j, const char* key) {
  if (!j.contains(key) || !j[key].is_number_unsigned())
    return Status(Errc::bad_encoding, std::string("sector.json: field '") + key +
                                          "' is missing or not an unsigned integer");
  return j[key].get<std::uint64_t>();
}

}  // namespace

SealConfig SectorInfo::config() const {
  return {.nodes = sector_nodes(size),
          .layers = sdr_layers(size),
          .shape = tree_shape(size),
          .porep_id = porep_id,
          .api = api};
}

std::string sector_info_json(const SectorInfo& info) {
  json j = json::object();
  j["registered_proof"] = info.registered_proof;
  j["sector_size"] = sector_bytes(info.size);
  j["nodes"] = sector_nodes(info.size);
  j["layers"] = sdr_layers(info.size);
  j["tree_shape"] = tree_shape(info.size).name();
  j["porep_id"] = to_hex(info.porep_id);
  j["api_version"] = std::string(api_version_name(info.api));
  j["prover_id"] = to_hex(info.id.prover_id);
  j["sector_id"] = info.id.sector_id;
  j["ticket"] = to_hex(info.id.ticket);
  j["comm_d"] = to_hex(info.comm_d);
  j["comm_c"] = to_hex(info.comm_c);
  j["comm_r_last"] = to_hex(info.comm_r_last);
  j["comm_r"] = to_hex(info.comm_r);
  j["replica_id"] = to_hex(info.replica_id);
  return j.dump(2) + "\n";
}

Result<SectorInfo> parse_sector_info_json(std::string_view text) {
  json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object())
    return Status(Errc::bad_encoding, "sector.json is not a JSON object");
  SectorInfo info;
  auto proof = string_field(j, "registered_proof");
  if (!proof.ok()) return proof.status();
  info.registered_proof = *proof;
  auto bytes = u64_field(j, "sector_size");
  if (!bytes.ok()) return bytes.status();
  auto size = parse_sector_size(std::to_string(*bytes));
  if (!size.ok()) return size.status().with_context("sector.json field 'sector_size'");
  info.size = *size;
  if (j.contains("nodes") && (!j["nodes"].is_number_unsigned() ||
                              j["nodes"].get<std::uint64_t>() != sector_nodes(info.size)))
    return Status(Errc::bad_encoding, "sector.json: field 'nodes' disagrees with sector_size");
  if (j.contains("layers") && (!j["layers"].is_number_unsigned() ||
                               j["layers"].get<std::uint64_t>() != sdr_layers(info.size)))
    return Status(Errc::bad_encoding, "sector.json: field 'layers' disagrees with sector_size");
  if (j.contains("tree_shape") &&
      (!j["tree_shape"].is_string() || j["tree_shape"] != tree_shape(info.size).name()))
    return Status(Errc::bad_encoding, "sector.json: field 'tree_shape' disagrees with sector_size");
  auto porep = hex_field(j, "porep_id");
  if (!porep.ok()) return porep.status();
  info.porep_id = *porep;
  auto api_text = string_field(j, "api_version");
  if (!api_text.ok()) return api_text.status();
  auto api = parse_api_version(*api_text);
  if (!api.ok()) return api.status().with_context("sector.json field 'api_version'");
  info.api = *api;
  auto sector_id = u64_field(j, "sector_id");
  if (!sector_id.ok()) return sector_id.status();
  info.id.sector_id = *sector_id;
  for (auto [dst, key] :
       {std::pair{&info.id.prover_id, "prover_id"}, std::pair{&info.id.ticket, "ticket"},
        std::pair{&info.comm_d, "comm_d"}, std::pair{&info.comm_c, "comm_c"},
        std::pair{&info.comm_r_last, "comm_r_last"}, std::pair{&info.comm_r, "comm_r"},
        std::pair{&info.replica_id, "replica_id"}}) {
    auto v = hex_field(j, key);
    if (!v.ok()) return v.status();
    *dst = *v;
  }
  return info;
}

Status write_sector_dir(const fs::path& dir, const SectorInfo& info, const SealResult& r) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec)
    return Status(Errc::io_error, "cannot create directory " + dir.string() + ": " + ec.message());
  const fs::path abs = fs::absolute(dir, ec);
  const SealConfig config = info.config();

  CUZK_RETURN_IF_ERROR(write_node_file(dir / kReplicaFile, r.replica));
  CUZK_RETURN_IF_ERROR(write_bytes(
      dir / "p_aux", serialize_p_aux({.comm_c = r.comm_c, .comm_r_last = r.comm_r_last})));
  const TemporaryAux t =
      make_t_aux(config.nodes, config.layers, config.shape, (ec ? dir : abs).string());
  CUZK_RETURN_IF_ERROR(write_bytes(dir / "t_aux", serialize_t_aux(t)));

  for (unsigned l = 0; l < config.layers; ++l)
    CUZK_RETURN_IF_ERROR(write_node_file(dir / t.labels[l].data_file_name(), r.labels[l]));
  CUZK_RETURN_IF_ERROR(write_node_file(dir / t.tree_d.data_file_name(), r.tree_d));

  const unsigned count = r.tree_c.base_tree_count();
  for (unsigned i = 0; i < count; ++i) {
    CUZK_RETURN_IF_ERROR(write_fr_file(
        dir / split_store_config(t.tree_c, i, count).data_file_name(), r.tree_c.base_tree(i)));
    // LevelCacheStore: the rows above the leaves and the rows_to_discard rows over them.
    const unsigned first_row = static_cast<unsigned>(1 + t.tree_r_last.rows_to_discard);
    const std::span<const Fr> all = r.tree_r_last.base_tree(i);
    const std::size_t from =
        static_cast<std::size_t>(r.tree_r_last.base_row(i, first_row).data() - all.data());
    CUZK_RETURN_IF_ERROR(write_fr_file(
        dir / split_store_config(t.tree_r_last, i, count).data_file_name(), all.subspan(from)));
  }

  const std::string text = sector_info_json(info);
  return write_bytes(dir / kSectorInfoFile,
                     {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()});
}

Result<std::vector<std::uint8_t>> read_small_file(const fs::path& file) {
  File f(std::fopen(file.c_str(), "rb"));
  if (!f) return io_error(file, "cannot open");
  std::vector<std::uint8_t> out;
  std::uint8_t buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f.get())) > 0) out.insert(out.end(), buf, buf + n);
  if (std::ferror(f.get())) return io_error(file, "cannot read");
  return out;
}

Result<SectorInfo> read_sector_info(const fs::path& dir) {
  auto bytes = read_small_file(dir / kSectorInfoFile);
  if (!bytes.ok()) return bytes.status();
  auto info = parse_sector_info_json(
      std::string_view(reinterpret_cast<const char*>(bytes->data()), bytes->size()));
  if (!info.ok()) return info.status().with_context((dir / kSectorInfoFile).string());
  return info;
}

Result<std::vector<Node>> read_node_file(const fs::path& file, std::uint64_t nodes) {
  std::error_code ec;
  const std::uintmax_t size = fs::file_size(file, ec);
  if (ec) return Status(Errc::io_error, "cannot read " + file.string() + ": " + ec.message());
  if (size != nodes * kNodeBytes)
    return Status(Errc::size_mismatch, file.string() + " has " + std::to_string(size) +
                                           " bytes, expected " +
                                           std::to_string(nodes * kNodeBytes));
  File f(std::fopen(file.c_str(), "rb"));
  if (!f) return io_error(file, "cannot open");
  std::vector<Node> out(static_cast<std::size_t>(nodes));
  if (std::fread(out.data(), kNodeBytes, out.size(), f.get()) != out.size())
    return io_error(file, "cannot read");
  return out;
}

Status write_node_file(const fs::path& file, std::span<const Node> nodes) {
  return write_bytes(
      file, {reinterpret_cast<const std::uint8_t*>(nodes.data()), nodes.size() * kNodeBytes});
}

}  // namespace cuzk::filecoin
