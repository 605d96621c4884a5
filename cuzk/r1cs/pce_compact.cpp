#include "cuzk/r1cs/pce_compact.hpp"

#include <algorithm>
#include <cstring>
#include <string>

namespace cuzk {
namespace {

Status block_error(std::size_t i, const std::string& what) {
  return Status(Errc::bad_encoding, "compact R1CS block " + std::to_string(i) + ": " + what);
}

}  // namespace

Status CompactR1cs::finalize() {
  const std::size_t n = segments.size();
  row_begin.assign(n + 1, 0);
  slot_begin.assign(n + 1, 0);
  task_begin.clear();
  std::uint64_t task_rows = 0;
  for (std::size_t s = 0; s < n; ++s) {
    if (segments[s].block >= blocks.size())
      return Status(Errc::out_of_range, "compact R1CS segment " + std::to_string(s) +
                                            " names block " + std::to_string(segments[s].block) +
                                            " of " + std::to_string(blocks.size()));
    const CompactBlock& b = blocks[segments[s].block];
    if (task_rows == 0) task_begin.push_back(static_cast<std::uint32_t>(s));
    task_rows += b.rows();
    if (task_rows >= kTaskRows) task_rows = 0;
    row_begin[s + 1] = row_begin[s] + b.rows();
    slot_begin[s + 1] = slot_begin[s] + b.slots;
  }
  task_begin.push_back(static_cast<std::uint32_t>(n));
  for (CompactBlock& b : blocks) b.plan = pce_plan(b.m);
  return validate();
}

Status CompactR1cs::validate() const {
  if (num_inputs == 0) return Status(Errc::invalid_argument, "compact R1CS has no ONE input");
  if (num_columns() > SparseMatrix::kMaxColumns)
    return Status(Errc::out_of_range, "compact R1CS has more than 2^30 variables");
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    const CompactBlock& b = blocks[i];
    if (b.m.num_inputs != 1 || b.m.num_aux != std::uint64_t{b.locals} + b.slots)
      return block_error(i, "column counts disagree with its locals and slots");
    Status st = b.m.validate();
    if (!st.ok()) return st.with_context("compact R1CS block " + std::to_string(i));
  }
  const std::size_t n = segments.size();
  if (row_begin.size() != n + 1 || slot_begin.size() != n + 1 || task_begin.empty() ||
      task_begin.back() != n)
    return Status(Errc::size_mismatch, "compact R1CS: derived arrays stale (call finalize)");
  std::uint64_t na = 0, nb = 0, nc = 0;
  for (std::size_t s = 0; s < n; ++s) {
    const CompactSegment& g = segments[s];
    const CompactBlock& b = blocks[g.block];
    auto seg_error = [&](const std::string& what) {
      return Status(Errc::out_of_range, "compact R1CS segment " + std::to_string(s) + " (block " +
                                            std::to_string(g.block) + "): " + what);
    };
    if (b.locals > 0 &&
        (g.aux_column < num_inputs || std::uint64_t{g.aux_column} + b.locals > num_columns()))
      return seg_error("locals at column " + std::to_string(g.aux_column) + " + " +
                       std::to_string(b.locals) + " outside the aux columns");
    for (std::uint64_t j = slot_begin[s]; j < slot_begin[s + 1]; ++j) {
      if (slots[j] >= num_columns())
        return seg_error("slot column " + std::to_string(slots[j]) + " out of range");
    }
    na += b.m.a.nnz();
    nb += b.m.b.nnz();
    nc += b.m.c.nnz();
  }
  if (row_begin[n] != num_constraints)
    return Status(Errc::size_mismatch, "compact R1CS: segments hold " +
                                           std::to_string(row_begin[n]) + " rows, expected " +
                                           std::to_string(num_constraints));
  if (slot_begin[n] != slots.size())
    return Status(Errc::size_mismatch, "compact R1CS: segments use " +
                                           std::to_string(slot_begin[n]) +
                                           " slots, the table has " + std::to_string(slots.size()));
  if (na != nnz_a || nb != nnz_b || nc != nnz_c)
    return Status(Errc::size_mismatch,
                  "compact R1CS: segments hold other non-zero counts than "
                  "the recorded nnz of A, B, C");
  if (a_aux_density.bits != num_aux || b_aux_density.bits != num_aux ||
      b_input_density.bits != num_inputs)
    return Status(Errc::size_mismatch,
                  "compact R1CS: density bitmap sizes disagree with the variable counts");
  return {};
}

std::size_t CompactR1cs::memory_bytes() const {
  std::size_t n = 0;
  for (const CompactBlock& b : blocks)
    n += sizeof(CompactBlock) + b.m.memory_bytes() + b.plan.memory_bytes();
  n += segments.size() * sizeof(CompactSegment) + slots.size() * 4;
  n += (row_begin.size() + slot_begin.size()) * 8 + task_begin.size() * 4;
  n += (a_aux_density.words.size() + b_aux_density.words.size() + b_input_density.words.size()) * 8;
  return n;
}

std::uint64_t CompactR1cs::block_rows() const {
  std::uint64_t r = 0;
  for (const CompactBlock& b : blocks) r += b.rows();
  return r;
}

