// Keys named as [filecoin] preload names them: "<kind>:<size>" or a key id. The 2 KiB PoRep file
// name is rust-fil-proofs' parameters.json entry with "sector_size": 2048.
#include "cuzk/circuits/filecoin/key_spec.hpp"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace cuzk::circuits::filecoin
