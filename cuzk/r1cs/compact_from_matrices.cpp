#include "cuzk/r1cs/compact_from_matrices.hpp"

#include <algorithm>
#include <vector>

namespace cuzk {

Result<CompactR1cs> compact_from_matrices(const R1csMatrices& m) {
  if (m.num_inputs == 0) return Status(Errc::invalid_argument, "matrices without the ONE input");
  if (m.num_columns() > SparseMatrix::kMaxColumns)
    return Status(Errc::out_of_range, "matrices of more than 2^30 variables");
  const std::uint64_t ni = m.num_inputs, na = m.num_aux;
  CompactR1cs c;
  c.num_inputs = ni;
  c.num_aux = na;
  c.num_constraints = m.num_constraints;
  c.nnz_a = m.a.nnz(), c.nnz_b = m.b.nnz(), c.nnz_c = m.c.nnz();
  CompactBlock blk;
  blk.locals = static_cast<std::uint32_t>(na);
  blk.slots = static_cast<std::uint32_t>(ni - 1);
  blk.m.num_inputs = 1;
  blk.m.num_aux = na + ni - 1;
  blk.m.num_constraints = m.num_constraints;
  // Circuit column → block column: ONE → 0, aux k (column ni + k) → local 1 + k, input i ≥ 1 →
  // slot 1 + na + i − 1.
  auto block_column = [&](std::uint32_t col) -> std::uint32_t {
    if (col == 0) return 0;
    if (col < ni) return static_cast<std::uint32_t>(na + col);
    return static_cast<std::uint32_t>(1 + (col - ni));
  };
  std::vector<Term> terms;
  const SparseMatrix* from[3] = {&m.a, &m.b, &m.c};
  SparseMatrix* to[3] = {&blk.m.a, &blk.m.b, &blk.m.c};
  for (int t = 0; t < 3; ++t) {
    to[t]->row_ptr.reserve(m.num_constraints + 1);
    to[t]->col.reserve(from[t]->nnz());
    for (std::uint64_t k = 0; k < m.num_constraints; ++k) {
      terms.clear();
      from[t]->for_each_term(k, [&](std::uint32_t col, const Fr& coeff) {
        terms.push_back({Variable::input(block_column(col)), coeff});
      });
      std::sort(terms.begin(), terms.end(),
                [](const Term& x, const Term& y) { return x.var.index < y.var.index; });
      to[t]->append_row(terms, [](Variable v) { return v.index; });
    }
  }
  blk.m.compute_density();
  c.blocks.push_back(std::move(blk));
  c.segments.push_back({.block = 0, .aux_column = static_cast<std::uint32_t>(ni)});
  for (std::uint64_t i = 1; i < ni; ++i) c.slots.push_back(static_cast<std::uint32_t>(i));
  c.a_aux_density = m.a_aux_density;
  c.b_input_density = m.b_input_density;
  c.b_aux_density = m.b_aux_density;
  CUZK_RETURN_IF_ERROR(c.finalize());
  return c;
}

}  // namespace cuzk
