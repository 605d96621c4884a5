// Montgomery's trick: invert n field elements with one inversion and 3(n − 1) multiplications
// (Montgomery 1987, "Speeding the Pollard and elliptic curve methods", §10.3.1).
//   prefix[i] = x_0·…·x_{i−1};  inv = (x_0·…·x_{n−1})^{-1};
//   for i = n−1 … 0:  x_i^{-1} = inv·prefix[i],  inv ← inv·x_i.
// Zeros are skipped in both passes and stay zero (the convention of inverse(): 0^{-1} = 0), so one
// zero does not spoil the batch. Works for any F with *, inverse_vartime(), is_zero() and one()
// (Fp, Fr, Fp2, Fp6, Fp12). Variable time: the zero test branches and the one inversion is the
// binary-Euclid one.
#pragma once

#include <algorithm>
#include <cstddef>
#include <span>
#include <vector>

namespace cuzk {

/// Inverts every non-zero element of |v| in place, using |scratch| (any size) for the prefix
/// products: v is processed in chunks of scratch.size() elements, one inversion per chunk (an
/// empty scratch inverts element by element).
template <class F>
void batch_invert_vartime(std::span<F> v, std::span<F> scratch) {
  if (scratch.empty()) {
    for (auto& x : v) x = x.inverse_vartime();
    return;
  }
  for (std::size_t base = 0; base < v.size(); base += scratch.size()) {
    const std::size_t n = std::min(scratch.size(), v.size() - base);
    std::span<F> c = v.subspan(base, n);
    F acc = F::one();
    for (std::size_t i = 0; i < n; ++i) {
      scratch[i] = acc;
      if (!c[i].is_zero()) acc = acc * c[i];
    }
    F inv = acc.inverse_vartime();  // acc ≠ 0: a product of non-zero elements
    for (std::size_t i = n; i-- > 0;) {
      if (c[i].is_zero()) continue;
      const F t = inv * scratch[i];
      inv = inv * c[i];
      c[i] = t;
    }
  }
}

/// Inverts every non-zero element of |v| in place; allocates v.size() elements of scratch.
template <class F>
void batch_invert_vartime(std::span<F> v) {
  std::vector<F> scratch(v.size());
  batch_invert_vartime(v, std::span<F>(scratch));
}

}  // namespace cuzk
