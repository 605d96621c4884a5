// R1csMatrices: A, B, C of an R1CS as CSR matrices over the columns [inputs..., aux...], one row per
// constraint (the input constraints included), plus bellperson's density bitmaps (FORMATS.md §2.1).
//
// Coefficient kinds are stored apart so SpMV can skip multiplications: within each row the
// entries are ordered +1 terms, then −1 terms, then general terms; the top 2 bits of a column word
// carry the kind, and only general terms have a value in `val` (row k's values start at
// val_ptr[k]). A PoRep row has ≈ 2.4 / 1.0 / 2.2 terms in A / B / C, mostly ±1.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/base/status.hpp"
#include "cuzk/ff/fr.hpp"
#include "cuzk/r1cs/lc.hpp"

namespace cuzk {

/// Kind of a stored coefficient.
enum class CoeffKind : std::uint32_t { plus_one = 0, minus_one = 1, general = 2 };

/// A CSR matrix with ±1 coefficients implied by the kind bits.
struct SparseMatrix {
  static constexpr unsigned kKindShift = 30;
  static constexpr std::uint32_t kColumnMask = (1u << kKindShift) - 1;
  /// Largest number of columns (inputs + aux) a matrix can address.
  static constexpr std::uint64_t kMaxColumns = std::uint64_t{1} << kKindShift;

  std::vector<std::uint64_t> row_ptr{0};  ///< rows + 1 offsets into col
  std::vector<std::uint32_t> col;         ///< kind << 30 | column
  std::vector<std::uint64_t> val_ptr{0};  ///< rows + 1 offsets into val
  std::vector<Fr> val;                    ///< coefficients of the general terms

  std::size_t num_rows() const { return row_ptr.size() - 1; }
  std::size_t nnz() const { return col.size(); }
  static std::uint32_t column_of(std::uint32_t word) { return word & kColumnMask; }
  static CoeffKind kind_of(std::uint32_t word) { return static_cast<CoeffKind>(word >> kKindShift); }

  /// Appends a row from normalized terms (sorted, merged, non-zero); |column| maps a Variable to
  /// its column word (without kind bits).
  template <class ColumnFn>
  void append_row(std::span<const Term> terms, ColumnFn&& column) {
    for (const Term& t : terms)
      if (t.coeff.is_one()) col.push_back(column(t.var));
    for (const Term& t : terms)
      if (t.coeff == kFrMinusOne) col.push_back(column(t.var) | (1u << kKindShift));
    for (const Term& t : terms) {
      if (!t.coeff.is_one() && !(t.coeff == kFrMinusOne)) {
        col.push_back(column(t.var) | (2u << kKindShift));
        val.push_back(t.coeff);
      }
    }
    row_ptr.push_back(col.size());
    val_ptr.push_back(val.size());
  }
  /// Appends an empty row.
  void append_empty_row() {
    row_ptr.push_back(col.size());
    val_ptr.push_back(val.size());
  }

  /// Calls fn(column, coeff) for every term of |row| (slow path, for tests and conversions).
  template <class Fn>
  void for_each_term(std::size_t row, Fn&& fn) const {
    std::uint64_t g = val_ptr[row];
    for (std::uint64_t e = row_ptr[row]; e < row_ptr[row + 1]; ++e) {
      const std::uint32_t w = col[e];
      switch (kind_of(w)) {
        case CoeffKind::plus_one: fn(column_of(w), Fr::one()); break;
        case CoeffKind::minus_one: fn(column_of(w), kFrMinusOne); break;
        default: fn(column_of(w), val[g++]); break;
      }
    }
  }

  friend bool operator==(const SparseMatrix&, const SparseMatrix&) = default;
};

/// One bit per variable (bellperson's DensityTracker).
struct DensityBitmap {
  std::vector<std::uint64_t> words;
  std::size_t bits = 0;

  void resize(std::size_t n) {
    bits = n;
    words.resize((n + 63) / 64, 0);
  }
  void set(std::size_t i) { words[i / 64] |= std::uint64_t{1} << (i % 64); }
  bool test(std::size_t i) const { return (words[i / 64] >> (i % 64)) & 1; }
  std::size_t count() const {
    std::size_t c = 0;
    for (std::uint64_t w : words) c += static_cast<std::size_t>(std::popcount(w));
    return c;
  }
  friend bool operator==(const DensityBitmap&, const DensityBitmap&) = default;
};

/// The R1CS of one circuit topology.
struct R1csMatrices {
  std::uint64_t num_inputs = 0;       ///< ONE included
  std::uint64_t num_aux = 0;
  std::uint64_t num_constraints = 0;  ///< rows, the input constraints included
  SparseMatrix a, b, c;
  DensityBitmap a_aux_density;    ///< aux variables with a non-zero coefficient in some A row
  DensityBitmap b_input_density;  ///< inputs with a non-zero coefficient in some B row
  DensityBitmap b_aux_density;    ///< aux variables with a non-zero coefficient in some B row

  std::uint64_t num_columns() const { return num_inputs + num_aux; }
  /// Structural checks: row counts, monotone offsets, kinds, columns below num_columns(), and
  /// density sizes. Errors name the matrix and the row.
  Status validate() const;
  /// Recomputes the three density bitmaps from the matrices.
  void compute_density();

  friend bool operator==(const R1csMatrices&, const R1csMatrices&) = default;
};

/// Per-matrix statistics, for benchmarks and the synthetic circuit's test.
struct R1csStats {
  double nnz_per_row_a = 0, nnz_per_row_b = 0, nnz_per_row_c = 0;
  double unit_fraction = 0;  ///< share of ±1 coefficients among all non-zeros
  double a_aux_density = 0, b_aux_density = 0;
  std::size_t b_input_popcount = 0;
};
R1csStats r1cs_stats(const R1csMatrices& m);

}  // namespace cuzk
