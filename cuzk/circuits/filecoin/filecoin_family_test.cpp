// The Filecoin circuit families (porep_family, post_family, update_family) and their public data
// (filecoin_public_data):
//   * registered proof numbers as Curio's cuzk maps them (Winning 32 GiB = 3, Window 32 GiB V1 = 8,
//     Go's Window V1_1 = 13 → V1_2, update 32 GiB = 3) and prover ids (t0106 → 0x6a; 1000 →
//     e8 07: Curio's make_prover_id tests);
#include <gtest/gtest.h>

#include "cuzk/circuits/filecoin/filecoin_public_data.hpp"
#include "cuzk/circuits/filecoin/porep_family.hpp"
#include "cuzk/circuits/filecoin/post_family.hpp"
#include "cuzk/circuits/filecoin/update_family.hpp"
#include "cuzk/filecoin/prover_id.hpp"
#include "cuzk/filecoin/registered_proof_number.hpp"

namespace cuzk::circuits::filecoin {
namespace {

namespace fc = cuzk::filecoin;

TEST(FilecoinNumbers, RegisteredProofsAndProverIds) {
  EXPECT_EQ(fc::post_proof_by_number(3)->name, "StackedDrgWinning32GiBV1");
  EXPECT_EQ(fc::post_proof_by_number(8)->name, "StackedDrgWindow32GiBV1");
  EXPECT_EQ(fc::post_proof_by_number(13)->name, "StackedDrgWindow32GiBV1_2");
  EXPECT_EQ(fc::post_proof_by_number(0)->name, "StackedDrgWinning2KiBV1");
  EXPECT_EQ(fc::post_proof_by_number(10)->name, "StackedDrgWindow2KiBV1_2");
  EXPECT_FALSE(fc::post_proof_by_number(15).ok());
  EXPECT_EQ(fc::update_proof_by_number(3)->name, "StackedDrg32GiBV1");
  EXPECT_FALSE(fc::update_proof_by_number(5).ok());
  EXPECT_EQ(fc::seal_proof_by_number(8)->name, "StackedDrg32GiBV1_1");
  EXPECT_EQ(fc::seal_proof_by_number(0)->name, "StackedDrg2KiBV1");
  EXPECT_FALSE(fc::seal_proof_by_number(20).ok());
  for (std::uint64_t n = 0; n < 15; ++n)
    EXPECT_EQ(fc::post_proof_number(*fc::post_proof_by_number(n)), n);
  for (std::uint64_t n = 0; n < 5; ++n)
    EXPECT_EQ(fc::update_proof_number(*fc::update_proof_by_number(n)), n);

  fc::Bytes32 t0106{};
  t0106[0] = 0x6a;
  EXPECT_EQ(fc::prover_id_of_actor(106), t0106);
  const fc::Bytes32 m1000 = fc::prover_id_of_actor(1000);
  EXPECT_EQ(m1000[0], 0xe8);
  EXPECT_EQ(m1000[1], 0x07);
  EXPECT_EQ(m1000[2], 0x00);
  EXPECT_EQ(fc::prover_id_of_actor(128)[0], 0x80);
  EXPECT_EQ(fc::prover_id_of_actor(128)[1], 0x01);
  EXPECT_EQ(fc::prover_id_of_actor(0), fc::Bytes32{});
}

}  // namespace
}  // namespace cuzk::circuits::filecoin
