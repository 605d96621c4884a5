// R1csMatrices: A, B, C of an R1CS as CSR matrices over the columns [inputs..., aux...], one row per
// constraint (the input constraints included), plus bellperson's density bitmaps (FORMATS.md §2.1).
//
// Coefficient kinds are stored apart so SpMV can skip multiplications: within each row the
// entries are ordered +1 terms, then −1 terms, then general terms; the top 2 bits of a column word
// carry the kind. General coefficients are interned: each general term stores a u32 index into a
// per-matrix table of distinct values (circuits use few: powers of two, a hash's constants), and
// the running index at every 64th row is kept so that blocks of rows can be evaluated in parallel.
// Memory per row ≈ 8 (row_ptr) + 4·nnz + 4·general bytes per matrix: about 50 B per PoRep-shaped
// row for A, B and C together (104 B with a 32-byte value and a u64 value offset per row).
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "cuzk/base/status.hpp"
#include "cuzk/ff/fr.hpp"
#include "cuzk/r1cs/lc.hpp"

namespace cuzk {

/// Kind of a stored coefficient.
enum class CoeffKind : std::uint32_t { plus_one = 0, minus_one = 1, general = 2 };

/// A CSR matrix with ±1 coefficients implied by the kind bits and interned general coefficients.
struct SparseMatrix {
  static constexpr unsigned kKindShift = 30;
  static constexpr std::uint32_t kColumnMask = (1u << kKindShift) - 1;
  /// Largest number of columns (inputs + aux) a matrix can address.
  static constexpr std::uint64_t kMaxColumns = std::uint64_t{1} << kKindShift;
  /// Rows per block; block_gen[b] = general terms in rows [0, 64·b).
  static constexpr std::size_t kBlockRows = 64;

  std::vector<std::uint64_t> row_ptr{0};  ///< rows + 1 offsets into col
  std::vector<std::uint32_t> col;         ///< kind << 30 | column
  std::vector<std::uint32_t> gen_idx;     ///< per general term, in entry order: index into coeffs
  std::vector<Fr> coeffs;                 ///< distinct general coefficients
  std::vector<std::uint64_t> block_gen;   ///< general-term offset at each block start

  std::size_t num_rows() const { return row_ptr.size() - 1; }
  std::size_t nnz() const { return col.size(); }
  std::size_t num_general() const { return gen_idx.size(); }
  static std::uint32_t column_of(std::uint32_t word) { return word & kColumnMask; }
  static CoeffKind kind_of(std::uint32_t word) {
    return static_cast<CoeffKind>(word >> kKindShift);
  }

  /// Appends a row from normalized terms (sorted, merged, non-zero); |column| maps a Variable to
  /// its column word (without kind bits).
  template <class ColumnFn>
  void append_row(std::span<const Term> terms, ColumnFn&& column) {
    start_row();
    for (const Term& t : terms)
      if (fr_is_one(t.coeff)) col.push_back(column(t.var));
    for (const Term& t : terms)
      if (fr_is_minus_one(t.coeff)) col.push_back(column(t.var) | (1u << kKindShift));
    for (const Term& t : terms) {
      if (!fr_is_one(t.coeff) && !fr_is_minus_one(t.coeff)) {
        col.push_back(column(t.var) | (2u << kKindShift));
        gen_idx.push_back(intern(t.coeff));
      }
    }
    row_ptr.push_back(col.size());
  }
  /// Appends an empty row.
  void append_empty_row() {
    start_row();
    row_ptr.push_back(col.size());
  }
  /// Index of |c| in coeffs, adding it when new.
  std::uint32_t intern(const Fr& c) {
    auto [it, fresh] = index_.try_emplace(c, static_cast<std::uint32_t>(coeffs.size()));
    if (fresh) coeffs.push_back(c);
    return it->second;
  }
  /// Rebuilds the interning index (after coeffs was filled from elsewhere, e.g. a file).
  void rebuild_index() {
    index_.clear();
    for (std::size_t i = 0; i < coeffs.size(); ++i)
      index_.try_emplace(coeffs[i], static_cast<std::uint32_t>(i));
  }
  /// Recomputes block_gen from the kind bits of col.
  void rebuild_blocks();
  /// Appends every row of |o| (its coefficients interned here, in o's first-occurrence order, so
  /// appending the parts of a matrix in order rebuilds it exactly). Leaves block_gen stale: call
  /// rebuild_blocks() after the last append.
  void append_rows_from(const SparseMatrix& o);

  /// Offset in gen_idx of the first general term of |row|.
  std::uint64_t general_offset(std::size_t row) const {
    const std::size_t b = row / kBlockRows;
    std::uint64_t g = block_gen[b];
    for (std::uint64_t e = row_ptr[b * kBlockRows]; e < row_ptr[row]; ++e)
      g += kind_of(col[e]) == CoeffKind::general;
    return g;
  }

  /// Calls fn(column, coeff) for every term of |row| (slow path, for tests and conversions).
  template <class Fn>
  void for_each_term(std::size_t row, Fn&& fn) const {
    std::uint64_t g = general_offset(row);
    for (std::uint64_t e = row_ptr[row]; e < row_ptr[row + 1]; ++e) {
      const std::uint32_t w = col[e];
      switch (kind_of(w)) {
        case CoeffKind::plus_one:
          fn(column_of(w), Fr::one());
          break;
        case CoeffKind::minus_one:
          fn(column_of(w), kFrMinusOne);
          break;
        default:
          fn(column_of(w), coeffs[gen_idx[g++]]);
          break;
      }
    }
  }

  friend bool operator==(const SparseMatrix& x, const SparseMatrix& y) {
    return x.row_ptr == y.row_ptr && x.col == y.col && x.gen_idx == y.gen_idx &&
           x.coeffs == y.coeffs && x.block_gen == y.block_gen;
  }

 private:
  struct FrEq {
    bool operator()(const Fr& a, const Fr& b) const { return fr_eq(a, b); }
  };
  struct FrHash {
    std::size_t operator()(const Fr& f) const {
      return static_cast<std::size_t>((f.l[0] ^ (f.l[1] * 0x9e3779b97f4a7c15ULL)) ^ (f.l[2] >> 7) ^
                                      (f.l[3] << 3));
    }
  };
  void start_row() {
    if (num_rows() % kBlockRows == 0) block_gen.push_back(gen_idx.size());
  }
  std::unordered_map<Fr, std::uint32_t, FrHash, FrEq> index_;  // coeffs → index while building
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
  std::uint64_t num_inputs = 0;  ///< ONE included
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
  /// Bytes held by the matrices and bitmaps.
  std::size_t memory_bytes() const;

  friend bool operator==(const R1csMatrices&, const R1csMatrices&) = default;
};

/// Per-matrix statistics, for benchmarks and the synthetic circuit's test.
struct R1csStats {
  double nnz_per_row_a = 0, nnz_per_row_b = 0, nnz_per_row_c = 0;
  double unit_fraction = 0;  ///< share of ±1 coefficients among all non-zeros
  double a_aux_density = 0, b_aux_density = 0;
  std::size_t b_input_popcount = 0;
  double bytes_per_row = 0;         ///< memory of A, B, C together per row
  std::size_t distinct_coeffs = 0;  ///< interned general coefficients, A + B + C
};
R1csStats r1cs_stats(const R1csMatrices& m);

}  // namespace cuzk
