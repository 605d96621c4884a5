// CompactR1cs: a circuit's A, B, C stored as repeated blocks, for circuits built from the same
// gadgets over and over (the Filecoin circuits: per challenge the same SHA-256 compressions and
// Poseidon hashes with the same coefficients, on variables shifted by a constant). Recorded by
// CompactRecorder (pce_compact_recorder.hpp) straight from synthesis, without ever holding the
// plain matrices; evaluated by pce_compact_evaluate_into; cached by pce_compact_cache.hpp.
//
// The form. A *block* is a small R1CS over its own columns
//     0 = ONE,  1 .. A = its locals,  A+1 .. A+E = its slots,
// stored as an R1csMatrices (CSR, ±1 kinds, interned coefficients) with its PcePlan. A *segment*
// is one use of a block: its rows are the next rows of the circuit, its locals are the A
// consecutive columns from |aux_column|, its slots the E columns listed in slots[slot_begin ..).
// The circuit's rows are the segments' rows in order. So, for row k of segment s over block β:
//     a_k = Σ_(j,coef) ∈ Aβ[k − row_begin(s)]  coef · z[col_s(j)],
//     col_s(0) = 0,  col_s(j) = aux_column(s) + j − 1 (1 ≤ j ≤ A),  col_s(j) = slots[slot_begin(s) + j − A − 1],
// and the same for b, c. Blocks are a gadget's constraints with its variables numbered relative
// to the gadget (its locals) and its inputs named by position (its slots: variables allocated
// before it, public inputs); the recorder finds them from the circuit's scopes and keeps each
// distinct block once (pce_compact_recorder.cpp has the rules and their measured sizes).
//
// Cost. Memory: the distinct blocks (a few MB for the Filecoin circuits) + 8 B per segment + 4 B
// per slot + the three density bitmaps (2 bits per aux variable). Plain CSR costs ≈ 4 B per
// non-zero + 24 B per row; the 32 GiB PoRep partition: docs/perf/filecoin.md "PCE, compact".
// SpMV: per segment, the block's 1 + A + E witness values are gathered into a buffer (A of them
// one memcpy), then the block is evaluated by the plain PCE kernels (pce.cpp) on that buffer; the
// block's matrices stay in cache across its segments, so memory traffic is the witness, the
// outputs and the slots, not the matrices. Results equal the plain SpMV bit for bit.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/base/status.hpp"
#include "cuzk/base/thread_pool.hpp"
#include "cuzk/r1cs/matrices.hpp"
#include "cuzk/r1cs/pce.hpp"
#include "cuzk/r1cs/r1cs_dims.hpp"

namespace cuzk {

/// One distinct block: |m| over columns [ONE | locals | slots] (m.num_inputs = 1, m.num_aux =
/// locals + slots), and its SpMV plan (rebuilt from |m| by CompactR1cs::finalize).
struct CompactBlock {
  std::uint32_t locals = 0;  ///< A: consecutive witness columns from the segment's aux_column
  std::uint32_t slots = 0;   ///< E: columns listed per segment
  R1csMatrices m;
  PcePlan plan;

  std::uint64_t rows() const { return m.num_constraints; }
  std::uint64_t columns() const { return 1 + std::uint64_t{locals} + slots; }
};

/// One use of a block.
struct CompactSegment {
  std::uint32_t block = 0;
  std::uint32_t aux_column = 0;  ///< column of local 1 (unused when the block has no locals)
  friend bool operator==(const CompactSegment&, const CompactSegment&) = default;
};

/// A circuit's R1CS as blocks and segments (see the file comment).
struct CompactR1cs {
  std::uint64_t num_inputs = 0;  ///< ONE included
  std::uint64_t num_aux = 0;
  std::uint64_t num_constraints = 0;              ///< rows, bellperson's input constraints included
  std::uint64_t nnz_a = 0, nnz_b = 0, nnz_c = 0;  ///< of the plain matrices
  std::vector<CompactBlock> blocks;
  std::vector<CompactSegment> segments;
  std::vector<std::uint32_t> slots;  ///< per segment, its block's slots' witness columns
  DensityBitmap a_aux_density, b_input_density, b_aux_density;  ///< as in R1csMatrices

  // Derived by finalize(): per segment its first row and first slot (segments + 1 entries), and
  // the SpMV's tasks: segment ranges of about kTaskRows rows.
  static constexpr std::uint64_t kTaskRows = std::uint64_t{1} << 16;
  std::vector<std::uint64_t> row_begin, slot_begin;
  std::vector<std::uint32_t> task_begin;

  std::uint64_t num_columns() const { return num_inputs + num_aux; }
  /// Counts and density bitmaps, as the plain matrices' (a view of this form).
  R1csDims dims() const {
    R1csDims d;
    d.num_inputs = num_inputs;
    d.num_aux = num_aux;
    d.num_constraints = num_constraints;
    d.a_aux_density = &a_aux_density;
    d.b_input_density = &b_input_density;
    d.b_aux_density = &b_aux_density;
    return d;
  }
  /// Builds the derived arrays and every block's plan; then validate().
  Status finalize();
  /// Structural checks: every block's matrices, segment blocks, local and slot columns in range,
  /// rows and non-zeros adding up to the counts, density sizes. Errors name what is wrong.
  Status validate() const;
  /// Bytes held: blocks (matrices and plans), segments, slots, derived arrays, density bitmaps.
  std::size_t memory_bytes() const;
  /// Rows of the circuit's distinct blocks (the matrices actually stored).
  std::uint64_t block_rows() const;
};

/// How the compact SpMV runs; every choice gives the same bits.
struct CompactSpmvOptions {
  /// a, b, c written with non-temporal stores: no read for ownership of the 96 bytes per row
  /// written. Off by default: on one thread of the development VM they cost 3–8 % (the stores of
  /// a 64-row block leave in one burst, and the core waits for the write-combining buffers), while
  /// normal stores drain in the background; for a memory-bound many-thread run, measure both
  /// (porep_synth_bench --spmv-variants fast,fast_nt).
  bool nt_stores = false;
  /// Long rows as term lists by kind (PceOptions::long_terms); off: the CSR walk (the twin).
  bool long_terms = true;
};

/// Writes A·z, B·z, C·z into |a|, |b|, |c| (each num_constraints long), tasks split over |pool|.
/// Equal bit for bit to pce_evaluate_into over the plain matrices. size_mismatch when z has not
/// num_columns() entries or an output has the wrong length.
Status pce_compact_evaluate_into(ThreadPool& pool, const CompactR1cs& c, std::span<const Fr> z,
                                 std::span<Fr> a, std::span<Fr> b, std::span<Fr> out_c,
                                 const CompactSpmvOptions& opt = {});

/// The rows of segments [first, last) only, into |a|, |b|, |c| of row_begin[last] −
/// row_begin[first] entries each: a partition evaluated piece by piece into a bounded buffer
/// (streamed out, or uploaded, while the next piece is evaluated). out_of_range for a bad range.
Status pce_compact_evaluate_segments(ThreadPool& pool, const CompactR1cs& c, std::span<const Fr> z,
                                     std::size_t first, std::size_t last, std::span<Fr> a,
                                     std::span<Fr> b, std::span<Fr> out_c,
                                     const CompactSpmvOptions& opt = {});

/// The plain matrices of |c|, each row's terms in column order as the recording system writes
/// them (so equal, ==, to RecordingConstraintSystem's matrices of the same circuit), with the
/// density bitmaps. The slow twin of the compact form, for tests; needs the plain size in memory.
R1csMatrices compact_to_matrices(const CompactR1cs& c);

}  // namespace cuzk
