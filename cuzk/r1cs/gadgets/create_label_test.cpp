// create_label gadget:
//   * upstream's test_create_label (storage-proofs-porep stacked/circuit/create_label.rs): 37
//     parents (14 distinct labels cycled as for a layer > 1) and the replica id as 256 allocated
//     bits each (bytes_into_boolean_vec_be), layer 3 and node 22 as constants → 532,025
//     constraints in all, satisfied, and the label equals the native label;
//   * the PoRep circuit's form (parents and replica id through to_bits_le + reverse_bit_numbering,
//     the node as 64 allocated bits): 256 per unpacking plus K = 522,269 for the label [D]
//     (FORMATS.md §3.6: K fitted on the 32 GiB total, it reproduces the four upstream stacked
//     circuit tests), the same count without values (setup), values equal to the native twin on
//     seeded random inputs, a corrupted variable caught;
//   * wrong parent counts and replica id sizes are errors.
#include "cuzk/r1cs/gadgets/create_label.hpp"

#include <gtest/gtest.h>

#include "cuzk/r1cs/gadgets/assign.hpp"
#include "cuzk/r1cs/gadgets/gadget_test_util.hpp"
#include "cuzk/r1cs/gadgets/multipack.hpp"
#include "cuzk/r1cs/gadgets/reverse_bit_numbering.hpp"
#include "cuzk/r1cs/recording_cs.hpp"

