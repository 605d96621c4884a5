#include "cuzk/filecoin/update_dir.hpp"

#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <system_error>

#include "cuzk/filecoin/aux_files.hpp"
#include "cuzk/filecoin/sector_dir.hpp"

namespace cuzk::filecoin {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

Status write_text(const fs::path& file, std::span<const std::uint8_t> bytes) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(file.c_str(), "wb"), &std::fclose);
  if (!f) return Status(Errc::io_error, "cannot create " + file.string());
  if (!bytes.empty() && std::fwrite(bytes.data(), 1, bytes.size(), f.get()) != bytes.size())
    return Status(Errc::io_error, "cannot write " + file.string());
  if (std::fclose(f.release()) != 0)
    return Status(Errc::io_error, "cannot finish " + file.string());
  return {};
}

Status field_error(const char* key, const char* what) {
  return Status(Errc::bad_encoding,
                std::string("update.json: field '") + key + "' is missing or not " + what);
}

}  // namespace

std::string update_info_json(const UpdateInfo& info) {
  json j = json::object();
  j["registered_proof"] = info.registered_proof;
  j["seal_proof"] = info.seal_proof;
  j["sector_size"] = sector_bytes(info.size);
  j["nodes"] = sector_nodes(info.size);
  j["h"] = info.h;
  j["comm_c"] = to_hex(info.comm_c);
  j["comm_r_last_old"] = to_hex(info.comm_r_last_old);
  j["comm_r_old"] = to_hex(info.comm_r_old);
  j["comm_d_new"] = to_hex(info.comm_d_new);
  j["comm_r_last_new"] = to_hex(info.comm_r_last_new);
  j["comm_r_new"] = to_hex(info.comm_r_new);
  j["sector_key_dir"] = info.sector_key_dir;
  return j.dump(2) + "\n";
}

Result<UpdateInfo> parse_update_info_json(std::string_view text) {
  json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object())
    return Status(Errc::bad_encoding, "update.json is not a JSON object");
  UpdateInfo info;
  for (auto [dst, key] : {std::pair{&info.registered_proof, "registered_proof"},
                          std::pair{&info.seal_proof, "seal_proof"},
                          std::pair{&info.sector_key_dir, "sector_key_dir"}}) {
    if (!j.contains(key) || !j[key].is_string()) return field_error(key, "a string");
    *dst = j[key].get<std::string>();
  }
  auto proof = update_proof(info.registered_proof);
  if (!proof.ok()) return proof.status().with_context("update.json field 'registered_proof'");
  info.size = proof->size;
  if (!j.contains("sector_size") || !j["sector_size"].is_number_unsigned() ||
      j["sector_size"].get<std::uint64_t>() != sector_bytes(info.size))
    return Status(Errc::bad_encoding,
                  "update.json: field 'sector_size' is missing or disagrees with registered_proof");
  if (!j.contains("h") || !j["h"].is_number_unsigned()) return field_error("h", "an integer");
  info.h = j["h"].get<unsigned>();
  if (!snap_params(info.size).h_allowed(info.h))
    return Status(Errc::bad_encoding, "update.json: field 'h' = " + std::to_string(info.h) +
                                          " is not allowed for " + info.registered_proof);
  for (auto [dst, key] :
       {std::pair{&info.comm_c, "comm_c"}, std::pair{&info.comm_r_last_old, "comm_r_last_old"},
        std::pair{&info.comm_r_old, "comm_r_old"}, std::pair{&info.comm_d_new, "comm_d_new"},
        std::pair{&info.comm_r_last_new, "comm_r_last_new"},
        std::pair{&info.comm_r_new, "comm_r_new"}}) {
    if (!j.contains(key) || !j[key].is_string()) return field_error(key, "a string");
    auto v = parse_hex32(j[key].get<std::string>(), std::string("update.json field '") + key + "'");
    if (!v.ok()) return v.status();
    *dst = *v;
  }
  return info;
}

Result<UpdateInfo> read_update_info(const fs::path& dir) {
  auto bytes = read_small_file(dir / kUpdateInfoFile);
  if (!bytes.ok()) return bytes.status();
  auto info = parse_update_info_json(
      std::string_view(reinterpret_cast<const char*>(bytes->data()), bytes->size()));
  if (!info.ok()) return info.status().with_context((dir / kUpdateInfoFile).string());
  return info;
}

Status write_update_dir(const fs::path& dir, const UpdateInfo& info, const SnapEncoded& e) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec)
    return Status(Errc::io_error, "cannot create directory " + dir.string() + ": " + ec.message());
  const fs::path abs = fs::absolute(dir, ec);
  const std::uint64_t nodes = sector_nodes(info.size);
  const TreeShape shape = tree_shape(info.size);

  CUZK_RETURN_IF_ERROR(write_node_file(dir / kReplicaFile, e.replica));
  CUZK_RETURN_IF_ERROR(write_text(
      dir / "p_aux", serialize_p_aux({.comm_c = info.comm_c, .comm_r_last = e.comm_r_last_new})));
  const TemporaryAux t = make_t_aux(nodes, sdr_layers(info.size), shape, (ec ? dir : abs).string());
  CUZK_RETURN_IF_ERROR(write_text(dir / "t_aux", serialize_t_aux(t)));
  CUZK_RETURN_IF_ERROR(write_node_file(dir / t.tree_d.data_file_name(), e.tree_d));
  const unsigned count = e.tree_r.base_tree_count();
  for (unsigned i = 0; i < count; ++i) {
    // LevelCacheStore: the rows above the leaves and the rows_to_discard rows over them.
    const unsigned first_row = static_cast<unsigned>(1 + t.tree_r_last.rows_to_discard);
    const std::span<const Fr> all = e.tree_r.base_tree(i);
    const std::size_t from =
        static_cast<std::size_t>(e.tree_r.base_row(i, first_row).data() - all.data());
    std::vector<Node> kept(all.size() - from);
    for (std::size_t n = 0; n < kept.size(); ++n) kept[n] = node_from_fr(all[from + n]);
    CUZK_RETURN_IF_ERROR(
        write_node_file(dir / split_store_config(t.tree_r_last, i, count).data_file_name(), kept));
  }
  const std::string text = update_info_json(info);
  return write_text(dir / kUpdateInfoFile,
                    {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()});
}

}  // namespace cuzk::filecoin
