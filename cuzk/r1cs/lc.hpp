// LinearCombination: Σ coeff_i · var_i over Fr, as in bellpepper-core. Terms are kept in insertion
// order with up to 3 of them inline; normalize() sorts by variable (inputs first), merges repeated
// variables and drops zero coefficients, which is what the density trackers and the matrices see.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>

#include "cuzk/ff/fr.hpp"
#include "cuzk/r1cs/small_vector.hpp"
#include "cuzk/r1cs/variable.hpp"

namespace cuzk {

/// One term coeff · var.
struct Term {
  Variable var;
  Fr coeff;
};

/// −1 in Fr (Montgomery form), for the ±1 coefficient fast paths.
inline constexpr Fr kFrMinusOne = Fr::zero() - Fr::one();

/// a == b limb by limb, branch-free (std::array's == compiles to a memcmp call here, which showed
/// as 13 % of matrix building in a profile).
inline bool fr_eq(const Fr& a, const Fr& b) {
  return ((a.l[0] ^ b.l[0]) | (a.l[1] ^ b.l[1]) | (a.l[2] ^ b.l[2]) | (a.l[3] ^ b.l[3])) == 0;
}
inline bool fr_is_one(const Fr& a) { return fr_eq(a, Fr::one()); }
inline bool fr_is_minus_one(const Fr& a) { return fr_eq(a, kFrMinusOne); }

/// A linear combination of variables with small inline storage.
class LinearCombination {
 public:
  LinearCombination() = default;
  /// The combination 1·v.
  LinearCombination(Variable v) { terms_.push_back({v, Fr::one()}); }  // NOLINT
  static LinearCombination zero() { return {}; }

  /// Appends coeff·v (no merging; see normalize()).
  LinearCombination& add(const Fr& coeff, Variable v) {
    terms_.push_back({v, coeff});
    return *this;
  }
  LinearCombination& add(Variable v) { return add(Fr::one(), v); }
  LinearCombination& sub(Variable v) { return add(kFrMinusOne, v); }
  LinearCombination& sub(const Fr& coeff, Variable v) { return add(-coeff, v); }
  LinearCombination& add(const LinearCombination& o) {
    for (const Term& t : o.terms_) terms_.push_back(t);
    return *this;
  }
  LinearCombination& sub(const LinearCombination& o) {
    for (const Term& t : o.terms_) terms_.push_back({t.var, -t.coeff});
    return *this;
  }
  /// Every coefficient times |s|.
  LinearCombination scaled(const Fr& s) const {
    LinearCombination r = *this;
    for (Term& t : r.terms_) t.coeff *= s;
    return r;
  }

  friend LinearCombination operator+(LinearCombination lc, Variable v) {
    return std::move(lc.add(v));
  }
  friend LinearCombination operator-(LinearCombination lc, Variable v) {
    return std::move(lc.sub(v));
  }
  friend LinearCombination operator+(LinearCombination lc, const Term& t) {
    return std::move(lc.add(t.coeff, t.var));
  }
  friend LinearCombination operator-(LinearCombination lc, const Term& t) {
    return std::move(lc.sub(t.coeff, t.var));
  }
  friend LinearCombination operator+(LinearCombination lc, const LinearCombination& o) {
    return std::move(lc.add(o));
  }
  friend LinearCombination operator-(LinearCombination lc, const LinearCombination& o) {
    return std::move(lc.sub(o));
  }

  std::span<const Term> terms() const { return terms_.span(); }
  std::size_t size() const { return terms_.size(); }
  bool empty() const { return terms_.empty(); }

  /// Sorts by variable, merges repeats, drops zero coefficients (bellpepper's Indexer semantics).
  void normalize() {
    const std::size_t n = terms_.size();
    if (n == 0) return;
    Term* t = terms_.data();
    bool sorted = true;
    for (std::size_t i = 1; i < n; ++i) sorted = sorted && t[i - 1].var < t[i].var;
    if (!sorted) {
      // Insertion sort: LCs are short, and std::stable_sort would allocate a buffer per call.
      // Order among equal variables does not matter: their coefficients are summed.
      if (n <= 32) {
        for (std::size_t i = 1; i < n; ++i) {
          const Term x = t[i];
          std::size_t j = i;
          for (; j > 0 && x.var < t[j - 1].var; --j) t[j] = t[j - 1];
          t[j] = x;
        }
      } else {
        std::sort(t, t + n, [](const Term& x, const Term& y) { return x.var < y.var; });
      }
    }
    std::size_t out = 0;
    for (std::size_t i = 0; i < n;) {
      Term acc = t[i++];
      while (i < n && t[i].var == acc.var) acc.coeff += t[i++].coeff;
      if (!acc.coeff.is_zero()) t[out++] = acc;
    }
    terms_.resize_down(out);
  }

  /// ⟨lc, z⟩ with z = (inputs, aux); the caller guarantees every index is in range.
  Fr evaluate_unchecked(std::span<const Fr> inputs, std::span<const Fr> aux) const {
    Fr acc = Fr::zero();
    for (const Term& t : terms_) {
      const Fr& v = t.var.is_input() ? inputs[t.var.index] : aux[t.var.index];
      if (fr_is_one(t.coeff)) {
        acc += v;
      } else if (fr_is_minus_one(t.coeff)) {
        acc -= v;
      } else {
        acc += t.coeff * v;
      }
    }
    return acc;
  }

 private:
  SmallVector<Term, 3> terms_;
};

using LC = LinearCombination;

}  // namespace cuzk
