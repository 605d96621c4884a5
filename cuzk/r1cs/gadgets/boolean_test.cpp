// Boolean, AllocatedNum, UInt32, multipack gadgets: values, pinned counts, corruption caught by the
// named constraint, PCE == classic.
#include <gtest/gtest.h>

#include "cuzk/r1cs/gadgets/assign.hpp"
#include "cuzk/r1cs/gadgets/gadget_test_util.hpp"
#include "cuzk/r1cs/gadgets/multipack.hpp"
#include "cuzk/r1cs/gadgets/num.hpp"
#include "cuzk/r1cs/gadgets/uint32.hpp"

namespace cuzk {
namespace {

using gadget_test::CorruptingCs;
using gadget_test::FnCircuit;

// Builds a Boolean of kind k (0 const false, 1 const true, 2 Is, 3 Not) with logical value |v|.
Boolean make_bool(ConstraintSystem& cs, int k, bool v, const char* name) {
  if (k < 2) return Boolean::constant(k == 1);
  Namespace ns(cs, name);
  auto b = AllocatedBit::alloc(cs, k == 2 ? v : !v);
  EXPECT_TRUE(b.ok());
  Boolean r = Boolean::from(*b);
  return k == 2 ? r : r.negate();
}

TEST(Boolean, TruthTablesAndCountsOverAllKinds) {
  for (int ka = 0; ka < 4; ++ka)
    for (int kb = 0; kb < 4; ++kb)
      for (int va = 0; va < 2; ++va)
        for (int vb = 0; vb < 2; ++vb) {
          if ((ka < 2 && va != ka) || (kb < 2 && vb != kb)) continue;
          TestConstraintSystem cs;
          Boolean a = make_bool(cs, ka, va, "a"), b = make_bool(cs, kb, vb, "b");
          const std::size_t base = cs.num_constraints();
          auto x = Boolean::bit_xor(cs, a, b);
          auto n = Boolean::bit_and(cs, a, b);
          auto o = Boolean::bit_or(cs, a, b);
          ASSERT_TRUE(x.ok() && n.ok() && o.ok());
          EXPECT_EQ(*x->value(), (va != vb));
          EXPECT_EQ(*n->value(), (va && vb));
          EXPECT_EQ(*o->value(), (va || vb));
          // Each op costs 1 constraint exactly when both operands are allocated.
          const std::size_t want = (ka >= 2 && kb >= 2) ? 3 : 0;
          EXPECT_EQ(cs.num_constraints() - base, want) << ka << kb;
          EXPECT_TRUE(cs.is_satisfied()) << *cs.which_unsatisfied();
          ASSERT_TRUE(Boolean::enforce_equal(cs, a, a).ok());
          EXPECT_TRUE(cs.is_satisfied());
        }
}

TEST(Boolean, ChAndMajOverAllKinds) {
  for (int k = 0; k < 64; ++k)
    for (int v = 0; v < 8; ++v) {
      const int ka = k % 4, kb = (k / 4) % 4, kc = k / 16;
      const bool va = v & 1, vb = (v >> 1) & 1, vc = (v >> 2) & 1;
      if ((ka < 2 && va != ka) || (kb < 2 && vb != kb) || (kc < 2 && vc != kc)) continue;
      TestConstraintSystem cs;
      Boolean a = make_bool(cs, ka, va, "a"), b = make_bool(cs, kb, vb, "b"),
              c = make_bool(cs, kc, vc, "c");
      auto ch = Boolean::sha256_ch(cs, a, b, c);
      auto mj = Boolean::sha256_maj(cs, a, b, c);
      ASSERT_TRUE(ch.ok() && mj.ok());
      EXPECT_EQ(*ch->value(), (va && vb) != (!va && vc));
      EXPECT_EQ(*mj->value(), ((va && vb) != (va && vc)) != (vb && vc));
      EXPECT_TRUE(cs.is_satisfied()) << *cs.which_unsatisfied();
    }
}

TEST(Boolean, EnforceEqualCatchesDifferentBits) {
  TestConstraintSystem cs;
  Boolean a = make_bool(cs, 2, true, "a"), b = make_bool(cs, 3, false, "b");
  ASSERT_TRUE(Boolean::enforce_equal(cs, a, b).ok());
  ASSERT_FALSE(cs.is_satisfied());
  EXPECT_EQ(*cs.which_unsatisfied(), "enforce equal");
  TestConstraintSystem cs2;
  EXPECT_FALSE(Boolean::enforce_equal(cs2, Boolean::constant(true), Boolean::constant(false)).ok());
}

TEST(AllocatedBit, CorruptedResultsAreNamed) {
  struct Case {
    const char* name;
    int op;
  };
  for (Case cse : {Case{"xor constraint", 0}, Case{"and constraint", 1},
                   Case{"and not constraint", 2}, Case{"nor constraint", 3}}) {
    for (int va = 0; va < 2; ++va)
      for (int vb = 0; vb < 2; ++vb) {
        CorruptingCs cs(2);  // the result variable
        auto a = AllocatedBit::alloc(cs, va == 1);
        auto b = AllocatedBit::alloc(cs, vb == 1);
        ASSERT_TRUE(a.ok() && b.ok());
        Result<AllocatedBit> r = cse.op == 0   ? AllocatedBit::bit_xor(cs, *a, *b)
                                 : cse.op == 1 ? AllocatedBit::bit_and(cs, *a, *b)
                                 : cse.op == 2 ? AllocatedBit::and_not(cs, *a, *b)
                                               : AllocatedBit::nor(cs, *a, *b);
        ASSERT_TRUE(r.ok());
        ASSERT_FALSE(cs.inner().is_satisfied());
        EXPECT_EQ(*cs.inner().which_unsatisfied(), cse.name);
      }
  }
  CorruptingCs cs(0);
  auto a = AllocatedBit::alloc(cs, true);  // 1 → 2
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(*cs.inner().which_unsatisfied(), "boolean constraint");
}

TEST(AllocatedNum, ArithmeticCountsAndCorruption) {
  const std::uint64_t seed = gadget_test::fresh_seed();
  std::mt19937_64 rng(seed);
  auto rnd = [&] { return Fr::from_limbs_reduce({rng(), rng(), rng(), rng() >> 2}); };
  const Fr x = rnd(), y = rnd();
  TestConstraintSystem cs;
  auto a = AllocatedNum::alloc(cs, x);
  auto b = AllocatedNum::alloc(cs, y);
  ASSERT_TRUE(a.ok() && b.ok());
  auto s = a->add(cs, *b);
  auto p = a->mul(cs, *b);
  auto q = a->square(cs);
  auto i = a->inverse(cs);
  ASSERT_TRUE(s.ok() && p.ok() && q.ok() && i.ok());
  ASSERT_TRUE(a->assert_nonzero(cs).ok());
  EXPECT_EQ(*s->value(), x + y) << "seed=" << seed;
  EXPECT_EQ(*p->value(), x * y);
  EXPECT_EQ(*q->value(), x * x);
  EXPECT_EQ(*i->value() * x, Fr::one());
  EXPECT_EQ(cs.num_constraints(), 5u);
  auto bits = a->to_bits_le(cs);
  ASSERT_TRUE(bits.ok());
  EXPECT_EQ(bits->size(), 255u);
  EXPECT_EQ(cs.num_constraints(), 5u + 256u);
  for (unsigned k = 0; k < 255; ++k) EXPECT_EQ(*(*bits)[k].value(), fr_bit(x, k));
  auto strict = b->to_bits_le_strict(cs);
  ASSERT_TRUE(strict.ok());
  for (unsigned k = 0; k < 255; ++k) EXPECT_EQ(*(*strict)[k].value(), fr_bit(y, k));
  ASSERT_TRUE(a->inputize(cs).ok());
  EXPECT_EQ(cs.num_inputs(), 2u);
  EXPECT_TRUE(cs.is_satisfied()) << *cs.which_unsatisfied();

  // Corrupt each derived value in turn: aux 2..5 are sum, product, square, inverse.
  const char* names[] = {"addition constraint", "multiplication constraint", "squaring constraint",
                         "inverse constraint"};
  for (int k = 0; k < 4; ++k) {
    CorruptingCs bad(2 + k);
    auto a2 = AllocatedNum::alloc(bad, x);
    auto b2 = AllocatedNum::alloc(bad, y);
    ASSERT_TRUE(a2->add(bad, *b2).ok() && a2->mul(bad, *b2).ok() && a2->square(bad).ok() &&
                a2->inverse(bad).ok());
    ASSERT_FALSE(bad.inner().is_satisfied());
    EXPECT_EQ(*bad.inner().which_unsatisfied(), names[k]);
  }
  TestConstraintSystem zero;
  auto z = AllocatedNum::alloc(zero, Fr::zero());
  EXPECT_FALSE(z->inverse(zero).ok());
}

TEST(AllocatedNum, PickAndConditionalReverse) {
  for (int cond = 0; cond < 2; ++cond) {
    TestConstraintSystem cs;
    auto a = AllocatedNum::alloc(cs, Fr::from_u64(11));
    auto b = AllocatedNum::alloc(cs, Fr::from_u64(22));
    auto c = AllocatedBit::alloc(cs, cond == 1);
    auto pk = pick(cs, Boolean::from(*c), *a, *b);
    auto rv = AllocatedNum::conditionally_reverse(cs, *a, *b, Boolean::from(*c));
    ASSERT_TRUE(pk.ok() && rv.ok());
    EXPECT_EQ(*pk->value(), Fr::from_u64(cond ? 11 : 22));
    EXPECT_EQ(*rv->first.value(), Fr::from_u64(cond ? 22 : 11));
    EXPECT_EQ(*rv->second.value(), Fr::from_u64(cond ? 11 : 22));
    EXPECT_EQ(cs.num_constraints(), 1u + 1u + 2u);
    EXPECT_TRUE(cs.is_satisfied());
    CorruptingCs bad(3);
    auto a2 = AllocatedNum::alloc(bad, Fr::from_u64(11));
    auto b2 = AllocatedNum::alloc(bad, Fr::from_u64(22));
    auto c2 = AllocatedBit::alloc(bad, cond == 1);
    ASSERT_TRUE(pick(bad, Boolean::from(*c2), *a2, *b2).ok());
    EXPECT_EQ(*bad.inner().which_unsatisfied(), "pick");
  }
}

TEST(UInt32, OpsAgainstNativeWithCounts) {
  const std::uint64_t seed = gadget_test::fresh_seed();
  std::mt19937_64 rng(seed);
  for (int iter = 0; iter < 20; ++iter) {
    const std::uint32_t x = rng(), y = rng(), z = rng();
    const unsigned r = rng() % 32;
    TestConstraintSystem cs;
    MultiEq meq(cs);
    auto a = UInt32::alloc(cs, x);
    auto c = UInt32::alloc(cs, z);
    ASSERT_TRUE(a.ok() && c.ok());
    const UInt32 b = UInt32::constant(y);
    EXPECT_EQ(cs.num_constraints(), 64u);
    auto t = a->bit_xor(cs, b);  // constant operand: free
    ASSERT_TRUE(t.ok());
    EXPECT_EQ(cs.num_constraints(), 64u);
    auto u = t->bit_xor(cs, *c);  // 32 xors
    ASSERT_TRUE(u.ok());
    EXPECT_EQ(cs.num_constraints(), 96u);
    EXPECT_EQ(*u->value(), x ^ y ^ z) << "seed=" << seed;
    EXPECT_EQ(*a->rotr(r).value(), (x >> r) | (r ? x << (32 - r) : 0));
    EXPECT_EQ(*a->shr(r).value(), x >> r);
    auto ch = UInt32::sha256_ch(cs, *a, b, *c);
    auto mj = UInt32::sha256_maj(cs, *a, b, *c);
    ASSERT_TRUE(ch.ok() && mj.ok());
    EXPECT_EQ(*ch->value(), (x & y) ^ (~x & z));
    EXPECT_EQ(*mj->value(), (x & y) ^ (x & z) ^ (y & z));
    const UInt32 ops[3] = {*a, b, *c};
    const std::size_t before = cs.num_constraints();
    auto s = UInt32::addmany(cs, meq, ops);
    ASSERT_TRUE(s.ok());
    EXPECT_EQ(*s->value(), x + y + z);
    meq.flush();
    EXPECT_EQ(cs.num_constraints() - before, 34u + 1u);  // ⌈log2(3·(2^32−1))⌉ = 34 bits + multieq
    for (unsigned k = 0; k < 32; ++k) EXPECT_EQ(*s->bits()[k].value(), ((x + y + z) >> k) & 1);
    EXPECT_TRUE(cs.is_satisfied()) << *cs.which_unsatisfied();
    const UInt32 cops[2] = {b, UInt32::constant(x)};
    auto sc = UInt32::addmany(cs, meq, cops);
    EXPECT_TRUE(sc->bits()[0].is_constant());
  }
}

TEST(Multipack, PackIntoInputsMatchesComputeMultipacking) {
  const std::uint64_t seed = gadget_test::fresh_seed();
  std::mt19937_64 rng(seed);
  for (int iter = 0; iter < 8; ++iter) {
    const std::size_t n = rng() % 900;
    std::vector<bool> bits(n);
    for (std::size_t i = 0; i < n; ++i) bits[i] = rng() & 1;
    auto build = [&](ConstraintSystem& cs) -> Status {
      std::vector<Boolean> cb;
      for (std::size_t i = 0; i < n; ++i) {
        CUZK_ASSIGN_OR_RETURN(AllocatedBit b, AllocatedBit::alloc(cs, bits[i]));
        cb.push_back(Boolean::from(b));
      }
      return pack_into_inputs(cs, cb);
    };
    TestConstraintSystem cs;
    ASSERT_TRUE(build(cs).ok());
    const auto expect = compute_multipacking(std::vector<bool>(bits));
    ASSERT_EQ(cs.num_inputs(), 1 + expect.size()) << "seed=" << seed << " n=" << n;
    for (std::size_t i = 0; i < expect.size(); ++i) EXPECT_EQ(cs.inputs()[1 + i], expect[i]);
    EXPECT_EQ(cs.num_constraints(), n + (n + 253) / 254);
    EXPECT_TRUE(cs.is_satisfied());
    FnCircuit c(build);
    gadget_test::expect_pce_matches_classic(c, c);
  }
}

}  // namespace
}  // namespace cuzk

