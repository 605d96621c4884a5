// MultiEq (bellpepper gadgets/multieq.rs): packs many "lhs = rhs over k bits" equalities into one
// constraint (Σ 2^{off}·lhs)·1 = Σ 2^{off}·rhs until 254 bits (Fr::CAPACITY) would be exceeded,
// then emits "multieq i" at that point of the constraint stream; flush() emits the remainder (in
// Rust this happens when the MultiEq is dropped at the end of the SHA-256 compression).
#pragma once

#include <cstddef>
#include <string>

#include "cuzk/r1cs/constraint_system.hpp"

namespace cuzk {

class MultiEq {
 public:
  static constexpr std::size_t kCapacity = 254;

  explicit MultiEq(ConstraintSystem& cs) : cs_(cs) {}
  MultiEq(const MultiEq&) = delete;
  MultiEq& operator=(const MultiEq&) = delete;
  ~MultiEq() { flush(); }

  /// Adds lhs = rhs, both < 2^num_bits.
  void enforce_equal(std::size_t num_bits, const LC& lhs, const LC& rhs) {
    if (kCapacity <= bits_used_ + num_bits) accumulate();
    const bool want = cs_.wants_constraints();
    if (want) {
      const Fr coeff = pow2(bits_used_);
      lhs_.add(bits_used_ == 0 ? lhs : lhs.scaled(coeff));
      rhs_.add(bits_used_ == 0 ? rhs : rhs.scaled(coeff));
    }
    bits_used_ += num_bits;
  }
  /// Emits the pending constraint, if any.
  void flush() {
    if (bits_used_ > 0) accumulate();
  }
  std::size_t ops() const { return ops_; }

 private:
  static Fr pow2(std::size_t k) {
    Fr r = Fr::one();
    for (std::size_t i = 0; i < k; ++i) r = r.dbl();
    return r;
  }
  void accumulate() {
    const std::size_t ops = ops_;
    cs_.enforce([ops] { return "multieq " + std::to_string(ops); }, lhs_, Variable::one(), rhs_);
    lhs_ = LC();
    rhs_ = LC();
    bits_used_ = 0;
    ++ops_;
  }

  ConstraintSystem& cs_;
  std::size_t ops_ = 0;
  std::size_t bits_used_ = 0;
  LC lhs_, rhs_;
};

}  // namespace cuzk
