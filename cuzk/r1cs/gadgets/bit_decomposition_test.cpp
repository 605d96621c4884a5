// The SnapDeals bit decomposition: the bits against the native twin, the one packing constraint
// in its upstream form (Σ 2^i·b_i)·ONE = x — A the sum, B ONE, C x — and not to_bits_le's
// 0·0 = Σ − x, the count (count + 1), values that do not fit refused by name, corrupted bits caught.
#include <gtest/gtest.h>

#include "cuzk/r1cs/gadgets/bit_decomposition.hpp"
#include "cuzk/r1cs/gadgets/gadget_test_util.hpp"
#include "cuzk/r1cs/gadgets/snap_gadget_test_util.hpp"
#include "tests/support/seed.hpp"

namespace cuzk {
namespace {

using cuzk::test::random_fr;
using gadget_test::CapturingCs;
using gadget_test::CorruptingCs;

TEST(BitDecomposition, FullWidthMatchesNativeTwinAndUpstreamForm) {
  const std::uint64_t seed = gadget_test::fresh_seed();
  std::mt19937_64 rng(seed);
  for (int round = 0; round < 4; ++round) {
    const Fr x = round == 0 ? Fr::zero() : round == 1 ? -Fr::one() : random_fr(rng);
    CapturingCs cs;
    const AllocatedNum n = *AllocatedNum::alloc(cs, x);
    auto bits = num_into_bits_le_packed(cs, n);
    ASSERT_TRUE(bits.ok());
    ASSERT_EQ(bits->size(), 255u);
    EXPECT_EQ(cs.num_constraints(), 256u) << "255 booleanity + 1 packing";
    const std::vector<bool> want = bits_le_native(x, 255);
    for (std::size_t i = 0; i < 255; ++i)
      EXPECT_EQ(*(*bits)[i].value(), want[i]) << "seed=" << seed;
    EXPECT_EQ(pack_bits_le_native(want), x);
    EXPECT_TRUE(cs.inner().is_satisfied()) << *cs.inner().which_unsatisfied();
    EXPECT_EQ(cs.inner().constraint_name(255), "binary decomp");
    // The packing constraint: A = Σ 2^i·b_i, B = ONE, C = x.
    const auto& row = cs.rows().back();
    ASSERT_EQ(row.a.size(), 255u);
    Fr pow2 = Fr::one();
    for (std::size_t i = 0; i < 255; ++i) {
      EXPECT_EQ(row.a.terms()[i].var, (*bits)[i].variable());
      EXPECT_EQ(row.a.terms()[i].coeff, pow2);
      pow2 = pow2.dbl();
    }
    ASSERT_EQ(row.b.size(), 1u);
    EXPECT_EQ(row.b.terms()[0].var, Variable::one());
    ASSERT_EQ(row.c.size(), 1u);
    EXPECT_EQ(row.c.terms()[0].var, n.variable());
    EXPECT_EQ(row.c.terms()[0].coeff, Fr::one());
  }
}

TEST(BitDecomposition, DiffersFromToBitsLe) {
  // Same number of constraints, but to_bits_le puts everything in C with A = B = 0: other
  // matrices, so the two cannot replace one another.
  CapturingCs cs;
  const AllocatedNum n = *AllocatedNum::alloc(cs, Fr::from_u64(12345));
  ASSERT_TRUE(n.to_bits_le(cs).ok());
  const std::size_t mid = cs.num_constraints();
  ASSERT_TRUE(num_into_bits_le_packed(cs, n).ok());
  EXPECT_EQ(mid, cs.num_constraints() - mid);
  const auto& theirs = cs.rows()[mid - 1];
  const auto& ours = cs.rows().back();
  EXPECT_TRUE(theirs.a.empty());
  EXPECT_TRUE(theirs.b.empty());
  EXPECT_EQ(theirs.c.size(), 256u);
  EXPECT_EQ(ours.a.size(), 255u);
  EXPECT_EQ(ours.b.size(), 1u);
  EXPECT_EQ(ours.c.size(), 1u);
}

TEST(BitDecomposition, LowBitsFitOrAreRefusedByName) {
  const std::uint64_t seed = gadget_test::fresh_seed();
  std::mt19937_64 rng(seed);
  for (std::size_t count : {0u, 1u, 7u, 10u, 64u, 100u}) {
    SCOPED_TRACE("count " + std::to_string(count) + " seed " + std::to_string(seed));
    const std::uint64_t v = count == 0 ? 0 : count >= 64 ? rng() : rng() % (1ull << count);
    CapturingCs cs;
    const AllocatedNum n = *AllocatedNum::alloc(cs, Fr::from_u64(v));
    auto bits = low_bits_le_packed(cs, n, count, "k_and_h_select");
    ASSERT_TRUE(bits.ok());
    EXPECT_EQ(cs.num_constraints(), count + 1);
    for (std::size_t i = 0; i < count; ++i)
      EXPECT_EQ(*(*bits)[i].value(), i < 64 && ((v >> i) & 1) != 0);
    EXPECT_TRUE(cs.inner().is_satisfied());
    EXPECT_EQ(cs.inner().constraint_name(count), "k_and_h_select binary decomp");
    if (count) {
      EXPECT_EQ(cs.inner().constraint_name(0), "k_and_h_select_bit_0/boolean constraint");
    }
  }
  // 2^10 does not fit in 10 bits: the decomposition constraint fails.
  CapturingCs cs;
  const AllocatedNum n = *AllocatedNum::alloc(cs, Fr::from_u64(1024 + 5));
  ASSERT_TRUE(low_bits_le_packed(cs, n, 10, "k_and_h_select").ok());
  ASSERT_FALSE(cs.inner().is_satisfied());
  EXPECT_EQ(*cs.inner().which_unsatisfied(), "k_and_h_select binary decomp");
  EXPECT_EQ(low_bits_le_packed(cs, n, 256, "x").status().code(), Errc::invalid_argument);
}

TEST(BitDecomposition, CorruptedBitIsCaught) {
  const std::uint64_t seed = gadget_test::fresh_seed();
  std::mt19937_64 rng(seed);
  const Fr x = random_fr(rng);
  const std::size_t target = 1 + rng() % 255;  // aux 0 is x itself
  CorruptingCs cs(target);
  const AllocatedNum n = *AllocatedNum::alloc(cs, x);
  ASSERT_TRUE(num_into_bits_le_packed(cs, n).ok());
  ASSERT_FALSE(cs.inner().is_satisfied()) << "seed=" << seed;
  // A 1 turned into 2 fails its booleanity, a 0 turned into 1 the packing.
  const bool was_one = fr_bit(x, static_cast<unsigned>(target - 1));
  EXPECT_EQ(*cs.inner().which_unsatisfied(),
            was_one ? "bit " + std::to_string(target - 1) + "/boolean constraint"
                    : std::string("binary decomp"));
}

}  // namespace
}  // namespace cuzk
