#include "cuzk/r1cs/matrices.hpp"

#include <string>

namespace cuzk {
namespace {

Status validate_matrix(const SparseMatrix& m, const char* name, std::uint64_t rows, std::uint64_t cols) {
  auto err = [&](Errc code, const std::string& what) { return Status(code, std::string("matrix ") + name + ": " + what); };
  if (m.row_ptr.size() != rows + 1 || m.val_ptr.size() != rows + 1)
    return err(Errc::size_mismatch, "has " + std::to_string(m.row_ptr.size() - 1) + " rows, expected " +
                                        std::to_string(rows));
  if (m.row_ptr[0] != 0 || m.val_ptr[0] != 0) return err(Errc::bad_encoding, "offsets do not start at 0");
  if (m.row_ptr[rows] != m.col.size() || m.val_ptr[rows] != m.val.size())
    return err(Errc::size_mismatch, "last offset does not match the entry count");
  for (std::uint64_t k = 0; k < rows; ++k) {
    const std::uint64_t b = m.row_ptr[k], e = m.row_ptr[k + 1];
    if (e < b || m.val_ptr[k + 1] < m.val_ptr[k])
      return err(Errc::bad_encoding, "offsets decrease at row " + std::to_string(k));
    std::uint64_t general = 0;
    unsigned last_kind = 0;
    for (std::uint64_t i = b; i < e; ++i) {
      const unsigned kind = m.col[i] >> SparseMatrix::kKindShift;
      if (kind > 2 || kind < last_kind)
        return err(Errc::bad_encoding, "bad coefficient kind order in row " + std::to_string(k));
      last_kind = kind;
      if (SparseMatrix::column_of(m.col[i]) >= cols)
        return err(Errc::out_of_range, "column " + std::to_string(SparseMatrix::column_of(m.col[i])) +
                                           " out of range in row " + std::to_string(k));
      general += kind == 2;
    }
    if (general != m.val_ptr[k + 1] - m.val_ptr[k])
      return err(Errc::bad_encoding, "general-term count disagrees with val_ptr in row " + std::to_string(k));
  }
  return {};
}

}  // namespace

Status R1csMatrices::validate() const {
  if (num_inputs == 0) return Status(Errc::invalid_argument, "R1CS has no ONE input");
  if (num_columns() > SparseMatrix::kMaxColumns)
    return Status(Errc::out_of_range, "R1CS has more than 2^30 variables");
  CUZK_RETURN_IF_ERROR(validate_matrix(a, "A", num_constraints, num_columns()));
  CUZK_RETURN_IF_ERROR(validate_matrix(b, "B", num_constraints, num_columns()));
  CUZK_RETURN_IF_ERROR(validate_matrix(c, "C", num_constraints, num_columns()));
  if (a_aux_density.bits != num_aux || b_aux_density.bits != num_aux || b_input_density.bits != num_inputs)
    return Status(Errc::size_mismatch, "density bitmap sizes disagree with the variable counts");
  return {};
}

void R1csMatrices::compute_density() {
  a_aux_density = {};
  b_aux_density = {};
  b_input_density = {};
  a_aux_density.resize(num_aux);
  b_aux_density.resize(num_aux);
  b_input_density.resize(num_inputs);
  // Stored coefficients are non-zero (rows are normalized), so every entry marks its variable.
  for (std::uint32_t w : a.col) {
    const std::uint64_t j = SparseMatrix::column_of(w);
    if (j >= num_inputs) a_aux_density.set(j - num_inputs);
  }
  for (std::uint32_t w : b.col) {
    const std::uint64_t j = SparseMatrix::column_of(w);
    if (j >= num_inputs) {
      b_aux_density.set(j - num_inputs);
    } else {
      b_input_density.set(j);
    }
  }
}

R1csStats r1cs_stats(const R1csMatrices& m) {
  R1csStats s;
  const double rows = static_cast<double>(std::max<std::uint64_t>(1, m.num_constraints));
  s.nnz_per_row_a = static_cast<double>(m.a.nnz()) / rows;
  s.nnz_per_row_b = static_cast<double>(m.b.nnz()) / rows;
  s.nnz_per_row_c = static_cast<double>(m.c.nnz()) / rows;
  const double nnz = static_cast<double>(m.a.nnz() + m.b.nnz() + m.c.nnz());
  const double general = static_cast<double>(m.a.val.size() + m.b.val.size() + m.c.val.size());
  s.unit_fraction = nnz > 0 ? 1.0 - general / nnz : 0;
  const double aux = static_cast<double>(std::max<std::uint64_t>(1, m.num_aux));
  s.a_aux_density = static_cast<double>(m.a_aux_density.count()) / aux;
  s.b_aux_density = static_cast<double>(m.b_aux_density.count()) / aux;
  s.b_input_popcount = m.b_input_density.count();
  return s;
}

}  // namespace cuzk