namespace cuzk {
namespace {

using cuzk::test::random_fr;
using gadget_test::CorruptingCs;
using Bytes = std::array<std::uint8_t, 32>;

Bytes fr_bytes(const Fr& x) {
  Bytes b;
  x.to_bytes_le(b);
  return b;
}

// bytes_into_boolean_vec_be: one allocated bit per bit, most significant first ("bit i").
std::vector<Boolean> alloc_bytes_be(ConstraintSystem& cs, const Bytes& bytes) {
  std::vector<Boolean> out;
  const std::vector<bool> bits = bytes_to_bits(bytes);
  for (std::size_t i = 0; i < bits.size(); ++i) {
    Namespace ns(cs, [i] { return "bit " + std::to_string(i); });
    out.push_back(Boolean::from(*AllocatedBit::alloc(cs, bits[i])));
  }
  return out;
}

// 14 distinct parents cycled to 37: p0..p13, p0..p13, p0..p8 (layers > 1).
std::vector<Bytes> cycled_parents(std::mt19937_64& rng) {
  std::vector<Bytes> distinct;
  for (int i = 0; i < 14; ++i) distinct.push_back(fr_bytes(random_fr(rng)));
  std::vector<Bytes> out = distinct;
  out.insert(out.end(), distinct.begin(), distinct.end());
  out.insert(out.end(), distinct.begin(), distinct.begin() + 9);
  return out;
}

TEST(CreateLabel, UpstreamTestCount) {
  const std::uint64_t seed = gadget_test::fresh_seed();
  std::mt19937_64 rng(seed);
  TestConstraintSystem cs;
  const std::vector<Bytes> parents = cycled_parents(rng);
  std::vector<std::vector<Boolean>> parent_bits;
  for (std::size_t i = 0; i < parents.size(); ++i) {
    Namespace ns(cs, [i] { return "parents " + std::to_string(i); });
    parent_bits.push_back(alloc_bytes_be(cs, parents[i]));
  }
  const Bytes id = fr_bytes(random_fr(rng));
  std::vector<Boolean> id_bits;
  {
    Namespace ns(cs, "id");
    id_bits = alloc_bytes_be(cs, id);
  }
  Result<AllocatedNum> out = Status();
  {
    Namespace ns(cs, "create_label");
    out = create_label_circuit(cs, id_bits, parent_bits, UInt32::constant(3), UInt64::constant(22));
  }
  ASSERT_TRUE(out.ok()) << out.status().to_string();
  EXPECT_TRUE(cs.is_satisfied()) << *cs.which_unsatisfied();
  EXPECT_EQ(cs.num_constraints(), 532'025u);  // upstream test_create_label
  const Bytes want = create_label_native(id, 3, 22, parents);
  EXPECT_EQ(fr_bytes(*out->value()), want) << "seed=" << seed;
}

// The PoRep circuit's form of the inputs: replica id, parents as field elements unpacked with
// to_bits_le and renumbered; the node as a UInt64 of allocated bits.
struct PorepForm {
  std::vector<Boolean> id_bits;
  std::vector<std::vector<Boolean>> parents;
  UInt64 node;
};

Result<PorepForm> alloc_porep_form(ConstraintSystem& cs, std::optional<Fr> id,
                                   const std::vector<std::optional<Fr>>& parents,
                                   std::optional<std::uint64_t> node) {
  PorepForm f;
  CUZK_ASSIGN_OR_RETURN(AllocatedNum idn, AllocatedNum::alloc(cs, id));
  CUZK_ASSIGN_OR_RETURN(std::vector<Boolean> idb, idn.to_bits_le(cs));
  f.id_bits = reverse_bit_numbering(std::move(idb));
  for (const auto& p : parents) {
    CUZK_ASSIGN_OR_RETURN(AllocatedNum pn, AllocatedNum::alloc(cs, p));
    CUZK_ASSIGN_OR_RETURN(std::vector<Boolean> pb, pn.to_bits_le(cs));
    f.parents.push_back(reverse_bit_numbering(std::move(pb)));
  }
  CUZK_ASSIGN_OR_RETURN(f.node, UInt64::alloc(cs, node));
  return f;
}

TEST(CreateLabel, PorepFormCountValuesAndSetup) {
  const std::uint64_t seed = gadget_test::fresh_seed();
  std::mt19937_64 rng(seed);
  constexpr std::size_t kUnpack = 256;  // to_bits_le: 255 bits + 1 packing constraint
  constexpr std::size_t kLabel = 522'269;
  for (int iter = 0; iter < 3; ++iter) {
    const Fr id = random_fr(rng);
    std::vector<Bytes> parents;
    std::vector<std::optional<Fr>> parent_frs;
    for (std::size_t i = 0; i < kLabelParents; ++i) {
      Bytes b = fr_bytes(random_fr(rng));
      b[31] &= 0x3f;  // labels are 254-bit values
      parents.push_back(b);
      parent_frs.push_back(*Fr::from_bytes_le(b));
    }
    const std::uint64_t node = rng() >> (rng() % 64);
    const std::uint32_t layer = 1 + static_cast<std::uint32_t>(rng() % 11);
    TestConstraintSystem cs;
    auto f = alloc_porep_form(cs, id, parent_frs, node);
    ASSERT_TRUE(f.ok());
    ASSERT_EQ(cs.num_constraints(), (1 + kLabelParents) * kUnpack + 64);
    const std::size_t before = cs.num_constraints();
    auto out = create_label_circuit(cs, f->id_bits, f->parents, UInt32::constant(layer), f->node);
    ASSERT_TRUE(out.ok()) << out.status().to_string();
    EXPECT_EQ(cs.num_constraints() - before, kLabel);
    EXPECT_TRUE(cs.is_satisfied()) << *cs.which_unsatisfied();
    EXPECT_EQ(fr_bytes(*out->value()), create_label_native(fr_bytes(id), layer, node, parents))
        << "seed=" << seed << " iteration " << iter;
    if (iter == 0) {
      // Setup: no values asked for, the same count.
      RecordingConstraintSystem setup({.with_values = false, .record_matrices = false});
      auto g = alloc_porep_form(setup, std::nullopt, std::vector<std::optional<Fr>>(kLabelParents),
                                std::nullopt);
      ASSERT_TRUE(g.ok());
      ASSERT_TRUE(
          create_label_circuit(setup, g->id_bits, g->parents, UInt32::constant(layer), g->node)
              .ok());
      EXPECT_EQ(setup.num_constraints(), before + kLabel);
      EXPECT_EQ(setup.num_aux(), cs.num_aux());
    }
  }
}

TEST(CreateLabel, CorruptionIsCaught) {
  std::mt19937_64 rng(7);
  std::vector<std::optional<Fr>> parents;
  for (std::size_t i = 0; i < kLabelParents; ++i) parents.push_back(Fr::from_u64(rng() >> 8));
  // Aux variables: 1 + 255 (id), 37·256 (parents), 64 (node), then the hash's own; corrupt one
  // inside the hash.
  CorruptingCs cs(1 + 255 + 37 * 256 + 64 + 5000);
  auto f = alloc_porep_form(cs, random_fr(rng), parents, 1234);
  ASSERT_TRUE(f.ok());
  Namespace ns(cs, "create_label");
  ASSERT_TRUE(create_label_circuit(cs, f->id_bits, f->parents, UInt32::constant(1), f->node).ok());
  ASSERT_FALSE(cs.inner().is_satisfied());
  EXPECT_EQ(cs.inner().which_unsatisfied()->rfind("create_label/hash/", 0), 0u)
      << *cs.inner().which_unsatisfied();
}

TEST(CreateLabel, BadShapesAreErrors) {
  TestConstraintSystem cs;
  const std::vector<Boolean> id(256, Boolean::constant(false));
  std::vector<std::vector<Boolean>> parents(36, std::vector<Boolean>(256, Boolean::constant(true)));
  auto r = create_label_circuit(cs, id, parents, UInt32::constant(1), UInt64::constant(1));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("36 parents"), std::string::npos);
  parents.emplace_back(257, Boolean::constant(false));
  r = create_label_circuit(cs, id, parents, UInt32::constant(1), UInt64::constant(1));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("parent 36"), std::string::npos);
  parents.back().resize(256);
  const std::vector<Boolean> short_id(16, Boolean::constant(false));
  r = create_label_circuit(cs, short_id, parents, UInt32::constant(1), UInt64::constant(1));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(cs.num_constraints(), 0u);
}

}  // namespace
}  // namespace cuzk
