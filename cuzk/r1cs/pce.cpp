#include "cuzk/r1cs/pce.hpp"

#include <emmintrin.h>
#include <immintrin.h>

#include <algorithm>
#include <string>
#include <thread>
#include <unordered_map>

#include "cuzk/ff/fr_accumulate.hpp"
#include "cuzk/r1cs/sparse_row.hpp"
#include "cuzk/r1cs/witness_cs.hpp"

namespace cuzk {
namespace {

// The shape of row k across A, B, C: its three lengths (4 standing for 4 or more), 3 bits each. Rows of the
// gadgets' common forms are evaluated by straight-line code chosen by one switch on this value
// (after a check of the entries' kinds, which given the lengths almost always passes); the rest
// go through row_dot. One dispatch per row replaces the per-kind loop exits of three row_dot
// calls, whose outcome changes from row to row when the row forms are mixed.
constexpr unsigned shape(unsigned la, unsigned lb, unsigned lc) { return la | lb << 3 | lc << 6; }

// Rows of blocks [blo, bhi) (kBlockRows rows each). kNt: a, b, c written with non-temporal stores.
// kShapes: the per-row shape dispatch (off: every row through row_dot; both give the same bits).
template <bool kBool, bool kNt, bool kShapes>
void eval_blocks(const R1csMatrices& m, const Fr* z, Fr* a, Fr* b, Fr* c, std::size_t blo,
                 std::size_t bhi) {
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
            fr_acc_sub(va, z[ca[a0 + 1] & kMask]);
            vb = z[cb[b0]];
            vc = Fr::zero();
            done = true;
          }
          break;
        case shape(1, 1, 3):  // xor (k·a)·b = a + b − c
          if (is_general(ca[a0]) && cb[b0] < kPlusEnd && cc[c0] < kPlusEnd &&
              cc[c0 + 1] < kPlusEnd && is_minus(cc[c0 + 2])) {
            const std::uint32_t ci = m.a.gen_idx[ga++];
            if (ci == two_a) {
              // Boolean::xor's 2a: a doubling, whatever a's value (no test of it, no multiplication).
              va = z[ca[a0] & kMask];
              fr_acc_add(va, va);
            } else {
              va = Fr::zero();
              acc_general<kBool>(va, m.a.coeffs[ci], z[ca[a0] & kMask]);
            }
            vb = z[cb[b0]];
            vc = z[cc[c0]];
            fr_acc_add(vc, z[cc[c0 + 1]]);
            fr_acc_sub(vc, z[cc[c0 + 2] & kMask]);
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

// ---- The compiled plan (PcePlan) ----
// Entry words per form: boolean [r, p, x, y], xor [r, x, y, w], mul [r, x, y, w],
// long [r], linear [r | columns << 6 | words << 16, hdr A, hdr B, hdr C, the columns of A, B and
// C, then their coefficient words], r being the row's index in its block. A matrix's columns are
// its n+ (+1) terms, n− (−1) terms, nb general terms on bit columns, n2+ / n2− terms ±2^e on
// other columns, nf other general terms, in that order; coefficient words (coefficient index, or
// e for ±2^e) follow the general terms' order. hdr = n+ | n− << 5 | nb << 10 | n2+ << 15 |
// n2− << 20 | nf << 25; hdr == 1 (a single +1 term) is a copy. The columns are contiguous so the
// next row's witness values can be prefetched with one short loop.
constexpr std::uint32_t kBooleanWords = 4, kXorWords = 4, kMulWords = 4;
// A linear part's header with this bit: np | nm << 5 | (1 for −2) << 10, columns the ±1 terms'
// then w's, no coefficient word: ±2·w plus at most three ±1 terms.
constexpr std::uint32_t kDoubleTerm = 1u << 31;

// A 320-bit accumulator in five registers (asm with register operands: the carry intrinsics take
// addresses, which kept the accumulators on the stack).
struct Wide {
  std::uint64_t x0 = 0, x1 = 0, x2 = 0, x3 = 0, x4 = 0;
};

[[gnu::always_inline]] inline void wide_add(Wide& w, std::uint64_t v0, std::uint64_t v1,
                                            std::uint64_t v2, std::uint64_t v3) {
  __asm__(
      "addq %[v0], %[x0]\n\t"
      "adcq %[v1], %[x1]\n\t"
      "adcq %[v2], %[x2]\n\t"
      "adcq %[v3], %[x3]\n\t"
      "adcq $0, %[x4]"
      : [x0] "+r"(w.x0), [x1] "+r"(w.x1), [x2] "+r"(w.x2), [x3] "+r"(w.x3), [x4] "+r"(w.x4)
      : [v0] "rm"(v0), [v1] "rm"(v1), [v2] "rm"(v2), [v3] "rm"(v3)
      : "cc");
}
[[gnu::always_inline]] inline void wide_add(Wide& w, const Fr& v) {
  __asm__(
      "addq 0(%[v]), %[x0]\n\t"
      "adcq 8(%[v]), %[x1]\n\t"
      "adcq 16(%[v]), %[x2]\n\t"
      "adcq 24(%[v]), %[x3]\n\t"
      "adcq $0, %[x4]"
      : [x0] "+r"(w.x0), [x1] "+r"(w.x1), [x2] "+r"(w.x2), [x3] "+r"(w.x3), [x4] "+r"(w.x4)
      : [v] "r"(v.l.data()), "m"(v.l)
      : "cc");
}

// h · 2^254 mod r for h < 64 (integers: the Montgomery representations are summed as integers).
struct FoldTable {
  Fr::Repr t[64];
  std::uint64_t r16[5];  // 16 r
  FoldTable() {
    Fr step;
    step.l = {0, 0, 0, std::uint64_t{1} << 62};  // 2^254 < r
    Fr acc = Fr::zero();
    for (auto& e : t) {
      e = acc.l;
      fr_acc_add(acc, step);
    }
    const Fr::Repr& r = Fr::kModulus;
    r16[0] = r[0] << 4;
    r16[1] = (r[1] << 4) | (r[0] >> 60);
    r16[2] = (r[2] << 4) | (r[1] >> 60);
    r16[3] = (r[3] << 4) | (r[2] >> 60);
    r16[4] = r[3] >> 60;
  }
};
const FoldTable kFold;

// (pos − neg) mod r for pos, neg < 16 r: x = pos + 16 r − neg < 32 r < 2^260; with h = x >> 254
// (< 64), x ≡ T[h] + (x mod 2^254) < r + 2^254 < 2r, so one conditional subtraction is left.
[[gnu::always_inline]] inline Fr wide_reduce(Wide p, const Wide& n) {
  const std::uint64_t* r16 = kFold.r16;
  __asm__(
      "addq 0(%[k]), %[x0]\n\t"
      "adcq 8(%[k]), %[x1]\n\t"
      "adcq 16(%[k]), %[x2]\n\t"
      "adcq 24(%[k]), %[x3]\n\t"
      "adcq 32(%[k]), %[x4]\n\t"
      "subq %[n0], %[x0]\n\t"
      "sbbq %[n1], %[x1]\n\t"
      "sbbq %[n2], %[x2]\n\t"
      "sbbq %[n3], %[x3]\n\t"
      "sbbq %[n4], %[x4]"
      : [x0] "+r"(p.x0), [x1] "+r"(p.x1), [x2] "+r"(p.x2), [x3] "+r"(p.x3), [x4] "+r"(p.x4)
      : [k] "r"(r16), "m"(kFold.r16), [n0] "rm"(n.x0), [n1] "rm"(n.x1), [n2] "rm"(n.x2),
        [n3] "rm"(n.x3), [n4] "rm"(n.x4)
      : "cc");
  const std::uint64_t h = (p.x4 << 2) | (p.x3 >> 62);
  const Fr::Repr& t = kFold.t[h];
  std::uint64_t y0 = p.x0, y1 = p.x1, y2 = p.x2, y3 = p.x3 & ((std::uint64_t{1} << 62) - 1);
  std::uint64_t s0, s1, s2, s3;
  const Fr::Repr& r = Fr::kModulus;
  __asm__(
      "addq 0(%[t]), %[y0]\n\t"
      "adcq 8(%[t]), %[y1]\n\t"
      "adcq 16(%[t]), %[y2]\n\t"
      "adcq 24(%[t]), %[y3]\n\t"
      "movq %[y0], %[s0]\n\t"
      "subq %[p0], %[s0]\n\t"
      "movq %[y1], %[s1]\n\t"
      "sbbq %[p1], %[s1]\n\t"
      "movq %[y2], %[s2]\n\t"
      "sbbq %[p2], %[s2]\n\t"
      "movq %[y3], %[s3]\n\t"
      "sbbq %[p3], %[s3]\n\t"
      "cmovncq %[s0], %[y0]\n\t"
      "cmovncq %[s1], %[y1]\n\t"
      "cmovncq %[s2], %[y2]\n\t"
      "cmovncq %[s3], %[y3]"
      : [y0] "+&r"(y0), [y1] "+&r"(y1), [y2] "+&r"(y2), [y3] "+&r"(y3), [s0] "=&r"(s0),
        [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3)
      : [t] "r"(t.data()), "m"(t), [p0] "m"(r[0]), [p1] "m"(r[1]), [p2] "m"(r[2]), [p3] "m"(r[3])
      : "cc");
  Fr out;
  out.l = {y0, y1, y2, y3};
  return out;
}

// Adds q·v for a v that should be a bit (0 or 1 = Montgomery R): q masked by v, no product. A v
// that is neither sets bits of |bad| (the caller then redoes its rows exactly).
[[gnu::always_inline]] inline void wide_add_masked_bit(Wide& acc, const Fr& q, const Fr& v,
                                                       std::uint64_t& bad) {
  constexpr Fr::Repr kOne = Fr::one().l;
  const std::uint64_t m = 0 - static_cast<std::uint64_t>(v.l[0] != 0);
  bad |= (v.l[0] ^ (kOne[0] & m)) | (v.l[1] ^ (kOne[1] & m)) | (v.l[2] ^ (kOne[2] & m)) |
         (v.l[3] ^ (kOne[3] & m));
  wide_add(acc, q.l[0] & m, q.l[1] & m, q.l[2] & m, q.l[3] & m);
}

// Adds v · 2^e (1 ≤ e ≤ 63) as an integer below 3r: the 318-bit shift, less q·r with q from a
// Barrett estimate on its top 64 bits (μ = ⌊2^318 / r⌋; q ≤ t / r < q + 3). No Montgomery product.
constexpr std::uint64_t kPow2Mu = 0x8d54253b7fb78ddfULL;
[[gnu::always_inline]] inline void wide_add_pow2(Wide& acc, const Fr& v, unsigned e) {
  using u128 = unsigned __int128;
  const unsigned s = 64 - e;
  const std::uint64_t v0 = v.l[0], v1 = v.l[1], v2 = v.l[2], v3 = v.l[3];
  const std::uint64_t t0 = v0 << e, t1 = (v1 << e) | (v0 >> s), t2 = (v2 << e) | (v1 >> s),
                      t3 = (v3 << e) | (v2 >> s), t4 = v3 >> s;
  const std::uint64_t q =
      static_cast<std::uint64_t>((static_cast<u128>((t4 << 2) | (t3 >> 62)) * kPow2Mu) >> 64);
  const Fr::Repr& r = Fr::kModulus;
  u128 p = static_cast<u128>(q) * r[0];
  const std::uint64_t m0 = static_cast<std::uint64_t>(p);
  p = static_cast<u128>(q) * r[1] + static_cast<std::uint64_t>(p >> 64);
  const std::uint64_t m1 = static_cast<std::uint64_t>(p);
  p = static_cast<u128>(q) * r[2] + static_cast<std::uint64_t>(p >> 64);
  const std::uint64_t m2 = static_cast<std::uint64_t>(p);
  p = static_cast<u128>(q) * r[3] + static_cast<std::uint64_t>(p >> 64);
  const std::uint64_t m3 = static_cast<std::uint64_t>(p), m4 = static_cast<std::uint64_t>(p >> 64);
  std::uint64_t d0 = t0, d1 = t1, d2 = t2, d3 = t3, d4 = t4;
  __asm__(
      "subq %[m0], %[d0]\n\t"
      "sbbq %[m1], %[d1]\n\t"
      "sbbq %[m2], %[d2]\n\t"
      "sbbq %[m3], %[d3]\n\t"
      "sbbq %[m4], %[d4]"
      : [d0] "+r"(d0), [d1] "+r"(d1), [d2] "+r"(d2), [d3] "+r"(d3), [d4] "+r"(d4)
      : [m0] "rm"(m0), [m1] "rm"(m1), [m2] "rm"(m2), [m3] "rm"(m3), [m4] "rm"(m4)
      : "cc");
  __asm__(
      "addq %[d0], %[x0]\n\t"
      "adcq %[d1], %[x1]\n\t"
      "adcq %[d2], %[x2]\n\t"
      "adcq %[d3], %[x3]\n\t"
      "adcq %[d4], %[x4]"
      :
      [x0] "+r"(acc.x0), [x1] "+r"(acc.x1), [x2] "+r"(acc.x2), [x3] "+r"(acc.x3), [x4] "+r"(acc.x4)
      : [d0] "rm"(d0), [d1] "rm"(d1), [d2] "rm"(d2), [d3] "rm"(d3), [d4] "rm"(d4)
      : "cc");
}

// One matrix's part of a linear entry (header |h|): its columns from |c|, its coefficient
// indices and exponents from |k|, both advanced. |bad| collects the bit checks.
template <bool kBool>
[[gnu::always_inline]] inline void linear_eval(std::uint32_t h, const std::uint32_t*& c,
                                               const std::uint32_t*& k, const Fr* z,
                                               const Fr* coeffs, Fr& out, std::uint64_t& bad) {
  if (h == 1) {
    out = z[*c++];
    return;
  }
  if (h & kDoubleTerm) {
    // ±2·w and at most three ±1 terms (SHA-256's majority rows): w + w, then modular adds.
    const std::uint32_t np = h & 31, nm = (h >> 5) & 31;
    const Fr& w = z[c[np + nm]];
    Fr acc = w;
    fr_acc_add(acc, w);
    if ((h >> 10) & 1) {
      Fr neg = Fr::zero();
      fr_acc_sub(neg, acc);
      acc = neg;
    }
    for (std::uint32_t i = 0; i < np; ++i) fr_acc_add(acc, z[c[i]]);
    for (std::uint32_t i = np; i < np + nm; ++i) fr_acc_sub(acc, z[c[i]]);
    c += np + nm + 1;
    out = acc;
    return;
  }
  if (h <= (3u | 3u << 5) && (h & 31) + (h >> 5) <= 3) {
    // At most three ±1 terms (SHA-256's choice and majority rows): modular adds cost less
    // than the wide sums' reduction.
    const std::uint32_t np = h & 31, nm = h >> 5;
    Fr acc = np ? z[c[0]] : Fr::zero();
    for (std::uint32_t i = 1; i < np; ++i) fr_acc_add(acc, z[c[i]]);
    for (std::uint32_t i = np; i < np + nm; ++i) fr_acc_sub(acc, z[c[i]]);
    c += np + nm;
    out = acc;
    return;
  }
  Wide pos, neg;
  const std::uint32_t np = h & 31, nm = (h >> 5) & 31, nb = (h >> 10) & 31, n2p = (h >> 15) & 31,
                      n2m = (h >> 20) & 31, nf = h >> 25;
  for (std::uint32_t i = 0; i < np; ++i) wide_add(pos, z[c[i]]);
  c += np;
  for (std::uint32_t i = 0; i < nm; ++i) wide_add(neg, z[c[i]]);
  c += nm;
  constexpr Fr::Repr kOne = Fr::one().l;
  for (std::uint32_t i = 0; i < nb; ++i) {
    const Fr& v = z[*c++];
    const Fr& q = coeffs[*k++];
    if constexpr (kBool) {
      wide_add_masked_bit(pos, q, v, bad);
    } else {
      wide_add(pos, q * v);
    }
  }
  for (std::uint32_t i = 0; i < n2p; ++i) wide_add_pow2(pos, z[*c++], *k++);
  for (std::uint32_t i = 0; i < n2m; ++i) wide_add_pow2(neg, z[*c++], *k++);
  for (std::uint32_t i = 0; i < nf; ++i) {
    const Fr& v = z[*c++];
    const Fr& q = coeffs[*k++];
    if constexpr (kBool) {
      const Fr::Repr& x = v.l;
      if ((x[0] | x[1] | x[2] | x[3]) == 0) continue;
      if (((x[0] ^ kOne[0]) | (x[1] ^ kOne[1]) | (x[2] ^ kOne[2]) | (x[3] ^ kOne[3])) == 0) {
        wide_add(pos, q);
        continue;
      }
    }
    wide_add(pos, q * v);
  }
  out = wide_reduce(pos, neg);
}

// The linear rows of block |blk| as flat term lists: each (row, matrix, sign) has a 320-bit slot
// (slot = (row's index among the block's linear rows · 3 + matrix) · 2 + sign); one loop per
// term kind adds every term of the block into its slot, the terms of different rows interleaved
// so that consecutive additions touch different slots; then each output is reduced once. Loop
// trip counts are per block, not per row: no branch depends on a row's term counts.
// Words: lin_rows [r | fa << 8 | fb << 10 | fc << 12] (f: 0 reduce, 1 a single +1 term, 2 empty);
// unit [column, slot]; bit [column, slot, coefficient index]; pow [column, slot | e << 16];
// gen [column, slot, coefficient index].
template <bool kBool>
void eval_linear_scatter(const PcePlan& P, const R1csMatrices& m, const Fr* z, std::size_t blk,
                         std::size_t lo, Fr* sa, Fr* sb, Fr* sc) {
  const std::uint64_t l0 = P.lin_off[blk], nlin = P.lin_off[blk + 1] - l0;
  if (nlin == 0) return;
  Wide slots[SparseMatrix::kBlockRows * 6];
  for (std::uint64_t i = 0; i < nlin * 6; ++i) slots[i] = Wide{};
  constexpr std::size_t kAhead = 8;
  {
    const std::uint32_t* w = P.unit.data();
    const std::uint64_t n = P.unit.size();
    for (std::uint64_t e = P.unit_off[blk], end = P.unit_off[blk + 1]; e < end; e += 2) {
      if (e + 2 * kAhead < n)
        _mm_prefetch(reinterpret_cast<const char*>(z + w[e + 2 * kAhead]), _MM_HINT_T0);
      Wide& s = slots[w[e + 1]];
      Wide t = s;
      wide_add(t, z[w[e]]);
      s = t;
    }
  }
  std::uint64_t bad = 0;
  constexpr Fr::Repr kOne = Fr::one().l;
  {
    const std::uint32_t* w = P.bit.data();
    const std::uint64_t n = P.bit.size();
    const SparseMatrix* mats[3] = {&m.a, &m.b, &m.c};
    for (std::uint64_t e = P.bit_off[blk], end = P.bit_off[blk + 1]; e < end; e += 3) {
      if (e + 3 * kAhead < n)
        _mm_prefetch(reinterpret_cast<const char*>(z + w[e + 3 * kAhead]), _MM_HINT_T0);
      const std::uint32_t slot = w[e + 1];
      const Fr& v = z[w[e]];
      const Fr& q = mats[(slot >> 1) % 3]->coeffs[w[e + 2]];
      Wide& s = slots[slot];
      Wide t = s;
      if constexpr (kBool) {
        wide_add_masked_bit(t, q, v, bad);
      } else {
        wide_add(t, q * v);
      }
      s = t;
    }
  }
  {
    const std::uint32_t* w = P.pow.data();
    for (std::uint64_t e = P.pow_off[blk], end = P.pow_off[blk + 1]; e < end; e += 2) {
      Wide& s = slots[w[e + 1] & 0xffff];
      Wide t = s;
      wide_add_pow2(t, z[w[e]], w[e + 1] >> 16);
      s = t;
    }
  }
  {
    const std::uint32_t* w = P.gen.data();
    const SparseMatrix* mats[3] = {&m.a, &m.b, &m.c};
    for (std::uint64_t e = P.gen_off[blk], end = P.gen_off[blk + 1]; e < end; e += 3) {
      const std::uint32_t slot = w[e + 1];
      const Fr& v = z[w[e]];
      const Fr& q = mats[(slot >> 1) % 3]->coeffs[w[e + 2]];
      Wide& s = slots[slot];
      Wide t = s;
      if constexpr (kBool) {
        const Fr::Repr& x = v.l;
        if ((x[0] | x[1] | x[2] | x[3]) == 0) continue;
        if (((x[0] ^ kOne[0]) | (x[1] ^ kOne[1]) | (x[2] ^ kOne[2]) | (x[3] ^ kOne[3])) == 0) {
          wide_add(t, q);
          s = t;
          continue;
        }
      }
      wide_add(t, q * v);
      s = t;
    }
  }
  Fr* outs[3] = {sa, sb, sc};
  for (std::uint64_t i = 0; i < nlin; ++i) {
    const std::uint32_t lr = P.lin_rows[l0 + i];
    const std::uint32_t r = lr & 63;
    for (int t = 0; t < 3; ++t) {
      const std::uint32_t f = (lr >> (8 + 2 * t)) & 3;
      const Wide& pos = slots[(i * 3 + t) * 2];
      Fr& out = outs[t][r];
      if (f == 1) {
        out.l = {pos.x0, pos.x1, pos.x2, pos.x3};
      } else if (f == 2) {
        out = Fr::zero();
      } else {
        out = wide_reduce(pos, slots[(i * 3 + t) * 2 + 1]);
      }
    }
  }
  if (bad != 0) [[unlikely]] {
    // A column expected to hold a bit does not: the block's linear rows exactly, through the CSR.
    for (std::uint64_t i = 0; i < nlin; ++i) {
      const std::uint32_t r = P.lin_rows[l0 + i] & 63;
      const std::size_t k = lo + r;
      std::uint64_t ga = m.a.general_offset(k), gb = m.b.general_offset(k),
                    gc = m.c.general_offset(k);
      sa[r] = row_dot<kBool>(m.a, k, z, ga);
      sb[r] = row_dot<kBool>(m.b, k, z, gb);
      sc[r] = row_dot<kBool>(m.c, k, z, gc);
    }
  }
}

// The long rows' header: per matrix np, nm, then the ±2^e terms' counts per sign and 64-bit limb
// of 2^e (limb-major: +limb 0..3, −limb 0..3), then nf; kBigPart words per matrix.
constexpr std::uint32_t kBigPart = 11, kBigHeader = 2 + 3 * kBigPart;

// Adds Σ bit·2^(e mod 64) over |n| terms (column, e) to the 128-bit (lo, hi), the bit being
// v ≠ 0; a v that is neither 0 nor 1 (Montgomery R) sets bits of |bad|. No branch on the value.
[[gnu::always_inline]] inline void big_bits(const std::uint32_t*& t, std::uint32_t n, const Fr* z,
                                            std::uint64_t& lo, std::uint64_t& hi,
                                            std::uint64_t& bad) {
  constexpr Fr::Repr kOne = Fr::one().l;
  for (std::uint32_t i = 0; i < n; ++i, t += 2) {
    const Fr& v = z[t[0]];
    const std::uint64_t bit = v.l[0] != 0;
    const std::uint64_t m = 0 - bit;
    bad |= (v.l[0] ^ (kOne[0] & m)) | (v.l[1] ^ (kOne[1] & m)) | (v.l[2] ^ (kOne[2] & m)) |
           (v.l[3] ^ (kOne[3] & m));
    __asm__("addq %[x], %[lo]\n\tadcq $0, %[hi]"
            : [lo] "+r"(lo), [hi] "+r"(hi)
            : [x] "r"(bit << (t[1] & 63))
            : "cc");
  }
}

// 2^256 mod r in Montgomery form.
const Fr kTwo256 = [] {
  Fr t = Fr::one();
  for (int i = 0; i < 256; ++i) t = t + t;
  return t;
}();

// The field element of the integer s[0] + s[1]·2^64 + … + s[4]·2^256: the low 256 bits reduced
// by at most two subtractions of r (2^256 < 3r), one product with R^2 each for them and s[4].
Fr integer_to_fr(const std::uint64_t s[5]) {
  Fr::Repr low = {s[0], s[1], s[2], s[3]};
  const Fr::Repr& r = Fr::kModulus;
  for (int i = 0; i < 2; ++i) {
    bool ge = true;
    for (int k = 3; k >= 0; --k) {
      if (low[k] != r[k]) {
        ge = low[k] > r[k];
        break;
      }
    }
    if (!ge) break;
    unsigned char borrow = 0;
    for (int k = 0; k < 4; ++k) {
      const unsigned __int128 d =
          static_cast<unsigned __int128>(low[k]) - r[k] - static_cast<unsigned>(borrow);
      low[k] = static_cast<std::uint64_t>(d);
      borrow = static_cast<unsigned char>((d >> 64) != 0);
    }
  }
  Fr out = Fr::from_canonical_unchecked(low);
  if (s[4] != 0) out += Fr::from_u64(s[4]) * kTwo256;
  return out;
}

// One matrix's part of a long row (PcePlan::big): counts |h| (kBigPart words), terms from |t|
// (advanced). ±1 terms modular adds; ±2^e terms integer sums per sign and limb (big_bits) made
// into field elements once per part; the rest through acc_general (0 skipped, 1 an add, else a
// product).
[[gnu::always_inline]] inline Fr big_part(const std::uint32_t* h, const std::uint32_t*& t,
                                          const Fr* z, const Fr* coeffs, std::uint64_t& bad) {
  Fr acc = Fr::zero();
  for (std::uint32_t i = 0; i < h[0]; ++i) fr_acc_add(acc, z[*t++]);
  for (std::uint32_t i = 0; i < h[1]; ++i) fr_acc_sub(acc, z[*t++]);
  for (int sign = 0; sign < 2; ++sign) {
    // Σ over limbs k of (lo_k + hi_k·2^64)·2^(64k), each lo_k, hi_k < 2^64 (fewer than 2^32
    // terms): at most 2^256·2^33, so five words with carries.
    std::uint64_t sum[5] = {0, 0, 0, 0, 0};
    bool any = false;
    for (int k = 0; k < 4; ++k) {
      const std::uint32_t n = h[2 + 4 * sign + k];
      if (n == 0) continue;
      std::uint64_t lo = 0, hi = 0;
      big_bits(t, n, z, lo, hi, bad);
      unsigned __int128 c = static_cast<unsigned __int128>(sum[k]) + lo;
      sum[k] = static_cast<std::uint64_t>(c);
      c = (c >> 64) + sum[k + 1] + hi;
      sum[k + 1] = static_cast<std::uint64_t>(c);
      for (int j = k + 2; j < 5 && (c >> 64) != 0; ++j) {
        c = (c >> 64) + sum[j];
        sum[j] = static_cast<std::uint64_t>(c);
      }
      any = true;
    }
    if (!any) continue;
    const Fr v = integer_to_fr(sum);
    if (sign == 0) {
      fr_acc_add(acc, v);
    } else {
      fr_acc_sub(acc, v);
    }
  }
  for (std::uint32_t i = 0; i < h[10]; ++i, t += 2) acc_general<true>(acc, coeffs[t[1]], z[t[0]]);
  return acc;
}

// Blocks between the far columns' prefetch and their use (≈ 3 µs at 2^20: one block is enough
// for a miss to memory; two leave room for the page walk).
constexpr std::size_t kFarAhead = 2;

template <bool kBool, bool kNt>
void eval_plan_blocks(const PcePlan& P, const R1csMatrices& m, const Fr* z, Fr* a, Fr* b, Fr* c,
                      std::size_t blo, std::size_t bhi, bool long_terms) {
  constexpr std::size_t kRows = SparseMatrix::kBlockRows;
  // Non-temporal stores go through a per-block buffer (rows are written out of order; streamed in
  // order afterwards, whole lines); plain stores go to a, b, c directly.
  alignas(64) Fr buf_a[kNt ? kRows : 1], buf_b[kNt ? kRows : 1], buf_c[kNt ? kRows : 1];
  const std::uint32_t* const bw = P.boolean.data();
  const std::uint32_t* const xw = P.xor_.data();
  const std::uint32_t* const mw = P.mul.data();
  const std::uint64_t bn = P.boolean.size(), xn = P.xor_.size(), mn = P.mul.size();
  const std::size_t blocks = P.far_off.size() - 1;
  for (std::size_t blk = blo; blk < bhi; ++blk) {
    const std::size_t lo = blk * kRows;
    const std::size_t n = std::min<std::size_t>(kRows, m.num_constraints - lo);
    // The far witness values of a later block, fetched kFarAhead blocks ahead: they are the reads
    // the caches do not hold (the recent columns are there from the rows before).
    if (blk + kFarAhead < blocks) {
      for (std::uint64_t e = P.far_off[blk + kFarAhead], end = P.far_off[blk + kFarAhead + 1];
           e < end; ++e)
        _mm_prefetch(reinterpret_cast<const char*>(z + P.far[e]), _MM_HINT_T0);
    }
    Fr* const sa = kNt ? buf_a : a + lo;
    Fr* const sb = kNt ? buf_b : b + lo;
    Fr* const sc = kNt ? buf_c : c + lo;
    for (std::uint64_t e = P.boolean_off[blk], end = P.boolean_off[blk + 1]; e < end;
         e += kBooleanWords) {
      const std::uint32_t* w = bw + e;
      if (e + 8 * kBooleanWords < bn)
        _mm_prefetch(reinterpret_cast<const char*>(z + w[8 * kBooleanWords + 2]), _MM_HINT_T0);
      Fr va = z[w[1]];
      fr_acc_sub(va, z[w[2]]);
      sa[w[0]] = va;
      sb[w[0]] = z[w[3]];
      sc[w[0]] = Fr::zero();
    }
    for (std::uint64_t e = P.xor_off[blk], end = P.xor_off[blk + 1]; e < end; e += kXorWords) {
      const std::uint32_t* w = xw + e;
      if (e + 8 * kXorWords < xn) {
        _mm_prefetch(reinterpret_cast<const char*>(z + w[8 * kXorWords + 1]), _MM_HINT_T0);
        _mm_prefetch(reinterpret_cast<const char*>(z + w[8 * kXorWords + 2]), _MM_HINT_T0);
      }
      const Fr vx = z[w[1]], vy = z[w[2]];
      Fr va = vx, vc = vx;
      fr_acc_add(va, vx);
      fr_acc_add(vc, vy);
      fr_acc_sub(vc, z[w[3]]);
      sa[w[0]] = va;
      sb[w[0]] = vy;
      sc[w[0]] = vc;
    }
    for (std::uint64_t e = P.mul_off[blk], end = P.mul_off[blk + 1]; e < end; e += kMulWords) {
      const std::uint32_t* w = mw + e;
      if (e + 8 * kMulWords < mn)
        _mm_prefetch(reinterpret_cast<const char*>(z + w[8 * kMulWords + 1]), _MM_HINT_T0);
      sa[w[0]] = z[w[1]];
      sb[w[0]] = z[w[2]];
      sc[w[0]] = z[w[3]];
    }
    eval_linear_scatter<kBool>(P, m, z, blk, lo, sa, sb, sc);
    {
      const std::uint32_t* w = P.linear.data() + P.linear_off[blk];
      const std::uint32_t* const end = P.linear.data() + P.linear_off[blk + 1];
      const std::uint32_t* const all_end = P.linear.data() + P.linear.size();
      while (w < end) {
        const std::uint32_t head = w[0];
        const std::uint32_t* const next = w + (head >> 16);
        if (next < all_end) {
          // The next linear row's witness values, fetched now (its columns are contiguous).
          const std::uint32_t nc = (next[0] >> 6) & 1023;
          for (std::uint32_t i = 0; i < nc; ++i)
            _mm_prefetch(reinterpret_cast<const char*>(z + next[4 + i]), _MM_HINT_T0);
        }
        const std::uint32_t r = head & 63;
        const std::uint32_t* cw = w + 4;
        const std::uint32_t* kw = cw + ((head >> 6) & 1023);
        std::uint64_t bad = 0;
        linear_eval<kBool>(w[1], cw, kw, z, m.a.coeffs.data(), sa[r], bad);
        linear_eval<kBool>(w[2], cw, kw, z, m.b.coeffs.data(), sb[r], bad);
        linear_eval<kBool>(w[3], cw, kw, z, m.c.coeffs.data(), sc[r], bad);
        w = next;
        if (bad != 0) [[unlikely]] {
          // A column expected to hold a bit does not: this row exactly, through the CSR.
          const std::size_t k = lo + r;
          std::uint64_t ga = m.a.general_offset(k), gb = m.b.general_offset(k),
                        gc = m.c.general_offset(k);
          sa[r] = row_dot<kBool>(m.a, k, z, ga);
          sb[r] = row_dot<kBool>(m.b, k, z, gb);
          sc[r] = row_dot<kBool>(m.c, k, z, gc);
        }
      }
    }
    const bool big = kBool && long_terms;
    if (big) {
      for (std::uint64_t e = P.big_off[blk]; e < P.big_off[blk + 1];) {
        const std::uint32_t* w = P.big.data() + e;
        e += w[1];
        const std::uint32_t r = w[0];
        const std::uint32_t* hdr = w + 2;
        const std::uint32_t* t = w + kBigHeader;
        std::uint64_t bad = 0;
        sa[r] = big_part(hdr, t, z, m.a.coeffs.data(), bad);
        sb[r] = big_part(hdr + kBigPart, t, z, m.b.coeffs.data(), bad);
        sc[r] = big_part(hdr + 2 * kBigPart, t, z, m.c.coeffs.data(), bad);
        if (bad != 0) [[unlikely]] {
          // A ±2^e term's value is not a bit: this row exactly, through the CSR.
          const std::size_t k = lo + r;
          std::uint64_t ga = m.a.general_offset(k), gb = m.b.general_offset(k),
                        gc = m.c.general_offset(k);
          sa[r] = row_dot<kBool>(m.a, k, z, ga);
          sb[r] = row_dot<kBool>(m.b, k, z, gb);
          sc[r] = row_dot<kBool>(m.c, k, z, gc);
        }
      }
    }
    for (std::uint64_t e = P.long_off[blk], end = P.long_off[blk + 1]; e < end && !big; ++e) {
      const std::uint32_t r = P.long_[e];
      const std::size_t k = lo + r;
      std::uint64_t ga = m.a.general_offset(k), gb = m.b.general_offset(k),
                    gc = m.c.general_offset(k);
      sa[r] = row_dot<kBool>(m.a, k, z, ga);
      sb[r] = row_dot<kBool>(m.b, k, z, gb);
      sc[r] = row_dot<kBool>(m.c, k, z, gc);
    }
    if constexpr (kNt) {
      for (std::size_t i = 0; i < n; ++i) {
        store_nt(a + lo + i, sa[i]);
        store_nt(b + lo + i, sb[i]);
        store_nt(c + lo + i, sc[i]);
      }
    }
  }
  if constexpr (kNt) _mm_sfence();
}

// Output and matrix shapes (not the witness).
Status check_outputs(const R1csMatrices& m, std::size_t na, std::size_t nb, std::size_t nc) {
  const std::size_t n = m.num_constraints;
  if (na != n || nb != n || nc != n)
    return Status(Errc::size_mismatch,
                  "a/b/c outputs must have one entry per constraint (" + std::to_string(n) + ")");
  if (m.a.num_rows() != n || m.b.num_rows() != n || m.c.num_rows() != n)
    return Status(Errc::size_mismatch, "matrices have a row count different from num_constraints");
  const std::size_t blocks = (n + SparseMatrix::kBlockRows - 1) / SparseMatrix::kBlockRows;
  if (m.a.block_gen.size() != blocks || m.b.block_gen.size() != blocks ||
      m.c.block_gen.size() != blocks)
    return Status(Errc::size_mismatch, "matrices' block offsets disagree with the row count");
  return {};
}

Status check_plan(const R1csMatrices& m, const PceOptions& opt) {
  const PcePlan* p = opt.plan;
  if (p == nullptr) return {};
  const std::size_t blocks =
      (m.num_constraints + SparseMatrix::kBlockRows - 1) / SparseMatrix::kBlockRows;
  if (p->num_constraints != m.num_constraints || p->nnz_a != m.a.nnz() || p->nnz_b != m.b.nnz() ||
      p->nnz_c != m.c.nnz() ||
      p->general != m.a.num_general() + m.b.num_general() + m.c.num_general() ||
      p->boolean_off.size() != blocks + 1 || p->far_off.size() != blocks + 1)
    return Status(Errc::size_mismatch, "PCE plan was built for other matrices");
  return {};
}

Status check_witness(const R1csMatrices& m, std::size_t z) {
  if (z != m.num_columns()) {
    return Status(Errc::size_mismatch, "witness has " + std::to_string(z) + " values, the R1CS " +
                                           std::to_string(m.num_columns()) + " variables");
  }
  return {};
}

void eval_range(const R1csMatrices& m, const Fr* z, Fr* a, Fr* b, Fr* c, std::size_t blo,
                std::size_t bhi, const PceOptions& opt) {
  // Non-temporal stores need 16-byte aligned outputs (vectors are; a span need not be).
  auto aligned = [](const Fr* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; };
  const bool nt =
      m.num_constraints >= opt.nt_store_min_rows && aligned(a) && aligned(b) && aligned(c);
  if (opt.plan != nullptr) {
    switch ((opt.boolean_fast_path ? 2u : 0u) | (nt ? 1u : 0u)) {
      case 0:
        return eval_plan_blocks<false, false>(*opt.plan, m, z, a, b, c, blo, bhi, opt.long_terms);
      case 1:
        return eval_plan_blocks<false, true>(*opt.plan, m, z, a, b, c, blo, bhi, opt.long_terms);
      case 2:
        return eval_plan_blocks<true, false>(*opt.plan, m, z, a, b, c, blo, bhi, opt.long_terms);
      default:
        return eval_plan_blocks<true, true>(*opt.plan, m, z, a, b, c, blo, bhi, opt.long_terms);
    }
  }
  const unsigned sel =
      (opt.boolean_fast_path ? 4u : 0u) | (nt ? 2u : 0u) | (opt.row_shapes ? 1u : 0u);
  switch (sel) {
    case 0:
      return eval_blocks<false, false, false>(m, z, a, b, c, blo, bhi);
    case 1:
      return eval_blocks<false, false, true>(m, z, a, b, c, blo, bhi);
    case 2:
      return eval_blocks<false, true, false>(m, z, a, b, c, blo, bhi);
    case 3:
      return eval_blocks<false, true, true>(m, z, a, b, c, blo, bhi);
    case 4:
      return eval_blocks<true, false, false>(m, z, a, b, c, blo, bhi);
    case 5:
      return eval_blocks<true, false, true>(m, z, a, b, c, blo, bhi);
    case 6:
      return eval_blocks<true, true, false>(m, z, a, b, c, blo, bhi);
    default:
      return eval_blocks<true, true, true>(m, z, a, b, c, blo, bhi);
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
          const std::uint64_t n1 =
              (v[0] ^ one[0]) | (v[1] ^ one[1]) | (v[2] ^ one[2]) | (v[3] ^ one[3]);
          out[i] = nz == 0 ? 0 : (n1 == 0 ? 1 : 2);
        }
      },
      1 << 14);
}

namespace {

// One row of one matrix, decoded: entries [b, e) of |s|, the first general term's index |g|.
struct RowView {
  const SparseMatrix* s;
  std::uint64_t b, e, g;
  std::uint64_t size() const { return e - b; }
  std::uint32_t col(std::uint64_t i) const { return SparseMatrix::column_of(s->col[b + i]); }
  CoeffKind kind(std::uint64_t i) const { return SparseMatrix::kind_of(s->col[b + i]); }
  // The general coefficient of entry i (which must be general): entries are ordered by kind, so
  // its index is g + (i − first general entry).
  const Fr& coeff(std::uint64_t i) const {
    std::uint64_t first = 0;
    while (first < size() && kind(first) != CoeffKind::general) ++first;
    return s->coeffs[s->gen_idx[g + (i - first)]];
  }
  std::uint64_t generals() const {
    std::uint64_t n = 0;
    for (std::uint64_t i = 0; i < size(); ++i) n += kind(i) == CoeffKind::general;
    return n;
  }
};

bool is_two(const Fr& k) { return fr_eq(k, Fr::one() + Fr::one()); }

struct FrEqKey {
  bool operator()(const Fr& a, const Fr& b) const { return fr_eq(a, b); }
};
struct FrHashKey {
  std::size_t operator()(const Fr& f) const {
    return static_cast<std::size_t>(f.l[0] ^ (f.l[1] * 0x9e3779b97f4a7c15ULL) ^ (f.l[3] << 7));
  }
};

// Row k of the three matrices with running general offsets (advanced past the row).
struct Rows {
  RowView a, b, c;
};
Rows row_views(const R1csMatrices& m, std::size_t k, std::uint64_t g[3]) {
  const SparseMatrix* s[3] = {&m.a, &m.b, &m.c};
  RowView v[3];
  for (int t = 0; t < 3; ++t) {
    v[t] = {s[t], s[t]->row_ptr[k], s[t]->row_ptr[k + 1], g[t]};
    g[t] += v[t].generals();
  }
  return {v[0], v[1], v[2]};
}

bool test_bit(const std::vector<std::uint64_t>& bits, std::uint64_t j) {
  return (bits[j / 64] >> (j % 64)) & 1;
}

}  // namespace

std::vector<std::uint64_t> pce_bit_columns(const R1csMatrices& m) {
  std::vector<std::uint64_t> bits((m.num_columns() + 63) / 64, 0);
  if (m.num_columns() == 0 || m.a.num_rows() != m.num_constraints ||
      m.b.num_rows() != m.num_constraints || m.c.num_rows() != m.num_constraints)
    return bits;
  auto set = [&](std::uint64_t j) { bits[j / 64] |= std::uint64_t{1} << (j % 64); };
  set(0);  // ONE
  auto plus = [](const RowView& v, std::uint64_t i) { return v.kind(i) == CoeffKind::plus_one; };
  for (int pass = 0; pass < 2; ++pass) {
    std::uint64_t g[3] = {0, 0, 0};
    for (std::size_t k = 0; k < m.num_constraints; ++k) {
      const Rows r = row_views(m, k, g);
      // (ONE − x)·x = 0 and x·(ONE − x) = 0
      for (int swap = 0; swap < 2; ++swap) {
        const RowView& f = swap ? r.b : r.a;  // ONE − x
        const RowView& x = swap ? r.a : r.b;
        if (r.c.size() == 0 && f.size() == 2 && x.size() == 1 && plus(f, 0) && f.col(0) == 0 &&
            f.kind(1) == CoeffKind::minus_one && plus(x, 0) && x.col(0) == f.col(1))
          set(x.col(0));
      }
      // (2x)·y = x + y − w with x, y bits
      if (r.a.size() == 1 && r.b.size() == 1 && r.c.size() == 3 &&
          r.a.kind(0) == CoeffKind::general && plus(r.b, 0) && plus(r.c, 0) && plus(r.c, 1) &&
          r.c.kind(2) == CoeffKind::minus_one && is_two(r.a.coeff(0))) {
        const std::uint64_t x = r.a.col(0), y = r.b.col(0);
        const bool same =
            (r.c.col(0) == x && r.c.col(1) == y) || (r.c.col(0) == y && r.c.col(1) == x);
        if (same && test_bit(bits, x) && test_bit(bits, y)) set(r.c.col(2));
      }
      // x·y = w with x, y bits
      if (r.a.size() == 1 && r.b.size() == 1 && r.c.size() == 1 && plus(r.a, 0) && plus(r.b, 0) &&
          plus(r.c, 0) && test_bit(bits, r.a.col(0)) && test_bit(bits, r.b.col(0)))
        set(r.c.col(0));
    }
  }
  return bits;
}

PcePlan pce_plan(const R1csMatrices& m) {
  PcePlan p;
  const std::size_t rows = m.num_constraints;
  p.num_constraints = rows;
  p.nnz_a = m.a.nnz();
  p.nnz_b = m.b.nnz();
  p.nnz_c = m.c.nnz();
  p.general = m.a.num_general() + m.b.num_general() + m.c.num_general();
  if (check_outputs(m, rows, rows, rows).ok() == false)
    return p;  // malformed: check_plan rejects it
  const std::size_t blocks = (rows + SparseMatrix::kBlockRows - 1) / SparseMatrix::kBlockRows;
  const std::vector<std::uint64_t> bits = pce_bit_columns(m);
  for (auto* v :
       {&p.boolean_off, &p.xor_off, &p.mul_off, &p.linear_off, &p.long_off, &p.big_off, &p.far_off})
    v->reserve(blocks + 1);
  auto plus = [](const RowView& v, std::uint64_t i) { return v.kind(i) == CoeffKind::plus_one; };
  auto minus = [](const RowView& v, std::uint64_t i) { return v.kind(i) == CoeffKind::minus_one; };
  // Linear encoding of one matrix's row, or false when it has too many terms.
  // Per coefficient of each matrix: e for 2^e, −e for −2^e (1 ≤ e ≤ 63), else 0.
  auto pow2_of = [](const SparseMatrix& s) {
    std::vector<int> e(s.coeffs.size(), 0);
    Fr p = Fr::one();
    for (int k = 1; k < 64; ++k) {
      p = p + p;
      const Fr n = Fr::zero() - p;
      for (std::size_t i = 0; i < s.coeffs.size(); ++i) {
        if (fr_eq(s.coeffs[i], p)) e[i] = k;
        if (fr_eq(s.coeffs[i], n)) e[i] = -k;
      }
    }
    return e;
  };
  const std::vector<int> pow2[3] = {pow2_of(m.a), pow2_of(m.b), pow2_of(m.c)};
  // Linear encoding of one matrix's row (|t|: 0 A, 1 B, 2 C), or false when its sums could
  // pass 16 r (a power-of-two term adds up to 3 r).
  bool allow_double = true;  // kDoubleTerm parts (short rows only)
  auto linear = [&](const RowView& v, int t, std::vector<std::uint32_t>& hdr,
                    std::vector<std::uint32_t>& cols, std::vector<std::uint32_t>& ks) {
    // Per general term: 0 bit column, 1 +2^e, 2 −2^e, 3 other.
    std::uint32_t np = 0, nm = 0, n[4] = {0, 0, 0, 0};
    std::uint64_t g = v.g;
    auto cls = [&](std::uint64_t i, std::uint32_t ci) {
      if (test_bit(bits, v.col(i))) return 0;
      const int e = pow2[t][ci];
      return e > 0 ? 1 : e < 0 ? 2 : 3;
    };
    for (std::uint64_t i = 0; i < v.size(); ++i) {
      switch (v.kind(i)) {
        case CoeffKind::plus_one:
          ++np;
          break;
        case CoeffKind::minus_one:
          ++nm;
          break;
        default:
          ++n[cls(i, v.s->gen_idx[g++])];
          break;
      }
    }
    if (np + n[0] + 3 * n[1] + n[3] > PcePlan::kMaxLinearTerms ||
        nm + 3 * n[2] > PcePlan::kMaxLinearTerms)
      return false;
    if (allow_double && np + nm <= 3 && n[0] + n[1] + n[2] + n[3] == 1) {
      // At most three ±1 terms and one ±2·w (SHA-256's majority rows, x·(y + z − 2w)): a short
      // part (kDoubleTerm), w + w and modular adds.
      for (std::uint64_t i = 0; i < v.size(); ++i) {
        if (v.kind(i) != CoeffKind::general) continue;
        const Fr& q = v.s->coeffs[v.s->gen_idx[v.g]];  // the part's one general term
        const Fr two = Fr::one() + Fr::one();
        if (fr_eq(q, two) || fr_eq(q, Fr::zero() - two)) {
          hdr.push_back(kDoubleTerm | np | nm << 5 | (fr_eq(q, two) ? 0u : 1u) << 10);
          for (std::uint64_t j = 0; j < v.size(); ++j)
            if (plus(v, j)) cols.push_back(v.col(j));
          for (std::uint64_t j = 0; j < v.size(); ++j)
            if (minus(v, j)) cols.push_back(v.col(j));
          cols.push_back(v.col(i));
          return true;
        }
      }
    }
    hdr.push_back(np | nm << 5 | n[0] << 10 | n[1] << 15 | n[2] << 20 | n[3] << 25);
    for (std::uint64_t i = 0; i < v.size(); ++i)
      if (plus(v, i)) cols.push_back(v.col(i));
    for (std::uint64_t i = 0; i < v.size(); ++i)
      if (minus(v, i)) cols.push_back(v.col(i));
    for (int want = 0; want < 4; ++want) {
      g = v.g;
      for (std::uint64_t i = 0; i < v.size(); ++i) {
        if (v.kind(i) != CoeffKind::general) continue;
        const std::uint32_t ci = v.s->gen_idx[g++];
        if (cls(i, ci) != want) continue;
        cols.push_back(v.col(i));
        const int e = pow2[t][ci];
        ks.push_back(want == 1 || want == 2 ? static_cast<std::uint32_t>(e < 0 ? -e : e) : ci);
      }
    }
    return true;
  };
  std::uint64_t g[3] = {0, 0, 0};
  std::vector<std::uint32_t> hdr, cols, ks;
  // The block's linear rows for the flat form: per row, its terms by kind as (column, slot[, k]).
  struct LinTerms {
    std::vector<std::uint32_t> unit, bit, pow, gen;
  };
  std::vector<LinTerms> lin_terms;
  auto emit_block = [&]() {
    auto interleave = [&](std::vector<std::uint32_t> LinTerms::*kind, std::size_t words,
                          std::vector<std::uint32_t>& out) {
      for (std::size_t j = 0;; ++j) {
        bool any = false;
        for (const LinTerms& t : lin_terms) {
          const std::vector<std::uint32_t>& v = t.*kind;
          if ((j + 1) * words <= v.size()) {
            out.insert(out.end(), v.begin() + static_cast<std::ptrdiff_t>(j * words),
                       v.begin() + static_cast<std::ptrdiff_t>((j + 1) * words));
            any = true;
          }
        }
        if (!any) break;
      }
    };
    interleave(&LinTerms::unit, 2, p.unit);
    interleave(&LinTerms::bit, 3, p.bit);
    interleave(&LinTerms::pow, 2, p.pow);
    interleave(&LinTerms::gen, 3, p.gen);
    lin_terms.clear();
  };
  // Adds one linear row (encoded in hdr / cols / ks as for the row form) to the block's lists.
  auto add_scatter_row = [&](std::uint32_t ri) {
    const auto li = static_cast<std::uint32_t>(lin_terms.size());
    LinTerms t;
    std::uint32_t flags = 0;
    std::size_t c = 0, k = 0;
    for (std::uint32_t part = 0; part < 3; ++part) {
      const std::uint32_t h = hdr[part];
      flags |= (h == 1 ? 1u : h == 0 ? 2u : 0u) << (2 * part);
      const std::uint32_t pos = (li * 3 + part) * 2, neg = pos + 1;
      const std::uint32_t np = h & 31, nm = (h >> 5) & 31, nb = (h >> 10) & 31,
                          n2p = (h >> 15) & 31, n2m = (h >> 20) & 31, nf = h >> 25;
      for (std::uint32_t i = 0; i < np; ++i) t.unit.insert(t.unit.end(), {cols[c++], pos});
      for (std::uint32_t i = 0; i < nm; ++i) t.unit.insert(t.unit.end(), {cols[c++], neg});
      for (std::uint32_t i = 0; i < nb; ++i) t.bit.insert(t.bit.end(), {cols[c++], pos, ks[k++]});
      for (std::uint32_t i = 0; i < n2p; ++i)
        t.pow.insert(t.pow.end(), {cols[c++], pos | ks[k++] << 16});
      for (std::uint32_t i = 0; i < n2m; ++i)
        t.pow.insert(t.pow.end(), {cols[c++], neg | ks[k++] << 16});
      for (std::uint32_t i = 0; i < nf; ++i) t.gen.insert(t.gen.end(), {cols[c++], pos, ks[k++]});
    }
    p.lin_rows.push_back(ri | flags << 8);
    lin_terms.push_back(std::move(t));
  };
  // Where each list stands: block blk's entries run from its *_off[blk] to *_off[blk + 1].
  auto mark_offsets = [&p] {
    p.boolean_off.push_back(p.boolean.size());
    p.xor_off.push_back(p.xor_.size());
    p.mul_off.push_back(p.mul.size());
    p.linear_off.push_back(p.linear.size());
    p.long_off.push_back(p.long_.size());
    p.big_off.push_back(p.big.size());
    p.lin_off.push_back(p.lin_rows.size());
    p.unit_off.push_back(p.unit.size());
    p.bit_off.push_back(p.bit.size());
    p.pow_off.push_back(p.pow.size());
    p.gen_off.push_back(p.gen.size());
    p.far_off.push_back(p.far.size());
  };
  // Per coefficient of each matrix: e for 2^e, −e for −2^e (1 ≤ e ≤ 254), else 0 (long rows).
  auto pow2_wide_of = [](const SparseMatrix& s) {
    std::vector<int> e(s.coeffs.size(), 0);
    std::unordered_map<Fr, int, FrHashKey, FrEqKey> index;
    for (std::size_t i = 0; i < s.coeffs.size(); ++i)
      index.emplace(s.coeffs[i], static_cast<int>(i));
    Fr p = Fr::one();
    for (int k = 1; k <= 254; ++k) {
      p = p + p;
      if (auto it = index.find(p); it != index.end()) e[static_cast<std::size_t>(it->second)] = k;
      if (auto it = index.find(Fr::zero() - p); it != index.end())
        e[static_cast<std::size_t>(it->second)] = -k;
    }
    return e;
  };
  std::vector<int> pow2_wide[3];
  // A long row as term lists by kind (PcePlan::big).
  auto add_big_row = [&](const Rows& r, std::uint32_t ri) {
    if (pow2_wide[0].empty() && pow2_wide[1].empty() && pow2_wide[2].empty())
      for (int t = 0; t < 3; ++t)
        pow2_wide[t] = pow2_wide_of(*(t == 0 ? &m.a : t == 1 ? &m.b : &m.c));
    const std::size_t at = p.big.size();
    p.big.insert(p.big.end(), kBigHeader, 0);
    p.big[at] = ri;
    const RowView* parts[3] = {&r.a, &r.b, &r.c};
    for (int t = 0; t < 3; ++t) {
      const RowView& v = *parts[t];
      const std::size_t h = at + 2 + kBigPart * t;
      for (std::uint64_t i = 0; i < v.size(); ++i)
        if (plus(v, i)) p.big.push_back(v.col(i)), ++p.big[h];
      for (std::uint64_t i = 0; i < v.size(); ++i)
        if (minus(v, i)) p.big.push_back(v.col(i)), ++p.big[h + 1];
      // ±2^e terms by sign and limb of 2^e (at most 2^32 a row, so every limb's sum fits 128
      // bits), then the rest (class 8).
      for (int want = 0; want <= 8; ++want) {
        std::uint64_t g = v.g;
        for (std::uint64_t i = 0; i < v.size(); ++i) {
          if (v.kind(i) != CoeffKind::general) continue;
          const std::uint32_t ci = v.s->gen_idx[g++];
          const int e = pow2_wide[t][ci];
          const int cls = e == 0 ? 8 : (e < 0 ? 4 : 0) + (e < 0 ? -e : e) / 64;
          if (cls != want) continue;
          p.big.insert(p.big.end(),
                       {v.col(i), cls == 8 ? ci : static_cast<std::uint32_t>(e < 0 ? -e : e)});
          ++p.big[h + 2 + static_cast<std::size_t>(cls)];
        }
      }
    }
    p.big[at + 1] = static_cast<std::uint32_t>(p.big.size() - at);
  };
  std::vector<std::uint32_t> block_cols;
  for (std::size_t blk = 0; blk < blocks; ++blk) {
    mark_offsets();
    const std::size_t lo = blk * SparseMatrix::kBlockRows;
    const std::size_t hi = std::min(rows, lo + SparseMatrix::kBlockRows);
    block_cols.clear();
    for (std::size_t k = lo; k < hi; ++k) {
      const Rows r = row_views(m, k, g);
      const auto ri = static_cast<std::uint32_t>(k - lo);
      for (const RowView* v : {&r.a, &r.b, &r.c})
        for (std::uint64_t i = 0; i < v->size(); ++i) block_cols.push_back(v->col(i));
      const std::uint64_t la = r.a.size(), lb = r.b.size(), lc = r.c.size();
      if (la == 2 && lb == 1 && lc == 0 && plus(r.a, 0) && minus(r.a, 1) && plus(r.b, 0)) {
        p.boolean.insert(p.boolean.end(), {ri, r.a.col(0), r.a.col(1), r.b.col(0)});
        ++p.rows_by_form[0];
      } else if (la == 1 && lb == 1 && lc == 3 && r.a.kind(0) == CoeffKind::general &&
                 is_two(r.a.coeff(0)) && plus(r.b, 0) && plus(r.c, 0) && plus(r.c, 1) &&
                 minus(r.c, 2) &&
                 ((r.c.col(0) == r.a.col(0) && r.c.col(1) == r.b.col(0)) ||
                  (r.c.col(0) == r.b.col(0) && r.c.col(1) == r.a.col(0)))) {
        p.xor_.insert(p.xor_.end(), {ri, r.a.col(0), r.b.col(0), r.c.col(2)});
        ++p.rows_by_form[1];
      } else if (la == 1 && lb == 1 && lc == 1 && plus(r.a, 0) && plus(r.b, 0) && plus(r.c, 0)) {
        p.mul.insert(p.mul.end(), {ri, r.a.col(0), r.b.col(0), r.c.col(0)});
        ++p.rows_by_form[2];
      } else {
        hdr.clear();
        cols.clear();
        ks.clear();
        if (linear(r.a, 0, hdr, cols, ks) && linear(r.b, 1, hdr, cols, ks) &&
            linear(r.c, 2, hdr, cols, ks)) {
          // Rows whose every part is a copy or at most three ±1 terms run row by row with
          // modular adds (SHA-256's choice and majority rows); the others as flat term lists.
          auto short_part = [](std::uint32_t h) {
            return (h & kDoubleTerm) != 0 || (h <= (3u | 3u << 5) && (h & 31) + (h >> 5) <= 3);
          };
          if (short_part(hdr[0]) && short_part(hdr[1]) && short_part(hdr[2])) {
            const auto words = static_cast<std::uint32_t>(4 + cols.size() + ks.size());
            p.linear.push_back(ri | static_cast<std::uint32_t>(cols.size()) << 6 | words << 16);
            p.linear.insert(p.linear.end(), hdr.begin(), hdr.end());
            p.linear.insert(p.linear.end(), cols.begin(), cols.end());
          } else {
            // Flat term lists take the plain encoding (no kDoubleTerm part): encode again.
            hdr.clear();
            cols.clear();
            ks.clear();
            allow_double = false;
            linear(r.a, 0, hdr, cols, ks);
            linear(r.b, 1, hdr, cols, ks);
            linear(r.c, 2, hdr, cols, ks);
            allow_double = true;
            add_scatter_row(ri);
          }
          ++p.rows_by_form[3];
        } else {
          p.long_.push_back(ri);
          add_big_row(r, ri);
          ++p.rows_by_form[4];
        }
      }
    }
    emit_block();
    // The block's far columns: more than kFarColumns behind the highest column it reads (the
    // recent ones are in cache from the rows before), inputs excepted (few, always in cache).
    if (!block_cols.empty()) {
      const std::uint32_t top = *std::max_element(block_cols.begin(), block_cols.end());
      const std::size_t first = p.far.size();
      for (std::uint32_t col : block_cols)
        if (col >= m.num_inputs && col + PcePlan::kFarColumns < top) p.far.push_back(col);
      std::sort(p.far.begin() + static_cast<std::ptrdiff_t>(first), p.far.end());
      p.far.erase(std::unique(p.far.begin() + static_cast<std::ptrdiff_t>(first), p.far.end()),
                  p.far.end());
      if (p.far.size() - first > PcePlan::kMaxFar) p.far.resize(first + PcePlan::kMaxFar);
    }
  }
  mark_offsets();
  return p;
}

std::size_t PcePlan::memory_bytes() const {
  std::size_t n = 0;
  for (const auto* v : {&boolean_off, &xor_off, &mul_off, &linear_off, &long_off, &big_off,
                        &lin_off, &unit_off, &bit_off, &pow_off, &gen_off, &far_off})
    n += v->size() * 8;
  for (const auto* v :
       {&boolean, &xor_, &mul, &linear, &long_, &big, &lin_rows, &unit, &bit, &pow, &gen, &far})
    n += v->size() * 4;
  return n;
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
  if (status_.ok()) status_ = check_plan(m, opt);
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
    if (claimed_.compare_exchange_weak(c, n, std::memory_order_acq_rel,
                                       std::memory_order_relaxed)) {
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
  if (!force && ready_.load(std::memory_order_relaxed) <
                    claimed_.load(std::memory_order_relaxed) + kWakeBlocks)
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
  if (ready_.load(std::memory_order_relaxed) >
      claimed_.load(std::memory_order_relaxed) + kClaimBlocks)
    wake_helper(true);  // a sleeping helper shares the drain
  while (claim(lo, hi)) run_claim(lo, hi);
  wait_completed(claimed_.load(std::memory_order_acquire));
}

void PceStream::advance(const Fr* z, std::size_t columns, std::size_t inputs,
                        std::size_t& next_columns, std::size_t& next_inputs) {
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
  if (next_block_ < blocks_)
    eval_range(m_, z.data(), a_.data(), b_.data(), c_.data(), next_block_, blocks_, opt_);
  next_block_ = blocks_;
  return {};
}

Result<std::vector<Fr>> synthesize_pce(ThreadPool& pool, Circuit& circuit, const R1csMatrices& m,
                                       const PceSchedule& s, std::span<Fr> a, std::span<Fr> b,
                                       std::span<Fr> c, std::vector<Fr>&& storage,
                                       const PceOptions& opt) {
  const bool two = pool.size() >= 2 && m.num_constraints >= opt.pipeline_min_rows;
  if (!two) {
    // One thread: synthesis, then the SpMV (the fused one-thread stream measured ≈ 10 % slower).
    WitnessConstraintSystem cs({.reserve_aux = m.num_aux, .num_inputs_hint = m.num_inputs},
                               std::move(storage));
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
    WitnessConstraintSystem cs(
        {.reserve_aux = m.num_aux, .num_inputs_hint = m.num_inputs, .stream = &stream},
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

Status pce_evaluate_into(ThreadPool& pool, const R1csMatrices& m, std::span<const Fr> z,
                         std::span<Fr> a, std::span<Fr> b, std::span<Fr> c, const PceOptions& opt) {
  CUZK_RETURN_IF_ERROR(check_witness(m, z.size()));
  CUZK_RETURN_IF_ERROR(check_outputs(m, a.size(), b.size(), c.size()));
  CUZK_RETURN_IF_ERROR(check_plan(m, opt));
  const std::size_t blocks =
      (m.num_constraints + SparseMatrix::kBlockRows - 1) / SparseMatrix::kBlockRows;
  pool.parallel_for(
      blocks,
      [&](std::size_t blo, std::size_t bhi) {
        eval_range(m, z.data(), a.data(), b.data(), c.data(), blo, bhi, opt);
      },
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
