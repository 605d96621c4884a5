// Keys named as [filecoin] preload names them: "<kind>:<size>" or a key id. The 2 KiB PoRep file
// name is rust-fil-proofs' parameters.json entry with "sector_size": 2048.
#include "cuzk/circuits/filecoin/key_spec.hpp"

#include <gtest/gtest.h>

#include "cuzk/circuits/builtin_families.hpp"
#include "cuzk/circuits/filecoin/filecoin_public_data.hpp"

namespace cuzk::circuits::filecoin {
namespace {

namespace fc = cuzk::filecoin;

TEST(FilecoinKeySpec, KindAndSizeOrKeyId) {
  const char* porep_2kib =
      "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
      "032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f";
  for (const char* spec : {"porep:2KiB", "porep:2048", porep_2kib}) {
    auto set = parameter_set_of_key_spec(spec);
    ASSERT_TRUE(set.ok()) << spec << ": " << set.status().to_string();
    EXPECT_EQ(filecoin_key_id(*set), porep_2kib) << spec;
  }
  const std::pair<const char*, fc::ParameterSet> kinds[] = {
      {"winning:32GiB", fc::post_parameters(fc::PostKind::winning, fc::SectorSize::s32GiB)},
      {"window:64GiB", fc::post_parameters(fc::PostKind::window, fc::SectorSize::s64GiB)},
      {"update:512MiB", fc::update_parameters(fc::SectorSize::s512MiB)},
      {"porep:8MiB", fc::porep_parameters(fc::SectorSize::s8MiB)},
  };
  for (const auto& [spec, want] : kinds) {
    auto set = parameter_set_of_key_spec(spec);
    ASSERT_TRUE(set.ok()) << spec << ": " << set.status().to_string();
    EXPECT_EQ(set->params_file(), want.params_file()) << spec;
    // Every published set is also found by its key id.
    auto again = parameter_set_of_key_spec(filecoin_key_id(want));
    ASSERT_TRUE(again.ok()) << spec;
    EXPECT_EQ(again->params_file(), want.params_file()) << spec;
  }
  const std::pair<const char*, const char*> bad[] = {
      {"snark:2KiB", "unknown kind 'snark'"},
      {"porep:3KiB", "unknown sector size '3KiB'"},
      {"porep", "write <kind>:<size>"},
      {"v28-stacked-proof-of-replication-0000", "no published Filecoin parameter set"},
  };
  for (const auto& [spec, says] : bad) {
    auto set = parameter_set_of_key_spec(spec);
    ASSERT_FALSE(set.ok()) << spec;
    EXPECT_EQ(set.status().code(), Errc::invalid_argument) << spec;
    EXPECT_NE(set.status().message().find(says), std::string::npos) << set.status().to_string();
  }
}

// The circuit ids Curio's Rust daemon accepts in PreloadSRS (REFERENCE-CUZK.md, PreloadSRS) name
// the same parameter sets here, as specs and through the registry the engine asks (key_of).
TEST(FilecoinKeySpec, RustDaemonNames) {
  const std::pair<const char*, fc::ParameterSet> names[] = {
      {"porep-32g", fc::porep_parameters(fc::SectorSize::s32GiB)},
      {"porep-64g", fc::porep_parameters(fc::SectorSize::s64GiB)},
      {"wpost-32g", fc::post_parameters(fc::PostKind::window, fc::SectorSize::s32GiB)},
      {"winning-32g", fc::post_parameters(fc::PostKind::winning, fc::SectorSize::s32GiB)},
      {"snap-32g", fc::update_parameters(fc::SectorSize::s32GiB)},
      {"snap-64g", fc::update_parameters(fc::SectorSize::s64GiB)},
  };
  auto reg = builtin_families(FamilyOptions{.cache_dir = "", .filecoin_params_dir = "/nonexistent"},
                              nullptr);
  ASSERT_TRUE(reg.ok()) << reg.status().to_string();
  for (const auto& [name, want] : names) {
    auto set = parameter_set_of_key_spec(name);
    ASSERT_TRUE(set.ok()) << name << ": " << set.status().to_string();
    EXPECT_EQ(set->params_file(), want.params_file()) << name;
    EXPECT_EQ((*reg)->key_id_of_name(name), filecoin_key_id(want)) << name;
  }
  // Key ids and kind:size resolve to the key id; other names to nothing.
  const std::string id = filecoin_key_id(fc::porep_parameters(fc::SectorSize::s2KiB));
  EXPECT_EQ((*reg)->key_id_of_name(id), id);
  EXPECT_EQ((*reg)->key_id_of_name("porep:2KiB"), id);
  EXPECT_EQ((*reg)->key_id_of_name("porep-2k"), "");
  EXPECT_EQ((*reg)->key_id_of_name("wpost-64g"), "");  // not a name the Rust daemon knows
}

}  // namespace
}  // namespace cuzk::circuits::filecoin
