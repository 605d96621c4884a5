// The witness fast paths (ConstraintSystem::fast_witness(): SHA-256 compression, Poseidon, bit
// decomposition, packing) against their slow twins, on seeded random inputs: the same gadget code
// run on the recording system with values (the generic path, the reference), on the witness
// system with fast paths off and on, and on a witness slice, must give the same z = (inputs ‖
// aux), the same constraint count, and outputs naming the same variables with the same values.
// Inputs mix allocated, negated and constant bits, so every constant-folding case of the SHA-256
// gadgets is reached. The whole PoRep partition: circuits_porep_witness_test.
#include <gtest/gtest.h>

#include <functional>
#include <random>

#include "cuzk/r1cs/gadgets/assign.hpp"
#include "cuzk/r1cs/gadgets/boolean.hpp"
#include "cuzk/r1cs/gadgets/multipack.hpp"
#include "cuzk/r1cs/gadgets/num.hpp"
#include "cuzk/r1cs/gadgets/poseidon.hpp"
#include "cuzk/r1cs/gadgets/sha256.hpp"
#include "cuzk/r1cs/gadgets/uint64.hpp"
#include "cuzk/r1cs/recording_cs.hpp"
#include "cuzk/r1cs/witness_cs.hpp"
#include "cuzk/r1cs/witness_slice_cs.hpp"
#include "tests/support/seed.hpp"

