// The CPU number-theoretic transform over Fr on a radix-2 Domain: forward, inverse and their coset
// variants, natural order in and out, multithreaded through a caller's ThreadPool.
//
//   forward:  X_j = Σ_i x_i·ω^(ij)                 (evaluations at ω^j)
//   inverse:  x_i = n^(-1)·Σ_j X_j·ω^(−ij)
//   coset forward:  X_j = Σ_i x_i·g^i·ω^(ij)       (evaluations at g·ω^j)
//   coset inverse:  x_i = g^(−i)·n^(-1)·Σ_j X_j·ω^(−ij)
//
// Algorithm (ntt.cpp): Bailey's four-step split n = n1·n2 (n1 ≈ n2 ≈ √n): n2 column transforms of
// length n1 done on blocks of columns copied into a small contiguous buffer, the twiddles ω^(j2·k1)
// applied on the way back, then n1 row transforms of length n2 in place, each in cache; both are
// radix-2 decimation in frequency leaving bit-reversed order, which composes to the bit reversal of
// the whole index, undone by one blocked in-place permutation. Coset factors, n^(-1) and g^(−i) are
// folded into those passes. Cost: n/2·log2(n) butterflies (one multiplication each) plus about
// 1–2 multiplications per element; 3 passes over memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/base/status.hpp"
#include "cuzk/base/thread_pool.hpp"
#include "cuzk/ff/fr.hpp"
#include "cuzk/poly/domain.hpp"

namespace cuzk {

/// Forward: coefficients → evaluations; inverse: evaluations → coefficients (with n^(-1)).
enum class NttDirection { forward, inverse };

/// What one transform does; set by designated initialisers: {.direction = ..., .coset = true}.
struct NttMode {
  NttDirection direction = NttDirection::forward;
  /// Evaluate on (or interpolate from) the coset g·⟨ω⟩ of the domain.
  bool coset = false;
};

/// The precomputed tables of one domain: stage twiddles of both sub-transforms in both directions,
/// the four-step twiddle bases and the coset factors. O(√n) field elements (about 12·√n·32 bytes,
/// 1.5 MiB at n = 2^27), built once and reused by every transform of that domain; immutable, so
/// one plan may serve concurrent transforms.
class NttPlan {
 public:
  /// Builds the tables of |domain| (O(√n) multiplications; 4 ms at 2^27).
  explicit NttPlan(const Domain& domain);
  /// The domain (size, roots, coset shift) the tables belong to.
  const Domain& domain() const { return domain_; }
  /// log2 of the column-transform length n1 (0 for small domains: one row) and of the row length n2.
  unsigned log_rows() const { return log_rows_; }
  unsigned log_cols() const { return log_cols_; }
  /// Bytes held by the tables.
  std::size_t memory_bytes() const;

  /// The tables of one direction.
  struct Tables {
    std::vector<Fr> col_stages;  ///< radix-2 stage twiddles of length n1 (n1 − 1 entries)
    std::vector<Fr> row_stages;  ///< radix-2 stage twiddles of length n2 (n2 − 1 entries)
    std::vector<Fr> col_step;  ///< ω^(±j2), j2 < n2: base of the four-step twiddles of column j2
  };
  /// Tables for ω (forward) or ω^(-1) (inverse).
  const Tables& tables(NttDirection d) const { return d == NttDirection::forward ? fwd_ : inv_; }
  /// g^(j1·n2), j1 < n1: coset factor of input row j1 (forward).
  const std::vector<Fr>& coset_row_in() const { return coset_row_in_; }
  /// g^(j2), j2 < n2: coset factor of input column j2 (forward).
  const std::vector<Fr>& coset_col_in() const { return coset_col_in_; }
  /// g^(−n1·rev(q)), q < n2: coset factor of output slot q of every row (inverse).
  const std::vector<Fr>& coset_out() const { return coset_out_; }

