// A synthetic benchmark circuit of 2^K rows (the input constraints included) whose statistics
// follow a PoRep partition (PERF.md; FORMATS.md §3.6): non-zeros per row A ≈ 2.4, B ≈ 1.0,
// C ≈ 2.2, a-aux density ≈ 99.7 %, b-aux density ≈ 25 %, mostly 0/1 witness values, a few
// public inputs, only ONE in B among the inputs. It is satisfied by construction: each row
// allocates one fresh variable whose value makes the row hold.
//
// Row shapes (bellperson gadget forms):
//   boolean  (ONE − b)·b = 0                          AllocatedBit::alloc
//   xor      (2a)·b = a + b − c,  c = a ⊕ b            Boolean::xor
//   add      (Σ k_i v_i)·ONE = Σ k_j u_j + s           UInt32 addmany / num add, k = ±1 or 2^e
//   mul      x·y = z  (y a bit, or y = x: a square)    AllocatedNum::mul / conditional select
//   pack     (Σ 2^i b_i)·ONE = input                   pack_into_inputs
// Structure depends only on the seed; values come from a second, stateless stream, so setup
// (no values) and proving give the same matrices.
//
// Two ways to get it: generate_bench_r1cs() builds matrices and witness directly (seconds at
// 2^24), and BenchCircuit is the same circuit as a Circuit for the classic and witness-only paths.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "cuzk/base/thread_pool.hpp"
#include "cuzk/r1cs/constraint_system.hpp"
#include "cuzk/r1cs/matrices.hpp"

namespace cuzk {

struct BenchCircuitParams {
  unsigned log_rows = 16;  ///< K: 2^K rows in total, 10 ≤ K ≤ 27
  std::uint64_t rows = 0;  ///< when non-zero: exactly this many rows (≥ 256), overrides K
  std::uint64_t seed = 1;
  std::uint32_t num_public = 4;  ///< public inputs besides ONE
};

/// Matrices and witness of the benchmark circuit, built directly.
struct BenchR1cs {
  R1csMatrices matrices;
  std::vector<Fr> inputs, aux;
  /// z = (inputs ‖ aux)
  std::vector<Fr> assignment() const;
};

/// Builds the benchmark circuit without closures; invalid_argument for K outside 10..27 or rows < 256.
/// The structure is drawn sequentially; the matrix rows are built on |pool| (in chunks merged in
/// order, so the result does not depend on the pool size) while one extra thread computes the
/// witness.
Result<BenchR1cs> generate_bench_r1cs(ThreadPool& pool, const BenchCircuitParams& p,
                                      bool with_witness = true);
/// Single-threaded form.
Result<BenchR1cs> generate_bench_r1cs(const BenchCircuitParams& p, bool with_witness = true);

/// The circuit's structure (which rows, which operands), drawn once from the seed and then
/// replayed, as a real circuit's structure is fixed code: about 20 bytes per row.
struct BenchProgram;

/// The same circuit through the ConstraintSystem API. The structure is compiled on the first
/// synthesize() (not timed by the benchmarks); each synthesize() replays it.
class BenchCircuit final : public Circuit {
 public:
  explicit BenchCircuit(const BenchCircuitParams& p);
  ~BenchCircuit() override;
  Status synthesize(ConstraintSystem& cs) override;
  /// Compiles the structure now (so that a timed synthesize() does not).
  Status prepare();

 private:
  BenchCircuitParams p_;
  std::unique_ptr<BenchProgram> program_;
  std::vector<Fr> inputs_, aux_;  // values as the closures compute them
};

}  // namespace cuzk