namespace cuzk {
namespace {

using test::fresh_seed;
using test::random_fr;

// A gadget circuit: synthesises on |cs| and appends the outputs it wants compared.
using Gadget = std::function<Status(ConstraintSystem& cs, std::vector<Boolean>& bits,
                                    std::vector<AllocatedNum>& nums)>;

struct Run {
  std::vector<Fr> z;
  std::size_t constraints = 0;
  std::vector<Boolean> bits;
  std::vector<AllocatedNum> nums;
};

Run on_recording(const Gadget& g) {
  RecordingConstraintSystem cs({.with_values = true, .record_matrices = false});
  Run r;
  const Status st = g(cs, r.bits, r.nums);
  EXPECT_TRUE(st.ok()) << st.to_string();
  EXPECT_TRUE(cs.finish().ok());
  const Recording& rec = cs.recording();
  r.z = rec.inputs;
  r.z.insert(r.z.end(), rec.aux.begin(), rec.aux.end());
  r.constraints = cs.num_constraints();
  return r;
}

Run on_witness(const Gadget& g, bool fast) {
  WitnessConstraintSystem cs({.fast_paths = fast});
  EXPECT_EQ(cs.fast_witness(), fast);
  Run r;
  const Status st = g(cs, r.bits, r.nums);
  EXPECT_TRUE(st.ok()) << st.to_string();
  EXPECT_TRUE(cs.finish().ok());
  r.z = cs.assignment();
  r.constraints = cs.num_constraints();
  return r;
}

// The same gadget on a slice system writing aux at offset 7 of a buffer (inputs after ONE).
Run on_slice(const Gadget& g, std::size_t num_inputs, std::size_t num_aux) {
  std::vector<Fr> inputs(num_inputs), aux(num_aux + 7);
  inputs[0] = Fr::one();
  WitnessSliceConstraintSystem cs(std::span<Fr>(aux).subspan(7), 7,
                                  std::span<Fr>(inputs).subspan(1), 1, true);
  Run r;
  const Status st = g(cs, r.bits, r.nums);
  EXPECT_TRUE(st.ok()) << st.to_string();
  EXPECT_TRUE(cs.finish_slice().ok()) << cs.finish_slice().to_string();
  r.z = inputs;
  r.z.insert(r.z.end(), aux.begin() + 7, aux.end());
  for (Boolean& b : r.bits) {  // slice indexes are offset by 7
    if (b.is_constant() || !b.bit().variable().is_aux()) continue;
    const Boolean moved =
        Boolean::from(AllocatedBit(Variable::aux(b.bit().variable().index - 7), b.bit().value()));
    b = b.kind() == Boolean::Kind::negated ? moved.negate() : moved;
  }
  for (AllocatedNum& n : r.nums)
    if (n.variable().is_aux()) n = AllocatedNum(Variable::aux(n.variable().index - 7), n.value());
  return r;
}

void expect_same_outputs(const Run& want, const Run& got, const char* what) {
  ASSERT_EQ(got.bits.size(), want.bits.size()) << what;
  for (std::size_t i = 0; i < want.bits.size(); ++i) {
    const Boolean &a = want.bits[i], &b = got.bits[i];
    EXPECT_EQ(a.kind(), b.kind()) << what << " bit " << i;
    EXPECT_EQ(a.value(), b.value()) << what << " bit " << i;
    if (!a.is_constant() && !b.is_constant()) {
      EXPECT_EQ(a.bit().variable(), b.bit().variable()) << what << " bit " << i;
    }
  }
  ASSERT_EQ(got.nums.size(), want.nums.size()) << what;
  for (std::size_t i = 0; i < want.nums.size(); ++i) {
    EXPECT_EQ(want.nums[i].variable(), got.nums[i].variable()) << what << " num " << i;
    EXPECT_EQ(want.nums[i].value(), got.nums[i].value()) << what << " num " << i;
  }
}

// Recording (reference) == witness slow == witness fast == slice, z, counts and outputs.
void expect_twins(const Gadget& g) {
  const Run ref = on_recording(g);
  const Run slow = on_witness(g, false);
  const Run fast = on_witness(g, true);
  EXPECT_EQ(slow.z, ref.z);
  EXPECT_EQ(fast.z, ref.z);
  EXPECT_EQ(slow.constraints, ref.constraints);
  EXPECT_EQ(fast.constraints, ref.constraints);
  expect_same_outputs(ref, slow, "slow");
  expect_same_outputs(ref, fast, "fast");
  // The slice: same values at the same places (z without the finish-time input constraints).
  RecordingConstraintSystem counter({.with_values = true, .record_matrices = false});
  std::vector<Boolean> bits;
  std::vector<AllocatedNum> nums;
  ASSERT_TRUE(g(counter, bits, nums).ok());
  const Run slice = on_slice(g, counter.num_inputs(), counter.num_aux());
  EXPECT_EQ(slice.z, ref.z);
  expect_same_outputs(ref, slice, "slice");
}

// A random bit: allocated, negated or constant, with the given odds (out of 8).
Result<Boolean> random_bit(ConstraintSystem& cs, std::mt19937_64& rng, unsigned constant_odds,
                           unsigned negated_odds) {
  const bool v = (rng() & 1) != 0;
  const unsigned r = rng() % 8;
  if (r < constant_odds) return Boolean::constant(v);
  CUZK_ASSIGN_OR_RETURN(AllocatedBit b, AllocatedBit::alloc(cs, v));
  if (r < constant_odds + negated_odds) return Boolean::from(b).negate();
  return Boolean::from(b);
}

// A random input pattern: per word, all allocated, all constant, or mixed bits.
Result<std::vector<Boolean>> random_bits(ConstraintSystem& cs, std::mt19937_64 rng, std::size_t n) {
  std::vector<Boolean> bits;
  for (std::size_t i = 0; i < n; i += 32) {
    const unsigned kind = rng() % 4;
    for (std::size_t j = i; j < std::min(n, i + 32); ++j) {
      Result<Boolean> b = kind == 0   ? random_bit(cs, rng, 0, 0)
                          : kind == 1 ? random_bit(cs, rng, 8, 0)
                          : kind == 2 ? random_bit(cs, rng, 0, 4)
                                      : random_bit(cs, rng, 3, 2);
      if (!b) return b.status();
      bits.push_back(*b);
    }
  }
  return bits;
}

TEST(WitnessFast, Sha256CompressionMixedInputs) {
  const std::uint64_t seed = fresh_seed();
  for (int trial = 0; trial < 12; ++trial) {
    SCOPED_TRACE(trial);
    const std::uint64_t s = seed + static_cast<std::uint64_t>(trial);
    expect_twins([s, trial](ConstraintSystem& cs, std::vector<Boolean>& out,
                            std::vector<AllocatedNum>&) -> Status {
      std::mt19937_64 rng(s);
      CUZK_ASSIGN_OR_RETURN(std::vector<Boolean> block, random_bits(cs, rng, 512));
      std::array<UInt32, 8> cur = sha256_iv();
      if (trial % 3 != 0) {  // a state of random words: constant, allocated or mixed
        CUZK_ASSIGN_OR_RETURN(std::vector<Boolean> state, random_bits(cs, rng, 256));
        for (unsigned i = 0; i < 8; ++i)
          cur[i] = UInt32::from_bits(std::span<const Boolean>(state).subspan(32 * i, 32));
      }
      CUZK_ASSIGN_OR_RETURN(auto h, sha256_compression_function(cs, block, cur));
      // A second block on the result: the outputs' variables feed the next compression.
      CUZK_ASSIGN_OR_RETURN(auto h2, sha256_compression_function(cs, block, h));
      for (const UInt32& x : h2)
        for (const Boolean& b : x.bits()) out.push_back(b);
      for (const UInt32& x : h)
        for (const Boolean& b : x.bits()) out.push_back(b);
      return {};
    });
  }
}

TEST(WitnessFast, Sha256MessagesAndConstantBlocks) {
  const std::uint64_t seed = fresh_seed();
  std::mt19937_64 lengths(seed);
  for (int trial = 0; trial < 6; ++trial) {
    const std::size_t bytes = trial == 0 ? 0 : lengths() % 140;
    SCOPED_TRACE(bytes);
    const std::uint64_t s = seed ^ static_cast<std::uint64_t>(trial);
    expect_twins([s, bytes](ConstraintSystem& cs, std::vector<Boolean>& out,
                            std::vector<AllocatedNum>&) -> Status {
      std::mt19937_64 rng(s);
      CUZK_ASSIGN_OR_RETURN(std::vector<Boolean> msg, random_bits(cs, rng, 8 * bytes));
      CUZK_ASSIGN_OR_RETURN(out, sha256(cs, msg));  // the padding block is all constant
      return {};
    });
  }
}

TEST(WitnessFast, Sha256MatchesTheNativeHash) {
  // Values through the fast path only, against OpenSSL: a 64-byte allocated message.
  const std::uint64_t seed = fresh_seed();
  std::mt19937_64 rng(seed);
  std::vector<std::uint8_t> msg(64);
  for (auto& b : msg) b = static_cast<std::uint8_t>(rng());
  WitnessConstraintSystem cs;
  ASSERT_TRUE(cs.fast_witness());
  std::vector<Boolean> bits;
  for (std::uint8_t byte : msg)
    for (int i = 7; i >= 0; --i)
      bits.push_back(Boolean::from(AllocatedBit::alloc(cs, ((byte >> i) & 1) != 0).value()));
  auto digest = sha256(cs, bits);
  ASSERT_TRUE(digest.ok());
  const auto want = sha256_native(msg);
  for (std::size_t i = 0; i < 256; ++i)
    EXPECT_EQ(*(*digest)[i].value(), ((want[i / 8] >> (7 - i % 8)) & 1) != 0) << "bit " << i;
}

TEST(WitnessFast, PoseidonEveryArity) {
  const std::uint64_t seed = fresh_seed();
  for (unsigned arity : {2u, 4u, 8u, 11u}) {
    SCOPED_TRACE(arity);
    const std::uint64_t s = seed + arity;
    expect_twins([s, arity](ConstraintSystem& cs, std::vector<Boolean>&,
                            std::vector<AllocatedNum>& out) -> Status {
      std::mt19937_64 rng(s);
      const PoseidonConstants& c = *poseidon_constants(arity);
      std::vector<AllocatedNum> pre;
      for (unsigned i = 0; i < arity; ++i) {
        CUZK_ASSIGN_OR_RETURN(AllocatedNum x, AllocatedNum::alloc(cs, random_fr(rng)));
        pre.push_back(x);
      }
      CUZK_ASSIGN_OR_RETURN(AllocatedNum h,
                            poseidon_hash_circuit(cs, c, poseidon_merkle_tag(arity), pre));
      out.push_back(h);
      // The output feeds a second hash (Custom tag): its variable and value are used.
      pre[arity - 1] = h;
      CUZK_ASSIGN_OR_RETURN(AllocatedNum h2,
                            poseidon_hash_circuit(cs, c, poseidon_custom_tag(1), pre));
      out.push_back(h2);
      return {};
    });
  }
}

TEST(WitnessFast, PoseidonMatchesTheNativeHash) {
  const std::uint64_t seed = fresh_seed();
  std::mt19937_64 rng(seed);
  for (unsigned arity : {2u, 4u, 8u, 11u}) {
    const PoseidonConstants& c = *poseidon_constants(arity);
    WitnessConstraintSystem cs;
    std::vector<AllocatedNum> pre;
    std::vector<Fr> values;
    for (unsigned i = 0; i < arity; ++i) {
      values.push_back(random_fr(rng));
      pre.push_back(AllocatedNum::alloc(cs, values.back()).value());
    }
    auto h = poseidon_hash_circuit(cs, c, poseidon_merkle_tag(arity), pre);
    ASSERT_TRUE(h.ok());
    EXPECT_EQ(*h->value(), poseidon_hash_reference(c, poseidon_merkle_tag(arity), values))
        << "arity " << arity;
    EXPECT_EQ(cs.num_constraints(), poseidon_circuit_constraints(c));
  }
}

TEST(WitnessFast, BitsAndPacking) {
  const std::uint64_t seed = fresh_seed();
  for (int trial = 0; trial < 4; ++trial) {
    SCOPED_TRACE(trial);
    const std::uint64_t s = seed + static_cast<std::uint64_t>(trial);
    expect_twins([s](ConstraintSystem& cs, std::vector<Boolean>& out,
                     std::vector<AllocatedNum>& nums) -> Status {
      std::mt19937_64 rng(s);
      // to_bits_le of a random value, its bits packed back (pack_bits) and into inputs.
      CUZK_ASSIGN_OR_RETURN(AllocatedNum x, AllocatedNum::alloc(cs, random_fr(rng)));
      CUZK_ASSIGN_OR_RETURN(std::vector<Boolean> bits, x.to_bits_le(cs));
      CUZK_ASSIGN_OR_RETURN(AllocatedNum packed, pack_bits(cs, bits));
      nums.push_back(packed);
      // Mixed bits (constants and negations) over several 254-bit chunks.
      CUZK_ASSIGN_OR_RETURN(std::vector<Boolean> mixed, random_bits(cs, rng, 600 + rng() % 100));
      CUZK_RETURN_IF_ERROR(pack_into_inputs(cs, mixed));
      CUZK_ASSIGN_OR_RETURN(AllocatedNum packed2, pack_bits(cs, mixed));
      nums.push_back(packed2);
      // Words and u64 decompositions.
      CUZK_ASSIGN_OR_RETURN(UInt32 w, UInt32::alloc(cs, static_cast<std::uint32_t>(rng())));
      CUZK_ASSIGN_OR_RETURN(UInt64 d, UInt64::alloc(cs, rng()));
      CUZK_RETURN_IF_ERROR(d.pack_into_input(cs));
      CUZK_ASSIGN_OR_RETURN(std::vector<Boolean> u, u64_into_boolean_vec_le(cs, rng()));
      out = bits;
      for (const Boolean& b : w.bits()) out.push_back(b);
      for (const Boolean& b : d.to_bits_le()) out.push_back(b);
      out.insert(out.end(), u.begin(), u.end());
      return {};
    });
  }
}

}  // namespace
}  // namespace cuzk
