// LinearCombination: Σ coeff_i · var_i over Fr, as in bellpepper-core. Terms are kept in insertion
// order with up to 3 of them inline; normalize() sorts by variable (inputs first), merges repeated
// variables and drops zero coefficients, which is what the density trackers and the matrices see.
//
// The normalized form is canonical: variable v gets Σ of every coefficient added for it (exact in
// Fr, so the order of additions, and scaling before or after summing, give the same bytes), and
// appears only when that sum is non-zero. An LC remembers whether its terms are already in that
// form (is_normalized()); add_merged() and add_scaled() keep a normalized LC normalized by a merge
// of two sorted lists, O(n + m), where appending and sorting later would cost O((n + m) log(n + m))
// and keep every repeat in memory (Poseidon's round LCs, built from LCs of LCs, held 8× their
// distinct terms that way). Either path gives the same normalized terms (lc_test.cpp).
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
    const std::size_t n = terms_.size();
    normalized_ = normalized_ && !coeff.is_zero() && (n == 0 || terms_[n - 1].var < v);
    terms_.push_back({v, coeff});
    return *this;
  }
  /// Adds coeff·v; a normalized LC stays normalized (v merged into its place, a zero sum
  /// dropped), O(terms after v's place). Otherwise the same as add().
  LinearCombination& add_merged(const Fr& coeff, Variable v) {
    if (!normalized_) return add(coeff, v);
    if (coeff.is_zero()) return *this;
    const std::size_t n = terms_.size();
    if (n == 0 || terms_[n - 1].var < v) return add(coeff, v);
    Term* t = terms_.data();
    std::size_t i = n;
    while (i > 0 && v < t[i - 1].var) --i;
    if (i > 0 && t[i - 1].var == v) {
      t[i - 1].coeff += coeff;
      if (t[i - 1].coeff.is_zero()) erase_at(i - 1);
      return *this;
    }
    const Term last = t[n - 1];
    terms_.push_back(last);  // may move the storage: index again
    t = terms_.data();
    for (std::size_t j = n - 1; j > i; --j) t[j] = t[j - 1];
    t[i] = {v, coeff};
    return *this;
  }
  /// this += s·o. Both normalized: one merge, the result normalized; otherwise s·o's terms are
  /// appended (normalize() then gives the same terms).
  LinearCombination& add_scaled(const LinearCombination& o, const Fr& s) {
    if (s.is_zero()) return *this;  // every term 0·v: nothing once normalized
    if (fr_is_one(s)) return merge_or_append(o, [](const Fr& c) { return c; });
    if (fr_is_minus_one(s)) return merge_or_append(o, [](const Fr& c) { return -c; });
    return merge_or_append(o, [&s](const Fr& c) { return c * s; });
  }
  LinearCombination& add(Variable v) { return add(Fr::one(), v); }
  LinearCombination& sub(Variable v) { return add(kFrMinusOne, v); }
  LinearCombination& sub(const Fr& coeff, Variable v) { return add(-coeff, v); }
  /// this += o, appended (no merging: gadgets that add one bit's LC at a time would copy the
  /// whole LC per merge; add_scaled(o, 1) merges).
  LinearCombination& add(const LinearCombination& o) {
    return append_mapped(o, [](const Fr& c) { return c; });
  }
  /// this −= o, appended (see add).
  LinearCombination& sub(const LinearCombination& o) {
    return append_mapped(o, [](const Fr& c) { return -c; });
  }
  /// Room for |n| terms.
  void reserve(std::size_t n) { terms_.reserve(n); }
  /// Every coefficient times |s|.
  LinearCombination scaled(const Fr& s) const {
    LinearCombination r = *this;
    for (Term& t : r.terms_) t.coeff *= s;
    r.normalized_ = normalized_ && (!s.is_zero() || terms_.empty());
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
  /// True when the terms are sorted by variable, distinct and non-zero (normalize() does nothing).
  bool is_normalized() const { return normalized_; }

  /// Sorts by variable, merges repeats, drops zero coefficients (bellpepper's Indexer semantics).
  void normalize() {
    if (normalized_) return;
    normalize_unchecked();
    normalized_ = true;
  }
  /// normalize() without trusting is_normalized(): the slow twin of the merging paths (tests).
  void normalize_unchecked() {
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
  void erase_at(std::size_t i) {
    Term* t = terms_.data();
    for (std::size_t j = i + 1; j < terms_.size(); ++j) t[j - 1] = t[j];
    terms_.resize_down(terms_.size() - 1);
  }
  // Appends f(c)·v for o's terms; still normalized when both were and o's terms all come after
  // this LC's. No reserve: push_back's doubling keeps a bit-by-bit build linear.
  template <class F>
  LinearCombination& append_mapped(const LinearCombination& o, F f) {
    const std::size_t m = o.terms_.size();
    if (m == 0) return *this;
    if (&o == this) return append_mapped(LinearCombination(o), f);  // push_back may move o
    const std::size_t n = terms_.size();
    normalized_ = normalized_ && o.normalized_ && (n == 0 || terms_[n - 1].var < o.terms_[0].var);
    const Term* y = o.terms_.data();
    for (std::size_t j = 0; j < m; ++j) terms_.push_back({y[j].var, f(y[j].coeff)});
    return *this;
  }
  // this += Σ f(c)·v over o's terms, f(c) ≠ 0 for c ≠ 0 (±1 or a non-zero scale).
  template <class F>
  LinearCombination& merge_or_append(const LinearCombination& o, F f) {
    const std::size_t m = o.terms_.size();
    if (m == 0) return *this;
    const std::size_t n = terms_.size();
    const Term* x = terms_.data();
    const Term* y = o.terms_.data();
    if (!normalized_ || !o.normalized_ || n == 0 || x[n - 1].var < y[0].var)
      return append_mapped(o, f);  // not both normalized, or o lies after this
    SmallVector<Term, 3> out;
    out.reserve(n + m);
    std::size_t i = 0, j = 0;
    while (i < n && j < m) {
      if (x[i].var < y[j].var) {
        out.push_back(x[i++]);
      } else if (y[j].var < x[i].var) {
        out.push_back({y[j].var, f(y[j].coeff)});
        ++j;
      } else {
        const Fr sum = x[i].coeff + f(y[j].coeff);
        if (!sum.is_zero()) out.push_back({x[i].var, sum});
        ++i, ++j;
      }
    }
    for (; i < n; ++i) out.push_back(x[i]);
    for (; j < m; ++j) out.push_back({y[j].var, f(y[j].coeff)});
    terms_ = std::move(out);
    return *this;
  }

  SmallVector<Term, 3> terms_;
  bool normalized_ = true;  // the empty LC is normalized
};

using LC = LinearCombination;

}  // namespace cuzk
