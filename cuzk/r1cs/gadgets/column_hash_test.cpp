// Column hash and encode gadgets. Pinned counts from rust-fil-proofs
// storage-proofs-porep/src/stacked/circuit/hash.rs: 311 for hash2_circuit (arity 2, the L = 2
// column and comm_r = H(comm_c, comm_r_last)) and 598 for hash_single_column of 11 rows. Values
// against the native twin and neptune's reference Poseidon (the unoptimized slow twin) on seeded
// random rows; a corrupted row is caught; other column sizes are errors. encode: one constraint.
#include "cuzk/r1cs/gadgets/column_hash.hpp"

#include <gtest/gtest.h>

#include "cuzk/r1cs/gadgets/encode.hpp"
#include "cuzk/r1cs/gadgets/gadget_test_util.hpp"
#include "cuzk/r1cs/gadgets/poseidon.hpp"

namespace cuzk {
namespace {

using cuzk::test::random_fr;
using gadget_test::CorruptingCs;

TEST(ColumnHash, UpstreamCountsAndValues) {
  const std::uint64_t seed = gadget_test::fresh_seed();
  std::mt19937_64 rng(seed);
  for (const auto& [rows, count] : {std::pair{2u, 311u}, std::pair{11u, 598u}}) {
    for (int iter = 0; iter < 5; ++iter) {
      TestConstraintSystem cs;
      std::vector<Fr> vals;
      std::vector<AllocatedNum> nums;
      for (unsigned r = 0; r < rows; ++r) {
        vals.push_back(random_fr(rng));
        nums.push_back(*AllocatedNum::alloc(cs, vals.back()));
      }
      auto out = hash_single_column(cs, nums);
      ASSERT_TRUE(out.ok()) << out.status().to_string();
      EXPECT_TRUE(cs.is_satisfied()) << *cs.which_unsatisfied();
      EXPECT_EQ(cs.num_constraints(), count) << rows << " rows";
      const Fr native = *hash_single_column_native(vals);
      EXPECT_EQ(*out->value(), native) << "seed=" << seed;
      const PoseidonConstants& c = *poseidon_constants(rows);
      EXPECT_EQ(native, poseidon_hash_reference(c, poseidon_merkle_tag(rows), vals))
          << "seed=" << seed;
    }
  }
}

TEST(ColumnHash, CorruptedRowIsCaught) {
  const std::uint64_t seed = gadget_test::fresh_seed();
  std::mt19937_64 rng(seed);
  // Aux 0..10 are the rows (a changed row only changes the hash, which the gadget alone cannot
  // see); aux 12 lies inside the Poseidon rounds.
  CorruptingCs cs(12);
  std::vector<AllocatedNum> nums;
  for (int r = 0; r < 11; ++r) nums.push_back(*AllocatedNum::alloc(cs, random_fr(rng)));
  ASSERT_TRUE(hash_single_column(cs, nums).ok());
  ASSERT_FALSE(cs.inner().is_satisfied());
}

TEST(ColumnHash, OtherSizesAreErrors) {
  TestConstraintSystem cs;
  std::vector<AllocatedNum> nums;
  for (int r = 0; r < 3; ++r) nums.push_back(*AllocatedNum::alloc(cs, Fr::from_u64(r)));
  auto out = hash_single_column(cs, nums);
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.status().message().find("column size 3"), std::string::npos);
  const Fr three[3] = {Fr::one(), Fr::one(), Fr::one()};
  EXPECT_FALSE(hash_single_column_native(three).ok());
}

TEST(Encode, OneConstraintAndCorruptionNamed) {
  const std::uint64_t seed = gadget_test::fresh_seed();
  std::mt19937_64 rng(seed);
  const Fr k = random_fr(rng), v = random_fr(rng);
  {
    TestConstraintSystem cs;
    const AllocatedNum key = *AllocatedNum::alloc(cs, k), val = *AllocatedNum::alloc(cs, v);
    auto out = encode(cs, key, val);
    ASSERT_TRUE(out.ok());
    EXPECT_EQ(cs.num_constraints(), 1u);
    EXPECT_EQ(cs.num_aux(), 3u);
    EXPECT_EQ(*out->value(), k + v);
    EXPECT_TRUE(cs.is_satisfied());
  }
  CorruptingCs cs(2);
  const AllocatedNum key = *AllocatedNum::alloc(cs, k), val = *AllocatedNum::alloc(cs, v);
  ASSERT_TRUE(encode(cs, key, val).ok());
  ASSERT_FALSE(cs.inner().is_satisfied());
  EXPECT_EQ(*cs.inner().which_unsatisfied(), "encode_add/sum constraint");
}

}  // namespace
}  // namespace cuzk
