// CompactFlat: a CompactR1cs (pce_compact.hpp) laid out as a few flat arrays of 32-bit words, the
// form a device holds in its memory and the GPU SpMV walks (gpu/pce/device_compact_r1cs.cuh).
// Built on the host from the compact form, never changing it; its CPU evaluation
// (compact_flat_evaluate) walks the arrays exactly as the kernel does, one row at a time, so CI
// checks the layout without a GPU.
//
// Layout (all block rows of all distinct blocks concatenated, block β's row k at global block row
// block_row0[β] + k):
//   per matrix M ∈ {A, B, C}:
//     row_ptr[M]  block rows + 1 offsets into words[M];
//     words[M]    per term one word kind << 30 | block column (SparseMatrix's column word), and
//                 after a general term's word one more word 3 << 30 | its coefficient's index in
//                 |coeffs| (kind 3 marks it, so a walker starting at any word knows what it is);
//                 within a row the terms keep the block matrix's order (+1, −1, general);
//   coeffs        the distinct general coefficients of every block and matrix (Montgomery form);
//   per block     block_row0, locals (A), slots (E);
//   per block row row_order: the order a tile's threads take its rows in. Within each chunk of
//                 tile_rows rows of a block (the rows a tile of any of its segments covers),
//                 thread i of the tile evaluates the block row row_order[block_row0 + chunk + i],
//                 the chunk's rows sorted by their number of words, longest first (a warp walks
//                 each matrix for as many steps as its longest row there). Outputs still go to
//                 the rows' own places;
//   per segment   seg_block, seg_aux_column, seg_row_begin, seg_slot_begin (+ one end entry each
//                 for the rows and slots); slots as in CompactR1cs;
//   per tile      tile_segment, tile_row: the short rows' work items, at most tile_rows
//                 consecutive rows of one segment (a tile never straddles two segments, so a
//                 thread block reads one segment's parameters once); a row of more than
//                 long_row_words words (A, B and C together) is skipped there and is
//   per long row  long_segment, long_row: a work item of its own, walked by a whole warp (lane
//                 l takes the words l, l + 32, ... of each matrix's row, the 32 partial sums are
//                 added in a tree). The 2 KiB PoRep has 2,620 rows of 512+ words (packings,
//                 input checks) among 2.69 M rows of 3–7: in row order one thread each, they made
//                 ≈ 90 % of a warp's steps (docs/perf/gpu.md).
// Term j of a row of segment s reads z at col_s(j) (pce_compact.hpp): 0 for j = 0,
// seg_aux_column[s] + j − 1 for 1 ≤ j ≤ A, slots[seg_slot_begin[s] + j − A − 1] after. Field
// addition is exact, so the order in which a row's terms are added does not change the result.
//
// Size (32 GiB PoRep, 39 blocks of 382,518 rows, 10,644 segments, 3.51 M slots): the blocks'
// words (≈ 4 B per non-zero + 4 B per general term) and row offsets (16 B per block row with
// the order), 14 MB of slots, 8 B per tile (2^27 rows / 256 = 0.5 M tiles) and per long row:
// docs/perf/gpu.md.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/base/status.hpp"
#include "cuzk/ff/fr.hpp"
#include "cuzk/r1cs/pce_compact.hpp"

namespace cuzk {

/// The flat layout of a CompactR1cs (see the file comment).
struct CompactFlat {
  static constexpr std::uint32_t kGeneralKind = 2;
  static constexpr std::uint32_t kCoeffKind = 3;  ///< the word after a general term's
  static constexpr std::uint32_t kWarp = 32;      ///< lanes walking a long row
  std::uint64_t num_inputs = 0, num_aux = 0, num_constraints = 0;
  std::uint32_t tile_rows = 0, long_row_words = 0;
  std::vector<std::uint32_t> row_ptr[3], words[3];
  std::vector<Fr> coeffs;
  std::vector<std::uint32_t> block_row0, block_locals, block_slots;
  std::vector<std::uint32_t> row_order;  ///< per block row: block-relative row (see above)
  std::vector<std::uint32_t> seg_block, seg_aux_column;
  std::vector<std::uint64_t> seg_row_begin, seg_slot_begin;  ///< segments + 1 entries
  std::vector<std::uint32_t> slots;
  std::vector<std::uint32_t> tile_segment, tile_row;
  std::vector<std::uint32_t> long_segment, long_row;

  std::uint64_t num_columns() const { return num_inputs + num_aux; }
  std::size_t num_segments() const { return seg_block.size(); }
  std::size_t num_tiles() const { return tile_segment.size(); }
  std::size_t num_long_rows() const { return long_segment.size(); }
  /// Words of block row |g| in A, B and C together (long when above long_row_words).
  std::uint64_t row_words(std::uint64_t g) const {
    std::uint64_t n = 0;
    for (int m = 0; m < 3; ++m) n += row_ptr[m][g + 1] - row_ptr[m][g];
    return n;
  }
  /// Bytes of the arrays (what a device holds).
  std::size_t bytes() const;
};

/// How compact_flatten lays the form out.
struct CompactFlatOptions {
  std::uint32_t tile_rows = 256;  ///< rows per tile (a thread block of that many threads)
  /// Rows of more words than this (A, B, C together) are walked by a warp; 0: none is.
  std::uint32_t long_row_words = 128;
  bool sort_rows = true;  ///< false: row_order the identity (for comparison)
};

/// The flat layout of |c| (finalized). invalid_argument
/// for tile_rows 0 or a form that is not finalized; out_of_range when an offset does not fit 32
/// bits (a block's words, the rows within a segment).
Result<CompactFlat> compact_flatten(const CompactR1cs& c, const CompactFlatOptions& opt = {});

/// A·z, B·z, C·z over the flat layout as the device kernels walk it (one thread): the tiles' short
/// rows, then each long row as 32 strided partial sums added in a tree.
/// The slow twin of the kernel; equal to pce_compact_evaluate_into bit for bit. size_mismatch for
/// a witness or outputs of the wrong length.
Status compact_flat_evaluate(const CompactFlat& f, std::span<const Fr> z, std::span<Fr> a,
                             std::span<Fr> b, std::span<Fr> c);

}  // namespace cuzk
