// AllocatedNum and Num, in bellpepper-core's constraint forms and order (gadgets/num.rs), plus
// rust-fil-proofs' `pick` and `constraint::equal` (FORMATS.md §2.6):
//   alloc / alloc_input      one variable, no constraint
//   inputize                 x′ = alloc_input; x′·1 = x
//   to_bits_le               255 bits LSB first, then 0·0 = Σ 2^i·b_i − x   (256 constraints)
//   add / mul / square       c; (a + b)·1 = c, a·b = c, a·a = c
//   inverse                  c; a·c = 1 (invalid_argument for a = 0 when values are needed)
//   assert_nonzero           inv; a·inv = 1
//   conditionally_reverse    c; (a − b)·cond = a − c; d; (b − a)·cond = b − d
//   pick(cond, a, b)         c; (b − a)·cond = b − c      (c = cond ? a : b)
//   enforce_equal            a·1 = b
#pragma once

#include <optional>
#include <vector>

#include "cuzk/r1cs/gadgets/boolean.hpp"

namespace cuzk {

/// A field element held in one variable.
class AllocatedNum {
 public:
  AllocatedNum() = default;
  AllocatedNum(Variable v, std::optional<Fr> value) : var_(v), value_(value) {}

  /// New aux variable (scope leaf "num").
  static Result<AllocatedNum> alloc(ConstraintSystem& cs, std::optional<Fr> value);
  /// New input variable (scope leaf "input num").
  static Result<AllocatedNum> alloc_input(ConstraintSystem& cs, std::optional<Fr> value);

  /// Exposes the value as a new public input: x′·1 = x.
  Status inputize(ConstraintSystem& cs) const;
  /// 255 allocated bits, LSB first, and the unpacking constraint (not range-checked below r).
  Result<std::vector<Boolean>> to_bits_le(ConstraintSystem& cs) const;
  /// 255 bits constrained to encode a value < r (bellpepper's to_bits_le_strict).
  Result<std::vector<Boolean>> to_bits_le_strict(ConstraintSystem& cs) const;
  Result<AllocatedNum> add(ConstraintSystem& cs, const AllocatedNum& other) const;
  Result<AllocatedNum> mul(ConstraintSystem& cs, const AllocatedNum& other) const;
  Result<AllocatedNum> square(ConstraintSystem& cs) const;
  /// 1/a with a·c = 1.
  Result<AllocatedNum> inverse(ConstraintSystem& cs) const;
  Status assert_nonzero(ConstraintSystem& cs) const;

  /// (b, a) when |condition|, else (a, b).
  static Result<std::pair<AllocatedNum, AllocatedNum>> conditionally_reverse(
      ConstraintSystem& cs, const AllocatedNum& a, const AllocatedNum& b, const Boolean& condition);

  Variable variable() const { return var_; }
  std::optional<Fr> value() const { return value_; }

 private:
  Variable var_;
  std::optional<Fr> value_;
};

/// |condition| ? a : b with one constraint (b − a)·cond = b − c (scope leaf "pick result").
Result<AllocatedNum> pick(ConstraintSystem& cs, const Boolean& condition, const AllocatedNum& a,
                          const AllocatedNum& b);
/// a·1 = b under the name |name| (rust-fil-proofs constraint::equal).
void enforce_equal(ConstraintSystem& cs, const char* name, const AllocatedNum& a,
                   const AllocatedNum& b);

/// A linear combination with its value (bellpepper's Num): no variable of its own.
class Num {
 public:
  static Num zero() { return Num(); }
  static Num from(const AllocatedNum& n) {
    Num r;
    r.value_ = n.value();
    r.lc_ = LC(n.variable());
    return r;
  }
  /// self + coeff·bit.
  Num add_bool_with_coeff(const Boolean& bit, const Fr& coeff) const;
  Num add(const Num& o) const;
  Num scale(const Fr& s) const;
  /// coeff·lc.
  LC lc(const Fr& coeff = Fr::one()) const { return coeff.is_one() ? lc_ : lc_.scaled(coeff); }
  const LC& raw_lc() const { return lc_; }
  std::optional<Fr> value() const { return value_; }

 private:
  std::optional<Fr> value_ = Fr::zero();
  LC lc_;
};

}  // namespace cuzk
