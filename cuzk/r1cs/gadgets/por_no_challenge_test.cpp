// PoR on given bits (por_no_challenge_input): roots against the native twin (and that against
// merkle.hpp's merkle_root_native, a separate walk), every tree shape SnapDeals uses, pinned
// per-level costs (Poseidon 8/4/2: 527/385/313, SHA-256: 45,381, + 1 root check) and the relation
// to merkle.hpp's PoR (which allocates the bits and packs them into an input), wrong roots and
// siblings unsatisfied by name, bad shapes refused.
#include <gtest/gtest.h>

#include "cuzk/r1cs/gadgets/gadget_test_util.hpp"
#include "cuzk/r1cs/gadgets/por_no_challenge.hpp"
#include "cuzk/r1cs/test_cs.hpp"
#include "tests/support/seed.hpp"

namespace cuzk {
namespace {

using cuzk::test::random_fr;

struct Case {
  MerkleHash hash;
  TreeArities arities;
  std::size_t base_levels;
  std::size_t cost;  // constraints, root check included
};

unsigned lg(unsigned a) {
  unsigned k = 0;
  while ((1u << k) < a) ++k;
  return k;
}

// Random siblings and index for |c|; returns the bits' count.
struct Instance {
  Fr leaf;
  std::uint64_t index = 0;
  unsigned bits = 0;
  std::vector<std::vector<Fr>> path;
  MerklePath mpath;  // the same path in merkle.hpp's form
};

Instance random_instance(std::mt19937_64& rng, const Case& c) {
  Instance in;
  in.leaf = random_fr(rng);
  std::vector<unsigned> level(c.base_levels, c.arities.base);
  if (c.arities.sub) level.push_back(c.arities.sub);
  if (c.arities.top) level.push_back(c.arities.top);
  in.mpath = blank_merkle_path(c.arities.base, c.base_levels, c.arities.sub, c.arities.top);
  std::uint64_t mult = 1;
  for (std::size_t h = 0; h < level.size(); ++h) {
    std::vector<Fr> s;
    for (unsigned j = 0; j + 1 < level[h]; ++j) s.push_back(random_fr(rng));
    const std::uint64_t pos = rng() % level[h];
    in.index += pos * mult;
    mult *= level[h];
    in.bits += lg(level[h]);
    MerklePathLevel& ml = h < c.base_levels                     ? in.mpath.base[h]
                          : h == c.base_levels && c.arities.sub ? in.mpath.sub[0]
                                                                : in.mpath.top[0];
    ml.index = pos;
    for (unsigned j = 0; j < s.size(); ++j) ml.siblings[j] = s[j];
    in.path.push_back(std::move(s));
  }
  return in;
}

// Synthesizes the gadget over |in| with |root| in a fresh TestConstraintSystem.
struct PorRun {
  Status status;
  std::size_t constraints = 0;
  std::optional<std::string> unsatisfied;
};
PorRun run(const Case& c, const Instance& in, const Fr& root, int bad_sibling = -1,
           int bits_delta = 0) {
  TestConstraintSystem cs;
  const AllocatedNum leaf = *AllocatedNum::alloc(cs, in.leaf);
  std::vector<AllocatedBit> bits;
  for (unsigned i = 0; i + (bits_delta < 0 ? 1 : 0) < in.bits + (bits_delta > 0 ? 1 : 0); ++i)
    bits.push_back(*AllocatedBit::alloc(cs, ((in.index >> i) & 1) != 0));
  std::vector<std::vector<AllocatedNum>> path;
  int k = 0;
  for (const auto& lv : in.path) {
    std::vector<AllocatedNum> row;
    for (const Fr& s : lv)
      row.push_back(*AllocatedNum::alloc(cs, k++ == bad_sibling ? s + Fr::one() : s));
    path.push_back(row);
  }
  const AllocatedNum r = *AllocatedNum::alloc(cs, root);
  const std::size_t before = cs.num_constraints();
  Namespace ns(cs, "por");
  PorRun out;
  out.status = por_no_challenge_input(cs, c.hash, c.arities, bits, leaf, path, r);
  out.constraints = cs.num_constraints() - before;
  out.unsatisfied = cs.which_unsatisfied();
  return out;
}

const Case kCases[] = {
    {MerkleHash::poseidon, {8, 0, 0}, 2, 2 * 527 + 1},        // 2 KiB tree_r
    {MerkleHash::poseidon, {8, 4, 0}, 1, 527 + 385 + 1},      // 1 KiB
    {MerkleHash::poseidon, {8, 2, 0}, 2, 2 * 527 + 313 + 1},  // 4 KiB
    {MerkleHash::poseidon, {8, 8, 0}, 2, 3 * 527 + 1},        // 16 KiB
    {MerkleHash::poseidon, {8, 8, 2}, 2, 3 * 527 + 313 + 1},  // 32 KiB
    {MerkleHash::sha256, {2, 0, 0}, 3, 3 * 45'381 + 1},       // tree_d below an apex
    {MerkleHash::sha256, {2, 0, 0}, 0, 1},                    // no level: root check
};

TEST(PorNoChallenge, RootsAgainstNativeTwinEveryShape) {
  const std::uint64_t seed = gadget_test::fresh_seed();
  std::mt19937_64 rng(seed);
  for (const Case& c : kCases) {
    SCOPED_TRACE("arities " + std::to_string(c.arities.base) + "-" + std::to_string(c.arities.sub) +
                 "-" + std::to_string(c.arities.top) + " seed " + std::to_string(seed));
    const Instance in = random_instance(rng, c);
    const Fr root = por_root_native(c.hash, c.arities, in.index, in.leaf, in.path);
    EXPECT_EQ(root, merkle_root_native(c.hash, in.leaf, in.mpath));
    const PorRun ok = run(c, in, root);
    ASSERT_TRUE(ok.status.ok()) << ok.status.to_string();
    EXPECT_EQ(ok.constraints, c.cost);
    EXPECT_FALSE(ok.unsatisfied) << *ok.unsatisfied;
    // merkle.hpp's PoR costs one more per index bit and one for the packed input (none when
    // there are no bits).
    TestConstraintSystem cs2;
    const AllocatedNum leaf = *AllocatedNum::alloc(cs2, in.leaf);
    const AllocatedNum r = *AllocatedNum::alloc(cs2, root);
    ASSERT_TRUE(por_with_root(cs2, c.hash, leaf, in.mpath, r).ok());
    EXPECT_EQ(cs2.num_constraints(), c.cost + in.bits + (in.bits ? 1 : 0));
    EXPECT_TRUE(cs2.is_satisfied());
    // A wrong root, a wrong sibling: the root check names it.
    const PorRun bad_root = run(c, in, root + Fr::one());
    ASSERT_TRUE(bad_root.unsatisfied);
    EXPECT_EQ(*bad_root.unsatisfied, "por/calculated root == provided root");
    if (!in.path.empty()) {
      const PorRun bad_sib = run(c, in, root, static_cast<int>(rng() % in.path[0].size()));
      ASSERT_TRUE(bad_sib.unsatisfied);
      EXPECT_EQ(*bad_sib.unsatisfied, "por/calculated root == provided root");
    }
  }
}

TEST(PorNoChallenge, BadShapesAreRefused) {
  std::mt19937_64 rng(5);
  const Case c = kCases[0];
  const Instance in = random_instance(rng, c);
  const Fr root = por_root_native(c.hash, c.arities, in.index, in.leaf, in.path);
  EXPECT_EQ(run(c, in, root, -1, +1).status.code(), Errc::invalid_argument);
  EXPECT_EQ(run(c, in, root, -1, -1).status.code(), Errc::invalid_argument);
  Instance short_level = in;
  short_level.path[1].pop_back();
  EXPECT_EQ(run(c, short_level, root).status.code(), Errc::size_mismatch);
  Case top_without_sub = c;
  top_without_sub.arities = {8, 0, 2};
  EXPECT_EQ(run(top_without_sub, in, root).status.code(), Errc::invalid_argument);
}

}  // namespace
}  // namespace cuzk
