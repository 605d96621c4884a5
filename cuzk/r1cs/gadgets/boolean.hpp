// Boolean gadgets in bellpepper-core's exact constraint forms and allocation order
// (gadgets/boolean.rs; FORMATS.md §2.6):
//   AllocatedBit::alloc           b; (1 − b)·b = 0
//   alloc_conditionally           b; (1 − f − b)·b = 0        (b forced to 0 when f = 1)
//   xor                           c; (a + a)·b = a + b − c
//   and / and_not / nor           c; a·b = c, a·(1 − b) = c, (1 − a)·(1 − b) = c
//   Boolean (constant | Is | Not) folds constants and negations before allocating anything, with
//   the same case order as the Rust `match` arms; sha256_ch costs 1, sha256_maj 2 constraints.
// Values are std::optional<bool>: empty during setup, when the system never asks for them.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "cuzk/r1cs/constraint_system.hpp"

namespace cuzk {

/// A variable constrained to 0 or 1.
class AllocatedBit {
 public:
  AllocatedBit() = default;
  AllocatedBit(Variable v, std::optional<bool> value) : var_(v), value_(value) {}

  /// New bit with the booleanity constraint (1 − b)·b = 0.
  static Result<AllocatedBit> alloc(ConstraintSystem& cs, std::optional<bool> value);
  /// New bit with (1 − must_be_false − b)·b = 0: 0 whenever |must_be_false| is 1.
  static Result<AllocatedBit> alloc_conditionally(ConstraintSystem& cs, std::optional<bool> value,
                                                  const AllocatedBit& must_be_false);
  /// a ⊕ b: (a + a)·b = a + b − c.
  static Result<AllocatedBit> bit_xor(ConstraintSystem& cs, const AllocatedBit& a,
                                      const AllocatedBit& b);
  /// a ∧ b: a·b = c.
  static Result<AllocatedBit> bit_and(ConstraintSystem& cs, const AllocatedBit& a,
                                      const AllocatedBit& b);
  /// a ∧ ¬b: a·(1 − b) = c.
  static Result<AllocatedBit> and_not(ConstraintSystem& cs, const AllocatedBit& a,
                                      const AllocatedBit& b);
  /// ¬a ∧ ¬b: (1 − a)·(1 − b) = c.
  static Result<AllocatedBit> nor(ConstraintSystem& cs, const AllocatedBit& a,
                                  const AllocatedBit& b);

  Variable variable() const { return var_; }
  std::optional<bool> value() const { return value_; }

 private:
  Variable var_;
  std::optional<bool> value_;
};

/// A constant bit, an allocated bit, or the negation of one.
class Boolean {
 public:
  enum class Kind : std::uint8_t { constant, is, negated };

  Boolean() = default;
  static Boolean constant(bool b) {
    Boolean r;
    r.kind_ = Kind::constant;
    r.const_ = b;
    return r;
  }
  static Boolean from(const AllocatedBit& b) {
    Boolean r;
    r.kind_ = Kind::is;
    r.bit_ = b;
    return r;
  }

  Kind kind() const { return kind_; }
  bool is_constant() const { return kind_ == Kind::constant; }
  /// The constant's value (only for constants).
  bool constant_value() const { return const_; }
  /// The underlying allocated bit (only for Is / Not).
  const AllocatedBit& bit() const { return bit_; }
  std::optional<bool> value() const;
  /// coeff·value as an LC: constant c → c·coeff·ONE, Is → coeff·b, Not → coeff·ONE − coeff·b.
  LC lc(const Fr& coeff = Fr::one()) const;
  /// The negated view (no constraint).
  Boolean negate() const;

  static Result<Boolean> bit_xor(ConstraintSystem& cs, const Boolean& a, const Boolean& b);
  static Result<Boolean> bit_and(ConstraintSystem& cs, const Boolean& a, const Boolean& b);
  /// ¬(¬a ∧ ¬b), the inner AND in scope "not and (not a) (not b)".
  static Result<Boolean> bit_or(ConstraintSystem& cs, const Boolean& a, const Boolean& b);
  /// a = b: one constraint 0·0 = (a − b) (or against the constant); invalid_argument when two
  /// different constants are compared (bellpepper's Unsatisfiable).
  static Status enforce_equal(ConstraintSystem& cs, const Boolean& a, const Boolean& b);
  /// SHA-256 Ch(a, b, c) = (a ∧ b) ⊕ (¬a ∧ c): new ch; (b − c)·a = ch − c.
  static Result<Boolean> sha256_ch(ConstraintSystem& cs, const Boolean& a, const Boolean& b,
                                   const Boolean& c);
  /// SHA-256 Maj(a, b, c): new maj, then bc = b ∧ c (scope "b and c"); (2bc − b − c)·a = bc − maj.
  static Result<Boolean> sha256_maj(ConstraintSystem& cs, const Boolean& a, const Boolean& b,
                                    const Boolean& c);

 private:
  Kind kind_ = Kind::constant;
  bool const_ = false;
  AllocatedBit bit_;
};

/// 64 allocated bits of |value|, LSB first (scopes "bit i"); bellpepper's u64_into_boolean_vec_le.
Result<std::vector<Boolean>> u64_into_boolean_vec_le(ConstraintSystem& cs,
                                                     std::optional<std::uint64_t> value);
/// 255 allocated bits of |value|, LSB first (scopes "bit i"); field_into_allocated_bits_le.
Result<std::vector<AllocatedBit>> field_into_allocated_bits_le(ConstraintSystem& cs,
                                                               std::optional<Fr> value);

/// Bit |i| of the canonical value of |x|.
inline bool fr_bit(const Fr& x, unsigned i) {
  const auto c = x.to_canonical();
  return (c[i / 64] >> (i % 64)) & 1;
}

}  // namespace cuzk
