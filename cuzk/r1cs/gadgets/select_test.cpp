// select (insertion.rs, used by SnapDeals to pick the apex leaf): against the native twin
// from[index] for every index of sizes 2…128, size − 1 constraints, and the order: a binary tree of
// picks whose first layer is steered by the most significant bit (scopes "pick i, j": layer i,
// pair j), as upstream reverses the bits.
#include <gtest/gtest.h>

#include "cuzk/r1cs/gadgets/gadget_test_util.hpp"
#include "cuzk/r1cs/gadgets/insertion.hpp"
#include "cuzk/r1cs/gadgets/snap_gadget_test_util.hpp"
#include "tests/support/seed.hpp"

namespace cuzk {
namespace {

using cuzk::test::random_fr;

// The native twin: the element at the index the bits (LSB first) spell.
Fr select_native(const std::vector<Fr>& from, const std::vector<bool>& bits) {
  std::size_t index = 0;
  for (std::size_t i = 0; i < bits.size(); ++i) index |= std::size_t{bits[i]} << i;
  return from[index];
}

TEST(Select, EveryIndexMatchesNativeTwinMsbFirst) {
  const std::uint64_t seed = gadget_test::fresh_seed();
  std::mt19937_64 rng(seed);
  for (unsigned logn = 1; logn <= 7; ++logn) {
    const std::size_t size = std::size_t{1} << logn;
    std::vector<Fr> vals;
    for (std::size_t i = 0; i < size; ++i) vals.push_back(random_fr(rng));
    for (std::size_t index = 0; index<size; index += logn> 4 ? 1 + rng() % 7 : 1) {
      gadget_test::CapturingCs cs;
      std::vector<AllocatedNum> from;
      for (const Fr& v : vals) from.push_back(*AllocatedNum::alloc(cs, v));
      std::vector<bool> b;
      std::vector<Boolean> bits;
      for (unsigned i = 0; i < logn; ++i) {
        b.push_back(((index >> i) & 1) != 0);
        bits.push_back(Boolean::from(*AllocatedBit::alloc(cs, b.back())));
      }
      const std::size_t before = cs.num_constraints();
      Namespace ns(cs, "select");
      auto out = select(cs, from, bits);
      ASSERT_TRUE(out.ok());
      EXPECT_EQ(*out->value(), select_native(vals, b)) << "seed=" << seed;
      EXPECT_EQ(cs.num_constraints() - before, size - 1);
      EXPECT_TRUE(cs.inner().is_satisfied()) << *cs.inner().which_unsatisfied();
      // The first pick: (b − a)·cond = b − c with cond the most significant bit, a = from[half],
      // b = from[0]; the last pick is steered by bit 0.
      const auto& first = cs.rows()[before];
      ASSERT_EQ(first.b.size(), 1u);
      EXPECT_EQ(first.b.terms()[0].var, bits.back().bit().variable());
      EXPECT_EQ(cs.rows().back().b.terms()[0].var, bits.front().bit().variable());
      EXPECT_EQ(cs.inner().constraint_name(before).rfind("select/pick 0, 0/", 0), 0u);
    }
  }
}

}  // namespace
}  // namespace cuzk
