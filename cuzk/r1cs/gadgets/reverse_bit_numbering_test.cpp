// reverse_bit_numbering: upstream's test (util.rs test_reverse_bit_numbering: to_bits_le of a field
// element, reversed, equals the bits of its 32 little-endian bytes read most significant bit
// first, as bytes_into_boolean_vec_be allocates them), the native twin on random bit strings of
// random lengths (seeded), and that the rewiring costs nothing.
#include "cuzk/r1cs/gadgets/reverse_bit_numbering.hpp"

#include <gtest/gtest.h>

#include <array>

#include "cuzk/r1cs/gadgets/gadget_test_util.hpp"
#include "cuzk/r1cs/gadgets/multipack.hpp"
#include "cuzk/r1cs/gadgets/num.hpp"

namespace cuzk {
namespace {

using cuzk::test::random_fr;

TEST(ReverseBitNumbering, FieldBitsBecomeLittleEndianBytesMsbFirst) {
  const std::uint64_t seed = gadget_test::fresh_seed();
  std::mt19937_64 rng(seed);
  for (int iter = 0; iter < 20; ++iter) {
    TestConstraintSystem cs;
    const Fr x = random_fr(rng);
    const AllocatedNum n = *AllocatedNum::alloc(cs, x);
    auto le = n.to_bits_le(cs);
    ASSERT_TRUE(le.ok());
    ASSERT_EQ(le->size(), 255u);
    const std::size_t before = cs.num_constraints();
    const std::size_t aux_before = cs.num_aux();
    const std::vector<Boolean> rev = reverse_bit_numbering(*le);
    EXPECT_EQ(cs.num_constraints(), before);
    EXPECT_EQ(cs.num_aux(), aux_before);
    ASSERT_EQ(rev.size(), 256u);
    // The padding bit: constant 0, placed first in the last byte (its most significant bit).
    EXPECT_TRUE(rev[248].is_constant());
    EXPECT_FALSE(rev[248].constant_value());
    std::array<std::uint8_t, 32> bytes;
    x.to_bytes_le(bytes);
    const std::vector<bool> want = bytes_to_bits(bytes);
    for (std::size_t i = 0; i < 256; ++i)
      ASSERT_EQ(*rev[i].value(), want[i]) << "bit " << i << " seed=" << seed;
    EXPECT_TRUE(cs.is_satisfied());
  }
}

TEST(ReverseBitNumbering, NativeTwinOnRandomLengths) {
  const std::uint64_t seed = gadget_test::fresh_seed();
  std::mt19937_64 rng(seed);
  for (int iter = 0; iter < 50; ++iter) {
    const std::size_t len = rng() % 300;
    std::vector<bool> plain(len);
    std::vector<Boolean> gadget(len);
    for (std::size_t i = 0; i < len; ++i) {
      plain[i] = (rng() & 1) != 0;
      gadget[i] = Boolean::constant(plain[i]);
    }
    const std::vector<bool> a = reverse_bit_numbering_native(plain);
    const std::vector<Boolean> b = reverse_bit_numbering(gadget);
    ASSERT_EQ(a.size(), (len + 7) / 8 * 8);
    ASSERT_EQ(b.size(), a.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
      ASSERT_EQ(*b[i].value(), a[i]) << "len " << len << " bit " << i << " seed=" << seed;
      // Slow definition: bit i comes from position 8·(i/8) + 7 − i%8 of the padded string.
      const std::size_t from = i / 8 * 8 + 7 - i % 8;
      ASSERT_EQ(a[i], from < len ? plain[from] : false) << "len " << len << " seed=" << seed;
    }
  }
}

}  // namespace
}  // namespace cuzk
