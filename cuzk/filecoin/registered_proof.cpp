#include "cuzk/filecoin/registered_proof.hpp"

#include <charconv>

namespace cuzk::filecoin {
namespace {

constexpr const char* kSizeNames[] = {"2KiB", "8MiB", "512MiB", "32GiB", "64GiB"};

std::size_t size_index(SectorSize s) {
  for (std::size_t i = 0; i < kSectorSizes.size(); ++i)
    if (kSectorSizes[i] == s) return i;
  return 0;
}

std::string list_names(const auto& table) {
  std::string s;
  for (const auto& e : table) s += (s.empty() ? "" : ", ") + e.name;
  return s;
}

template <class T>
Result<T> find_named(const std::vector<T>& table, std::string_view name, const char* what) {
  for (const auto& e : table)
    if (e.name == name) return e;
  return Status(Errc::not_found, std::string("unknown ") + what + " '" + std::string(name) +
                                     "' (known: " + list_names(table) + ")");
}

}  // namespace

std::string_view sector_size_name(SectorSize s) { return kSizeNames[size_index(s)]; }

Result<SectorSize> parse_sector_size(std::string_view text) {
  for (std::size_t i = 0; i < kSectorSizes.size(); ++i)
    if (text == kSizeNames[i]) return kSectorSizes[i];
  std::uint64_t bytes = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), bytes);
  if (ec == std::errc() && end == text.data() + text.size())
    for (SectorSize s : kSectorSizes)
      if (sector_bytes(s) == bytes) return s;
  return Status(Errc::invalid_argument,
                "unknown sector size '" + std::string(text) +
                    "' (known: 2KiB, 8MiB, 512MiB, 32GiB, 64GiB, or their byte counts)");
}

std::string TreeShape::name() const {
  return std::to_string(base) + "-" + std::to_string(sub) + "-" + std::to_string(top);
}

TreeShape tree_shape(SectorSize s) {
  switch (s) {
    case SectorSize::s32GiB:
      return {8, 8, 0};
    case SectorSize::s64GiB:
      return {8, 8, 2};
    default:
      return {8, 0, 0};
  }
}

unsigned sdr_layers(SectorSize s) {
  return sector_bytes(s) >= sector_bytes(SectorSize::s32GiB) ? 11 : 2;
}
unsigned porep_partitions(SectorSize s) {
  return sector_bytes(s) >= sector_bytes(SectorSize::s32GiB) ? 10 : 1;
}
unsigned porep_min_challenges(SectorSize s) {
  return sector_bytes(s) >= sector_bytes(SectorSize::s32GiB) ? 176 : 2;
}

std::string_view api_version_name(ApiVersion v) {
  switch (v) {
    case ApiVersion::v1_0_0:
      return "1.0.0";
    case ApiVersion::v1_1_0:
      return "1.1.0";
    case ApiVersion::v1_2_0:
      return "1.2.0";
  }
  return "?";
}

Result<ApiVersion> parse_api_version(std::string_view text) {
  for (ApiVersion v : {ApiVersion::v1_0_0, ApiVersion::v1_1_0, ApiVersion::v1_2_0})
    if (text == api_version_name(v)) return v;
  return Status(Errc::invalid_argument,
                "unknown API version '" + std::string(text) + "' (known: 1.0.0, 1.1.0, 1.2.0)");
}

PorepId porep_id_of(std::uint64_t seal_proof_id) {
  PorepId id{};
  for (int i = 0; i < 8; ++i) id[i] = static_cast<std::uint8_t>(seal_proof_id >> (8 * i));
  return id;  // nonce 0 in bytes 8..16, zeros after
}

const std::vector<SealProof>& seal_proofs() {
  static const std::vector<SealProof> table = [] {
    struct Family {
      const char* suffix;
      ApiVersion api;
      PorepScheme scheme;
    };
    const Family families[] = {
        {"V1", ApiVersion::v1_0_0, PorepScheme::interactive},
        {"V1_1", ApiVersion::v1_1_0, PorepScheme::interactive},
        {"V1_1_Feat_SyntheticPoRep", ApiVersion::v1_1_0, PorepScheme::synthetic},
        {"V1_2_Feat_NonInteractivePoRep", ApiVersion::v1_2_0, PorepScheme::non_interactive},
    };
    std::vector<SealProof> t;
    std::uint64_t id = 0;
    for (const Family& f : families)
      for (SectorSize s : kSectorSizes) {
        SealProof p;
        p.name = "StackedDrg" + std::string(sector_size_name(s)) + f.suffix;
        p.id = id;
        p.size = s;
        p.api = f.api;
        p.scheme = f.scheme;
        p.porep_id = porep_id_of(id);
        t.push_back(p);
        ++id;
      }
    return t;
  }();
  return table;
}

Result<SealProof> seal_proof(std::string_view name) {
  return find_named(seal_proofs(), name, "registered seal proof");
}

const std::vector<PostProof>& post_proofs() {
  static const std::vector<PostProof> table = [] {
    std::vector<PostProof> t;
    for (SectorSize s : kSectorSizes)
      t.push_back({"StackedDrgWinning" + std::string(sector_size_name(s)) + "V1", PostKind::winning,
                   s, ApiVersion::v1_0_0, 66, 1});
    const unsigned window_sectors[] = {2, 2, 2, 2349, 2300};
    for (auto [suffix, api] : {std::pair{"V1", ApiVersion::v1_0_0}, {"V1_2", ApiVersion::v1_2_0}})
      for (SectorSize s : kSectorSizes)
        t.push_back({"StackedDrgWindow" + std::string(sector_size_name(s)) + suffix,
                     PostKind::window, s, api, 10, window_sectors[size_index(s)]});
    return t;
  }();
  return table;
}

Result<PostProof> post_proof(std::string_view name) {
  return find_named(post_proofs(), name, "registered PoSt proof");
}

const std::vector<UpdateProof>& update_proofs() {
  static const std::vector<UpdateProof> table = [] {
    std::vector<UpdateProof> t;
    for (SectorSize s : kSectorSizes) {
      const std::uint64_t nodes = sector_nodes(s);
      const unsigned parts = nodes <= 256 ? 1 : nodes <= 1024 ? 2 : nodes <= (1u << 19) ? 4 : 16;
      t.push_back({"StackedDrg" + std::string(sector_size_name(s)) + "V1", s, parts,
                   nodes <= (1u << 19) ? 10u : 86u});
    }
    return t;
  }();
  return table;
}

Result<UpdateProof> update_proof(std::string_view name) {
  return find_named(update_proofs(), name, "registered update proof");
}

}  // namespace cuzk::filecoin
