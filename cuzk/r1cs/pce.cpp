#include "cuzk/r1cs/pce.hpp"

#include <algorithm>
#include <string>

namespace cuzk {
namespace {

// ⟨row k, z⟩. Entries are sorted by kind (+1, −1, general), so three tight loops with one exit
// branch each replace a per-entry switch; |g| is the running index into gen_idx. kBool: a general
// term whose witness value is 0 is skipped and one whose value is 1 costs an add instead of a mul
// (tested only on general terms, where it saves a multiplication; unit terms stay branch-free).
// An earlier version classified the witness in a separate pass: ≈ 10 % of the SpMV time.
template <bool kBool>
[[gnu::always_inline]] inline Fr row_dot(const SparseMatrix& m, std::size_t k, const Fr* z, std::uint64_t& g) {
  constexpr std::uint32_t kMask = SparseMatrix::kColumnMask;
  constexpr Fr::Repr kOne = Fr::one().l;
  const std::uint32_t* col = m.col.data();
  std::uint64_t e = m.row_ptr[k];
  const std::uint64_t end = m.row_ptr[k + 1];
  Fr acc = Fr::zero();
  for (; e < end && col[e] < (1u << SparseMatrix::kKindShift); ++e) acc += z[col[e]];
  for (; e < end && col[e] < (2u << SparseMatrix::kKindShift); ++e) acc -= z[col[e] & kMask];
  if (e == end) return acc;
  const std::uint32_t* gi = m.gen_idx.data() + g;
  const Fr* coeffs = m.coeffs.data();
  g += end - e;
  for (; e < end; ++e, ++gi) {
    const std::uint32_t j = col[e] & kMask;
    if constexpr (kBool) {
      // Test the value where it is loaded anyway: zero → skip, one (Montgomery R) → add.
      const Fr::Repr& v = z[j].l;
      if ((v[0] | v[1] | v[2] | v[3]) == 0) continue;
      if (((v[0] ^ kOne[0]) | (v[1] ^ kOne[1]) | (v[2] ^ kOne[2]) | (v[3] ^ kOne[3])) == 0) {
        acc += coeffs[*gi];
      } else {
        acc += coeffs[*gi] * z[j];
      }
    } else {
      acc += coeffs[*gi] * z[j];
    }
  }
  return acc;
}

// Rows of blocks [blo, bhi) (kBlockRows rows each).
template <bool kBool>
void eval_blocks(const R1csMatrices& m, const Fr* z, Fr* a, Fr* b, Fr* c, std::size_t blo, std::size_t bhi) {
  const std::size_t lo = blo * SparseMatrix::kBlockRows;
  const std::size_t hi = std::min<std::size_t>(m.num_constraints, bhi * SparseMatrix::kBlockRows);
  std::uint64_t ga = m.a.block_gen[blo], gb = m.b.block_gen[blo], gc = m.c.block_gen[blo];
  for (std::size_t k = lo; k < hi; ++k) {
    a[k] = row_dot<kBool>(m.a, k, z, ga);
    b[k] = row_dot<kBool>(m.b, k, z, gb);
    c[k] = row_dot<kBool>(m.c, k, z, gc);
  }
}

}  // namespace

void classify_witness(ThreadPool& pool, std::span<const Fr> z, std::span<std::uint8_t> out) {
  const Fr::Repr one = Fr::one().l;
  pool.parallel_for(
      z.size(),
      [&](std::size_t lo, std::size_t hi) {
        for (std::size_t i = lo; i < hi; ++i) {
          const Fr::Repr& v = z[i].l;
          const std::uint64_t nz = v[0] | v[1] | v[2] | v[3];
          const std::uint64_t n1 = (v[0] ^ one[0]) | (v[1] ^ one[1]) | (v[2] ^ one[2]) | (v[3] ^ one[3]);
          out[i] = nz == 0 ? 0 : (n1 == 0 ? 1 : 2);
        }
      },
      1 << 14);
}

Status pce_evaluate_into(ThreadPool& pool, const R1csMatrices& m, std::span<const Fr> z, std::span<Fr> a,
                         std::span<Fr> b, std::span<Fr> c, const PceOptions& opt) {
  if (z.size() != m.num_columns()) {
    return Status(Errc::size_mismatch, "witness has " + std::to_string(z.size()) + " values, the R1CS " +
                                           std::to_string(m.num_columns()) + " variables");
  }
  const std::size_t n = m.num_constraints;
  if (a.size() != n || b.size() != n || c.size() != n)
    return Status(Errc::size_mismatch, "a/b/c outputs must have one entry per constraint (" + std::to_string(n) + ")");
  if (m.a.num_rows() != n || m.b.num_rows() != n || m.c.num_rows() != n)
    return Status(Errc::size_mismatch, "matrices have a row count different from num_constraints");
  const std::size_t blocks = (n + SparseMatrix::kBlockRows - 1) / SparseMatrix::kBlockRows;
  if (m.a.block_gen.size() != blocks || m.b.block_gen.size() != blocks || m.c.block_gen.size() != blocks)
    return Status(Errc::size_mismatch, "matrices' block offsets disagree with the row count");
  pool.parallel_for(
      blocks,
      [&](std::size_t blo, std::size_t bhi) {
        if (opt.boolean_fast_path) {
          eval_blocks<true>(m, z.data(), a.data(), b.data(), c.data(), blo, bhi);
        } else {
          eval_blocks<false>(m, z.data(), a.data(), b.data(), c.data(), blo, bhi);
        }
      },
      std::max<std::size_t>(1, opt.min_rows_per_task / SparseMatrix::kBlockRows));
  return {};
}

Result<AbcVectors> pce_evaluate(ThreadPool& pool, const R1csMatrices& m, std::span<const Fr> z,
                                const PceOptions& opt) {
  AbcVectors v;
  v.a.resize(m.num_constraints);
  v.b.resize(m.num_constraints);
  v.c.resize(m.num_constraints);
  CUZK_RETURN_IF_ERROR(pce_evaluate_into(pool, m, z, v.a, v.b, v.c, opt));
  return v;
}

AbcVectors spmv_naive(const R1csMatrices& m, std::span<const Fr> z) {
  AbcVectors v;
  const SparseMatrix* mats[3] = {&m.a, &m.b, &m.c};
  std::vector<Fr>* outs[3] = {&v.a, &v.b, &v.c};
  for (int t = 0; t < 3; ++t) {
    outs[t]->assign(m.num_constraints, Fr::zero());
    for (std::size_t k = 0; k < m.num_constraints; ++k) {
      Fr acc = Fr::zero();
      mats[t]->for_each_term(k, [&](std::uint32_t j, const Fr& coeff) { acc += coeff * z[j]; });
      (*outs[t])[k] = acc;
    }
  }
  return v;
}

bool abc_satisfied(const AbcVectors& v, std::size_t* first_bad) {
  for (std::size_t k = 0; k < v.a.size(); ++k) {
    if (!(v.a[k] * v.b[k] == v.c[k])) {
      if (first_bad) *first_bad = k;
      return false;
    }
  }
  return true;
}

}  // namespace cuzk
