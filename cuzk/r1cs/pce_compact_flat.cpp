#include "cuzk/r1cs/pce_compact_flat.hpp"

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
  n += (block_row0.size() + block_locals.size() + block_slots.size()) * 4;
  n += (seg_block.size() + seg_aux_column.size()) * 4;
  n += (seg_row_begin.size() + seg_slot_begin.size()) * 8;
  n += (slots.size() + tile_segment.size() + tile_row.size()) * 4;
  return n;
}

Result<CompactFlat> compact_flatten(const CompactR1cs& c, std::uint32_t tile_rows) {
  if (tile_rows == 0) return Status(Errc::invalid_argument, "compact flat layout: tile_rows 0");
  if (c.row_begin.size() != c.segments.size() + 1 || c.slot_begin.size() != c.segments.size() + 1)
    return Status(Errc::invalid_argument, "compact R1CS not finalized");
  CompactFlat f;
  f.num_inputs = c.num_inputs;
  f.num_aux = c.num_aux;
  f.num_constraints = c.num_constraints;
  f.tile_rows = tile_rows;
  std::map<Limbs<4>, std::uint32_t> interned;  // coefficient → index in f.coeffs
  std::uint64_t block_rows = 0;
  for (int m = 0; m < 3; ++m) f.row_ptr[m].push_back(0);
  for (std::size_t bi = 0; bi < c.blocks.size(); ++bi) {
    const CompactBlock& blk = c.blocks[bi];
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
            w.push_back(it->second);
          }
        }
        if (w.size() > kU32)
          return Status(Errc::out_of_range, "compact flat layout: the blocks' terms of matrix " +
                                                std::to_string(m) + " pass 2^32 words");
        f.row_ptr[m].push_back(static_cast<std::uint32_t>(w.size()));
      }
    }
    block_rows += blk.rows();
    if (block_rows > kU32)
      return Status(Errc::out_of_range, "compact flat layout: blocks hold more than 2^32 rows");
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
  }
  f.seg_row_begin = c.row_begin;
  f.seg_slot_begin = c.slot_begin;
  f.slots = c.slots;
  return f;
}

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
  for (std::size_t t = 0; t < f.num_tiles(); ++t) {
    const std::uint32_t s = f.tile_segment[t], blk = f.seg_block[s];
    const std::uint64_t seg_rows = f.seg_row_begin[s + 1] - f.seg_row_begin[s];
    const std::uint64_t end =
        std::min<std::uint64_t>(seg_rows, std::uint64_t{f.tile_row[t]} + f.tile_rows);
    const std::uint32_t locals = f.block_locals[blk], aux = f.seg_aux_column[s];
    const std::uint32_t* slot = f.slots.data() + f.seg_slot_begin[s];
    for (std::uint64_t k = f.tile_row[t]; k < end; ++k) {
      const std::uint64_t g = f.block_row0[blk] + k;
      for (int m = 0; m < 3; ++m) {
        const std::uint32_t* w = f.words[m].data();
        Fr acc = Fr::zero();
        for (std::uint32_t e = f.row_ptr[m][g]; e < f.row_ptr[m][g + 1]; ++e) {
          const std::uint32_t word = w[e], j = word & SparseMatrix::kColumnMask;
          const std::uint64_t col = j == 0 ? 0 : j <= locals ? aux + j - 1 : slot[j - locals - 1];
          const Fr& v = z[col];
          switch (word >> SparseMatrix::kKindShift) {
            case 0:
              acc += v;
              break;
            case 1:
              acc -= v;
              break;
            default:
              acc += f.coeffs[w[++e]] * v;
              break;
          }
        }
        out[m][f.seg_row_begin[s] + k] = acc;
      }
    }
  }
  return {};
}

}  // namespace cuzk