namespace cuzk {
namespace {

TEST(UInt32, CorruptedSumBitIsCaughtByMultiEq) {
  const std::uint64_t seed = gadget_test::fresh_seed();
  std::mt19937_64 rng(seed);
  const std::uint32_t x = rng(), y = rng();
  for (int iter = 0; iter < 4; ++iter) {
    const std::size_t target = 64 + rng() % 33;  // one of the 33 result bits
    gadget_test::CorruptingCs cs(target);
    {
      MultiEq meq(cs);
      auto a = UInt32::alloc(cs, x);
      auto b = UInt32::alloc(cs, y);
      const UInt32 ops[2] = {*a, *b};
      ASSERT_TRUE(UInt32::addmany(cs, meq, ops).ok());
    }
    ASSERT_FALSE(cs.inner().is_satisfied()) << "seed=" << seed << " target=" << target;
    const std::string& name = *cs.inner().which_unsatisfied();
    // A bit 0 → 1 keeps booleanity and breaks the sum; 1 → 2 breaks booleanity first.
    EXPECT_TRUE(name == "multieq 0" || name.find("boolean constraint") != std::string::npos)
        << name;
  }
}

TEST(Multipack, CorruptedInputIsNamed) {
  gadget_test::CorruptingCs cs(3);  // aux 3 is the packed value of pack_bits
  std::vector<Boolean> bits;
  for (int i = 0; i < 3; ++i) bits.push_back(Boolean::from(*AllocatedBit::alloc(cs, i != 1)));
  auto n = pack_bits(cs, bits);
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(*cs.inner().which_unsatisfied(), "packing constraint");
}

}  // namespace
}  // namespace cuzk

