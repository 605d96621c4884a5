// Parameter file names against rust-fil-proofs' published parameters.json, and their lookup.
#include "cuzk/filecoin/parameter_files.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <set>

#include "cuzk/filecoin/parameter_manifest.hpp"

namespace cuzk::filecoin {
namespace {

// Every .params/.vk stem in rust-fil-proofs @ 87348a74 parameters.json, by circuit and sector size
// (the size from each entry's sector_size; Winning vs Window as FORMATS.md §4.4 tells them apart).
struct Published {
  Circuit circuit;
  SectorSize size;
  const char* stem;  // file name without .params / .vk
};
constexpr Published kPublished[] = {
    {Circuit::porep, SectorSize::s2KiB,
     "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
     "032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f"},
    {Circuit::porep, SectorSize::s8MiB,
     "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
     "ecd683648512ab1765faa2a5f14bab48f676e633467f0aa8aad4b55dcb0652bb"},
    {Circuit::porep, SectorSize::s512MiB,
     "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
     "6babf46ce344ae495d558e7770a585b2382d54f225af8ed0397b8be7c3fcd472"},
    {Circuit::porep, SectorSize::s32GiB,
     "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0-sha256_hasher-"
     "82a357d2f2ca81dc61bb45f4a762807aedee1b0a53fd6c4e77b46a01bfef7820"},
    {Circuit::porep, SectorSize::s64GiB,
     "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-2-sha256_hasher-"
     "96f1b4a04c5c51e4759bbf224bbc2ef5a42c7100f16ec0637123f16a845ddfb2"},
    {Circuit::winning_post, SectorSize::s2KiB,
     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-"
     "3ea05428c9d11689f23529cde32fd30aabd50f7d2c93657c1d3650bca3e8ea9e"},
    {Circuit::winning_post, SectorSize::s8MiB,
     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-"
     "50c7368dea9593ed0989e70974d28024efa9d156d585b7eea1be22b2e753f331"},
    {Circuit::winning_post, SectorSize::s512MiB,
     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-"
     "7d739b8cf60f1b0709eeebee7730e297683552e4b69cab6984ec0285663c5781"},
    {Circuit::winning_post, SectorSize::s32GiB,
     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-"
     "559e581f022bb4e4ec6e719e563bf0e026ad6de42e56c18714a2c692b1b88d7e"},
    {Circuit::winning_post, SectorSize::s64GiB,
     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-2-"
     "b62098629d07946e9028127e70295ed996fe3ed25b0f9f88eb610a0ab4385a3c"},
    {Circuit::window_post, SectorSize::s2KiB,
     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-"
     "0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0"},
    {Circuit::window_post, SectorSize::s8MiB,
     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-"
     "5294475db5237a2e83c3e52fd6c2b03859a1831d45ed08c4f35dbf9a803165a9"},
    {Circuit::window_post, SectorSize::s512MiB,
     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-"
     "0cfb4f178bbb71cf2ecfcd42accce558b27199ab4fb59cb78f2483fe21ef36d9"},
    {Circuit::window_post, SectorSize::s32GiB,
     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-"
     "0377ded656c6f524f1618760bffe4e0a1c51d5a70c4509eedae8a27555733edc"},
    {Circuit::window_post, SectorSize::s64GiB,
     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-2-"
     "2627e4006b67f99cef990c0a47d5426cb7ab0a0ad58fc1061547bf2d28b09def"},
    {Circuit::update, SectorSize::s2KiB,
     "v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-"
     "fb9e095bebdd77511c0269b967b4d87ba8b8a525edaa0e165de23ba454510194"},
    {Circuit::update, SectorSize::s8MiB,
     "v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-"
     "92180959e1918d26350b8e6cfe217bbdd0a2d8de51ebec269078b364b715ad63"},
    {Circuit::update, SectorSize::s512MiB,
     "v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-"
     "61fa69f38b9cc771ba27b670124714b4ea77fbeae05e377fb859c4a43b73a30c"},
    {Circuit::update, SectorSize::s32GiB,
     "v28-empty-sector-update-merkletree-poseidon_hasher-8-8-0-"
     "3b7f44a9362e3985369454947bc94022e118211e49fd672d52bec1cbfd599d18"},
    {Circuit::update, SectorSize::s64GiB,
     "v28-empty-sector-update-merkletree-poseidon_hasher-8-8-2-"
     "102e1444a7e9a97ebf1e3d6855dcc77e66c011ea66f936d9b2c508f87f2f83a7"},
    {Circuit::update_poseidon, SectorSize::s32GiB,
     "v28-empty-sector-update-poseidon-merkletree-poseidon_hasher-8-8-0-"
     "3b7f44a9362e3985369454947bc94022e118211e49fd672d52bec1cbfd599d18"},
    {Circuit::update_poseidon, SectorSize::s64GiB,
     "v28-empty-sector-update-poseidon-merkletree-poseidon_hasher-8-8-2-"
     "102e1444a7e9a97ebf1e3d6855dcc77e66c011ea66f936d9b2c508f87f2f83a7"},
};

const char* published_stem(Circuit c, SectorSize s) {
  for (const Published& p : kPublished)
    if (p.circuit == c && p.size == s) return p.stem;
  return nullptr;
}

TEST(ParameterFiles, EveryPublishedNameByCircuitAndSize) {
  const auto& sets = published_parameter_sets();
  ASSERT_EQ(sets.size(), std::size(kPublished));
  std::set<std::string> ours;
  for (const ParameterSet& set : sets) {
    const char* stem = published_stem(set.circuit, set.size);
    ASSERT_NE(stem, nullptr) << circuit_name(set.circuit) << " " << sector_size_name(set.size);
    EXPECT_EQ(set.params_file(), std::string(stem) + ".params") << set.identifier;
    EXPECT_EQ(set.vk_file(), std::string(stem) + ".vk") << set.identifier;
    EXPECT_EQ(set.meta_file(), std::string(stem) + ".meta") << set.identifier;
    ours.insert(set.params_file());
    ours.insert(set.vk_file());
  }
  EXPECT_EQ(ours.size(), 44u);
}

// The identifier text exactly as FORMATS.md §1.5 spells it for 32 GiB (10 partitions, 176
// challenges → max_count 18), and the other circuits' identifiers at one size each.
TEST(ParameterFiles, IdentifierStrings) {
  EXPECT_EQ(porep_parameters(SectorSize::s32GiB).identifier,
            "layered_drgporep::PublicParams{ graph: stacked_graph::StackedGraph{expansion_degree: "
            "8 base_graph: drgraph::BucketGraph{size: 1073741824; degree: 6; hasher: "
            "poseidon_hasher} }, challenges: LayerChallenges { layers: 11, max_count: 18 }, tree: "
            "merkletree-poseidon_hasher-8-8-0 }");
  EXPECT_EQ(porep_parameters(SectorSize::s32GiB).prefix,
            "stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0-sha256_hasher");
  EXPECT_EQ(post_parameters(PostKind::winning, SectorSize::s2KiB).identifier,
            "FallbackPoSt::PublicParams{sector_size: 2048, challenge_count: 1, sector_count: 66}");
  EXPECT_EQ(post_parameters(PostKind::window, SectorSize::s64GiB).identifier,
            "FallbackPoSt::PublicParams{sector_size: 68719476736, challenge_count: 10, "
            "sector_count: 2300}");
  EXPECT_EQ(update_parameters(SectorSize::s8MiB).identifier,
            "empty_sector_update::PublicParams{ sector_nodes: 262144 }");
  EXPECT_EQ(tree_display(tree_shape(SectorSize::s64GiB)), "merkletree-poseidon_hasher-8-8-2");
  EXPECT_EQ(porep_parameters(SectorSize::s32GiB).meta_json(), "{\"sector_size\":34359738368}");
}

// Every seal proof of a size (V1, V1_1, synthetic, non-interactive) shares the PoRep file: the
// per-partition challenge count is 2 / 18 in both schemes (filecoin-proofs constants.rs).
TEST(ParameterFiles, EveryRegisteredProofFindsItsCircuit) {
  for (SectorSize s : kSectorSizes) {
    const unsigned want = sector_bytes(s) >= sector_bytes(SectorSize::s32GiB) ? 18 : 2;
    EXPECT_EQ(porep_challenges_per_partition(s, PorepScheme::interactive), want);
    EXPECT_EQ(porep_challenges_per_partition(s, PorepScheme::non_interactive), want);
  }
  for (const SealProof& p : seal_proofs()) {
    auto set = parameters_of_proof(p.name);
    ASSERT_TRUE(set.ok()) << set.status().to_string();
    EXPECT_EQ(set->circuit, Circuit::porep) << p.name;
    EXPECT_EQ(set->params_file(), std::string(published_stem(Circuit::porep, p.size)) + ".params")
        << p.name;
  }
  for (const PostProof& p : post_proofs()) {
    auto set = parameters_of_proof(p.name);
    ASSERT_TRUE(set.ok()) << set.status().to_string();
    const Circuit c = p.kind == PostKind::winning ? Circuit::winning_post : Circuit::window_post;
    EXPECT_EQ(set->vk_file(), std::string(published_stem(c, p.size)) + ".vk") << p.name;
  }
  for (const UpdateProof& p : update_proofs()) {
    auto set = parameters_of_proof(p.name, /*update=*/true);
    ASSERT_TRUE(set.ok()) << set.status().to_string();
    EXPECT_EQ(set->params_file(), std::string(published_stem(Circuit::update, p.size)) + ".params")
        << p.name;
  }
  // An update name is also a seal name: without |update| it is the seal proof.
  EXPECT_EQ(parameters_of_proof("StackedDrg2KiBV1")->circuit, Circuit::porep);
  auto bad = parameters_of_proof("StackedDrg3KiBV1");
  EXPECT_EQ(bad.status().code(), Errc::not_found);
  EXPECT_NE(bad.status().message().find("StackedDrg3KiBV1"), std::string::npos);
  EXPECT_FALSE(parameters_of_proof("StackedDrgWinning2KiBV1", /*update=*/true).ok());
}

// Each v28 .params/.vk key of the real parameters.json is one we compute, and the reverse; the
// manifest's sector_size agrees with the circuit's.
TEST(ParameterFiles, MatchesUpstreamParametersJson) {
  const char* data = std::getenv("CUZK_FILECOIN_DATA");
  if (!data) GTEST_SKIP() << "CUZK_FILECOIN_DATA is unset: no parameters.json to compare with";
  auto m = load_manifest(std::filesystem::path(data) / "parameters.json");
  ASSERT_TRUE(m.ok()) << m.status().to_string();
  std::map<std::string, SectorSize> ours;
  for (const ParameterSet& set : published_parameter_sets()) {
    ours[set.params_file()] = set.size;
    ours[set.vk_file()] = set.size;
  }
  std::size_t keys = 0;
  for (const auto& [name, entry] : *m) {
    if (name.rfind("v28-", 0) != 0) continue;
    if (!name.ends_with(".params") && !name.ends_with(".vk")) continue;
    ++keys;
    auto it = ours.find(name);
    ASSERT_NE(it, ours.end()) << name << " is in parameters.json but not computed";
    EXPECT_EQ(entry.sector_size, sector_bytes(it->second)) << name;
  }
  for (const auto& [name, size] : ours) EXPECT_TRUE(m->count(name)) << name << " not published";
  EXPECT_EQ(keys, ours.size());
}

struct TempDir {
  std::filesystem::path path;
  TempDir() {
    std::string t = (std::filesystem::temp_directory_path() / "cuzk-params-XXXXXX").string();
    path = ::mkdtemp(t.data());
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

TEST(ParameterFiles, DefaultCacheFollowsEnvironment) {
  const char* saved = std::getenv("FIL_PROOFS_PARAMETER_CACHE");
  const std::string keep = saved ? saved : "";
  ::unsetenv("FIL_PROOFS_PARAMETER_CACHE");
  EXPECT_EQ(default_parameter_cache(), "/var/tmp/filecoin-proof-parameters");
  ::setenv("FIL_PROOFS_PARAMETER_CACHE", "", 1);
  EXPECT_EQ(default_parameter_cache(), "/var/tmp/filecoin-proof-parameters");
  ::setenv("FIL_PROOFS_PARAMETER_CACHE", "/srv/params", 1);
  EXPECT_EQ(default_parameter_cache(), "/srv/params");
  if (saved)
    ::setenv("FIL_PROOFS_PARAMETER_CACHE", keep.c_str(), 1);
  else
    ::unsetenv("FIL_PROOFS_PARAMETER_CACHE");
}

TEST(ParameterFiles, LocateReportsWhatExists) {
  TempDir dir;
  const ParameterSet w = post_parameters(PostKind::window, SectorSize::s2KiB);
  std::ofstream(dir.path / w.params_file()) << "x";
  auto p = locate_parameters("StackedDrgWindow2KiBV1_2", dir.path);
  ASSERT_TRUE(p.ok()) << p.status().to_string();
  EXPECT_EQ(p->params, dir.path / w.params_file());
  EXPECT_EQ(p->vk, dir.path / w.vk_file());
  EXPECT_TRUE(p->params_found);
  EXPECT_FALSE(p->vk_found);
  // A directory under the .vk name is not a parameter file.
  std::filesystem::create_directory(dir.path / w.vk_file());
  EXPECT_FALSE(locate_parameters("StackedDrgWindow2KiBV1", dir.path)->vk_found);
  EXPECT_FALSE(locate_parameters("NoSuchProof", dir.path).ok());
}

}  // namespace
}  // namespace cuzk::filecoin
