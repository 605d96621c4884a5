// One row of a SparseMatrix against z, and the non-temporal store of its value: the inner loops of
// the PCE's SpMV (r1cs/pce.cpp) and the bench circuits' solver (circuits/bench/bench_solve.cpp).
#pragma once

#include <emmintrin.h>

#include <cstdint>

#include "cuzk/ff/fr.hpp"
#include "cuzk/ff/fr_accumulate.hpp"
#include "cuzk/r1cs/matrices.hpp"

namespace cuzk {

/// acc += coeff · v. kBool: the value is tested where it is loaded anyway: 0 → nothing, 1
/// (Montgomery R) → add coeff, else multiply. (A branch-free 0/1 select that always adds was
/// measured 3–8 % slower over the whole SpMV: zeros are common and skipping them is cheaper.)
template <bool kBool>
[[gnu::always_inline]] inline void acc_general(Fr& acc, const Fr& coeff, const Fr& value) {
  if constexpr (kBool) {
    constexpr Fr::Repr kOne = Fr::one().l;
    const Fr::Repr& v = value.l;
    const std::uint64_t nz = v[0] | v[1] | v[2] | v[3];
    const std::uint64_t n1 =
        (v[0] ^ kOne[0]) | (v[1] ^ kOne[1]) | (v[2] ^ kOne[2]) | (v[3] ^ kOne[3]);
    if (nz == 0) return;
    if (n1 == 0) {
      fr_acc_add(acc, coeff);
      return;
    }
  }
  fr_acc_add(acc, coeff * value);
}

/// ⟨row k, z⟩. Entries are sorted by kind (+1, −1, general), so three tight loops with one exit
/// branch each replace a per-entry switch; |g| is the running index into gen_idx. kBool: a general
/// term whose witness value is 0 is skipped and one whose value is 1 costs an add instead of a
/// mul (tested only on general terms, where it saves a multiplication; unit terms stay
/// branch-free). An earlier version classified the witness in a separate pass: ≈ 10 % of the SpMV
/// time.
template <bool kBool>
[[gnu::always_inline]] inline Fr row_dot(const SparseMatrix& m, std::size_t k, const Fr* z,
                                         std::uint64_t& g) {
  constexpr std::uint32_t kMask = SparseMatrix::kColumnMask;
  const std::uint32_t* col = m.col.data();
  std::uint64_t e = m.row_ptr[k];
  const std::uint64_t end = m.row_ptr[k + 1];
  // The first +1 term is copied, not added to zero (0 + v = v for a reduced v): most rows of A, B
  // and C start with one, and rows are 1–3 terms long, so this removes about half the additions.
  Fr acc = Fr::zero();
  if (e < end && col[e] < (1u << SparseMatrix::kKindShift)) acc = z[col[e++]];
  for (; e < end && col[e] < (1u << SparseMatrix::kKindShift); ++e) fr_acc_add(acc, z[col[e]]);
  for (; e < end && col[e] < (2u << SparseMatrix::kKindShift); ++e)
    fr_acc_sub(acc, z[col[e] & kMask]);
  if (e == end) return acc;
  const std::uint32_t* gi = m.gen_idx.data() + g;
  const Fr* coeffs = m.coeffs.data();
  g += end - e;
  for (; e < end; ++e, ++gi) acc_general<kBool>(acc, coeffs[*gi], z[col[e] & kMask]);
  return acc;
}

/// Non-temporal store of one value (two 16-byte movntdq, |dst| 16-byte aligned; consecutive rows
/// fill whole lines in the write-combining buffers, so the line is never read for ownership).
/// Measured 3 % faster over the SpMV than four 8-byte movnti at 2^18 (quiet machine).
[[gnu::always_inline]] inline void store_nt(Fr* dst, const Fr& v) {
  auto* d = reinterpret_cast<__m128i*>(dst->l.data());
  _mm_stream_si128(d,
                   _mm_set_epi64x(static_cast<long long>(v.l[1]), static_cast<long long>(v.l[0])));
  _mm_stream_si128(d + 1,
                   _mm_set_epi64x(static_cast<long long>(v.l[3]), static_cast<long long>(v.l[2])));
}

}  // namespace cuzk
