#include "cuzk/r1cs/pce.hpp"

#include <emmintrin.h>
#include <immintrin.h>

#include <algorithm>
#include <string>
#include <thread>

#include "cuzk/r1cs/witness_cs.hpp"

namespace cuzk {
namespace {

// acc ± v, inlined: Fr's operators test the run-time asm switch and are called out of line, which
// on rows of 1–3 terms costs as much as the addition. add4/sub4 use only add/adc/sbb/cmov (no
// mulx/adx), so they are valid on every x86-64 whatever the switch says.
[[gnu::always_inline]] inline void acc_add(Fr& acc, const Fr& v) {
#if CUZK_FF_X86_ASM
  mont_x86::add4<Fr::kModulus>(acc.l, acc.l, v.l);
#else
  acc += v;
#endif
}
[[gnu::always_inline]] inline void acc_sub(Fr& acc, const Fr& v) {
#if CUZK_FF_X86_ASM
  mont_x86::sub4<Fr::kModulus>(acc.l, acc.l, v.l);
#else
  acc -= v;
#endif
}

// acc += coeff · v. kBool: the value is tested where it is loaded anyway: 0 → nothing, 1
// (Montgomery R) → add coeff, else multiply. (A branch-free 0/1 select that always adds was
// measured 3–8 % slower over the whole SpMV: zeros are common and skipping them is cheaper.)
template <bool kBool>
[[gnu::always_inline]] inline void acc_general(Fr& acc, const Fr& coeff, const Fr& value) {
  if constexpr (kBool) {
    constexpr Fr::Repr kOne = Fr::one().l;
    const Fr::Repr& v = value.l;
    const std::uint64_t nz = v[0] | v[1] | v[2] | v[3];
    const std::uint64_t n1 = (v[0] ^ kOne[0]) | (v[1] ^ kOne[1]) | (v[2] ^ kOne[2]) | (v[3] ^ kOne[3]);
    if (nz == 0) return;
    if (n1 == 0) {
      acc_add(acc, coeff);
      return;
    }
  }
  acc_add(acc, coeff * value);
}

// ⟨row k, z⟩. Entries are sorted by kind (+1, −1, general), so three tight loops with one exit
// branch each replace a per-entry switch; |g| is the running index into gen_idx. kBool: a general
// term whose witness value is 0 is skipped and one whose value is 1 costs an add instead of a mul
// (tested only on general terms, where it saves a multiplication; unit terms stay branch-free).
// An earlier version classified the witness in a separate pass: ≈ 10 % of the SpMV time.
template <bool kBool>
[[gnu::always_inline]] inline Fr row_dot(const SparseMatrix& m, std::size_t k, const Fr* z, std::uint64_t& g) {
  constexpr std::uint32_t kMask = SparseMatrix::kColumnMask;
  const std::uint32_t* col = m.col.data();
  std::uint64_t e = m.row_ptr[k];
  const std::uint64_t end = m.row_ptr[k + 1];
  // The first +1 term is copied, not added to zero (0 + v = v for a reduced v): most rows of A, B
  // and C start with one, and rows are 1–3 terms long, so this removes about half the additions.
  Fr acc = Fr::zero();
  if (e < end && col[e] < (1u << SparseMatrix::kKindShift)) acc = z[col[e++]];
  for (; e < end && col[e] < (1u << SparseMatrix::kKindShift); ++e) acc_add(acc, z[col[e]]);
  for (; e < end && col[e] < (2u << SparseMatrix::kKindShift); ++e) acc_sub(acc, z[col[e] & kMask]);
  if (e == end) return acc;
  const std::uint32_t* gi = m.gen_idx.data() + g;
  const Fr* coeffs = m.coeffs.data();
  g += end - e;
  for (; e < end; ++e, ++gi) acc_general<kBool>(acc, coeffs[*gi], z[col[e] & kMask]);
  return acc;
}

// Non-temporal store of one value (two 16-byte movntdq, |dst| 16-byte aligned; consecutive rows
// fill whole lines in the write-combining buffers, so the line is never read for ownership).
// Measured 3 % faster over the SpMV than four 8-byte movnti at 2^18 (quiet machine).
[[gnu::always_inline]] inline void store_nt(Fr* dst, const Fr& v) {
  auto* d = reinterpret_cast<__m128i*>(dst->l.data());
  _mm_stream_si128(d, _mm_set_epi64x(static_cast<long long>(v.l[1]), static_cast<long long>(v.l[0])));
  _mm_stream_si128(d + 1, _mm_set_epi64x(static_cast<long long>(v.l[3]), static_cast<long long>(v.l[2])));
}

// The shape of row k across A, B, C: its three lengths (4 standing for 4 or more), 3 bits each. Rows of the
// gadgets' common forms are evaluated by straight-line code chosen by one switch on this value
// (after a check of the entries' kinds, which given the lengths almost always passes); the rest
// go through row_dot. One dispatch per row replaces the per-kind loop exits of three row_dot
// calls, whose outcome changes from row to row when the row forms are mixed.
constexpr unsigned shape(unsigned la, unsigned lb, unsigned lc) { return la | lb << 3 | lc << 6; }

// Rows of blocks [blo, bhi) (kBlockRows rows each). kNt: a, b, c written with non-temporal stores.
// kShapes: the per-row shape dispatch (off: every row through row_dot; both give the same bits).
template <bool kBool, bool kNt, bool kShapes>
void eval_blocks(const R1csMatrices& m, const Fr* z, Fr* a, Fr* b, Fr* c, std::size_t blo, std::size_t bhi) {
  constexpr std::uint32_t kMask = SparseMatrix::kColumnMask;
  constexpr std::uint32_t kPlusEnd = 1u << SparseMatrix::kKindShift;  // col word < this: +1 term
  const std::size_t lo = blo * SparseMatrix::kBlockRows;
  const std::size_t hi = std::min<std::size_t>(m.num_constraints, bhi * SparseMatrix::kBlockRows);
  std::uint64_t ga = m.a.block_gen[blo], gb = m.b.block_gen[blo], gc = m.c.block_gen[blo];
  const std::uint64_t *pa = m.a.row_ptr.data(), *pb = m.b.row_ptr.data(), *pc = m.c.row_ptr.data();
  const std::uint32_t *ca = m.a.col.data(), *cb = m.b.col.data(), *cc = m.c.col.data();
  auto is_minus = [](std::uint32_t w) { return (w >> SparseMatrix::kKindShift) == 1; };
  auto is_general = [](std::uint32_t w) { return (w >> SparseMatrix::kKindShift) == 2; };
  const std::size_t last = m.num_constraints;
  const std::uint64_t na = m.a.col.size(), nb = m.b.col.size(), nc = m.c.col.size();
  // Index of the coefficient 2 in A's table (UINT32_MAX when absent): xor rows double instead.
  std::uint32_t two_a = UINT32_MAX;
  if constexpr (kShapes) {
    const Fr two = Fr::one() + Fr::one();
    for (std::size_t i = 0; i < m.a.coeffs.size(); ++i) {
      if (fr_eq(m.a.coeffs[i], two)) {
        two_a = static_cast<std::uint32_t>(i);
        break;
      }
    }
  }
  for (std::size_t k = lo; k < hi; ++k) {
    {
      // The witness values that row k + kAhead reads (its first term in A, B and C), fetched now
      // (SpMV at 2^18 39.5-40.8 -> 37.8-39.5 ns/row, 3 A/B rounds).
      constexpr std::size_t kAhead = 8;
      // The entry read is row r's first or, for an empty row, the next row's: inside col unless
      // no later row has an entry (a matrix may be empty altogether: snarkjs's C).
      const std::size_t r = std::min(k + kAhead, last - 1);
      const std::uint64_t ea = pa[r], eb = pb[r], ec = pc[r];
      if (ea < na) _mm_prefetch(reinterpret_cast<const char*>(z + (ca[ea] & kMask)), _MM_HINT_T0);
      if (eb < nb) _mm_prefetch(reinterpret_cast<const char*>(z + (cb[eb] & kMask)), _MM_HINT_T0);
      if (ec < nc) _mm_prefetch(reinterpret_cast<const char*>(z + (cc[ec] & kMask)), _MM_HINT_T0);
    }
    Fr va, vb, vc;
    bool done = false;
    if constexpr (kShapes) {
      const std::uint64_t a0 = pa[k], b0 = pb[k], c0 = pc[k];
      const std::uint64_t la = std::min<std::uint64_t>(pa[k + 1] - a0, 4);
      const std::uint64_t lb = std::min<std::uint64_t>(pb[k + 1] - b0, 4);
      const std::uint64_t lc = std::min<std::uint64_t>(pc[k + 1] - c0, 4);
      switch (static_cast<unsigned>(la | lb << 3 | lc << 6)) {
        case shape(2, 1, 0):  // boolean (ONE − b)·b = 0
          if (ca[a0] < kPlusEnd && is_minus(ca[a0 + 1]) && cb[b0] < kPlusEnd) {
            va = z[ca[a0]];
            acc_sub(va, z[ca[a0 + 1] & kMask]);
            vb = z[cb[b0]];
            vc = Fr::zero();
            done = true;
          }
          break;
        case shape(1, 1, 3):  // xor (k·a)·b = a + b − c
          if (is_general(ca[a0]) && cb[b0] < kPlusEnd && cc[c0] < kPlusEnd && cc[c0 + 1] < kPlusEnd &&
              is_minus(cc[c0 + 2])) {
            const std::uint32_t ci = m.a.gen_idx[ga++];
            if (ci == two_a) {
              // Boolean::xor's 2a: a doubling, whatever a's value (no test of it, no multiplication).
              va = z[ca[a0] & kMask];
              acc_add(va, va);
            } else {
              va = Fr::zero();
              acc_general<kBool>(va, m.a.coeffs[ci], z[ca[a0] & kMask]);
            }
            vb = z[cb[b0]];
            vc = z[cc[c0]];
            acc_add(vc, z[cc[c0 + 1]]);
            acc_sub(vc, z[cc[c0 + 2] & kMask]);
            done = true;
          }
          break;
        case shape(1, 1, 1):  // mul x·y = z
          if (ca[a0] < kPlusEnd && cb[b0] < kPlusEnd && cc[c0] < kPlusEnd) {
            va = z[ca[a0]];
            vb = z[cb[b0]];
            vc = z[cc[c0]];
            done = true;
          }
          break;
        default:
          break;
      }
    }
    if (!done) {
      va = row_dot<kBool>(m.a, k, z, ga);
      vb = row_dot<kBool>(m.b, k, z, gb);
      vc = row_dot<kBool>(m.c, k, z, gc);
    }
    if constexpr (kNt) {
      store_nt(a + k, va);
      store_nt(b + k, vb);
      store_nt(c + k, vc);
    } else {
      a[k] = va;
      b[k] = vb;
      c[k] = vc;
    }
  }
  if constexpr (kNt) _mm_sfence();
}

// Output and matrix shapes (not the witness).
Status check_outputs(const R1csMatrices& m, std::size_t na, std::size_t nb, std::size_t nc) {
  const std::size_t n = m.num_constraints;
  if (na != n || nb != n || nc != n)
    return Status(Errc::size_mismatch, "a/b/c outputs must have one entry per constraint (" + std::to_string(n) + ")");
  if (m.a.num_rows() != n || m.b.num_rows() != n || m.c.num_rows() != n)
    return Status(Errc::size_mismatch, "matrices have a row count different from num_constraints");
  const std::size_t blocks = (n + SparseMatrix::kBlockRows - 1) / SparseMatrix::kBlockRows;
  if (m.a.block_gen.size() != blocks || m.b.block_gen.size() != blocks || m.c.block_gen.size() != blocks)
    return Status(Errc::size_mismatch, "matrices' block offsets disagree with the row count");
  return {};
}

Status check_witness(const R1csMatrices& m, std::size_t z) {
  if (z != m.num_columns()) {
    return Status(Errc::size_mismatch, "witness has " + std::to_string(z) + " values, the R1CS " +
                                           std::to_string(m.num_columns()) + " variables");
  }
  return {};
}

void eval_range(const R1csMatrices& m, const Fr* z, Fr* a, Fr* b, Fr* c, std::size_t blo, std::size_t bhi,
                const PceOptions& opt) {
  // Non-temporal stores need 16-byte aligned outputs (vectors are; a span need not be).
  auto aligned = [](const Fr* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; };
  const bool nt = m.num_constraints >= opt.nt_store_min_rows && aligned(a) && aligned(b) && aligned(c);
  const unsigned sel = (opt.boolean_fast_path ? 4u : 0u) | (nt ? 2u : 0u) | (opt.row_shapes ? 1u : 0u);
  switch (sel) {
    case 0: return eval_blocks<false, false, false>(m, z, a, b, c, blo, bhi);
    case 1: return eval_blocks<false, false, true>(m, z, a, b, c, blo, bhi);
    case 2: return eval_blocks<false, true, false>(m, z, a, b, c, blo, bhi);
    case 3: return eval_blocks<false, true, true>(m, z, a, b, c, blo, bhi);
    case 4: return eval_blocks<true, false, false>(m, z, a, b, c, blo, bhi);
    case 5: return eval_blocks<true, false, true>(m, z, a, b, c, blo, bhi);
    case 6: return eval_blocks<true, true, false>(m, z, a, b, c, blo, bhi);
    default: return eval_blocks<true, true, true>(m, z, a, b, c, blo, bhi);
  }
}

}  // namespace

void classify_witness(ThreadPool& pool, std::span<const Fr> z, std::span<std::uint8_t> out) {
  const Fr::Repr one = Fr::one().l;
  pool.parallel_for(
      z.size(),
      [&](std::size_t lo, std::size_t hi) {
        for (std::size_t i = lo; i < hi; ++i) {
          const Fr::Repr& v = z[i].l;
          const std::uint64_t nz = v[0] | v[1] | v[2] | v[3];
          const std::uint64_t n1 = (v[0] ^ one[0]) | (v[1] ^ one[1]) | (v[2] ^ one[2]) | (v[3] ^ one[3]);
          out[i] = nz == 0 ? 0 : (n1 == 0 ? 1 : 2);
        }
      },
      1 << 14);
}

PceSchedule pce_schedule(const R1csMatrices& m) {
  const std::size_t rows = m.num_constraints;
  const std::size_t blocks = (rows + SparseMatrix::kBlockRows - 1) / SparseMatrix::kBlockRows;
  PceSchedule s;
  s.need_columns.assign(blocks, 0);
  s.need_inputs.assign(blocks, 0);
  const std::uint64_t ni = m.num_inputs;
  std::uint64_t cols = 0, ins = 0;
  for (std::size_t b = 0; b < blocks; ++b) {
    const std::size_t lo = b * SparseMatrix::kBlockRows;
    const std::size_t hi = std::min(rows, lo + SparseMatrix::kBlockRows);
    for (const SparseMatrix* x : {&m.a, &m.b, &m.c}) {
      if (x->num_rows() < hi) continue;  // malformed: PceStream reports it
      for (std::uint64_t e = x->row_ptr[lo]; e < x->row_ptr[hi]; ++e) {
        const std::uint64_t j = SparseMatrix::column_of(x->col[e]);
        if (j >= ni) {
          cols = std::max(cols, j + 1);
        } else {
          ins = std::max(ins, j + 1);
        }
      }
    }
    s.need_columns[b] = cols;
    s.need_inputs[b] = ins;
  }
  return s;
}

namespace {
// Concurrent stream: blocks per claim (512 rows: the helper's chunk in flight, which
// before_grow may wait for, stays ≈ 20 µs), blocks pending before a sleeping helper is woken
// (a wake costs a futex call and a reschedule: ≈ 5–50 µs on the development VM; woken with
// 16 k rows pending, the helper catches up with synthesis after ≈ 2.4 × that, so a proof sees
// a few sleep/wake cycles, and finish() shares at most that backlog), and the helper's spin
// (pause instructions) before it sleeps: short, since synthesis publishes every 2048 rows.
constexpr std::size_t kClaimBlocks = 8;
constexpr std::size_t kWakeBlocks = 256;
constexpr unsigned kHelperSpin = 64;
}  // namespace

PceStream::PceStream(const R1csMatrices& m, const PceSchedule& s, std::span<Fr> a, std::span<Fr> b,
                     std::span<Fr> c, const PceOptions& opt, bool concurrent)
    : m_(m), s_(s), a_(a), b_(b), c_(c), opt_(opt), concurrent_(concurrent) {
  status_ = check_outputs(m, a.size(), b.size(), c.size());
  blocks_ = (m.num_constraints + SparseMatrix::kBlockRows - 1) / SparseMatrix::kBlockRows;
  if (status_.ok() && (s.need_columns.size() != blocks_ || s.need_inputs.size() != blocks_))
    status_ = Status(Errc::size_mismatch, "PCE schedule was built for other matrices");
}

PceStream::~PceStream() { close(); }

bool PceStream::claim(std::size_t& lo, std::size_t& hi) {
  std::size_t c = claimed_.load(std::memory_order_relaxed);
  for (;;) {
    const std::size_t r = ready_.load(std::memory_order_acquire);
    if (c >= r) return false;
    const std::size_t n = std::min(r, c + kClaimBlocks);
    if (claimed_.compare_exchange_weak(c, n, std::memory_order_acq_rel, std::memory_order_relaxed)) {
      lo = c;
      hi = n;
      return true;
    }
  }
}

void PceStream::run_claim(std::size_t lo, std::size_t hi) {
  // z_ is replaced only after every claim below ready_ has completed (before_grow), so the
  // pointer loaded after a successful claim is the one the claimed blocks were published with.
  eval_range(m_, z_.load(std::memory_order_acquire), a_.data(), b_.data(), c_.data(), lo, hi, opt_);
  completed_.fetch_add(hi - lo, std::memory_order_release);
}

void PceStream::wait_completed(std::size_t target) {
  // The other thread holds at most one claim (kClaimBlocks blocks): a short wait.
  for (unsigned i = 0; completed_.load(std::memory_order_acquire) < target; ++i) {
    if (i < 4096) {
      _mm_pause();
    } else {
      std::this_thread::yield();
    }
  }
}

void PceStream::wake_helper(bool force) {
  if (!sleeping_.load(std::memory_order_seq_cst)) return;
  if (!force &&
      ready_.load(std::memory_order_relaxed) < claimed_.load(std::memory_order_relaxed) + kWakeBlocks)
    return;
  std::lock_guard lock(mu_);
  cv_.notify_one();
}

void PceStream::run_helper() {
  if (!concurrent_) return;
  std::size_t lo = 0, hi = 0;
  for (;;) {
    if (claim(lo, hi)) {
      run_claim(lo, hi);
      helper_blocks_.fetch_add(hi - lo, std::memory_order_relaxed);
      continue;
    }
    if (closed_.load(std::memory_order_acquire)) return;
    bool more = false;
    for (unsigned i = 0; i < kHelperSpin && !more; ++i) {
      _mm_pause();
      more = ready_.load(std::memory_order_relaxed) > claimed_.load(std::memory_order_relaxed) ||
             closed_.load(std::memory_order_relaxed);
    }
    if (more) continue;
    // Sleep until kWakeBlocks blocks are pending, or the end. sleeping_ is stored before the
    // predicate reads ready_ and the publisher stores ready_ before it reads sleeping_ (both
    // sequentially consistent): one of the two sees the other, so no wake is lost.
    std::unique_lock lock(mu_);
    sleeping_.store(true, std::memory_order_seq_cst);
    // After finish() published the rest, any pending block is worth waking for; once everything
    // is claimed the helper sleeps until close() (waking for final_ alone would busy-loop).
    cv_.wait(lock, [this] {
      if (closed_.load(std::memory_order_seq_cst)) return true;
      const std::size_t ready = ready_.load(std::memory_order_seq_cst);
      const std::size_t claimed = claimed_.load(std::memory_order_relaxed);
      return ready >= claimed + (final_.load(std::memory_order_seq_cst) ? 1 : kWakeBlocks);
    });
    sleeping_.store(false, std::memory_order_relaxed);
  }
}

void PceStream::close() {
  if (!concurrent_ || closed_.exchange(true, std::memory_order_acq_rel)) return;
  // Take every block still claimable without evaluating it, then wait for the helper's chunk.
  std::size_t lo = 0, hi = 0;
  while (claim(lo, hi)) completed_.fetch_add(hi - lo, std::memory_order_release);
  wake_helper(true);
  wait_completed(claimed_.load(std::memory_order_acquire));
}

void PceStream::before_grow() {
  if (!concurrent_ || closed_.load(std::memory_order_relaxed)) return;
  std::size_t lo = 0, hi = 0;
  if (ready_.load(std::memory_order_relaxed) > claimed_.load(std::memory_order_relaxed) + kClaimBlocks)
    wake_helper(true);  // a sleeping helper shares the drain
  while (claim(lo, hi)) run_claim(lo, hi);
  wait_completed(claimed_.load(std::memory_order_acquire));
}

void PceStream::advance(const Fr* z, std::size_t columns, std::size_t inputs, std::size_t& next_columns,
                        std::size_t& next_inputs) {
  // Batches of 32 blocks (2048 rows) per call: the values they read are still in L2.
  constexpr std::size_t kBatch = 32;
  if (!status_.ok() || closed_.load(std::memory_order_relaxed)) {
    next_columns = next_inputs = SIZE_MAX;
    return;
  }
  std::size_t b = next_block_;
  while (b < blocks_ && s_.need_columns[b] <= columns && s_.need_inputs[b] <= inputs) ++b;
  if (b > next_block_) {
    if (concurrent_) {
      // Published for the helper: z's values up to here happen-before its acquire of ready_.
      z_.store(z, std::memory_order_release);
      ready_.store(b, std::memory_order_seq_cst);
      wake_helper(false);
    } else {
      eval_range(m_, z, a_.data(), b_.data(), c_.data(), next_block_, b, opt_);
    }
    rows_streamed_ = std::min<std::size_t>(m_.num_constraints, b * SparseMatrix::kBlockRows);
    next_block_ = b;
  }
  if (next_block_ >= blocks_) {
    next_columns = next_inputs = SIZE_MAX;
    return;
  }
  const std::size_t target = std::min(blocks_ - 1, next_block_ + kBatch - 1);
  next_columns = std::max<std::size_t>(s_.need_columns[target], columns + 1);
  next_inputs = s_.need_inputs[target];
}

Status PceStream::finish(std::span<const Fr> z) {
  Status st = status_;
  if (st.ok()) st = check_witness(m_, z.size());
  if (!st.ok()) {
    close();
    return st;
  }
  if (concurrent_ && !closed_.load(std::memory_order_relaxed)) {
    // Everything is ready now: publish the rest and work through it beside the helper.
    z_.store(z.data(), std::memory_order_release);
    ready_.store(blocks_, std::memory_order_seq_cst);
    final_.store(true, std::memory_order_seq_cst);
    wake_helper(true);
    std::size_t lo = 0, hi = 0;
    while (claim(lo, hi)) run_claim(lo, hi);
    wait_completed(blocks_);
    close();
    next_block_ = blocks_;
    return {};
  }
  if (next_block_ < blocks_) eval_range(m_, z.data(), a_.data(), b_.data(), c_.data(), next_block_, blocks_, opt_);
  next_block_ = blocks_;
  return {};
}

Result<std::vector<Fr>> synthesize_pce(ThreadPool& pool, Circuit& circuit, const R1csMatrices& m, const PceSchedule& s,
                                       std::span<Fr> a, std::span<Fr> b, std::span<Fr> c, std::vector<Fr>&& storage,
                                       const PceOptions& opt) {
  const bool two = pool.size() >= 2 && m.num_constraints >= opt.pipeline_min_rows;
  if (!two) {
    // One thread: synthesis, then the SpMV (the fused one-thread stream measured ≈ 10 % slower).
    WitnessConstraintSystem cs({.reserve_aux = m.num_aux, .num_inputs_hint = m.num_inputs}, std::move(storage));
    CUZK_RETURN_IF_ERROR(synthesize_circuit(circuit, cs));
    std::vector<Fr> z = cs.take_assignment();
    ThreadPool one(1);
    CUZK_RETURN_IF_ERROR(pce_evaluate_into(one, m, z, a, b, c, opt));
    return z;
  }
  PceStream stream(m, s, a, b, c, opt, true);
  Status st;
  std::vector<Fr> z;
  auto synth = [&] {
    struct Closer {  // the helper must return whatever happens here (an exception included)
      PceStream& s;
      ~Closer() { s.close(); }
    } closer{stream};
    WitnessConstraintSystem cs({.reserve_aux = m.num_aux, .num_inputs_hint = m.num_inputs, .stream = &stream},
                               std::move(storage));
    st = synthesize_circuit(circuit, cs);
    if (!st.ok()) return;
    z = cs.take_assignment();
    st = stream.finish(z);
  };
  {
    // Index 0 synthesises, index 1 is the helper. A thread claims index 1 only after index 0 was
    // claimed, so the helper never waits on a synthesis that has not started; a busy pool runs
    // both inline, in order (the helper then finds the stream closed and returns).
    pool.parallel_for(
        2,
        [&](std::size_t i) {
          if (i == 0) {
            synth();
          } else {
            stream.run_helper();
          }
        },
        1);
  }
  CUZK_RETURN_IF_ERROR(st);
  return z;
}

Status pce_evaluate_into(ThreadPool& pool, const R1csMatrices& m, std::span<const Fr> z, std::span<Fr> a,
                         std::span<Fr> b, std::span<Fr> c, const PceOptions& opt) {
  CUZK_RETURN_IF_ERROR(check_witness(m, z.size()));
  CUZK_RETURN_IF_ERROR(check_outputs(m, a.size(), b.size(), c.size()));
  const std::size_t blocks = (m.num_constraints + SparseMatrix::kBlockRows - 1) / SparseMatrix::kBlockRows;
  pool.parallel_for(
      blocks,
      [&](std::size_t blo, std::size_t bhi) { eval_range(m, z.data(), a.data(), b.data(), c.data(), blo, bhi, opt); },
      std::max<std::size_t>(1, opt.min_rows_per_task / SparseMatrix::kBlockRows));
  return {};
}

Result<AbcVectors> pce_evaluate(ThreadPool& pool, const R1csMatrices& m, std::span<const Fr> z,
                                const PceOptions& opt) {
  AbcVectors v;
  v.a.resize(m.num_constraints);
  v.b.resize(m.num_constraints);
  v.c.resize(m.num_constraints);
  CUZK_RETURN_IF_ERROR(pce_evaluate_into(pool, m, z, v.a, v.b, v.c, opt));
  return v;
}

AbcVectors spmv_naive(const R1csMatrices& m, std::span<const Fr> z) {
  AbcVectors v;
  const SparseMatrix* mats[3] = {&m.a, &m.b, &m.c};
  std::vector<Fr>* outs[3] = {&v.a, &v.b, &v.c};
  for (int t = 0; t < 3; ++t) {
    outs[t]->assign(m.num_constraints, Fr::zero());
    for (std::size_t k = 0; k < m.num_constraints; ++k) {
      Fr acc = Fr::zero();
      mats[t]->for_each_term(k, [&](std::uint32_t j, const Fr& coeff) { acc += coeff * z[j]; });
      (*outs[t])[k] = acc;
    }
  }
  return v;
}

bool abc_satisfied(const AbcVectors& v, std::size_t* first_bad) {
  for (std::size_t k = 0; k < v.a.size(); ++k) {
    if (!(v.a[k] * v.b[k] == v.c[k])) {
      if (first_bad) *first_bad = k;
      return false;
    }
  }
  return true;
}

}  // namespace cuzk
