#include "cuzk/r1cs/pce_compact_flat.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <string>

namespace cuzk {
namespace {

constexpr std::uint64_t kU32 = std::numeric_limits<std::uint32_t>::max();

}  // namespace

std::size_t CompactFlat::bytes() const {
  std::size_t n = coeffs.size() * sizeof(Fr);
  for (int m = 0; m < 3; ++m) n += (row_ptr[m].size() + words[m].size()) * 4;
  n += (block_row0.size() + block_locals.size() + block_slots.size() + row_order.size()) * 4;
  n += (seg_block.size() + seg_aux_column.size()) * 4;
  n += (seg_row_begin.size() + seg_slot_begin.size()) * 8;
  n += (slots.size() + tile_segment.size() + tile_row.size()) * 4;
  n += (long_segment.size() + long_row.size()) * 4;
  return n;
}

Result<CompactFlat> compact_flatten(const CompactR1cs& c, const CompactFlatOptions& opt) {
  const std::uint32_t tile_rows = opt.tile_rows;
  if (tile_rows == 0) return Status(Errc::invalid_argument, "compact flat layout: tile_rows 0");
  if (c.row_begin.size() != c.segments.size() + 1 || c.slot_begin.size() != c.segments.size() + 1)
    return Status(Errc::invalid_argument, "compact R1CS not finalized");
  CompactFlat f;
  f.num_inputs = c.num_inputs;
  f.num_aux = c.num_aux;
  f.num_constraints = c.num_constraints;
  f.tile_rows = tile_rows;
  f.long_row_words = opt.long_row_words == 0 ? kU32 : opt.long_row_words;
  std::map<Limbs<4>, std::uint32_t> interned;  // coefficient → index in f.coeffs
  std::uint64_t block_rows = 0;
  for (int m = 0; m < 3; ++m) f.row_ptr[m].push_back(0);
  for (std::size_t bi = 0; bi < c.blocks.size(); ++bi) {
    const CompactBlock& blk = c.blocks[bi];
    if (block_rows + blk.rows() > kU32)
      return Status(Errc::out_of_range, "compact flat layout: blocks hold more than 2^32 rows");
    f.block_row0.push_back(static_cast<std::uint32_t>(block_rows));
    f.block_locals.push_back(blk.locals);
    f.block_slots.push_back(blk.slots);
    const SparseMatrix* mats[3] = {&blk.m.a, &blk.m.b, &blk.m.c};
    for (int m = 0; m < 3; ++m) {
      const SparseMatrix& sm = *mats[m];
      std::vector<std::uint32_t>& w = f.words[m];
      std::size_t g = 0;  // general terms are numbered in entry order across the rows
      for (std::size_t k = 0; k < sm.num_rows(); ++k) {
        for (std::uint64_t e = sm.row_ptr[k]; e < sm.row_ptr[k + 1]; ++e) {
          const std::uint32_t word = sm.col[e];
          w.push_back(word);
          if (SparseMatrix::kind_of(word) == CoeffKind::general) {
            const Fr& coeff = sm.coeffs[sm.gen_idx[g++]];
            auto [it, fresh] =
                interned.try_emplace(coeff.l, static_cast<std::uint32_t>(f.coeffs.size()));
            if (fresh) f.coeffs.push_back(coeff);
            if (it->second > SparseMatrix::kColumnMask)
              return Status(Errc::out_of_range,
                            "compact flat layout: more than 2^30 distinct coefficients");
            w.push_back(CompactFlat::kCoeffKind << SparseMatrix::kKindShift | it->second);
          }
        }
        if (w.size() > kU32)
          return Status(Errc::out_of_range, "compact flat layout: the blocks' terms of matrix " +
                                                std::to_string(m) + " pass 2^32 words");
        f.row_ptr[m].push_back(static_cast<std::uint32_t>(w.size()));
      }
    }
    // Each chunk of tile_rows rows longest first (stable: ties keep their order).
    const std::uint32_t rows = static_cast<std::uint32_t>(blk.rows());
    const std::size_t base = f.row_order.size();
    for (std::uint32_t r = 0; r < rows; ++r) f.row_order.push_back(r);
    if (opt.sort_rows) {
      auto words = [&](std::uint32_t r) { return f.row_words(block_rows + r); };
      for (std::uint32_t c0 = 0; c0 < rows; c0 += tile_rows) {
        const auto first = f.row_order.begin() + static_cast<std::ptrdiff_t>(base + c0);
        const auto last = f.row_order.begin() +
                          static_cast<std::ptrdiff_t>(base + std::min(rows, c0 + tile_rows));
        std::stable_sort(first, last,
                         [&](std::uint32_t x, std::uint32_t y) { return words(x) > words(y); });
      }
    }
    block_rows += blk.rows();
  }
  const std::size_t n = c.segments.size();
  f.seg_block.reserve(n);
  f.seg_aux_column.reserve(n);
  for (std::size_t s = 0; s < n; ++s) {
    const CompactSegment& seg = c.segments[s];
    if (seg.block >= c.blocks.size())
      return Status(Errc::out_of_range, "compact R1CS segment " + std::to_string(s) +
                                            " names block " + std::to_string(seg.block));
    f.seg_block.push_back(seg.block);
    f.seg_aux_column.push_back(seg.aux_column);
    const std::uint64_t rows = c.blocks[seg.block].rows();
    for (std::uint64_t r = 0; r < rows; r += tile_rows) {
      f.tile_segment.push_back(static_cast<std::uint32_t>(s));
      f.tile_row.push_back(static_cast<std::uint32_t>(r));
    }
    for (std::uint64_t r = 0; r < rows; ++r) {
      if (f.row_words(f.block_row0[seg.block] + r) > f.long_row_words) {
        f.long_segment.push_back(static_cast<std::uint32_t>(s));
        f.long_row.push_back(static_cast<std::uint32_t>(r));
      }
    }
  }
  f.seg_row_begin = c.row_begin;
  f.seg_slot_begin = c.slot_begin;
  f.slots = c.slots;
  return f;
}

namespace {

// One segment's column map (pce_compact.hpp col_s).
struct SegmentColumns {
  std::uint32_t locals, aux;
  const std::uint32_t* slot;  // the segment's first slot
  std::uint64_t operator()(std::uint32_t j) const {
    return j == 0 ? 0 : j <= locals ? aux + j - 1 : slot[j - locals - 1];
  }
};

// Σ over the terms whose head word lies at e0 + lane, e0 + lane + stride, ... below e1 (the
// kernels' walk: a thread of a tile is lane 0 of stride 1; a long row's lane l of 32).
Fr partial_sum(const CompactFlat& f, const std::uint32_t* w, std::uint32_t e0, std::uint32_t e1,
               std::uint32_t lane, std::uint32_t stride, const SegmentColumns& col,
               std::span<const Fr> z) {
  Fr acc = Fr::zero();
  for (std::uint32_t e = e0 + lane; e < e1; e += stride) {
    const std::uint32_t word = w[e], kind = word >> SparseMatrix::kKindShift;
    if (kind == CompactFlat::kCoeffKind) continue;  // a coefficient, read with its term
    const Fr& v = z[col(word & SparseMatrix::kColumnMask)];
    if (kind == 0)
      acc += v;
    else if (kind == 1)
      acc -= v;
    else
      acc += f.coeffs[w[e + 1] & SparseMatrix::kColumnMask] * v;
  }
  return acc;
}

}  // namespace

Status compact_flat_evaluate(const CompactFlat& f, std::span<const Fr> z, std::span<Fr> a,
                             std::span<Fr> b, std::span<Fr> c) {
  if (z.size() != f.num_columns())
    return Status(Errc::size_mismatch, "witness has " + std::to_string(z.size()) +
                                           " values, the R1CS " + std::to_string(f.num_columns()) +
                                           " variables");
  const std::size_t n = f.num_constraints;
  if (a.size() != n || b.size() != n || c.size() != n)
    return Status(Errc::size_mismatch,
                  "a/b/c outputs must have one entry per constraint (" + std::to_string(n) + ")");
  std::span<Fr> out[3] = {a, b, c};
  auto columns = [&](std::uint32_t s) {
    const std::uint32_t blk = f.seg_block[s];
    return SegmentColumns{f.block_locals[blk], f.seg_aux_column[s],
                          f.slots.data() + f.seg_slot_begin[s]};
  };
  // The tiles: a thread per short row, in row_order.
  for (std::size_t t = 0; t < f.num_tiles(); ++t) {
    const std::uint32_t s = f.tile_segment[t], b0 = f.block_row0[f.seg_block[s]];
    const std::uint64_t seg_rows = f.seg_row_begin[s + 1] - f.seg_row_begin[s];
    const std::uint64_t end =
        std::min<std::uint64_t>(seg_rows, std::uint64_t{f.tile_row[t]} + f.tile_rows);
    const SegmentColumns col = columns(s);
    for (std::uint64_t i = f.tile_row[t]; i < end; ++i) {
      const std::uint64_t k = f.row_order[b0 + i];  // the row thread i takes
      const std::uint64_t g = b0 + k;
      if (f.row_words(g) > f.long_row_words) continue;  // a warp's (below)
      for (int m = 0; m < 3; ++m)
        out[m][f.seg_row_begin[s] + k] =
            partial_sum(f, f.words[m].data(), f.row_ptr[m][g], f.row_ptr[m][g + 1], 0, 1, col, z);
    }
  }
  // The long rows: 32 strided partial sums per matrix, added in a tree (lane l += lane l + h).
  for (std::size_t t = 0; t < f.num_long_rows(); ++t) {
    const std::uint32_t s = f.long_segment[t];
    const std::uint64_t k = f.long_row[t], g = f.block_row0[f.seg_block[s]] + k;
    const SegmentColumns col = columns(s);
    for (int m = 0; m < 3; ++m) {
      Fr part[CompactFlat::kWarp];
      for (std::uint32_t l = 0; l < CompactFlat::kWarp; ++l)
        part[l] = partial_sum(f, f.words[m].data(), f.row_ptr[m][g], f.row_ptr[m][g + 1], l,
                              CompactFlat::kWarp, col, z);
      for (std::uint32_t h = CompactFlat::kWarp / 2; h > 0; h /= 2)
        for (std::uint32_t l = 0; l < h; ++l) part[l] += part[l + h];
      out[m][f.seg_row_begin[s] + k] = part[0];
    }
  }
  return {};
}

}  // namespace cuzk
