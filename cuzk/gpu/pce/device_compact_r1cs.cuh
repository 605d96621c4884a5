// A circuit's compact R1CS resident in VRAM, and A·z, B·z, C·z computed there (issue 22 item 2).
// The host's CompactR1cs (r1cs/pce_compact.hpp) is laid out flat (r1cs/pce_compact_flat.hpp:
// blocks' rows with their ±1 / coefficient kinds, segments, slots, tiles) and each array is
// copied into a buffer of the device's arena (DESIGN.md §3: no device-global call); the bytes are
// device_compact_r1cs_bytes(), known before the upload, so a key budget can charge them.
//
// The SpMV: one thread block per tile (≤ tile_rows rows of one segment; 256 by default), one
// thread per row, the tile's rows taken longest first (the flat layout's row_order, so a warp's
// rows have like lengths; their outputs go to their own places); a row of more than
// long_row_words words is left to a second kernel, a warp per row (lane l walks words l, l + 32,
// ... of each matrix's row; the partial sums meet in a shuffle tree). A thread walks its row's
// terms in A, then B, then C: a term's block column j names z[0] (j = 0), the segment's local
// z[aux_column + j − 1] (1 ≤ j ≤ A) or a slot z[slots[slot_begin + j − A − 1]]; +1 terms add,
// −1 terms subtract, general terms add coeff·z (z = 0 skipped, z = 1 adds coeff: Filecoin
// witnesses are mostly bits). Every sum is reduced mod r after each term, so a, b, c are canonical Montgomery values: the same bits as the host's
// pce_compact_evaluate_into (and its slow twin compact_flat_evaluate, the walk this kernel does).
//
// Memory traffic at 2^27 rows (32 GiB PoRep: 130 M rows, 722 M non-zeros): a, b, c written once
// (12.5 GB, streaming stores), z read (4.17 GB; a warp's rows read neighbouring locals, so z
// lines are reused from L1/L2), the blocks' words (≈ 10 MB, distinct blocks only: they stay in
// L2 across their segments) and the slots (14 MB). Floor at 3.35 TB/s (H100 SXM): ≈ 5 ms.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "cuzk/gpu/device_context.hpp"
#include "cuzk/r1cs/pce_compact_flat.hpp"

namespace cuzk::gpu {

/// The flat compact form in device memory (buffers from the arena, freed with the object).
struct DeviceCompactR1cs {
  std::uint64_t num_inputs = 0, num_aux = 0, num_constraints = 0;
  std::uint32_t tile_rows = 0, long_row_words = 0;
  std::size_t num_tiles = 0, num_long_rows = 0;
  DeviceBuffer row_ptr[3], words[3], coeffs;
  DeviceBuffer block_row0, block_locals, row_order;
  DeviceBuffer seg_block, seg_aux_column, seg_row_begin, seg_slot_begin, slots;
  DeviceBuffer tile_segment, tile_row, long_segment, long_row;

  std::uint64_t num_columns() const { return num_inputs + num_aux; }
  /// Arena bytes held (each buffer rounded up as the arena rounds it).
  std::size_t bytes() const;
};

/// The arena bytes upload_compact_r1cs takes for |f| (each array rounded up to the arena's 256).
std::size_t device_compact_r1cs_bytes(const CompactFlat& f);

/// Copies |f| into arena buffers on |stream| (returns when the data is on the device). Throws
/// CudaError: cudaErrorMemoryAllocation when the arena has no room, cudaErrorInvalidValue for a
/// tile size outside 1..1024.
DeviceCompactR1cs upload_compact_r1cs(DeviceContext& ctx, const CompactFlat& f,
                                      cudaStream_t stream);

/// Queues a = A·z, b = B·z, c = C·z on |stream| (the tiles' kernel, then the long rows'): |z|
/// has num_columns() values, the outputs num_constraints() each (device pointers, Fr in
/// Montgomery form as the host's). Asynchronous; throws CudaError on a launch failure.
void compact_spmv_device(const DeviceCompactR1cs& m, const Fr* z, Fr* a, Fr* b, Fr* c,
                         cudaStream_t stream);

}  // namespace cuzk::gpu