 private:
  Domain domain_;
  unsigned log_rows_ = 0, log_cols_ = 0;
  Tables fwd_, inv_;
  std::vector<Fr> coset_row_in_, coset_col_in_, coset_out_;
};

/// In-place transform of |values| (length = domain size, natural order in and out).
/// size_mismatch when the length differs from the plan's domain size.
Status ntt(std::span<Fr> values, const NttPlan& plan, const NttMode& mode, ThreadPool& pool);
/// The same with a plan built for this call (O(√n) extra work).
Status ntt(std::span<Fr> values, const Domain& domain, const NttMode& mode, ThreadPool& pool);

/// The O(n²) definition of the transform (test oracle, and for tiny sizes).
Status ntt_naive(std::span<Fr> values, const Domain& domain, const NttMode& mode);

/// In-place bit-reversal permutation (blocked for cache locality); invalid_argument unless the
/// length is a power of two.
Status bit_reverse_permute(std::span<Fr> values, ThreadPool& pool);

/// a[i] ← a[i]·b[i]; size_mismatch when the lengths differ.
Status pointwise_mul(std::span<Fr> a, std::span<const Fr> b, ThreadPool& pool);
/// a[i] ← a[i]·s.
void scale(std::span<Fr> a, const Fr& s, ThreadPool& pool);
/// Values on the coset divided by Z = g^n − 1: v[i] ← v[i]·(g^n − 1)^(-1).
Status divide_by_vanishing_on_coset(std::span<Fr> values, const Domain& domain, ThreadPool& pool);
/// The Groth16 H combination on the coset (FORMATS.md §2.2 steps 4–5): a[i] ← (a[i]·b[i] − c[i])·
/// (g^n − 1)^(-1); size_mismatch unless all three have the domain's size.
Status ab_minus_c_over_z(std::span<Fr> a, std::span<const Fr> b, std::span<const Fr> c,
                         const Domain& domain, ThreadPool& pool);
/// The whole H step (FORMATS.md §2.2): a, b, c are the evaluations of A, B, C on ⟨ω⟩ (length n,
/// zero-padded). On return a holds the n coefficients of H = (A·B − C)/Z, the top one zero for a
/// satisfied system; b and c are overwritten (scratch). 6 transforms of length n: on the coset g⟨ω⟩
/// Z is the constant g^n − 1 and the coset iNTT inverts C's coset NTT (degree < n), so
/// H = (g^n − 1)^{-1}·(iNTT_coset(A·B on the coset) − C's coefficients), the same field elements
/// as bellperson's 7 transforms for any a, b, c (compute_h_c_on_coset, the slow twin).
Status compute_h(std::span<Fr> a, std::span<Fr> b, std::span<Fr> c, const NttPlan& plan,
                 ThreadPool& pool);
/// compute_h as bellperson runs it: a, b and c each to the coset, (a·b − c)/Z there, the coset
/// iNTT. 7 transforms of length n.
Status compute_h_c_on_coset(std::span<Fr> a, std::span<Fr> b, std::span<Fr> c, const NttPlan& plan,
                            ThreadPool& pool);
/// snarkjs's H step (groth16_prove.js; tools/oracles/README.md) on a plan of the snarkjs domain
/// (snarkjs_domain_options: ffjs roots, coset shift ω_2n): a, b are the evaluations of A, B on ⟨ω⟩;
/// c ← a∘b (its input is not read), then a, b, c are interpolated and evaluated on the coset and on
/// return a holds the n values (A·B − C)(ω_2n·ω^j), not divided by Z; b and c are scratch.
/// 6 transforms of length n. invalid_argument for a plan with bellman roots.
Status compute_h_snarkjs(std::span<Fr> a, std::span<Fr> b, std::span<Fr> c, const NttPlan& plan,
                         ThreadPool& pool);

/// Evaluates the polynomial with coefficients |coeffs| at every point of |points|, out[i] = p(x_i),
/// in parallel (Horner per point); size_mismatch when |out| and |points| differ in length.
Status evaluate_polynomial_many(std::span<const Fr> coeffs, std::span<const Fr> points,
                                std::span<Fr> out, ThreadPool& pool);

}  // namespace cuzk
