#include "cuzk/filecoin/parameter_files.hpp"

#include <cstdlib>
#include <system_error>

#include "cuzk/hash/sha256.hpp"

namespace cuzk::filecoin {
namespace {

// Degrees of the SDR graph (storage-proofs-core drgraph.rs BASE_DEGREE, storage-proofs-porep
// stacked/vanilla/graph.rs EXP_DEGREE).
constexpr unsigned kBaseDegree = 6;
constexpr unsigned kExpansionDegree = 8;

// Non-interactive PoRep (filecoin-proofs constants.rs get_porep_non_interactive_*): minimum
// challenges 26 / 2253 over 13 / 126 partitions, chosen so the per-partition count (and with it the
// parameter file) stays that of the interactive PoRep.
unsigned ni_min_challenges(SectorSize s) { return porep_partitions(s) > 1 ? 2253 : 26; }
unsigned ni_partitions(SectorSize s) { return porep_partitions(s) > 1 ? 126 : 13; }

std::string hex(std::span<const std::uint8_t> bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s;
  s.reserve(2 * bytes.size());
  for (std::uint8_t b : bytes) {
    s.push_back(kDigits[b >> 4]);
    s.push_back(kDigits[b & 15]);
  }
  return s;
}

bool regular_file(const std::filesystem::path& p) {
  std::error_code ec;
  return std::filesystem::is_regular_file(p, ec);  // follows links
}

}  // namespace

std::string_view circuit_name(Circuit c) {
  switch (c) {
    case Circuit::porep:
      return "porep";
    case Circuit::winning_post:
      return "winning-post";
    case Circuit::window_post:
      return "window-post";
    case Circuit::update:
      return "update";
    case Circuit::update_poseidon:
      return "update-poseidon";
  }
  return "?";
}

std::string tree_display(TreeShape shape) { return "merkletree-poseidon_hasher-" + shape.name(); }

std::string ParameterSet::cache_id() const {
  return prefix + "-" + hex(hash::sha256(std::string_view(identifier)));
}
std::string ParameterSet::params_file() const {
  return "v" + std::to_string(kParameterVersion) + "-" + cache_id() + ".params";
}
std::string ParameterSet::vk_file() const {
  return "v" + std::to_string(kParameterVersion) + "-" + cache_id() + ".vk";
}
std::string ParameterSet::meta_file() const {
  return "v" + std::to_string(kParameterVersion) + "-" + cache_id() + ".meta";
}
std::string ParameterSet::meta_json() const {
  return "{\"sector_size\":" + std::to_string(sector_bytes(size)) + "}";
}

unsigned porep_challenges_per_partition(SectorSize s, PorepScheme scheme) {
  const bool ni = scheme == PorepScheme::non_interactive;
  const unsigned total = ni ? ni_min_challenges(s) : porep_min_challenges(s);
  const unsigned parts = ni ? ni_partitions(s) : porep_partitions(s);
  return (total + parts - 1) / parts;  // filecoin-proofs parameters.rs select_challenges
}

namespace {

ParameterSet porep_set(SectorSize s, unsigned challenges_per_partition) {
  const std::string tree = tree_display(tree_shape(s));
  ParameterSet p;
  p.circuit = Circuit::porep;
  p.size = s;
  p.prefix = "stacked-proof-of-replication-" + tree + "-sha256_hasher";
  p.identifier =
      "layered_drgporep::PublicParams{ graph: stacked_graph::StackedGraph{expansion_degree: " +
      std::to_string(kExpansionDegree) +
      " base_graph: drgraph::BucketGraph{size: " + std::to_string(sector_nodes(s)) +
      "; degree: " + std::to_string(kBaseDegree) +
      "; hasher: poseidon_hasher} }, challenges: LayerChallenges { layers: " +
      std::to_string(sdr_layers(s)) + ", max_count: " + std::to_string(challenges_per_partition) +
      " }, tree: " + tree + " }";
  return p;
}

}  // namespace

ParameterSet porep_parameters(SectorSize s) {
  return porep_set(s, porep_challenges_per_partition(s, PorepScheme::interactive));
}

ParameterSet post_parameters(PostKind kind, SectorSize s) {
  // filecoin-proofs parameters.rs: Winning PoSt is set up with sector_count = challenge_count /
  // sector_count (66 / 1) "sectors" of challenge_count / that (1) challenge each; Window PoSt with
  // the registered counts as they are.
  unsigned challenges = 10, sectors = 0;
  for (const PostProof& p : post_proofs())
    if (p.kind == kind && p.size == s) {
      challenges = p.challenge_count;
      sectors = p.sector_count;
      break;
    }
  if (kind == PostKind::winning) {
    const unsigned param_sectors = challenges / sectors;
    challenges = challenges / param_sectors;
    sectors = param_sectors;
  }
  ParameterSet p;
  p.circuit = kind == PostKind::winning ? Circuit::winning_post : Circuit::window_post;
  p.size = s;
  p.prefix = "proof-of-spacetime-fallback-" + tree_display(tree_shape(s));
  p.identifier = "FallbackPoSt::PublicParams{sector_size: " + std::to_string(sector_bytes(s)) +
                 ", challenge_count: " + std::to_string(challenges) +
                 ", sector_count: " + std::to_string(sectors) + "}";
  return p;
}

ParameterSet update_parameters(SectorSize s, bool poseidon) {
  ParameterSet p;
  p.circuit = poseidon ? Circuit::update_poseidon : Circuit::update;
  p.size = s;
  p.prefix = std::string(poseidon ? "empty-sector-update-poseidon-" : "empty-sector-update-") +
             tree_display(tree_shape(s));
  p.identifier =
      "empty_sector_update::PublicParams{ sector_nodes: " + std::to_string(sector_nodes(s)) + " }";
  return p;
}

const std::vector<ParameterSet>& published_parameter_sets() {
  static const std::vector<ParameterSet> sets = [] {
    std::vector<ParameterSet> v;
    for (SectorSize s : kSectorSizes) v.push_back(porep_parameters(s));
    for (SectorSize s : kSectorSizes) v.push_back(post_parameters(PostKind::winning, s));
    for (SectorSize s : kSectorSizes) v.push_back(post_parameters(PostKind::window, s));
    for (SectorSize s : kSectorSizes) v.push_back(update_parameters(s));
    // rust-fil-proofs publishes the Poseidon-TreeD update only for the production sizes.
    v.push_back(update_parameters(SectorSize::s32GiB, true));
    v.push_back(update_parameters(SectorSize::s64GiB, true));
    return v;
  }();
  return sets;
}

Result<ParameterSet> parameters_of_proof(std::string_view name, bool update) {
  if (update) {
    auto u = update_proof(name);
    if (!u) return u.status();
    return update_parameters(u->size);
  }
  if (auto seal = seal_proof(name))
    return porep_set(seal->size, porep_challenges_per_partition(seal->size, seal->scheme));
  if (auto post = post_proof(name)) return post_parameters(post->kind, post->size);
  if (auto u = update_proof(name)) return update_parameters(u->size);
  return Status(Errc::not_found,
                "'" + std::string(name) +
                    "' is no registered seal, PoSt or update proof (e.g. StackedDrg32GiBV1_1, "
                    "StackedDrgWinning32GiBV1, StackedDrgWindow64GiBV1_2)");
}

std::filesystem::path default_parameter_cache() {
  const char* env = std::getenv("FIL_PROOFS_PARAMETER_CACHE");
  if (env && *env) return env;
  return "/var/tmp/filecoin-proof-parameters";
}

Result<ParameterPaths> locate_parameters(std::string_view registered_proof,
                                         const std::filesystem::path& dir, bool update) {
  auto set = parameters_of_proof(registered_proof, update);
  if (!set) return set.status();
  ParameterPaths p;
  p.set = std::move(*set);
  p.params = dir / p.set.params_file();
  p.vk = dir / p.set.vk_file();
  p.params_found = regular_file(p.params);
  p.vk_found = regular_file(p.vk);
  return p;
}

}  // namespace cuzk::filecoin
