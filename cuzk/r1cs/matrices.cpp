#include "cuzk/r1cs/matrices.hpp"

#include <algorithm>
#include <string>

namespace cuzk {
namespace {

Status validate_matrix(const SparseMatrix& m, const char* name, std::uint64_t rows,
                       std::uint64_t cols) {
  auto err = [&](Errc code, const std::string& what) {
    return Status(code, std::string("matrix ") + name + ": " + what);
  };
  if (m.row_ptr.size() != rows + 1)
    return err(Errc::size_mismatch, "has " + std::to_string(m.row_ptr.size() - 1) +
                                        " rows, expected " + std::to_string(rows));
  if (m.block_gen.size() != (rows + SparseMatrix::kBlockRows - 1) / SparseMatrix::kBlockRows)
    return err(Errc::size_mismatch, "block offsets disagree with the row count");
  if (m.row_ptr[0] != 0) return err(Errc::bad_encoding, "offsets do not start at 0");
  if (m.row_ptr[rows] != m.col.size())
    return err(Errc::size_mismatch, "last offset does not match the entry count");
  std::uint64_t general = 0;
  for (std::uint64_t k = 0; k < rows; ++k) {
    if (k % SparseMatrix::kBlockRows == 0 && m.block_gen[k / SparseMatrix::kBlockRows] != general)
      return err(Errc::bad_encoding, "block offset wrong at row " + std::to_string(k));
    const std::uint64_t b = m.row_ptr[k], e = m.row_ptr[k + 1];
    if (e < b) return err(Errc::bad_encoding, "offsets decrease at row " + std::to_string(k));
    if (e > m.col.size())
      return err(Errc::bad_encoding, "offset past the entries at row " + std::to_string(k));
    unsigned last_kind = 0;
    for (std::uint64_t i = b; i < e; ++i) {
      const unsigned kind = m.col[i] >> SparseMatrix::kKindShift;
      if (kind > 2 || kind < last_kind)
        return err(Errc::bad_encoding, "bad coefficient kind order in row " + std::to_string(k));
      last_kind = kind;
      if (SparseMatrix::column_of(m.col[i]) >= cols)
        return err(Errc::out_of_range, "column " +
                                           std::to_string(SparseMatrix::column_of(m.col[i])) +
                                           " out of range in row " + std::to_string(k));
      general += kind == 2;
    }
  }
  if (general != m.gen_idx.size())
    return err(Errc::size_mismatch, "general-term count disagrees with gen_idx");
  for (std::uint32_t i : m.gen_idx)
    if (i >= m.coeffs.size()) return err(Errc::out_of_range, "coefficient index out of range");
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
  if (a_aux_density.bits != num_aux || b_aux_density.bits != num_aux ||
      b_input_density.bits != num_inputs)
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

std::size_t R1csMatrices::memory_bytes() const {
  std::size_t n = 0;
  for (const SparseMatrix* s : {&a, &this->b, &c}) {
    n += s->row_ptr.size() * 8 + s->col.size() * 4 + s->gen_idx.size() * 4 +
         s->coeffs.size() * sizeof(Fr) + s->block_gen.size() * 8;
  }
  return n +
         (a_aux_density.words.size() + b_aux_density.words.size() + b_input_density.words.size()) *
             8;
}

void SparseMatrix::rebuild_blocks() {
  const std::size_t rows = num_rows();
  block_gen.assign((rows + kBlockRows - 1) / kBlockRows, 0);
  std::uint64_t g = 0;
  for (std::size_t k = 0; k < rows; ++k) {
    if (k % kBlockRows == 0) block_gen[k / kBlockRows] = g;
    for (std::uint64_t e = row_ptr[k]; e < row_ptr[k + 1]; ++e)
      g += kind_of(col[e]) == CoeffKind::general;
  }
}

void SparseMatrix::append_rows_from(const SparseMatrix& o) {
  std::vector<std::uint32_t> remap(o.coeffs.size());
  for (std::size_t i = 0; i < o.coeffs.size(); ++i) remap[i] = intern(o.coeffs[i]);
  const std::uint64_t base = col.size();
  col.insert(col.end(), o.col.begin(), o.col.end());
  gen_idx.reserve(gen_idx.size() + o.gen_idx.size());
  for (std::uint32_t g : o.gen_idx) gen_idx.push_back(remap[g]);
  row_ptr.reserve(row_ptr.size() + o.num_rows());
  for (std::size_t k = 1; k < o.row_ptr.size(); ++k) row_ptr.push_back(base + o.row_ptr[k]);
}

R1csStats r1cs_stats(const R1csMatrices& m) {
  R1csStats s;
  const double rows = static_cast<double>(std::max<std::uint64_t>(1, m.num_constraints));
  s.nnz_per_row_a = static_cast<double>(m.a.nnz()) / rows;
  s.nnz_per_row_b = static_cast<double>(m.b.nnz()) / rows;
  s.nnz_per_row_c = static_cast<double>(m.c.nnz()) / rows;
  const double nnz = static_cast<double>(m.a.nnz() + m.b.nnz() + m.c.nnz());
  const double general =
      static_cast<double>(m.a.num_general() + m.b.num_general() + m.c.num_general());
  s.unit_fraction = nnz > 0 ? 1.0 - general / nnz : 0;
  const double aux = static_cast<double>(std::max<std::uint64_t>(1, m.num_aux));
  s.a_aux_density = static_cast<double>(m.a_aux_density.count()) / aux;
  s.b_aux_density = static_cast<double>(m.b_aux_density.count()) / aux;
  s.b_input_popcount = m.b_input_density.count();
  s.bytes_per_row = static_cast<double>(m.memory_bytes()) / rows;
  s.distinct_coeffs = m.a.coeffs.size() + m.b.coeffs.size() + m.c.coeffs.size();
  return s;
}

}  // namespace cuzk
