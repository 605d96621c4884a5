// The flat layout of the compact form (pce_compact_flat.hpp), the device's layout, walked on the
// CPU as the GPU kernel walks it, against the compact SpMV (pce_compact_evaluate_into) and the
// slow twin of both (spmv_naive over compact_to_matrices): random compact forms built block by
// block (tests/support/random_compact_r1cs.hpp: empty blocks, blocks without locals or slots,
// general terms, rows of hundreds of terms), tiles of 1 to 256 rows, long rows from 8 words or
// none, rows sorted or not; outputs pre-filled with junk so a row nothing covers shows. Also the
// layout's bookkeeping (tiles and long rows take every row once, row order a longest-first
// permutation of each chunk, coefficients interned once) and refusals. Seeded (printed;
// CUZK_SEED replays).
#include "cuzk/r1cs/pce_compact_flat.hpp"

#include <gtest/gtest.h>

#include <set>

#include "tests/support/random_compact_r1cs.hpp"

namespace cuzk {
namespace {

using test::fresh_seed;
using test::random_bitty_witness;
using test::random_compact_r1cs;

TEST(PceCompactFlat, EqualsTheCompactSpmvAndTheNaiveOne) {
  std::mt19937_64 rng(fresh_seed());
  ThreadPool pool(2);
  for (int round = 0; round < 12; ++round) {
    SCOPED_TRACE(round);
    const CompactR1cs form =
        random_compact_r1cs(rng, {.num_aux = 500 + rng() % 3000,
                                  .blocks = 1 + static_cast<unsigned>(rng() % 7),
                                  .segments = 1 + static_cast<unsigned>(rng() % 50)});
    const std::uint32_t tiles[] = {1, 7, 32, 256}, longs[] = {0, 8, 40, 128};
    const CompactFlatOptions opt{.tile_rows = tiles[rng() % 4],
                                 .long_row_words = longs[rng() % 4],
                                 .sort_rows = rng() % 4 != 0};
    auto flat = compact_flatten(form, opt);
    ASSERT_TRUE(flat.ok()) << flat.status().to_string();
    EXPECT_EQ(flat->num_segments(), form.segments.size());
    EXPECT_GT(flat->bytes(), 0u);

    const std::vector<Fr> z = random_bitty_witness(rng, form.num_columns());
    const AbcVectors naive = spmv_naive(compact_to_matrices(form), z);
    const std::size_t n = form.num_constraints;
    std::vector<Fr> a(n), b(n), c(n);
    ASSERT_TRUE(pce_compact_evaluate_into(pool, form, z, a, b, c).ok());
    ASSERT_TRUE(a == naive.a && b == naive.b && c == naive.c);
    std::vector<Fr> fa(n, Fr::from_u64(9)), fb(fa), fc(fa);  // junk a missed row would keep
    ASSERT_TRUE(compact_flat_evaluate(*flat, z, fa, fb, fc).ok());
    EXPECT_TRUE(fa == a && fb == b && fc == c)
        << "tile rows " << opt.tile_rows << ", long rows above " << opt.long_row_words << " words ("
        << flat->num_long_rows() << "), sorted " << opt.sort_rows;
  }
}

TEST(PceCompactFlat, TilesCoverEveryRowOnceAndCoefficientsAreInterned) {
  std::mt19937_64 rng(fresh_seed());
  const CompactR1cs form = random_compact_r1cs(rng, {.segments = 60});
  auto flat = compact_flatten(form, {.tile_rows = 16, .long_row_words = 20});
  ASSERT_TRUE(flat.ok());
  ASSERT_GT(flat->num_long_rows(), 0u);
  // Every row is taken once: by a thread of a tile (its place in the chunk from row_order, a
  // permutation of the chunk sorted longest first), or, when long, by a warp.
  std::vector<int> covered(form.num_constraints, 0);
  for (std::size_t t = 0; t < flat->num_tiles(); ++t) {
    const std::uint32_t s = flat->tile_segment[t], b0 = flat->block_row0[flat->seg_block[s]];
    const std::uint64_t rows = form.row_begin[s + 1] - form.row_begin[s];
    ASSERT_LT(flat->tile_row[t], rows);
    const std::uint64_t end = std::min<std::uint64_t>(rows, flat->tile_row[t] + 16);
    for (std::uint64_t i = flat->tile_row[t]; i < end; ++i) {
      const std::uint64_t k = flat->row_order[b0 + i];
      ASSERT_TRUE(k >= flat->tile_row[t] && k < end) << "row order leaves the chunk";
      if (i > flat->tile_row[t]) {
        EXPECT_GE(flat->row_words(b0 + flat->row_order[b0 + i - 1]), flat->row_words(b0 + k));
      }
      if (flat->row_words(b0 + k) <= 20) ++covered[form.row_begin[s] + k];
    }
  }
  for (std::size_t t = 0; t < flat->num_long_rows(); ++t) {
    const std::uint32_t s = flat->long_segment[t];
    EXPECT_GT(flat->row_words(flat->block_row0[flat->seg_block[s]] + flat->long_row[t]), 20u);
    ++covered[form.row_begin[s] + flat->long_row[t]];
  }
  EXPECT_TRUE(std::all_of(covered.begin(), covered.end(), [](int x) { return x == 1; }));
  std::set<Limbs<4>> distinct;
  for (const CompactBlock& blk : form.blocks)
    for (const SparseMatrix* sm : {&blk.m.a, &blk.m.b, &blk.m.c})
      for (const Fr& x : sm->coeffs) distinct.insert(x.l);
  EXPECT_EQ(flat->coeffs.size(), distinct.size());
}

TEST(PceCompactFlat, RefusesBadInput) {
  std::mt19937_64 rng(fresh_seed());
  const CompactR1cs form = random_compact_r1cs(rng);
  EXPECT_EQ(compact_flatten(form, {.tile_rows = 0}).status().code(), Errc::invalid_argument);
  CompactR1cs stale = form;
  stale.row_begin.clear();
  EXPECT_EQ(compact_flatten(stale).status().code(), Errc::invalid_argument);
  auto flat = compact_flatten(form);
  ASSERT_TRUE(flat.ok());
  std::vector<Fr> z(form.num_columns() - 1), a(form.num_constraints), b(a), c(a);
  EXPECT_EQ(compact_flat_evaluate(*flat, z, a, b, c).code(), Errc::size_mismatch);
  z.push_back(Fr::one());
  a.push_back(Fr::one());
  EXPECT_EQ(compact_flat_evaluate(*flat, z, a, b, c).code(), Errc::size_mismatch);
}

}  // namespace
}  // namespace cuzk
