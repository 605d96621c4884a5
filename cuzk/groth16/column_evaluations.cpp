#include "cuzk/groth16/column_evaluations.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>

namespace cuzk {

namespace {

// fn(column, coeff·l) for every term of |row| of |mat|; |g| is the running index into gen_idx
// (rows walked in order from 0, so no block_gen lookup).
template <class Fn>
void for_each_scaled_term(const SparseMatrix& mat, std::size_t row, const Fr& l, std::uint64_t& g,
                          Fn&& fn) {
  for (std::uint64_t e = mat.row_ptr[row]; e < mat.row_ptr[row + 1]; ++e) {
    const std::uint32_t word = mat.col[e];
    switch (SparseMatrix::kind_of(word)) {
      case CoeffKind::plus_one:
        fn(SparseMatrix::column_of(word), l);
        break;
      case CoeffKind::minus_one:
        fn(SparseMatrix::column_of(word), -l);
        break;
      default:
        fn(SparseMatrix::column_of(word), mat.coeffs[mat.gen_idx[g++]] * l);
        break;
    }
  }
}

Status lag_too_short(std::size_t have, std::uint64_t rows) {
  return Status(Errc::size_mismatch, "Lagrange basis has " + std::to_string(have) +
                                         " values, the R1CS " + std::to_string(rows) + " rows");
}

ColumnEvaluations zeros(std::uint64_t cols) {
  return {std::vector<Fr>(cols, Fr::zero()), std::vector<Fr>(cols, Fr::zero()),
          std::vector<Fr>(cols, Fr::zero())};
}

// Whether no two segments' local column ranges overlap.
bool locals_disjoint(const CompactR1cs& c) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges;  // [begin, end)
  bool sorted = true;
  for (const CompactSegment& s : c.segments) {
    const std::uint32_t a = c.blocks[s.block].locals;
    if (a == 0) continue;
    if (!ranges.empty() && s.aux_column < ranges.back().first) sorted = false;
    ranges.emplace_back(s.aux_column, std::uint64_t{s.aux_column} + a);
  }
  if (!sorted) std::sort(ranges.begin(), ranges.end());
  for (std::size_t i = 1; i < ranges.size(); ++i)
    if (ranges[i].first < ranges[i - 1].second) return false;
  return true;
}

}  // namespace

Result<ColumnEvaluations> column_evaluations(const R1csMatrices& m, std::span<const Fr> lag) {
  if (lag.size() < m.num_constraints) return lag_too_short(lag.size(), m.num_constraints);
  ColumnEvaluations e = zeros(m.num_columns());
  auto one_matrix = [&](const SparseMatrix& mat, std::vector<Fr>& out) {
    std::uint64_t g = 0;
    for (std::size_t k = 0; k < mat.num_rows(); ++k)
      for_each_scaled_term(mat, k, lag[k], g,
                           [&](std::uint32_t col, const Fr& t) { out[col] += t; });
  };
  one_matrix(m.a, e.u);
  one_matrix(m.b, e.v);
  one_matrix(m.c, e.w);
  return e;
}

Result<ColumnEvaluations> column_evaluations(const CompactR1cs& c, std::span<const Fr> lag,
                                             ThreadPool& pool) {
  if (c.row_begin.size() != c.segments.size() + 1 || c.task_begin.empty())
    return Status(Errc::invalid_argument, "compact R1CS not finalized");
  if (lag.size() < c.num_constraints) return lag_too_short(lag.size(), c.num_constraints);
  ColumnEvaluations e = zeros(c.num_columns());
  // Per slot use, its sums in A, B, C; per task, ONE's sums.
  std::vector<Fr> slot_u(c.slots.size(), Fr::zero()), slot_v(c.slots.size(), Fr::zero()),
      slot_w(c.slots.size(), Fr::zero());
  const std::size_t tasks = c.task_begin.size() - 1;
  std::vector<Fr> one_u(tasks, Fr::zero()), one_v(tasks, Fr::zero()), one_w(tasks, Fr::zero());

  auto run_task = [&](std::size_t t) {
    for (std::uint32_t s = c.task_begin[t]; s < c.task_begin[t + 1]; ++s) {
      const CompactSegment& seg = c.segments[s];
      const CompactBlock& blk = c.blocks[seg.block];
      const std::uint64_t r0 = c.row_begin[s], sl0 = c.slot_begin[s];
      // Column j of the block: 0 = ONE, 1..A = locals, A+1..A+E = slots.
      auto one_matrix = [&](const SparseMatrix& mat, std::vector<Fr>& out, std::vector<Fr>& slot,
                            Fr& one) {
        std::uint64_t g = 0;
        for (std::size_t k = 0; k < mat.num_rows(); ++k)
          for_each_scaled_term(mat, k, lag[r0 + k], g, [&](std::uint32_t j, const Fr& t) {
            if (j == 0)
              one += t;
            else if (j <= blk.locals)
              out[seg.aux_column + j - 1] += t;
            else
              slot[sl0 + (j - blk.locals - 1)] += t;
          });
      };
      one_matrix(blk.m.a, e.u, slot_u, one_u[t]);
      one_matrix(blk.m.b, e.v, slot_v, one_v[t]);
      one_matrix(blk.m.c, e.w, slot_w, one_w[t]);
    }
  };
  if (locals_disjoint(c)) {
    pool.parallel_for(tasks, run_task);
  } else {
    for (std::size_t t = 0; t < tasks; ++t) run_task(t);
  }

  // The terms that would race, added on one thread.
  for (std::size_t t = 0; t < tasks; ++t) {
    e.u[0] += one_u[t];
    e.v[0] += one_v[t];
    e.w[0] += one_w[t];
  }
  for (std::size_t i = 0; i < c.slots.size(); ++i) {
    const std::uint32_t col = c.slots[i];
    e.u[col] += slot_u[i];
    e.v[col] += slot_v[i];
    e.w[col] += slot_w[i];
  }
  return e;
}

}  // namespace cuzk
