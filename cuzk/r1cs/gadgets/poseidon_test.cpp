// Poseidon: neptune's known outputs (FORMATS.md §5) from the reference and the optimized native
// algorithms and from the legacy circuit; reference == optimized on random inputs and tags;
// pinned counts 311/377/505/598; corruption named; PCE == classic; the templated LCs equal the
// LCs built round by round.
#include <gtest/gtest.h>

#include "cuzk/r1cs/gadgets/assign.hpp"
#include "cuzk/r1cs/gadgets/gadget_test_util.hpp"
#include "cuzk/r1cs/gadgets/poseidon.hpp"
#include "tests/support/seed.hpp"

namespace cuzk {
namespace {
using cuzk::test::random_fr;

using gadget_test::CorruptingCs;
using gadget_test::FnCircuit;

struct Kat {
  unsigned arity;
  const char* hex;
  std::size_t constraints;
};
constexpr Kat kKats[] = {
    {2, "0x396508d75e76a56b739e0fd902efe161a6fba9339d05a69d2e203c369a02e7ff", 311},
    {4, "0x58a54b10a9e5848a00db3c6579229399fb6b4605bf1327ec019814ff6662075d", 377},
    {8, "0x2394611da3a5de5512010042116770774b682e9d9cc4aed92a9934f56d38a5e6", 505},
    {11, "0xc0fc1b2e5227f286ca537e232ebe87a09f3dcd8ccb08fc1cee3bbc32b693163", 598},
};

std::vector<Fr> iota(unsigned n) {
  std::vector<Fr> v;
  for (unsigned i = 0; i < n; ++i) v.push_back(Fr::from_u64(i));
  return v;
}

Result<AllocatedNum> hash_in_circuit(ConstraintSystem& cs, const PoseidonConstants& c,
                                     const Fr& tag, const std::vector<Fr>& xs) {
  std::vector<AllocatedNum> in;
  for (const Fr& x : xs) {
    CUZK_ASSIGN_OR_RETURN(AllocatedNum n, AllocatedNum::alloc(cs, x));
    in.push_back(n);
  }
  Namespace ns(cs, "poseidon");
  return poseidon_hash_circuit(cs, c, tag, in);
}

TEST(Poseidon, KnownAnswersNativeAndCircuit) {
  for (const Kat& k : kKats) {
    const PoseidonConstants* c = poseidon_constants(k.arity);
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(c->compressed.size(), c->width * 8 + c->partial_rounds);
    const Fr want = *Fr::from_hex(k.hex);
    const auto xs = iota(k.arity);
    EXPECT_EQ(poseidon_hash_reference(*c, poseidon_merkle_tag(k.arity), xs), want) << k.arity;
    EXPECT_EQ(poseidon_hash_merkle(*c, xs), want) << k.arity;
    TestConstraintSystem cs;
    auto out = hash_in_circuit(cs, *c, poseidon_merkle_tag(k.arity), xs);
    ASSERT_TRUE(out.ok());
    EXPECT_EQ(*out->value(), want) << k.arity;
    EXPECT_EQ(cs.num_constraints(), k.constraints) << k.arity;
    EXPECT_EQ(poseidon_circuit_constraints(*c), k.constraints);
    EXPECT_TRUE(cs.is_satisfied()) << *cs.which_unsatisfied();
  }
  EXPECT_EQ(poseidon_constants(3), nullptr);
}

TEST(Poseidon, ExtraValuesFromFormats) {
  const PoseidonConstants& c2 = *poseidon_constants(2);
  const Fr one_two[2] = {Fr::from_u64(1), Fr::from_u64(2)};
  EXPECT_EQ(poseidon_hash_merkle(c2, one_two),
            *Fr::from_hex("0x6d6f8106657f1f4d7babcbaf436a9d7669c04e726e5896d89317d9833e5fa9be"));
  const Fr zero_one[2] = {Fr::from_u64(0), Fr::from_u64(1)};
  EXPECT_EQ(poseidon_hash(c2, poseidon_custom_tag(1), zero_one),
            *Fr::from_hex("0x314a35c4e7f0924ead1fc58134a0fe25e3580bea397367c7e5a74ec4bc077758"));
}

TEST(Poseidon, OptimizedEqualsReferenceOnRandomInputs) {
  const std::uint64_t seed = gadget_test::fresh_seed();
  std::mt19937_64 rng(seed);
  for (unsigned arity : {2u, 4u, 8u, 11u}) {
    const PoseidonConstants& c = *poseidon_constants(arity);
    for (int iter = 0; iter < 5; ++iter) {
      std::vector<Fr> xs;
      for (unsigned i = 0; i < arity; ++i) xs.push_back(random_fr(rng));
      const Fr tag = iter == 0 ? poseidon_constant_length_tag(arity) : random_fr(rng);
      const Fr ref = poseidon_hash_reference(c, tag, xs);
      EXPECT_EQ(poseidon_hash(c, tag, xs), ref) << "seed=" << seed << " arity=" << arity;
      if (iter < 2) {
        TestConstraintSystem cs;
        auto out = hash_in_circuit(cs, c, tag, xs);
        ASSERT_TRUE(out.ok());
        EXPECT_EQ(*out->value(), ref) << "seed=" << seed << " arity=" << arity;
        EXPECT_TRUE(cs.is_satisfied()) << *cs.which_unsatisfied();
      }
    }
  }
}

TEST(Poseidon, CorruptedWitnessIsNamed) {
  const std::uint64_t seed = gadget_test::fresh_seed();
  std::mt19937_64 rng(seed);
  const PoseidonConstants& c = *poseidon_constants(8);
  std::vector<Fr> xs;
  for (int i = 0; i < 8; ++i) xs.push_back(random_fr(rng));
  {
    CorruptingCs cs(8);  // the first S-box's (x+k)^2
    ASSERT_TRUE(hash_in_circuit(cs, c, poseidon_merkle_tag(8), xs).ok());
    EXPECT_EQ(*cs.inner().which_unsatisfied(),
              "poseidon/first round/quintic s-box 1/(l+rk)^2/squared sum constraint");
  }
  for (int iter = 0; iter < 4; ++iter) {
    const std::size_t target = 8 + rng() % 480;
    CorruptingCs cs(target);
    ASSERT_TRUE(hash_in_circuit(cs, c, poseidon_merkle_tag(8), xs).ok());
    ASSERT_FALSE(cs.inner().is_satisfied()) << "seed=" << seed << " target=" << target;
    EXPECT_EQ(cs.inner().which_unsatisfied()->rfind("poseidon/", 0), 0u);
  }
}

TEST(Poseidon, PceMatchesClassic) {
  const std::uint64_t seed = gadget_test::fresh_seed();
  std::mt19937_64 rng(seed);
  for (unsigned arity : {2u, 11u}) {
    std::vector<Fr> xs;
    for (unsigned i = 0; i < arity; ++i) xs.push_back(random_fr(rng));
    const PoseidonConstants& c = *poseidon_constants(arity);
    FnCircuit circ([&](ConstraintSystem& cs) -> Status {
      CUZK_ASSIGN_OR_RETURN(AllocatedNum h, hash_in_circuit(cs, c, poseidon_merkle_tag(arity), xs));
      return h.inputize(cs);
    });
    gadget_test::expect_pce_matches_classic(circ, circ);
  }
}

// Hashes of every arity under several tags, their preimages drawn from earlier variables (public
// inputs, repeats, earlier outputs), other allocations and constraints in between.
Status random_hashes(ConstraintSystem& cs, std::uint64_t seed, bool templates) {
  std::mt19937_64 rng(seed);
  std::vector<AllocatedNum> pool;
  for (int i = 0; i < 3; ++i) {
    const Fr x = random_fr(rng);
    CUZK_ASSIGN_OR_RETURN(AllocatedNum n, AllocatedNum::alloc_input(cs, x));
    pool.push_back(n);
  }
  for (int i = 0; i < 16; ++i) {
    const Fr x = random_fr(rng);
    CUZK_ASSIGN_OR_RETURN(AllocatedNum n, AllocatedNum::alloc(cs, x));
    pool.push_back(n);
  }
  const unsigned arities[] = {2, 4, 8, 11};
  for (int h = 0; h < 12; ++h) {
    const unsigned arity = arities[rng() % 4];
    const PoseidonConstants& c = *poseidon_constants(arity);
    const Fr tags[] = {poseidon_merkle_tag(arity), poseidon_constant_length_tag(arity),
                       poseidon_custom_tag(rng() % 5), Fr::from_u64(rng() % 3)};
    const Fr tag = tags[rng() % 4];
    std::vector<AllocatedNum> pre;
    for (unsigned i = 0; i < arity; ++i) pre.push_back(pool[rng() % pool.size()]);
    Namespace ns(cs, [h] { return "hash " + std::to_string(h); });
    CUZK_ASSIGN_OR_RETURN(AllocatedNum out,
                          poseidon_hash_circuit(cs, c, tag, pre, {.lc_templates = templates}));
    pool.push_back(out);
    CUZK_ASSIGN_OR_RETURN(AllocatedNum sq, out.square(cs));  // something between the hashes
    pool.push_back(sq);
  }
  return {};
}

// The templated LCs (shifted per hash) against the LCs built round by round: the same matrices,
// term for term; and a satisfied system with values on the templated path.
TEST(Poseidon, LcTemplatesEqualBuiltLcs) {
  const std::uint64_t seed = gadget_test::fresh_seed();
  for (int iter = 0; iter < 3; ++iter) {
    const std::uint64_t s = seed + static_cast<std::uint64_t>(iter);
    RecordingConstraintSystem built, templated;
    ASSERT_TRUE(random_hashes(built, s, false).ok());
    ASSERT_TRUE(random_hashes(templated, s, true).ok());
    ASSERT_TRUE(built.finish().ok());
    ASSERT_TRUE(templated.finish().ok());
    EXPECT_TRUE(built.take().matrices == templated.take().matrices) << "seed=" << s;
    TestConstraintSystem cs;
    ASSERT_TRUE(random_hashes(cs, s, true).ok());
    EXPECT_TRUE(cs.is_satisfied()) << *cs.which_unsatisfied() << " seed=" << s;
  }
}

// A system that leaves a gap in its aux numbering: the templated path refuses it by name.
class GappyCs final : public ConstraintSystem {
 public:
  Result<Variable> alloc_aux_fn(NameFn name, ValueFn value) override {
    if (inner_.num_aux() == 30) (void)inner_.alloc_aux_fn(name, value);
    return inner_.alloc_aux_fn(name, value);
  }
  Result<Variable> alloc_input_fn(NameFn name, ValueFn value) override {
    return inner_.alloc_input_fn(name, value);
  }
  void enforce_lc(NameFn name, const LC& a, const LC& b, const LC& c) override {
    inner_.enforce_lc(name, a, b, c);
  }
  void push_scope(NameFn name) override { inner_.push_scope(name); }
  void pop_scope() override { inner_.pop_scope(); }
  Status finish() override { return inner_.finish(); }
  std::size_t num_inputs() const override { return inner_.num_inputs(); }
  std::size_t num_aux() const override { return inner_.num_aux(); }
  std::size_t num_constraints() const override { return inner_.num_constraints(); }

