// Domain construction and the evaluation helpers (domain.hpp).
#include "cuzk/poly/domain.hpp"

#include <string>
#include <vector>

namespace cuzk {

Result<Domain> Domain::from_log_size(unsigned log_size, const DomainOptions& options) {
  if (log_size > Fr::kTwoAdicity)
    return Status(Errc::invalid_argument,
                  "domain of size 2^" + std::to_string(log_size) + " exceeds Fr's 2-adicity 32");
  if (options.coset_shift.is_zero()) return Status(Errc::invalid_argument, "coset shift is zero");
  Domain d;
  d.log_size_ = log_size;
  d.roots_ = options.roots;
  // ω_k = ω_32^(2^(32−k)): 32 − k squarings.
  Fr w = omega32(options.roots);
  for (unsigned i = log_size; i < Fr::kTwoAdicity; ++i) w = w.square();
  d.omega_ = w;
  d.omega_inv_ = w.inverse();
  d.size_inv_ = Fr::from_u64(d.size()).inverse();
  d.shift_ = options.coset_shift;
  d.shift_inv_ = options.coset_shift.inverse();
  // g^n by k squarings; g^n = 1 means g ∈ ⟨ω⟩.
  Fr gn = options.coset_shift;
  for (unsigned i = 0; i < log_size; ++i) gn = gn.square();
  d.z_coset_ = gn - Fr::one();
  if (d.z_coset_.is_zero())
    return Status(Errc::invalid_argument, "coset shift lies in the domain (g^n = 1)");
  d.z_coset_inv_ = d.z_coset_.inverse();
  return d;
}

Result<Domain> Domain::for_size(std::uint64_t min_size, const DomainOptions& options) {
  unsigned k = 0;
  while (k < 63 && (std::uint64_t{1} << k) < min_size) ++k;
  if (k > Fr::kTwoAdicity)
    return Status(Errc::out_of_range, "no radix-2 domain holds " + std::to_string(min_size) +
                                          " points (largest is 2^32)");
  return from_log_size(k, options);
}

Fr Domain::element(std::uint64_t i) const { return omega_.pow_u64(i & (size() - 1)); }

Fr Domain::evaluate_vanishing(const Fr& x) const {
  Fr t = x;
  for (unsigned i = 0; i < log_size_; ++i) t = t.square();
  return t - Fr::one();
}

Status Domain::lagrange_at(const Fr& tau, std::span<Fr> out) const {
  ThreadPool inline_pool(1);
  return lagrange_at(tau, out, inline_pool);
}

Status Domain::lagrange_at(const Fr& tau, std::span<Fr> out, ThreadPool& pool) const {
  const std::uint64_t n = size();
  if (out.size() != n)
    return Status(Errc::size_mismatch, "lagrange_at: output holds " + std::to_string(out.size()) +
                                           " values, the domain has " + std::to_string(n));
  const Fr z = evaluate_vanishing(tau);
  const bool on_domain = z.is_zero();  // τ = ω^j: L_i(τ) = [i == j]
  const Fr c = z * size_inv_;
  pool.parallel_for(
      n,
      [&](std::size_t b, std::size_t e) {
        const Fr w0 = omega_.pow_u64(b);
        if (on_domain) {
          Fr w = w0;
          for (std::size_t i = b; i < e; ++i) {
            out[i] = (w == tau) ? Fr::one() : Fr::zero();
            w *= omega_;
          }
          return;
        }
        // out[i] ← τ − ω^i, Montgomery's batch inversion over the chunk (3 multiplications per
        // point + 1 inversion), then multiply by c·ω^i with c = Z(τ)/n.
        std::vector<Fr> prefix(e - b);
        Fr w = w0;
        Fr acc = Fr::one();
        for (std::size_t i = b; i < e; ++i) {
          out[i] = tau - w;
          prefix[i - b] = acc;
          acc *= out[i];
          w *= omega_;
        }
        Fr inv = acc.inverse();
        for (std::size_t i = e; i-- > b;) {
          const Fr t = inv * prefix[i - b];
          inv *= out[i];
          out[i] = t;
        }
        Fr f = c * w0;
        for (std::size_t i = b; i < e; ++i) {
          out[i] *= f;
          f *= omega_;
        }
      },
      4096);
  return {};
}

Fr snarkjs_coset_shift(unsigned log_size) {
  if (log_size >= Fr::kTwoAdicity) return Fr::from_u64(kFfjsCosetShift);
  Fr w = kFrOmega32Ffjs;  // ω_(k+1) = ω_32^(2^(32−k−1))
  for (unsigned i = log_size + 1; i < Fr::kTwoAdicity; ++i) w = w.square();
  return w;
}

Fr evaluate_polynomial(std::span<const Fr> coeffs, const Fr& x) {
  Fr acc = Fr::zero();
  for (std::size_t i = coeffs.size(); i-- > 0;) acc = acc * x + coeffs[i];
  return acc;
}

void fill_powers(std::span<Fr> out, const Fr& base, const Fr& start) {
  Fr p = start;
  for (auto& o : out) {
    o = p;
    p *= base;
  }
}

}  // namespace cuzk
