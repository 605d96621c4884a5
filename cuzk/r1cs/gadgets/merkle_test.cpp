// Insertion/selection and PoR paths: positions for every index, pinned counts (insert 2/8/22,
// SHA-256 level 45,382, Poseidon level 314/387/530, PoR overhead 2), the packed index as the one
// public input, roots against the out-of-circuit tree hash, wrong roots and corruption caught.
#include <gtest/gtest.h>

#include "cuzk/r1cs/gadgets/assign.hpp"
#include "cuzk/r1cs/gadgets/gadget_test_util.hpp"
#include "cuzk/r1cs/gadgets/insertion.hpp"
#include "cuzk/r1cs/gadgets/merkle.hpp"
#include "tests/support/seed.hpp"

namespace cuzk {
namespace {
using cuzk::test::random_fr;

using gadget_test::CorruptingCs;
using gadget_test::FnCircuit;

TEST(Insertion, EveryIndexAndCounts) {
  const std::uint64_t seed = gadget_test::fresh_seed();
  std::mt19937_64 rng(seed);
  const std::size_t insert_cost[] = {0, 2, 8, 22, 240};
  for (unsigned logn = 1; logn <= 4; ++logn) {
    const std::size_t size = std::size_t{1} << logn;
    for (std::size_t index = 0; index < size; ++index) {
      TestConstraintSystem cs;
      std::vector<Fr> vals;
      std::vector<AllocatedNum> els;
      for (std::size_t i = 0; i + 1 < size; ++i) {
        vals.push_back(random_fr(rng));
        els.push_back(*AllocatedNum::alloc(cs, vals.back()));
      }
      const Fr xv = random_fr(rng);
      const AllocatedNum x = *AllocatedNum::alloc(cs, xv);
      std::vector<Boolean> bits;
      for (unsigned b = 0; b < logn; ++b)
        bits.push_back(Boolean::from(*AllocatedBit::alloc(cs, ((index >> b) & 1) != 0)));
      const std::size_t base = cs.num_constraints();
      auto out = insert(cs, x, bits, els);
      ASSERT_TRUE(out.ok());
      EXPECT_EQ(cs.num_constraints() - base, insert_cost[logn]) << "size=" << size;
      std::vector<Fr> want = vals;
      want.insert(want.begin() + index, xv);
      for (std::size_t p = 0; p < size; ++p)
        EXPECT_EQ(*(*out)[p].value(), want[p]) << "seed=" << seed;
      const std::size_t mid = cs.num_constraints();
      std::vector<AllocatedNum> all = *out;
      auto sel = select(cs, all, bits);
      ASSERT_TRUE(sel.ok());
      EXPECT_EQ(*sel->value(), xv);
      EXPECT_EQ(cs.num_constraints() - mid, size - 1);
      EXPECT_TRUE(cs.is_satisfied()) << *cs.which_unsatisfied();
    }
  }
}

// A random path of the given shape with values, its leaf, index and expected root.
struct PathCase {
  MerklePath path;
  Fr leaf;
  std::uint64_t index = 0;
  Fr root;
};

PathCase random_path(std::mt19937_64& rng, MerkleHash hash, unsigned base_arity, std::size_t levels,
                     unsigned sub, unsigned top) {
  PathCase pc;
  pc.path = blank_merkle_path(base_arity, levels, sub, top);
  pc.leaf = random_fr(rng);
  std::uint64_t shift = 0;
  auto fill = [&](unsigned arity, std::vector<MerklePathLevel>& lvls) {
    unsigned k = 0;
    while ((1u << k) < arity) ++k;
    for (MerklePathLevel& lv : lvls) {
      for (auto& s : lv.siblings) s = random_fr(rng);
      lv.index = rng() % arity;
      pc.index |= *lv.index << shift;
      shift += k;
    }
  };
  fill(base_arity, pc.path.base);
  fill(sub, pc.path.sub);
  fill(top, pc.path.top);
  pc.root = merkle_root_native(hash, pc.leaf, pc.path);
  return pc;
}

TEST(Por, Sha256BinaryPathCountsAndRoot) {
  const std::uint64_t seed = gadget_test::fresh_seed();
  std::mt19937_64 rng(seed);
  const std::size_t levels = 2 + rng() % 2;
  PathCase pc = random_path(rng, MerkleHash::sha256, 2, levels, 0, 0);
  TestConstraintSystem cs;
  ASSERT_TRUE(por_circuit(cs, MerkleHash::sha256, pc.leaf, pc.path, pc.root, true).ok());
  EXPECT_TRUE(cs.is_satisfied()) << *cs.which_unsatisfied() << " seed=" << seed;
  EXPECT_EQ(cs.num_constraints(), 45382 * levels + 2) << "seed=" << seed;
  ASSERT_EQ(cs.num_inputs(), 2u);
  EXPECT_EQ(cs.inputs()[1], Fr::from_u64(pc.index));
  // A wrong root is caught by the root check.
  TestConstraintSystem bad;
  ASSERT_TRUE(
      por_circuit(bad, MerkleHash::sha256, pc.leaf, pc.path, pc.root + Fr::one(), true).ok());
  EXPECT_EQ(*bad.which_unsatisfied(), "enforce root is correct");
}

TEST(Por, PoseidonShapesCountsAndRoot) {
  const std::uint64_t seed = gadget_test::fresh_seed();
  std::mt19937_64 rng(seed);
  struct Shape {
    unsigned base;
    std::size_t levels;
    unsigned sub, top;
    std::size_t cost;
  };
  const Shape shapes[] = {
      {8, 3, 0, 0, 3 * 530 + 2},        // 8-0-0
      {8, 2, 8, 0, 3 * 530 + 2},        // 8-8-0 (32 GiB shape, shortened)
      {8, 2, 8, 2, 3 * 530 + 314 + 2},  // 8-8-2 (64 GiB shape, shortened)
      {8, 1, 4, 0, 530 + 387 + 2},      // quad sub level
      {2, 3, 0, 0, 3 * 314 + 2},        // binary Poseidon
  };
  for (const Shape& s : shapes) {
    PathCase pc = random_path(rng, MerkleHash::poseidon, s.base, s.levels, s.sub, s.top);
    TestConstraintSystem cs;
    ASSERT_TRUE(por_circuit(cs, MerkleHash::poseidon, pc.leaf, pc.path, pc.root, false).ok());
    EXPECT_TRUE(cs.is_satisfied()) << *cs.which_unsatisfied() << " seed=" << seed;
    EXPECT_EQ(cs.num_constraints(), s.cost + 1) << "seed=" << seed;  // + inputize of the root
    ASSERT_EQ(cs.num_inputs(), 3u);
    EXPECT_EQ(cs.inputs()[1], Fr::from_u64(pc.index)) << "seed=" << seed;
    EXPECT_EQ(cs.inputs()[2], pc.root);
    // Corrupting the allocated root (the last aux before inputize) names the root check.
    CorruptingCs bad(cs.num_aux() - 1);
    ASSERT_TRUE(por_circuit(bad, MerkleHash::poseidon, pc.leaf, pc.path, pc.root, false).ok());
    EXPECT_EQ(*bad.inner().which_unsatisfied(), "enforce root is correct");
    // Corrupting a random aux inside the path is caught somewhere.
    CorruptingCs bad2(1 + rng() % (cs.num_aux() - 2));
    ASSERT_TRUE(por_circuit(bad2, MerkleHash::poseidon, pc.leaf, pc.path, pc.root, false).ok());
    EXPECT_FALSE(bad2.inner().is_satisfied()) << "seed=" << seed;
  }
}

TEST(Por, BlankPathSetupMatchesProvingShapeAndPce) {
  const std::uint64_t seed = gadget_test::fresh_seed();
  std::mt19937_64 rng(seed);
  PathCase pc = random_path(rng, MerkleHash::poseidon, 8, 2, 8, 2);
  FnCircuit proving([&](ConstraintSystem& cs) {
    return por_circuit(cs, MerkleHash::poseidon, pc.leaf, pc.path, pc.root, true);
  });
  MerklePath blank = blank_merkle_path(8, 2, 8, 2);
  FnCircuit setup([&](ConstraintSystem& cs) {
    return por_circuit(cs, MerkleHash::poseidon, std::nullopt, blank, std::nullopt, true);
  });
  gadget_test::expect_pce_matches_classic(proving, setup);
}

}  // namespace
}  // namespace cuzk

