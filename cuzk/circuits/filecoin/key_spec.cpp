#include "cuzk/circuits/filecoin/key_spec.hpp"

#include "cuzk/circuits/filecoin/filecoin_public_data.hpp"

namespace cuzk::circuits::filecoin {
namespace fc = cuzk::filecoin;

namespace {

// The Rust daemon's circuit ids (its PreloadSRS parser) as <kind>:<size>.
std::string_view rust_daemon_alias(std::string_view name) {
  static constexpr std::pair<std::string_view, std::string_view> kAliases[] = {
      {"porep-32g", "porep:32GiB"},     {"porep-64g", "porep:64GiB"}, {"wpost-32g", "window:32GiB"},
      {"winning-32g", "winning:32GiB"}, {"snap-32g", "update:32GiB"}, {"snap-64g", "update:64GiB"},
  };
  for (const auto& [alias, spec] : kAliases)
    if (name == alias) return spec;
  return name;
}

}  // namespace

Result<fc::ParameterSet> parameter_set_of_key_spec(std::string_view name) {
  const std::string shown = "'" + std::string(name) + "'";
  const std::string_view spec = rust_daemon_alias(name);
  if (spec.rfind("v", 0) == 0 && spec.find(':') == std::string_view::npos) {
    for (const fc::ParameterSet& set : fc::published_parameter_sets())
      if (filecoin_key_id(set) == spec) return set;
    return Status(Errc::invalid_argument,
                  "key " + shown + " is no published Filecoin parameter set's key id (v" +
                      std::to_string(fc::kParameterVersion) +
                      "-<cache id>, a .params file's stem)");
  }
  const auto colon = spec.find(':');
  if (colon == std::string_view::npos)
    return Status(Errc::invalid_argument,
                  "key " + shown +
                      ": write <kind>:<size> (porep:32GiB), a key id (v28-…) or a Rust daemon "
                      "name (porep-32g, porep-64g, wpost-32g, winning-32g, snap-32g, snap-64g)");
  const std::string_view kind = spec.substr(0, colon);
  auto size = fc::parse_sector_size(spec.substr(colon + 1));
  if (!size) return size.status().with_context("key " + shown);
  if (kind == "porep") return fc::porep_parameters(*size);
  if (kind == "winning") return fc::post_parameters(fc::PostKind::winning, *size);
  if (kind == "window") return fc::post_parameters(fc::PostKind::window, *size);
  if (kind == "update") return fc::update_parameters(*size);
  return Status(Errc::invalid_argument, "key " + shown + ": unknown kind '" + std::string(kind) +
                                            "' (known: porep, winning, window, update)");
}

}  // namespace cuzk::circuits::filecoin
