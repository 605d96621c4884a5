// SHA-256 gadget against the plain software SHA-256 on random messages of several lengths, with
// bellpepper's pinned counts (25,840 per compression of allocated bits; 44,874 for a 64-byte
// message), constant folding (0 constraints for a constant block), corruption and PCE checks.
#include <gtest/gtest.h>

#include "cuzk/r1cs/gadgets/assign.hpp"
#include "cuzk/r1cs/gadgets/gadget_test_util.hpp"
#include "cuzk/r1cs/gadgets/sha256.hpp"

namespace cuzk {
namespace {

using gadget_test::CorruptingCs;
using gadget_test::FnCircuit;

Result<std::vector<Boolean>> alloc_message(ConstraintSystem& cs,
                                           const std::vector<std::uint8_t>& msg) {
  std::vector<Boolean> bits;
  for (std::size_t i = 0; i < msg.size(); ++i) {
    for (int k = 7; k >= 0; --k) {
      CUZK_ASSIGN_OR_RETURN(AllocatedBit b, AllocatedBit::alloc(cs, ((msg[i] >> k) & 1) != 0));
      bits.push_back(Boolean::from(b));
    }
  }
  return bits;
}

std::vector<std::uint8_t> bits_to_bytes(const std::vector<Boolean>& bits) {
  std::vector<std::uint8_t> out(bits.size() / 8);
  for (std::size_t i = 0; i < bits.size(); ++i) {
    if (*bits[i].value()) out[i / 8] |= static_cast<std::uint8_t>(0x80 >> (i % 8));
  }
  return out;
}

TEST(Sha256, NativeKnownAnswers) {
  auto hex = [](const std::array<std::uint8_t, 32>& d) {
    std::string s;
    for (auto b : d) s += "0123456789abcdef"[b >> 4], s += "0123456789abcdef"[b & 15];
    return s;
  };
  EXPECT_EQ(hex(sha256_native({})),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  const std::string abc = "abc";
  EXPECT_EQ(hex(sha256_native({reinterpret_cast<const std::uint8_t*>(abc.data()), abc.size()})),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  const std::string two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  EXPECT_EQ(hex(sha256_native({reinterpret_cast<const std::uint8_t*>(two.data()), two.size()})),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST(Sha256, ConstantBlockCostsNothing) {
  TestConstraintSystem cs;
  std::vector<Boolean> block(512, Boolean::constant(false));
  block[0] = Boolean::constant(true);
  auto out = sha256_block_no_padding(cs, block);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(cs.num_constraints(), 0u);
  const auto want = sha256_native({});
  EXPECT_EQ(bits_to_bytes(*out), std::vector<std::uint8_t>(want.begin(), want.end()));
}

TEST(Sha256, CompressionCountPinned) {
  const std::uint64_t seed = gadget_test::fresh_seed();
  std::mt19937_64 rng(seed);
  std::vector<std::uint8_t> msg(64);
  for (auto& b : msg) b = rng();
  TestConstraintSystem cs;
  auto bits = alloc_message(cs, msg);
  ASSERT_TRUE(bits.ok());
  auto out = sha256_block_no_padding(cs, *bits);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(cs.num_constraints() - 512, 25840u) << "seed=" << seed;
  EXPECT_TRUE(cs.is_satisfied()) << *cs.which_unsatisfied();
}

TEST(Sha256, FullHashMatchesNativeOnRandomMessages) {
  const std::uint64_t seed = gadget_test::fresh_seed();
  std::mt19937_64 rng(seed);
  std::vector<std::size_t> lens = {0, 1, 55, 56, 64};
  for (int i = 0; i < 5; ++i) lens.push_back(rng() % 150);
  for (std::size_t len : lens) {
    std::vector<std::uint8_t> msg(len);
    for (auto& b : msg) b = rng();
    TestConstraintSystem cs;
    auto bits = alloc_message(cs, msg);
    ASSERT_TRUE(bits.ok());
    auto out = sha256(cs, *bits);
    ASSERT_TRUE(out.ok());
    const auto want = sha256_native(msg);
    EXPECT_EQ(bits_to_bytes(*out), std::vector<std::uint8_t>(want.begin(), want.end()))
        << "seed=" << seed << " len=" << len;
    EXPECT_TRUE(cs.is_satisfied()) << *cs.which_unsatisfied();
    if (len == 64) {
      EXPECT_EQ(cs.num_constraints() - 512, 44874u);
    }
  }
}

TEST(Sha256, CorruptedWitnessIsCaught) {
  const std::uint64_t seed = gadget_test::fresh_seed();
  std::mt19937_64 rng(seed);
  std::vector<std::uint8_t> msg(32);
  for (auto& b : msg) b = rng();
  for (int iter = 0; iter < 3; ++iter) {
    const std::size_t target = 256 + rng() % 20000;  // an aux inside the compression
    CorruptingCs cs(target);
    auto bits = alloc_message(cs, msg);
    ASSERT_TRUE(bits.ok());
    ASSERT_TRUE(sha256(cs, *bits).ok());
    ASSERT_FALSE(cs.inner().is_satisfied()) << "seed=" << seed << " target=" << target;
    EXPECT_NE(cs.inner().which_unsatisfied()->find("block 0/"), std::string::npos)
        << *cs.inner().which_unsatisfied();
  }
}

TEST(Sha256, PceMatchesClassic) {
  const std::uint64_t seed = gadget_test::fresh_seed();
  std::mt19937_64 rng(seed);
  std::vector<std::uint8_t> msg(40);
  for (auto& b : msg) b = rng();
  FnCircuit c([&](ConstraintSystem& cs) -> Status {
    CUZK_ASSIGN_OR_RETURN(auto bits, alloc_message(cs, msg));
    CUZK_ASSIGN_OR_RETURN(auto out, sha256(cs, bits));
    (void)out;
    return {};
  });
  gadget_test::expect_pce_matches_classic(c, c);
}

}  // namespace
}  // namespace cuzk
