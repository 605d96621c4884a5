// See device_compact_r1cs.cuh.
#include "cuzk/gpu/pce/device_compact_r1cs.cuh"

#include <string>
#include <vector>

#include "cuzk/gpu/cuda_check.cuh"
#include "cuzk/gpu/ff/dev_fields.cuh"
#include "cuzk/gpu/pce/arena_arrays.cuh"
#include "cuzk/gpu/pce/dev_fr_io.cuh"

namespace cuzk::gpu {

namespace {

/// The kernel's view of the resident form.
struct SpmvArgs {
  const std::uint32_t* row_ptr[3];
  const std::uint32_t* words[3];
  const DevFr* coeffs;
  const std::uint32_t *block_row0, *block_locals, *row_order;
  const std::uint32_t *seg_block, *seg_aux_column;
  const std::uint64_t *seg_row_begin, *seg_slot_begin;
  const std::uint32_t* slots;
  const std::uint32_t *tile_segment, *tile_row;
  const std::uint32_t *long_segment, *long_row;
  std::uint32_t long_row_words;
  const DevFr* z;
  DevFr* out[3];
};

// One thread block per tile, one thread per row (see the header). The segment's parameters are
// the same for every thread of the block (uniform loads, served by the constant/L1 path).
__global__ void __launch_bounds__(1024) compact_spmv_kernel(SpmvArgs p) {
  const std::uint32_t tile = blockIdx.x;
  const std::uint32_t s = p.tile_segment[tile];
  const std::uint32_t blk = p.seg_block[s];
  const std::uint64_t row0 = p.seg_row_begin[s];
  const std::uint64_t i = std::uint64_t{p.tile_row[tile]} + threadIdx.x;
  if (i >= p.seg_row_begin[s + 1] - row0) return;
  const std::uint32_t locals = p.block_locals[blk], aux = p.seg_aux_column[s];
  const std::uint64_t slot0 = p.seg_slot_begin[s] - locals - 1;  // slot j at slots[slot0 + j]
  const std::uint32_t b0 = p.block_row0[blk];
  const std::uint64_t k = __ldg(p.row_order + b0 + i);  // the block row this thread takes
  const std::uint64_t g = b0 + k;
  std::uint32_t words = 0;
#pragma unroll
  for (int m = 0; m < 3; ++m) words += p.row_ptr[m][g + 1] - p.row_ptr[m][g];
  if (words > p.long_row_words) return;  // a warp's (compact_spmv_long_kernel)
#pragma unroll 1
  for (int m = 0; m < 3; ++m) {
    const std::uint32_t* w = p.words[m];
    DevFr acc = DevFr::zero();
    const std::uint32_t e1 = p.row_ptr[m][g + 1];
#pragma unroll 1
    for (std::uint32_t e = p.row_ptr[m][g]; e < e1; ++e) {
      const std::uint32_t word = __ldg(w + e), j = word & SparseMatrix::kColumnMask;
      const std::uint32_t col = j == 0 ? 0 : j <= locals ? aux + j - 1 : __ldg(p.slots + slot0 + j);
      DevFr v = load_fr(p.z + col);
      const std::uint32_t kind = word >> SparseMatrix::kKindShift;
      // A general term becomes its product (z = 0 or 1: no multiplication), which then joins the
      // +1 terms' add: two paths for the warp to diverge on, not three.
      if (kind == CompactFlat::kGeneralKind) {
        const DevFr cf = load_fr(p.coeffs + (__ldg(w + ++e) & SparseMatrix::kColumnMask));
        v = v.is_one() ? cf : v.is_zero() ? v : cf * v;
      }
      if (kind == 1)
        acc -= v;
      else
        acc += v;
    }
    store_fr_streaming(p.out[m] + row0 + k, acc);
  }
}

// One warp per long row: lane l takes the terms whose head word is at l, l + 32, ... of each
// matrix's row (a coefficient word, kind 3, is read with its term by the lane holding the head),
// then the 32 partial sums are added in a shuffle tree (lane l += lane l + h, h = 16 .. 1).
__global__ void __launch_bounds__(256) compact_spmv_long_kernel(SpmvArgs p, std::uint32_t count) {
  const std::uint32_t task = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  const std::uint32_t lane = threadIdx.x % 32;
  if (task >= count) return;  // the whole warp leaves together
  const std::uint32_t s = p.long_segment[task], blk = p.seg_block[s];
  const std::uint64_t k = p.long_row[task];
  const std::uint32_t locals = p.block_locals[blk], aux = p.seg_aux_column[s];
  const std::uint64_t slot0 = p.seg_slot_begin[s] - locals - 1;
  const std::uint64_t g = p.block_row0[blk] + k;
#pragma unroll 1
  for (int m = 0; m < 3; ++m) {
    const std::uint32_t* w = p.words[m];
    DevFr acc = DevFr::zero();
    const std::uint32_t e1 = p.row_ptr[m][g + 1];
#pragma unroll 1
    for (std::uint32_t e = p.row_ptr[m][g] + lane; e < e1; e += 32) {
      const std::uint32_t word = __ldg(w + e), kind = word >> SparseMatrix::kKindShift;
      if (kind == CompactFlat::kCoeffKind) continue;
      const std::uint32_t j = word & SparseMatrix::kColumnMask;
      const std::uint32_t col = j == 0 ? 0 : j <= locals ? aux + j - 1 : __ldg(p.slots + slot0 + j);
      DevFr v = load_fr(p.z + col);
      if (kind == CompactFlat::kGeneralKind) {
        const DevFr cf = load_fr(p.coeffs + (__ldg(w + e + 1) & SparseMatrix::kColumnMask));
        v = v.is_one() ? cf : v.is_zero() ? v : cf * v;
      }
      if (kind == 1)
        acc -= v;
      else
        acc += v;
    }
#pragma unroll
    for (int h = 16; h > 0; h /= 2) {
      DevFr o;
#pragma unroll
      for (int i = 0; i < DevFr::N; ++i) o.l[i] = __shfl_down_sync(0xffffffffu, acc.l[i], h);
      acc += o;  // lanes ≥ h add junk to values nobody reads
    }
    if (lane == 0) store_fr_streaming(p.out[m] + p.seg_row_begin[s] + k, acc);
  }
}

}  // namespace

std::size_t DeviceCompactR1cs::bytes() const {
  std::size_t n = coeffs.size() + block_row0.size() + block_locals.size() + row_order.size() +
                  seg_block.size() + seg_aux_column.size() + seg_row_begin.size() +
                  seg_slot_begin.size() + slots.size() + tile_segment.size() + tile_row.size() +
                  long_segment.size() + long_row.size();
  for (int m = 0; m < 3; ++m) n += row_ptr[m].size() + words[m].size();
  return n;
}

std::size_t device_compact_r1cs_bytes(const CompactFlat& f) {
  std::size_t n =
      arena_bytes_of(f.coeffs) + arena_bytes_of(f.block_row0) + arena_bytes_of(f.block_locals) +
      arena_bytes_of(f.row_order) + arena_bytes_of(f.seg_block) + arena_bytes_of(f.seg_aux_column) +
      arena_bytes_of(f.seg_row_begin) + arena_bytes_of(f.seg_slot_begin) + arena_bytes_of(f.slots) +
      arena_bytes_of(f.tile_segment) + arena_bytes_of(f.tile_row) + arena_bytes_of(f.long_segment) +
      arena_bytes_of(f.long_row);
  for (int m = 0; m < 3; ++m) n += arena_bytes_of(f.row_ptr[m]) + arena_bytes_of(f.words[m]);
  return n;
}

DeviceCompactR1cs upload_compact_r1cs(DeviceContext& ctx, const CompactFlat& f,
                                      cudaStream_t stream) {
  if (f.tile_rows == 0 || f.tile_rows > 1024)
    throw CudaError(cudaErrorInvalidValue,
                    ("compact R1CS tiles of " + std::to_string(f.tile_rows) +
                     " rows (a thread block per tile: 1..1024)")
                        .c_str(),
                    __FILE__, __LINE__);
  DeviceCompactR1cs d;
  d.num_inputs = f.num_inputs;
  d.num_aux = f.num_aux;
  d.num_constraints = f.num_constraints;
  d.tile_rows = f.tile_rows;
  d.long_row_words = f.long_row_words;
  d.num_tiles = f.num_tiles();
  d.num_long_rows = f.num_long_rows();
  static const char* const kRowPtr[3] = {"compact R1CS A row offsets", "compact R1CS B row offsets",
                                         "compact R1CS C row offsets"};
  static const char* const kWords[3] = {"compact R1CS A terms", "compact R1CS B terms",
                                        "compact R1CS C terms"};
  for (int m = 0; m < 3; ++m) {
    d.row_ptr[m] = upload_array(ctx, f.row_ptr[m], kRowPtr[m], stream);
    d.words[m] = upload_array(ctx, f.words[m], kWords[m], stream);
  }
  d.coeffs = upload_array(ctx, f.coeffs, "compact R1CS coefficients", stream);
  d.block_row0 = upload_array(ctx, f.block_row0, "compact R1CS blocks", stream);
  d.block_locals = upload_array(ctx, f.block_locals, "compact R1CS blocks", stream);
  d.row_order = upload_array(ctx, f.row_order, "compact R1CS row order", stream);
  d.seg_block = upload_array(ctx, f.seg_block, "compact R1CS segments", stream);
  d.seg_aux_column = upload_array(ctx, f.seg_aux_column, "compact R1CS segments", stream);
  d.seg_row_begin = upload_array(ctx, f.seg_row_begin, "compact R1CS segments", stream);
  d.seg_slot_begin = upload_array(ctx, f.seg_slot_begin, "compact R1CS segments", stream);
  d.slots = upload_array(ctx, f.slots, "compact R1CS slots", stream);
  d.tile_segment = upload_array(ctx, f.tile_segment, "compact R1CS tiles", stream);
  d.tile_row = upload_array(ctx, f.tile_row, "compact R1CS tiles", stream);
  d.long_segment = upload_array(ctx, f.long_segment, "compact R1CS long rows", stream);
  d.long_row = upload_array(ctx, f.long_row, "compact R1CS long rows", stream);
  return d;
}

void compact_spmv_device(const DeviceCompactR1cs& m, const Fr* z, Fr* a, Fr* b, Fr* c,
                         cudaStream_t stream) {
  SpmvArgs p{};
  for (int i = 0; i < 3; ++i) {
    p.row_ptr[i] = m.row_ptr[i].as<std::uint32_t>();
    p.words[i] = m.words[i].as<std::uint32_t>();
  }
  p.coeffs = m.coeffs.as<DevFr>();
  p.block_row0 = m.block_row0.as<std::uint32_t>();
  p.block_locals = m.block_locals.as<std::uint32_t>();
  p.row_order = m.row_order.as<std::uint32_t>();
  p.seg_block = m.seg_block.as<std::uint32_t>();
  p.seg_aux_column = m.seg_aux_column.as<std::uint32_t>();
  p.seg_row_begin = m.seg_row_begin.as<std::uint64_t>();
  p.seg_slot_begin = m.seg_slot_begin.as<std::uint64_t>();
  p.slots = m.slots.as<std::uint32_t>();
  p.tile_segment = m.tile_segment.as<std::uint32_t>();
  p.tile_row = m.tile_row.as<std::uint32_t>();
  p.long_segment = m.long_segment.as<std::uint32_t>();
  p.long_row = m.long_row.as<std::uint32_t>();
  p.long_row_words = m.long_row_words;
  p.z = reinterpret_cast<const DevFr*>(z);
  p.out[0] = reinterpret_cast<DevFr*>(a);
  p.out[1] = reinterpret_cast<DevFr*>(b);
  p.out[2] = reinterpret_cast<DevFr*>(c);
  if (m.num_tiles > 0) {
    compact_spmv_kernel<<<static_cast<unsigned>(m.num_tiles), m.tile_rows, 0, stream>>>(p);
    CUZK_CUDA_CHECK_LAUNCH();
  }
  if (m.num_long_rows > 0) {
    constexpr unsigned kWarpsPerBlock = 8;
    const auto count = static_cast<std::uint32_t>(m.num_long_rows);
    compact_spmv_long_kernel<<<(count + kWarpsPerBlock - 1) / kWarpsPerBlock, 32 * kWarpsPerBlock,
                               0, stream>>>(p, count);
    CUZK_CUDA_CHECK_LAUNCH();
  }
}

}  // namespace cuzk::gpu
