// The host's partition vectors from a compact witness (compact_partition.hpp) against their parts
// done by hand: z equal to the witness the compact form was made from, a, b, c equal to
// pce_compact_evaluate_into on it and zero up to the domain size (outputs pre-filled with junk);
// mismatched sizes refused. Random compact forms (tests/support/random_compact_r1cs.hpp), seeded
// (printed; CUZK_SEED replays).
#include "cuzk/r1cs/compact_partition.hpp"

#include <gtest/gtest.h>

#include <bit>

#include "tests/support/random_compact_r1cs.hpp"

namespace cuzk {
namespace {

TEST(CompactPartition, VectorsEqualTheirPartsPaddedToTheDomain) {
  std::mt19937_64 rng(test::fresh_seed());
  ThreadPool pool(2);
  for (int round = 0; round < 6; ++round) {
    SCOPED_TRACE(round);
    const CompactR1cs form = test::random_compact_r1cs(rng, {.num_aux = 800 + rng() % 4000});
    const std::vector<Fr> want_z = test::random_bitty_witness(rng, form.num_columns());
    const std::size_t rows = form.num_constraints;
    std::vector<Fr> a(rows), b(rows), c(rows);
    ASSERT_TRUE(pce_compact_evaluate_into(pool, form, want_z, a, b, c).ok());
    auto w = compact_witness_from_z(pool, want_z, form.num_inputs);
    ASSERT_TRUE(w.ok());
    const std::size_t n = std::bit_ceil(std::max<std::size_t>(rows, 2)) * (round % 2 ? 2 : 1);
    std::vector<Fr> z(want_z.size()), va(n, Fr::from_u64(3)), vb(va), vc(va);
    ASSERT_TRUE(compact_partition_vectors_host(pool, form, *w, z, va, vb, vc).ok());
    EXPECT_TRUE(z == want_z);
    a.resize(n, Fr::zero());
    b.resize(n, Fr::zero());
    c.resize(n, Fr::zero());
    EXPECT_TRUE(va == a && vb == b && vc == c);
  }
}

TEST(CompactPartition, RefusesMismatchedSizes) {
  std::mt19937_64 rng(test::fresh_seed());
  ThreadPool pool(1);
  const CompactR1cs form = test::random_compact_r1cs(rng);
  const std::vector<Fr> zz = test::random_bitty_witness(rng, form.num_columns());
  const CompactWitness w = compact_witness_from_z(pool, zz, form.num_inputs).value();
  const std::size_t rows = form.num_constraints;
  ASSERT_GT(rows, 0u);
  std::vector<Fr> z(zz.size()), a(rows), b(rows), c(rows);
  ASSERT_TRUE(compact_partition_vectors_host(pool, form, w, z, a, b, c).ok());
  std::vector<Fr> short_a(rows - 1), short_b(rows - 1), short_c(rows - 1), long_b(rows + 1);
  EXPECT_EQ(compact_partition_vectors_host(pool, form, w, z, short_a, short_b, short_c).code(),
            Errc::size_mismatch);
  EXPECT_EQ(compact_partition_vectors_host(pool, form, w, z, a, long_b, c).code(),
            Errc::size_mismatch);
  const CompactWitness other =
      compact_witness_from_z(pool, std::span(zz).first(zz.size() - 1), form.num_inputs).value();
  const Status st = compact_partition_vectors_host(pool, form, other, z, a, b, c);
  EXPECT_EQ(st.code(), Errc::size_mismatch);
  EXPECT_NE(st.to_string().find("variables"), std::string::npos) << st.to_string();
}

}  // namespace
}  // namespace cuzk