Status pce_compact_evaluate_segments(ThreadPool& pool, const CompactR1cs& c, std::span<const Fr> z,
                                     std::size_t first, std::size_t last, std::span<Fr> a,
                                     std::span<Fr> b, std::span<Fr> out_c,
                                     const CompactSpmvOptions& opt) {
  if (z.size() != c.num_columns())
    return Status(Errc::size_mismatch, "witness has " + std::to_string(z.size()) +
                                           " values, the R1CS " + std::to_string(c.num_columns()) +
                                           " variables");
  if (c.row_begin.size() != c.segments.size() + 1 || c.task_begin.empty())
    return Status(Errc::invalid_argument, "compact R1CS not finalized");
  if (first > last || last > c.segments.size())
    return Status(Errc::out_of_range, "segments [" + std::to_string(first) + ", " +
                                          std::to_string(last) + ") of " +
                                          std::to_string(c.segments.size()));
  const std::uint64_t r_first = c.row_begin[first];
  const std::size_t n = c.row_begin[last] - r_first;
  if (a.size() != n || b.size() != n || out_c.size() != n)
    return Status(
        Errc::size_mismatch,
        "a/b/c outputs must have one entry per row of the segments (" + std::to_string(n) + ")");
  // Tasks: the precomputed task boundaries inside (first, last), plus the range's ends.
  std::vector<std::uint32_t> bounds = {static_cast<std::uint32_t>(first)};
  for (auto it = std::upper_bound(c.task_begin.begin(), c.task_begin.end(), first);
       it != c.task_begin.end() && *it < last; ++it)
    bounds.push_back(*it);
  bounds.push_back(static_cast<std::uint32_t>(last));
  std::size_t widest = 0;
  for (const CompactBlock& blk : c.blocks) widest = std::max<std::size_t>(widest, blk.columns());
  std::vector<Status> errors(bounds.size() - 1);
  pool.parallel_for(
      bounds.size() - 1,
      [&](std::size_t t) {
        // One task: its segments in order, each gathered into |g| and evaluated by the plain
        // kernels on one thread (a 1-thread pool runs its loop inline on the caller).
        ThreadPool serial(1);
        std::vector<Fr> g(widest);
        for (std::uint32_t s = bounds[t]; s < bounds[t + 1]; ++s) {
          const CompactSegment& seg = c.segments[s];
          const CompactBlock& blk = c.blocks[seg.block];
          Fr* gp = g.data();
          gp[0] = z[0];
          if (blk.locals > 0)
            std::memcpy(static_cast<void*>(gp + 1), z.data() + seg.aux_column,
                        std::size_t{blk.locals} * sizeof(Fr));
          const std::uint32_t* sl = c.slots.data() + c.slot_begin[s];
          Fr* gs = gp + 1 + blk.locals;
          for (std::uint32_t j = 0; j < blk.slots; ++j) gs[j] = z[sl[j]];
          const std::size_t r0 = c.row_begin[s] - r_first, rows = blk.rows();
          Status st =
              pce_evaluate_into(serial, blk.m, std::span<const Fr>(gp, blk.columns()),
                                a.subspan(r0, rows), b.subspan(r0, rows), out_c.subspan(r0, rows),
                                {.long_terms = opt.long_terms,
                                 .nt_store_min_rows = opt.nt_stores ? 0 : SIZE_MAX,
                                 .plan = &blk.plan});
          if (!st.ok()) {
            errors[t] = st.with_context("segment " + std::to_string(s));
            return;
          }
        }
      },
      1);
  for (Status& st : errors) CUZK_RETURN_IF_ERROR(st);
  return {};
}

Status pce_compact_evaluate_into(ThreadPool& pool, const CompactR1cs& c, std::span<const Fr> z,
                                 std::span<Fr> a, std::span<Fr> b, std::span<Fr> out_c,
                                 const CompactSpmvOptions& opt) {
  const std::size_t n = c.num_constraints;
  if (a.size() != n || b.size() != n || out_c.size() != n)
    return Status(Errc::size_mismatch,
                  "a/b/c outputs must have one entry per constraint (" + std::to_string(n) + ")");
  return pce_compact_evaluate_segments(pool, c, z, 0, c.segments.size(), a, b, out_c, opt);
}

R1csMatrices compact_to_matrices(const CompactR1cs& c) {
  R1csMatrices m;
  m.num_inputs = c.num_inputs;
  m.num_aux = c.num_aux;
  m.num_constraints = c.num_constraints;
  for (SparseMatrix* s : {&m.a, &m.b, &m.c}) s->row_ptr.reserve(c.num_constraints + 1);
  std::vector<std::uint64_t> cols;
  std::vector<Term> terms;
  for (std::size_t s = 0; s < c.segments.size(); ++s) {
    const CompactSegment& seg = c.segments[s];
    const CompactBlock& blk = c.blocks[seg.block];
    auto column = [&](std::uint32_t j) -> std::uint32_t {
      if (j == 0) return 0;
      if (j <= blk.locals) return seg.aux_column + j - 1;
      return c.slots[c.slot_begin[s] + j - 1 - blk.locals];
    };
    const SparseMatrix* from[3] = {&blk.m.a, &blk.m.b, &blk.m.c};
    SparseMatrix* to[3] = {&m.a, &m.b, &m.c};
    for (std::uint64_t k = 0; k < blk.rows(); ++k) {
      for (int t = 0; t < 3; ++t) {
        terms.clear();
        from[t]->for_each_term(k, [&](std::uint32_t j, const Fr& coeff) {
          terms.push_back({Variable::input(column(j)), coeff});
        });
        std::sort(terms.begin(), terms.end(),
                  [](const Term& x, const Term& y) { return x.var.index < y.var.index; });
        to[t]->append_row(terms, [](Variable v) { return v.index; });
      }
    }
  }
  m.compute_density();
  return m;
}

}  // namespace cuzk