 private:
  RecordingConstraintSystem inner_;
};

TEST(Poseidon, LcTemplatesRefuseAnUnevenNumbering) {
  const PoseidonConstants& c = *poseidon_constants(2);
  GappyCs cs;
  auto out = hash_in_circuit(cs, c, poseidon_merkle_tag(2), iota(2));
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.status().to_string().find("out of sequence"), std::string::npos)
      << out.status().to_string();
}

}  // namespace
}  // namespace cuzk

namespace cuzk {
namespace {

// Slow twin of tools/params/derive_poseidon.py: the Grain LFSR run here, bit by bit, must give
// every round constant in poseidon_constants.inc.
std::vector<Limbs<4>> grain_constants(unsigned t, unsigned r_f, unsigned r_p) {
  std::vector<int> s;
  auto push_bits = [&](unsigned v, unsigned w) {
    for (unsigned i = 0; i < w; ++i) s.push_back((v >> (w - 1 - i)) & 1);
  };
  push_bits(1, 2);
  push_bits(1, 4);
  push_bits(255, 12);
  push_bits(t, 12);
  push_bits(r_f, 10);
  push_bits(r_p, 10);
  for (int i = 0; i < 30; ++i) s.push_back(1);
  std::size_t head = 0;  // s[head..head+80) is the state
  auto step = [&] {
    const int nb =
        s[head + 62] ^ s[head + 51] ^ s[head + 38] ^ s[head + 23] ^ s[head + 13] ^ s[head];
    s.push_back(nb);
    ++head;
    return nb;
  };
  for (int i = 0; i < 160; ++i) step();
  auto bit = [&] {
    for (;;) {
      const int b1 = step(), b2 = step();
      if (b1) return b2;
    }
  };
  std::vector<Limbs<4>> out;
  while (out.size() < (r_f + r_p) * t) {
    Limbs<4> x{};
    for (int i = 254; i >= 0; --i) {
      if (bit()) x[i / 64] |= std::uint64_t{1} << (i % 64);
    }
    bool less = false;
    for (int k = 3; k >= 0; --k) {
      if (x[k] != Fr::kModulus[k]) {
        less = x[k] < Fr::kModulus[k];
        break;
      }
    }
    if (less) out.push_back(x);
  }
  return out;
}

TEST(Poseidon, RoundConstantsMatchAnIndependentGrainLfsr) {
  for (unsigned arity : {2u, 11u}) {
    const PoseidonConstants& c = *poseidon_constants(arity);
    const auto mine = grain_constants(c.width, c.full_rounds, c.partial_rounds);
    ASSERT_EQ(mine.size(), c.round_constants.size());
    for (std::size_t i = 0; i < mine.size(); ++i) {
      ASSERT_EQ(Fr::from_canonical_unchecked(mine[i]), c.round_constants[i])
          << "arity " << arity << " index " << i;
    }
  }
}

}  // namespace
}  // namespace cuzk
