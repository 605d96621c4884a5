// PCE ("pre-compiled constraint evaluation"): given the recorded matrices and a witness
// z = (inputs ‖ aux), compute a = A·z, b = B·z, c = C·z by a parallel sparse matrix–vector product,
// one entry per constraint (input constraints included). This replaces evaluating every LC during
// synthesis (the classic path) with witness-only synthesis + SpMV (DESIGN.md §2 step 1).
//
// Cost per non-zero: ±1 terms are one Fr add/sub (no multiplication, no stored value); general
// terms are one Fr mul + add. With the boolean fast path a witness value 0 costs nothing and 1
// costs only the add, so bit-heavy Filecoin witnesses (≈ 70 %+ zeros and ones) avoid most muls.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/base/status.hpp"
#include "cuzk/base/thread_pool.hpp"
#include "cuzk/r1cs/matrices.hpp"

namespace cuzk {

struct PceOptions {
  bool boolean_fast_path = true;      ///< general terms: skip value 0, add for value 1
  std::size_t min_rows_per_task = 2048;
};

/// a, b, c: one entry per constraint.
struct AbcVectors {
  std::vector<Fr> a, b, c;
};

/// Writes A·z, B·z, C·z into |a|, |b|, |c| (each num_constraints long), rows split over |pool| in
/// blocks of 64. |m| is only read, so one recorded R1csMatrices serves concurrent proofs.
/// size_mismatch when z has not num_columns() entries or an output has the wrong length.
Status pce_evaluate_into(ThreadPool& pool, const R1csMatrices& m, std::span<const Fr> z, std::span<Fr> a,
                         std::span<Fr> b, std::span<Fr> c, const PceOptions& opt = {});
/// Allocating form of pce_evaluate_into.
Result<AbcVectors> pce_evaluate(ThreadPool& pool, const R1csMatrices& m, std::span<const Fr> z,
                                const PceOptions& opt = {});

/// Slow twin: one row at a time through for_each_term, every coefficient multiplied.
AbcVectors spmv_naive(const R1csMatrices& m, std::span<const Fr> z);

/// Witness value classes: 0 = zero, 1 = one, 2 = other (statistics; one byte per value).
void classify_witness(ThreadPool& pool, std::span<const Fr> z, std::span<std::uint8_t> out);

/// True when a[k]·b[k] = c[k] for every k; otherwise sets |first_bad| to the first failing row.
bool abc_satisfied(const AbcVectors& v, std::size_t* first_bad = nullptr);

}  // namespace cuzk
