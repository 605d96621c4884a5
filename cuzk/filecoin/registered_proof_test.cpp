// Registered proofs against rust-fil-proofs' constants.rs and filecoin-proofs-api's ids
// (FORMATS.md §4.3): porep_id bytes, parameters per size, name lookups and their errors.
#include "cuzk/filecoin/registered_proof.hpp"

#include <gtest/gtest.h>

namespace cuzk::filecoin {
namespace {

TEST(RegisteredProof, SealProofIdsAndPorepIds) {
  ASSERT_EQ(seal_proofs().size(), 20u);
  auto p = seal_proof("StackedDrg32GiBV1_1");
  ASSERT_TRUE(p.ok()) << p.status().to_string();
  EXPECT_EQ(p->id, 8u);
  EXPECT_EQ(p->size, SectorSize::s32GiB);
  EXPECT_EQ(p->api, ApiVersion::v1_1_0);
  PorepId want{};
  want[0] = 8;
  EXPECT_EQ(p->porep_id, want);
  EXPECT_EQ(seal_proof("StackedDrg2KiBV1")->id, 0u);
  EXPECT_EQ(seal_proof("StackedDrg64GiBV1_1_Feat_SyntheticPoRep")->id, 14u);
  EXPECT_EQ(seal_proof("StackedDrg2KiBV1_2_Feat_NonInteractivePoRep")->id, 15u);
  EXPECT_EQ(seal_proof("StackedDrg2KiBV1_2_Feat_NonInteractivePoRep")->scheme,
            PorepScheme::non_interactive);
  auto bad = seal_proof("StackedDrg3GiBV1");
  EXPECT_EQ(bad.status().code(), Errc::not_found);
  EXPECT_NE(bad.status().message().find("StackedDrg3GiBV1"), std::string::npos);
}

TEST(RegisteredProof, ParametersPerSize) {
  EXPECT_EQ(sector_nodes(SectorSize::s32GiB), 1ull << 30);
  EXPECT_EQ(tree_shape(SectorSize::s2KiB).name(), "8-0-0");
  EXPECT_EQ(tree_shape(SectorSize::s32GiB).name(), "8-8-0");
  EXPECT_EQ(tree_shape(SectorSize::s64GiB).name(), "8-8-2");
  EXPECT_EQ(tree_shape(SectorSize::s64GiB).base_trees(), 16u);
  EXPECT_EQ(sdr_layers(SectorSize::s512MiB), 2u);
  EXPECT_EQ(sdr_layers(SectorSize::s64GiB), 11u);
  EXPECT_EQ(porep_partitions(SectorSize::s32GiB), 10u);
  EXPECT_EQ(porep_min_challenges(SectorSize::s32GiB), 176u);
  EXPECT_EQ(*parse_sector_size("8MiB"), SectorSize::s8MiB);
  EXPECT_EQ(*parse_sector_size("34359738368"), SectorSize::s32GiB);
  EXPECT_FALSE(parse_sector_size("1GiB").ok());
  EXPECT_EQ(*parse_api_version("1.2.0"), ApiVersion::v1_2_0);
  EXPECT_FALSE(parse_api_version("1.3").ok());
}

TEST(RegisteredProof, PostAndUpdateProofs) {
  auto w = post_proof("StackedDrgWindow32GiBV1_2");
  ASSERT_TRUE(w.ok());
  EXPECT_EQ(w->sector_count, 2349u);
  EXPECT_EQ(w->challenge_count, 10u);
  EXPECT_EQ(post_proof("StackedDrgWindow64GiBV1")->sector_count, 2300u);
  EXPECT_EQ(post_proof("StackedDrgWinning2KiBV1")->challenge_count, 66u);
  EXPECT_FALSE(post_proof("StackedDrgWinning2KiBV1_2").ok());
  // storage-proofs-update constants.rs: partitions 1/4/16/16/16, challenges 10/10/86/86/86.
  const unsigned parts[] = {1, 4, 16, 16, 16}, challenges[] = {10, 10, 86, 86, 86};
  for (std::size_t i = 0; i < update_proofs().size(); ++i) {
    EXPECT_EQ(update_proofs()[i].partitions, parts[i]) << update_proofs()[i].name;
    EXPECT_EQ(update_proofs()[i].challenges_per_partition, challenges[i])
        << update_proofs()[i].name;
  }
}

}  // namespace
}  // namespace cuzk::filecoin