namespace cuzk {
namespace {

TEST(Por, Sha256ExistingRootSetupShapeAndPce) {
  const std::uint64_t seed = gadget_test::fresh_seed();
  std::mt19937_64 rng(seed);
  PathCase pc = random_path(rng, MerkleHash::sha256, 2, 1, 0, 0);
  auto body = [&](ConstraintSystem& cs, bool values) -> Status {
    const MerklePath blank = blank_merkle_path(2, 1, 0, 0);
    auto opt = [&](const Fr& x) { return values ? std::optional<Fr>(x) : std::nullopt; };
    CUZK_ASSIGN_OR_RETURN(AllocatedNum root, AllocatedNum::alloc_input(cs, opt(pc.root)));
    CUZK_ASSIGN_OR_RETURN(AllocatedNum leaf, AllocatedNum::alloc(cs, opt(pc.leaf)));
    return por_with_root(cs, MerkleHash::sha256, leaf, values ? pc.path : blank, root);
  };
  FnCircuit proving([&](ConstraintSystem& cs) { return body(cs, true); });
  FnCircuit setup([&](ConstraintSystem& cs) { return body(cs, false); });
  TestConstraintSystem cs;
  ASSERT_TRUE(body(cs, true).ok());
  EXPECT_TRUE(cs.is_satisfied()) << *cs.which_unsatisfied() << " seed=" << seed;
  EXPECT_EQ(cs.num_constraints(), 45382u + 2u);
  gadget_test::expect_pce_matches_classic(proving, setup);
}

}  // namespace
}  // namespace cuzk
