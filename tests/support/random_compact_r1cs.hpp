// A random CompactR1cs (r1cs/pce_compact.hpp) built directly, block by block, for the tests of
// its evaluators (the flat layout's CPU walk, the GPU SpMV): blocks with and without locals and
// slots, empty blocks and empty rows, rows of +1, −1 and general terms (powers of two, random
// values, and −1/+1 merged away), segments placing the blocks' locals anywhere in the aux columns
// and slots on any column (inputs included), a few rows of hundreds of terms. Then finalize()d,
// so it validates. Seeded by the caller's RNG. Also a witness of mixed bits and field values.
#pragma once

#include <algorithm>
#include <random>
#include <vector>

#include "cuzk/r1cs/pce_compact.hpp"
#include "tests/support/seed.hpp"

namespace cuzk::test {

struct RandomCompactOptions {
  std::uint64_t num_inputs = 5;  ///< ONE included
  std::uint64_t num_aux = 3000;
  unsigned blocks = 6;
  unsigned segments = 40;
  unsigned max_block_rows = 700;
  unsigned max_row_terms = 9;
  /// Rows per thousand, per matrix, of up to |max_long_terms| terms (the Filecoin circuits'
  /// packings and sums of bits).
  unsigned long_per_mille = 4;
  unsigned max_long_terms = 300;
};

inline CompactR1cs random_compact_r1cs(std::mt19937_64& rng, const RandomCompactOptions& o = {}) {
  CompactR1cs c;
  c.num_inputs = o.num_inputs;
  c.num_aux = o.num_aux;
  const Fr coeffs[] = {Fr::from_u64(2), Fr::from_u64(1u << 20), -Fr::from_u64(4), random_fr(rng),
                       random_fr(rng)};
  for (unsigned bi = 0; bi < o.blocks; ++bi) {
    CompactBlock blk;
    const bool tiny = bi == 0;  // block 0: no locals, no slots (only ONE)
    blk.locals = tiny ? 0 : static_cast<std::uint32_t>(rng() % 40);
    blk.slots = tiny ? 0 : static_cast<std::uint32_t>(rng() % 12);
    const std::uint64_t columns = 1 + std::uint64_t{blk.locals} + blk.slots;
    blk.m.num_inputs = 1;
    blk.m.num_aux = columns - 1;
    const unsigned rows = bi == 1 ? 0 : static_cast<unsigned>(rng() % (o.max_block_rows + 1));
    blk.m.num_constraints = rows;
    for (unsigned r = 0; r < rows; ++r) {
      for (SparseMatrix* sm : {&blk.m.a, &blk.m.b, &blk.m.c}) {
        std::vector<Term> terms;
        const bool long_row = rng() % 1000 < o.long_per_mille;
        const unsigned n =
            static_cast<unsigned>(rng() % ((long_row ? o.max_long_terms : o.max_row_terms) + 1));
        for (unsigned t = 0; t < n; ++t) {
          const auto j = static_cast<std::uint32_t>(rng() % columns);
          const unsigned k = rng() % 8;
          const Fr coeff = k < 3 ? Fr::one() : k < 5 ? kFrMinusOne : coeffs[rng() % 5];
          terms.push_back({Variable::input(j), coeff});
        }
        // Sorted, merged, non-zero: what append_row takes.
        std::sort(terms.begin(), terms.end(),
                  [](const Term& x, const Term& y) { return x.var.index < y.var.index; });
        std::vector<Term> merged;
        for (const Term& t : terms) {
          if (!merged.empty() && merged.back().var.index == t.var.index)
            merged.back().coeff += t.coeff;
          else
            merged.push_back(t);
        }
        std::erase_if(merged, [](const Term& t) { return t.coeff.is_zero(); });
        sm->append_row(merged, [](Variable v) { return v.index; });
      }
    }
    blk.m.compute_density();
    c.blocks.push_back(std::move(blk));
  }
  for (unsigned s = 0; s < o.segments; ++s) {
    CompactSegment seg;
    seg.block = static_cast<std::uint32_t>(rng() % c.blocks.size());
    const CompactBlock& blk = c.blocks[seg.block];
    seg.aux_column = static_cast<std::uint32_t>(
        c.num_inputs + rng() % (c.num_aux - blk.locals + 1));  // locals inside the aux columns
    for (std::uint32_t j = 0; j < blk.slots; ++j)
      c.slots.push_back(static_cast<std::uint32_t>(rng() % c.num_columns()));
    c.segments.push_back(seg);
    c.num_constraints += blk.rows();
    c.nnz_a += blk.m.a.nnz();
    c.nnz_b += blk.m.b.nnz();
    c.nnz_c += blk.m.c.nnz();
  }
  c.a_aux_density.resize(c.num_aux);
  c.b_aux_density.resize(c.num_aux);
  c.b_input_density.resize(c.num_inputs);
  const Status st = c.finalize();
  EXPECT_TRUE(st.ok()) << st.to_string();
  return c;
}

/// z of |n| values: ONE, then bits and field values in stretches (as a Filecoin witness).
inline std::vector<Fr> random_bitty_witness(std::mt19937_64& rng, std::size_t n) {
  std::vector<Fr> z(n);
  if (n > 0) z[0] = Fr::one();
  bool field = false;
  for (std::size_t i = 1; i < n; ++i) {
    if (rng() % 16 == 0) field = !field;
    z[i] = field ? random_fr(rng) : rng() & 1 ? Fr::one() : Fr::zero();
  }
  return z;
}

}  // namespace cuzk::test
