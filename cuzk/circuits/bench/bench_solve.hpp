// The bench circuit's witness and a, b, c in one pass: a per-topology solve plan, then a fused
// per-partition solve.
//
// solve_bench_witness (bench_witness.hpp) finds each row's unknown variable with a known-bitmap
// and evaluates every row's three LCs to solve it; the PCE then evaluates all of them again. But
// which column a row fixes, and how (a free boolean, or solved from C), depends only on the
// matrices, so bench_solve_plan() records it once per topology (5 bytes per row, plus
// 1 / coefficient for rows whose C coefficient of the fixed column is not ±1). With the plan,
// solve_bench_partition() walks the rows once: a boolean row sets its bit and evaluates A, B, C
// (checking a·b = c); a solved row evaluates A, B and the rest of C with the fixed value still 0,
// sets z_f = (a·b − c_rest) / coeff and writes c = a·b. Each row's a, b, c are written as they are
// computed, so no SpMV pass follows. Values equal solve_bench_witness's z and the PCE's a/b/c
// (bench_solve_test checks both on random circuits).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "cuzk/base/status.hpp"
#include "cuzk/circuits/job_request.hpp"
#include "cuzk/r1cs/matrices.hpp"

namespace cuzk::circuits {

struct BenchSolvePlan {
  enum Kind : std::uint8_t { kCheck = 0, kBoolean = 1, kPlusOne = 2, kMinusOne = 3, kGeneral = 4 };
  std::vector<std::uint32_t> fixed;  ///< per row: the column it fixes (kCheck rows: 0)
  std::vector<std::uint8_t>
      kind;  ///< per row: kCheck (fixes none), kBoolean, or the C coefficient's kind
  std::vector<Fr>
      c_inverse;  ///< kGeneral rows in row order: 1 / (C coefficient of the fixed column)
  std::uint64_t memory_bytes() const {
    return fixed.size() * sizeof(std::uint32_t) + kind.size() + c_inverse.size() * sizeof(Fr);
  }
};

/// The plan of a one-fresh-variable-per-row circuit; unsatisfied (naming the row or variable) for
/// a row with two unknown variables or a variable no row fixes, as solve_bench_witness.
Result<std::shared_ptr<const BenchSolvePlan>> bench_solve_plan(const R1csMatrices& m);

/// Solves the witness for |seed| into |z| (resized to num_columns; its old contents are never read)
/// and writes A·z, B·z, C·z into |a|, |b|, |c| (num_constraints each). unsatisfied when a row does
/// not hold (a circuit the plan does not describe), cancelled when |cancel| is set.
Status solve_bench_partition(const R1csMatrices& m, const BenchSolvePlan& plan, std::uint64_t seed,
                             const CancelFlag* cancel, std::vector<Fr>& z, std::span<Fr> a,
                             std::span<Fr> b, std::span<Fr> c);
/// The same into |z| of exactly num_columns entries (e.g. a pinned partition vector).
Status solve_bench_partition(const R1csMatrices& m, const BenchSolvePlan& plan, std::uint64_t seed,
                             const CancelFlag* cancel, std::span<Fr> z, std::span<Fr> a,
                             std::span<Fr> b, std::span<Fr> c);

}  // namespace cuzk::circuits