#include "cuzk/r1cs/gadgets/uint64.hpp"

namespace cuzk {
namespace {

TEST(UInt64, AllocPackAndBitViews) {
  const std::uint64_t seed = gadget_test::fresh_seed();
  std::mt19937_64 rng(seed);
  const std::uint64_t v = rng();
  TestConstraintSystem cs;
  auto u = UInt64::alloc(cs, v);
  ASSERT_TRUE(u.ok());
  ASSERT_TRUE(u->pack_into_input(cs).ok());
  EXPECT_EQ(cs.num_constraints(), 65u);
  ASSERT_EQ(cs.num_inputs(), 2u);
  EXPECT_EQ(cs.inputs()[1], Fr::from_u64(v)) << "seed=" << seed;
  EXPECT_TRUE(cs.is_satisfied());
  const auto be = u->to_bits_be();
  EXPECT_EQ(*UInt64::from_bits_be(be).value(), v);
  EXPECT_EQ(*UInt64::from_bits(u->to_bits_le()).value(), v);
  for (unsigned i = 0; i < 64; ++i) EXPECT_EQ(*be[i].value(), ((v >> (63 - i)) & 1) != 0);
  EXPECT_EQ(*UInt64::constant(v).value(), v);
}

}  // namespace
}  // namespace cuzk
