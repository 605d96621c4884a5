#include "cuzk/r1cs/compact_witness_bound.hpp"

#include <algorithm>
#include <bit>
#include <string>
#include <utility>
#include <vector>

namespace cuzk {
namespace {

std::uint64_t popcount(const std::vector<std::uint64_t>& bits) {
  std::uint64_t n = 0;
  for (std::uint64_t w : bits) n += static_cast<std::uint64_t>(std::popcount(w));
  return n;
}

bool test(const std::vector<std::uint64_t>& bits, std::uint64_t j) {
  return (bits[j / 64] >> (j % 64)) & 1;
}

// w holds 0 or 1 in a satisfying witness whenever in[0..3] do (an unused input is ONE, column 0).
struct BitRule {
  std::uint32_t in[4] = {0, 0, 0, 0};
  std::uint32_t w = 0;
};

// A small row: its columns (ONE aside; at most kMaxColumns) and its three linear combinations as
// dense coefficients over (ONE, cols...); |small| false for a row of more than 8 terms in a matrix
// or more columns.
constexpr std::size_t kMaxColumns = 5;
struct SmallRow {
  bool small = false;
  std::uint32_t cols[kMaxColumns] = {};
  std::size_t ncols = 0;
  Fr coef[3][kMaxColumns + 1] = {};
};

SmallRow small_row(const R1csMatrices& m, std::size_t r) {
  SmallRow row;
  const SparseMatrix* mats[3] = {&m.a, &m.b, &m.c};
  bool fits = true;
  for (int t = 0; t < 3 && fits; ++t) {
    if (mats[t]->row_ptr[r + 1] - mats[t]->row_ptr[r] > 8) return row;  // packings, sums
    mats[t]->for_each_term(r, [&](std::uint32_t col, const Fr& coeff) {
      if (!fits) return;
      std::size_t i = 0;
      if (col != 0) {
        while (i < row.ncols && row.cols[i] != col) ++i;
        if (i == row.ncols) {
          if (row.ncols == kMaxColumns) {
            fits = false;
            return;
          }
          row.cols[row.ncols++] = col;
        }
        ++i;  // slot 0 is ONE
      }
      row.coef[t][i] = row.coef[t][i] + coeff;
    });
  }
  row.small = fits && row.ncols > 0;
  return row;
}

// The value of linear combination |t| of |row| with column i at (mask >> i) & 1 (ONE = 1).
Fr eval(const SmallRow& row, int t, unsigned mask) {
  Fr acc = row.coef[t][0];
  for (std::size_t i = 0; i < row.ncols; ++i)
    if ((mask >> i) & 1) acc = acc + row.coef[t][i + 1];
  return acc;
}

// Rows before a rule's row that the rule may lean on (the gadgets' and-row right before a maj row).
constexpr std::size_t kContextRows = 4;

// The rules row |r| proves: for each column w of the row whose other columns are at most four, w
// is a bit when they are if, for every 0/1 assignment of them that satisfies the kContextRows rows
// before (those reading only these columns: a satisfying witness satisfies them too), the row's
// polynomial in w, p(w) = A(w)·B(w) − C(w) = α w² + β w + γ, leaves w no value outside {0, 1}:
// p ≡ 0 leaves w free (no rule); a constant p ≠ 0 has no root (no satisfying witness); a linear
// p has its root in {0, 1} when p(0) = 0 or p(1) = 0; a quadratic p needs p(0) = p(1) = 0. This
// covers the boolean constraint (ONE − x)·x = 0 and the gadgets' xor, and, and-not, nor, SHA-256
// ch rows (r1cs/gadgets/boolean.cpp) for each of their columns, and the maj row with its
// b-and-c row before it.
void row_rules(const std::vector<SmallRow>& rows, std::size_t r, std::vector<BitRule>& out) {
  const SmallRow& row = rows[r];
  if (!row.small) return;
  for (std::size_t wi = 0; wi < row.ncols; ++wi) {
    // Context rows over the row's other columns, as masks of this row's column indexes.
    struct Context {
      const SmallRow* row;
      unsigned index[kMaxColumns];  // its column i is this row's column index[i]
    };
    std::vector<Context> context;
    for (std::size_t d = 1; d <= kContextRows && d <= r; ++d) {
      const SmallRow& p = rows[r - d];
      if (!p.small) continue;
      Context ctx{&p, {}};
      bool inside = true;
      for (std::size_t i = 0; i < p.ncols && inside; ++i) {
        std::size_t j = 0;
        while (j < row.ncols && row.cols[j] != p.cols[i]) ++j;
        inside = j < row.ncols && j != wi;
        ctx.index[i] = static_cast<unsigned>(j);
      }
      if (inside) context.push_back(ctx);
    }
    bool ok = true;
    for (unsigned mask = 0; ok && mask < (1u << row.ncols); ++mask) {
      if ((mask >> wi) & 1) continue;  // w's own value is the unknown
      bool possible = true;
      for (const Context& ctx : context) {
        unsigned pm = 0;
        for (std::size_t i = 0; i < ctx.row->ncols; ++i) pm |= ((mask >> ctx.index[i]) & 1) << i;
        possible =
            possible && eval(*ctx.row, 0, pm) * eval(*ctx.row, 1, pm) == eval(*ctx.row, 2, pm);
      }
      if (!possible) continue;
      const Fr a0 = eval(row, 0, mask), a1 = row.coef[0][wi + 1];
      const Fr b0 = eval(row, 1, mask), b1 = row.coef[1][wi + 1];
      const Fr c0 = eval(row, 2, mask), c1 = row.coef[2][wi + 1];
      const Fr alpha = a1 * b1, beta = a0 * b1 + a1 * b0 - c1, gamma = a0 * b0 - c0;
      const Fr p0 = gamma, p1 = alpha + beta + gamma;
      if (!alpha.is_zero()) {
        ok = p0.is_zero() && p1.is_zero();
      } else if (!beta.is_zero()) {
        ok = p0.is_zero() || p1.is_zero();
      } else {
        ok = !gamma.is_zero();  // p ≡ 0: w free
      }
    }
    if (!ok) continue;
    BitRule rule;
    rule.w = row.cols[wi];
    std::size_t k = 0;
    for (std::size_t i = 0; i < row.ncols; ++i)
      if (i != wi) rule.in[k++] = row.cols[i];
    out.push_back(rule);
  }
}

std::vector<BitRule> bit_rules(const R1csMatrices& m) {
  std::vector<BitRule> rules;
  if (m.a.num_rows() != m.num_constraints || m.b.num_rows() != m.num_constraints ||
      m.c.num_rows() != m.num_constraints)
    return rules;
  std::vector<SmallRow> rows(m.num_constraints);
  for (std::size_t r = 0; r < m.num_constraints; ++r) rows[r] = small_row(m, r);
  for (std::size_t r = 0; r < m.num_constraints; ++r) row_rules(rows, r, rules);
  return rules;
}

// Runs |pass| (every rule applied once; true when it proved a column) until it proves nothing
// new, at most 8 times.
template <class Apply>
void fixpoint(Apply&& pass) {
  for (int i = 0; i < 8 && pass(); ++i) {
  }
}

}  // namespace

CompactWitnessBound compact_witness_bound(const CompactR1cs& c) {
  CompactWitnessBound b;
  b.variables = c.num_columns();
  if (b.variables == 0) return b;
  std::vector<std::uint64_t> global((b.variables + 63) / 64, 0);
  global[0] |= 1;  // ONE
  // Per block: the columns its own rules prove whatever its slots hold (the closure from ONE
  // alone: in every segment those columns are bits), and the rules left, which need a slot's bit.
  struct BlockRules {
    std::vector<std::uint32_t> always;
    std::vector<BitRule> rest;
  };
  std::vector<BlockRules> blocks(c.blocks.size());
  for (std::size_t i = 0; i < c.blocks.size(); ++i) {
    const std::vector<BitRule> rules = bit_rules(c.blocks[i].m);
    std::vector<std::uint64_t> closure((c.blocks[i].columns() + 63) / 64, 0);
    closure[0] |= 1;
    fixpoint([&] {
      bool changed = false;
      for (const BitRule& r : rules) {
        if (test(closure, r.w) || !test(closure, r.in[0]) || !test(closure, r.in[1]) ||
            !test(closure, r.in[2]) || !test(closure, r.in[3]))
          continue;
        closure[r.w / 64] |= std::uint64_t{1} << (r.w % 64);
        changed = true;
      }
      return changed;
    });
    for (std::uint32_t j = 1; j < c.blocks[i].columns(); ++j)
      if (test(closure, j)) blocks[i].always.push_back(j);
    for (const BitRule& r : rules)
      if (!test(closure, r.w)) blocks[i].rest.push_back(r);
  }
  // The block's column j in segment s, as a witness column (n: outside the witness, never a bit).
  auto column = [&](const CompactSegment& s, const CompactBlock& blk, std::uint64_t slot,
                    std::uint32_t j) -> std::uint64_t {
    if (j == 0) return 0;
    if (j <= blk.locals) return std::uint64_t{s.aux_column} + j - 1;
    const std::uint64_t e = slot + (j - 1 - blk.locals);
    return e < c.slots.size() ? c.slots[e] : b.variables;
  };
  auto set = [&](std::uint64_t w) { global[w / 64] |= std::uint64_t{1} << (w % 64); };
  // Every segment's block-proved columns, then the other rules in the circuit's row order
  // (segments in order, each block's in row order), pass after pass until one proves nothing new.
  bool first = true;
  fixpoint([&] {
    bool changed = false;
    std::uint64_t slot = 0;
    for (const CompactSegment& s : c.segments) {
      if (s.block >= c.blocks.size()) break;  // malformed (validate refuses it)
      const CompactBlock& blk = c.blocks[s.block];
      const BlockRules& br = blocks[s.block];
      if (first)
        for (std::uint32_t j : br.always)
          if (const std::uint64_t w = column(s, blk, slot, j); w < b.variables) set(w);
      for (const BitRule& r : br.rest) {
        const std::uint64_t w = column(s, blk, slot, r.w);
        if (w >= b.variables || test(global, w)) continue;
        bool all = true;
        for (std::uint32_t j : r.in) {
          const std::uint64_t x = column(s, blk, slot, j);
          all = all && x < b.variables && test(global, x);
        }
        if (!all) continue;
        set(w);
        changed = true;
      }
      slot += blk.slots;
    }
    first = false;
    return changed;
  });
  b.boolean_cols = popcount(global);
  return b;
}

std::vector<std::uint64_t> proved_boolean_columns(const R1csMatrices& m) {
  std::vector<std::uint64_t> bits((m.num_columns() + 63) / 64, 0);
  if (bits.empty()) return bits;
  bits[0] |= 1;  // ONE
  const std::vector<BitRule> rules = bit_rules(m);
  fixpoint([&] {
    bool changed = false;
    for (const BitRule& r : rules) {
      if (test(bits, r.w) || !test(bits, r.in[0]) || !test(bits, r.in[1]) || !test(bits, r.in[2]) ||
          !test(bits, r.in[3]))
        continue;
      bits[r.w / 64] |= std::uint64_t{1} << (r.w % 64);
      changed = true;
    }
    return changed;
  });
  return bits;
}

CompactWitnessBound compact_witness_bound(const R1csMatrices& m) {
  CompactWitnessBound b;
  b.variables = m.num_columns();
  b.boolean_cols = popcount(proved_boolean_columns(m));
  return b;
}

Status compact_witness_within(const CompactWitness& w, const CompactWitnessBound& b) {
  if (w.num_variables() != b.variables)
    return Status(Errc::size_mismatch, "compact witness of " + std::to_string(w.num_variables()) +
                                           " variables for a circuit of " +
                                           std::to_string(b.variables));
  if (w.values.size() > b.others())
    return Status(Errc::out_of_range,
                  "the witness does not satisfy the circuit: " + std::to_string(w.values.size()) +
                      " values are neither 0 nor 1, but only " + std::to_string(b.others()) +
                      " of its " + std::to_string(b.variables) + " columns may be (the others " +
                      "are proved boolean)");
  return {};
}

std::uint64_t compact_witness_capacity_bytes(const CompactWitness& w) {
  return w.bits.capacity() * 8 + w.run_first.capacity() * 4 + w.run_value.capacity() * 4 +
         w.values.capacity() * 32;
}

}  // namespace cuzk
