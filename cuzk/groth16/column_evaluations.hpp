// The QAP's column polynomials at τ, the first step of a Groth16 setup [Gro16 §3.2]:
//     u_i = Σ_k A[k][i]·L_k(τ),  v_i = Σ_k B[k][i]·L_k(τ),  w_i = Σ_k C[k][i]·L_k(τ)
// for every column i (ONE, inputs, aux), with L_k the Lagrange basis of the evaluation domain at τ
// (poly/domain.hpp lagrange_at). A transposed SpMV: one multiplication per general coefficient, an
// addition per ±1 term.
//
// Two forms of the circuit, equal results (field addition is exact, so the order of the sums does
// not matter):
//   * plain matrices (R1csMatrices): one pass over the rows on one thread, the slow twin;
//   * the compact form (r1cs/pce_compact.hpp), without the plain matrices, in parallel over the
//     form's SpMV tasks (segment ranges of ≈ 2^16 rows). A segment writes its locals' columns
//     directly: the recorder gives each segment its own aux columns, so two segments' locals never
//     overlap (checked first; when they do, the tasks run one after the other). Its slots, though,
//     are other segments' locals or inputs, and ONE is everyone's column, so those terms would race:
//     each segment's slot sums go to a buffer parallel to CompactR1cs::slots (one entry per slot
//     use: no two tasks write the same entry) and ONE's to a per-task sum; after the parallel pass
//     both are added into u, v, w on one thread (a few million additions at 32 GiB PoRep).
//     Memory: u, v, w (3 × 32 B per column) + 3 × 32 B per slot use.
#pragma once

#include <span>
#include <vector>

#include "cuzk/base/status.hpp"
#include "cuzk/base/thread_pool.hpp"
#include "cuzk/ff/fr.hpp"
#include "cuzk/r1cs/matrices.hpp"
#include "cuzk/r1cs/pce_compact.hpp"

namespace cuzk {

/// u, v, w: every column's A, B, C polynomial at τ (num_columns entries each).
struct ColumnEvaluations {
  std::vector<Fr> u, v, w;
  friend bool operator==(const ColumnEvaluations&, const ColumnEvaluations&) = default;
};

/// From the plain matrices; |lag| holds L_k(τ) for at least every row (size_mismatch otherwise).
Result<ColumnEvaluations> column_evaluations(const R1csMatrices& m, std::span<const Fr> lag);

/// From the compact form (finalized), in parallel on |pool|; the same result as the plain
/// matrices' (compact_to_matrices). size_mismatch when |lag| is shorter than the rows.
Result<ColumnEvaluations> column_evaluations(const CompactR1cs& c, std::span<const Fr> lag,
                                             ThreadPool& pool);

}  // namespace cuzk
