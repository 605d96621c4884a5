// Radix-2 evaluation domains over Fr: the subgroup ⟨ω⟩ of order n = 2^k (k ≤ 32, Fr's 2-adicity)
// and its coset g·⟨ω⟩, on which the Groth16 H step divides by Z(X) = X^n − 1.
//
// Two root families (FORMATS.md §1.1, vectors file `fields.Fr.note_roots`):
//  * bellman (bellperson, blstrs, supraseal): ω_32 = 7^t, t = (r − 1)/2^32 (kFrRootOfUnity32);
//  * ffjs (snarkjs, ffjavascript): ω_32 = 5^t, 5 the smallest quadratic non-residue.
// In both, ω_k = ω_32^(2^(32−k)). snarkjs zkey Lagrange bases are tied to the ffjs roots.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "cuzk/base/status.hpp"
#include "cuzk/base/thread_pool.hpp"
#include "cuzk/ff/fr.hpp"

namespace cuzk {

/// Which primitive 2^32-th root of unity the domain's ω descends from.
enum class RootFamily {
  bellman,  ///< 7^((r−1)/2^32), bellperson/blstrs
  ffjs,     ///< 5^((r−1)/2^32), snarkjs/ffjavascript
};

/// The bellman/bellperson primitive 2^32-th root of unity (Montgomery form).
inline constexpr Fr kFrOmega32Bellman = Fr::from_canonical_unchecked(kFrRootOfUnity32);
/// The ffjavascript primitive 2^32-th root of unity 5^t (vectors file `root_of_unity["32"]`).
inline constexpr Fr kFrOmega32Ffjs = Fr::from_u64(5).pow_vartime(Fr::kOddPart);
/// snarkjs's coset shift for the H step: nqr² = 25 (vectors file `ffjs_shift_nqr_squared`).
inline constexpr std::uint64_t kFfjsCosetShift = 25;

/// The primitive 2^32-th root of unity of a family.
constexpr Fr omega32(RootFamily family) {
  return family == RootFamily::bellman ? kFrOmega32Bellman : kFrOmega32Ffjs;
}

/// How a Domain is built: root family and coset shift (bellperson defaults).
struct DomainOptions {
  RootFamily roots = RootFamily::bellman;
  /// Coset shift g; must be non-zero and outside ⟨ω⟩ (g^n ≠ 1). bellperson: 7, snarkjs: 25.
  Fr coset_shift = Fr::from_u64(kFrGenerator);
};

/// ⟨ω⟩ of size n = 2^k with its coset g·⟨ω⟩. A value type: O(k) field operations to build, no
/// tables (twiddle tables live in NttPlan).
class Domain {
 public:
  /// The domain of size 2^|log_size|; invalid_argument when log_size > 32, when the shift is zero
  /// or when g^n = 1 (the coset would be ⟨ω⟩ itself, where Z vanishes).
  static Result<Domain> from_log_size(unsigned log_size, const DomainOptions& options = {});
  /// The smallest domain of size 2^k ≥ |min_size| (size 1 for 0 and 1); out_of_range past 2^32.
  static Result<Domain> for_size(std::uint64_t min_size, const DomainOptions& options = {});

  /// n = 2^k, k and the root family.
  std::uint64_t size() const { return std::uint64_t{1} << log_size_; }
  unsigned log_size() const { return log_size_; }
  RootFamily roots() const { return roots_; }
  /// ω, a primitive n-th root of unity; ω^(-1); n^(-1).
  const Fr& omega() const { return omega_; }
  const Fr& omega_inv() const { return omega_inv_; }
  const Fr& size_inv() const { return size_inv_; }
  /// The coset shift g and g^(-1).
  const Fr& coset_shift() const { return shift_; }
  const Fr& coset_shift_inv() const { return shift_inv_; }
  /// Z(g·ω^i) = g^n − 1 for every point of the coset, and its inverse.
  const Fr& vanishing_on_coset() const { return z_coset_; }
  const Fr& vanishing_on_coset_inv() const { return z_coset_inv_; }

  /// ω^i (i taken mod n), by square-and-multiply: O(log i).
  Fr element(std::uint64_t i) const;
  /// Z(x) = x^n − 1.
  Fr evaluate_vanishing(const Fr& x) const;
  /// Every Lagrange basis polynomial of the domain at |tau|: out[i] = L_i(τ) =
  /// Z(τ)·ω^i / (n·(τ − ω^i)); out[i] = [i == j] when τ = ω^j. |out| must hold size() values
  /// (size_mismatch otherwise). One batch inversion: about 5n multiplications.
  Status lagrange_at(const Fr& tau, std::span<Fr> out) const;
  /// The same in parallel: chunks of at least 4096 points, each with its own batch inversion.
  Status lagrange_at(const Fr& tau, std::span<Fr> out, ThreadPool& pool) const;

 private:
  Domain() = default;
  unsigned log_size_ = 0;
  RootFamily roots_ = RootFamily::bellman;
  Fr omega_, omega_inv_, size_inv_, shift_, shift_inv_, z_coset_, z_coset_inv_;
};

/// snarkjs's coset shift for the H step on a domain of size n = 2^|log_size| (groth16_prove.js:
/// `power == Fr.s ? Fr.shift : Fr.w[power + 1]`): the ffjs primitive 2n-th root ω_2n, so that
/// g^n = −1 and Z = −2 on the coset; 25 (nqr²) when log_size = 32. log_size must be ≤ 32.
Fr snarkjs_coset_shift(unsigned log_size);
/// Options of a domain that matches snarkjs zkeys: ffjs roots and snarkjs's coset shift.
inline DomainOptions snarkjs_domain_options(unsigned log_size) {
  return {.roots = RootFamily::ffjs, .coset_shift = snarkjs_coset_shift(log_size)};
}

/// Σ coeffs[i]·x^i by Horner's rule (n multiplications).
Fr evaluate_polynomial(std::span<const Fr> coeffs, const Fr& x);

/// out[i] = start·base^i for i < |out|.size() (one multiplication each).
void fill_powers(std::span<Fr> out, const Fr& base, const Fr& start = Fr::one());

}  // namespace cuzk
