// The Custom(1) Poseidon of SnapDeals: the independent known answer of FORMATS.md §5 (arity-2
// Custom(1) of (0, 1), computed by a Python re-implementation, not by this code), the gadget
// against the optimized and the reference (slow twin) permutations on random inputs, 311
// constraints, a tag distinct from the MerkleTree one, and a corrupted state caught.
#include <gtest/gtest.h>

#include "cuzk/r1cs/gadgets/gadget_test_util.hpp"
#include "cuzk/r1cs/gadgets/gen_randomness.hpp"
#include "cuzk/r1cs/gadgets/poseidon.hpp"
#include "cuzk/r1cs/test_cs.hpp"
#include "tests/support/seed.hpp"

namespace cuzk {
namespace {

using cuzk::test::random_fr;

Fr fr_be_hex(const char* hex) {
  Limbs<4> l{};
  for (int i = 0; i < 64; ++i) {
    const char ch = hex[i];
    const unsigned v = ch <= '9' ? ch - '0' : ch - 'a' + 10;
    l[3 - i / 16] |= std::uint64_t{v} << (4 * (15 - i % 16));
  }
  return *Fr::from_canonical(l);
}

TEST(GenRandomness, KnownAnswerAndTwins) {
  EXPECT_EQ(gen_randomness_native(Fr::zero(), Fr::one()),
            fr_be_hex("314a35c4e7f0924ead1fc58134a0fe25e3580bea397367c7e5a74ec4bc077758"));
  const std::uint64_t seed = gadget_test::fresh_seed();
  std::mt19937_64 rng(seed);
  for (int round = 0; round < 3; ++round) {
    const Fr a = round == 0 ? Fr::zero() : random_fr(rng);
    const Fr b = round == 0 ? Fr::one() : random_fr(rng);
    const Fr pre[2] = {a, b};
    const Fr want = poseidon_hash_reference(*poseidon_constants(2), Fr::from_u64(1ull << 40), pre);
    EXPECT_EQ(gen_randomness_native(a, b), want) << "seed=" << seed;
    EXPECT_NE(want, poseidon_hash_merkle(*poseidon_constants(2), pre));
    TestConstraintSystem cs;
    const AllocatedNum x = *AllocatedNum::alloc(cs, a), y = *AllocatedNum::alloc(cs, b);
    auto h = gen_randomness_circuit(cs, x, y);
    ASSERT_TRUE(h.ok());
    EXPECT_EQ(*h->value(), want) << "seed=" << seed;
    EXPECT_EQ(cs.num_constraints(), 311u);
    EXPECT_TRUE(cs.is_satisfied()) << *cs.which_unsatisfied();
  }
}

TEST(GenRandomness, CorruptedStateIsCaught) {
  const std::uint64_t seed = gadget_test::fresh_seed();
  std::mt19937_64 rng(seed);
  const std::size_t target = 2 + rng() % 300;  // aux 0, 1 are the inputs
  gadget_test::CorruptingCs cs(target);
  const AllocatedNum x = *AllocatedNum::alloc(cs, random_fr(rng));
  const AllocatedNum y = *AllocatedNum::alloc(cs, random_fr(rng));
  ASSERT_TRUE(gen_randomness_circuit(cs, x, y).ok());
  EXPECT_FALSE(cs.inner().is_satisfied()) << "seed=" << seed << " target=" << target;
}

}  // namespace
}  // namespace cuzk
