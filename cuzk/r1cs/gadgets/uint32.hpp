// UInt32: 32 Booleans, LSB first, with bellpepper's gadgets (gadgets/uint32.rs): rotr/shr are
// free rewirings; xor is 32 Boolean xors (scopes "xor of bit i"); sha256_ch / sha256_maj per bit
// (scopes "ch i" / "maj i"); addmany allocates ⌈log2(n·(2^32−1))⌉ result bits ("result bit i")
// and hands Σ operands = Σ result bits to a MultiEq. All-constant sums fold to a constant.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "cuzk/r1cs/gadgets/boolean.hpp"
#include "cuzk/r1cs/gadgets/multieq.hpp"

namespace cuzk {

class UInt32 {
 public:
  UInt32() = default;
  static UInt32 constant(std::uint32_t v);
  /// 32 allocated bits (scopes "allocated bit i").
  static Result<UInt32> alloc(ConstraintSystem& cs, std::optional<std::uint32_t> v);
  /// From 32 bits, most significant first.
  static UInt32 from_bits_be(std::span<const Boolean> bits);
  /// From 32 bits, least significant first.
  static UInt32 from_bits(std::span<const Boolean> bits);
  /// The bits, most significant first.
  std::vector<Boolean> into_bits_be() const;
  const std::array<Boolean, 32>& bits() const { return bits_; }
  std::optional<std::uint32_t> value() const { return value_; }

  UInt32 rotr(unsigned by) const;
  UInt32 shr(unsigned by) const;
  Result<UInt32> bit_xor(ConstraintSystem& cs, const UInt32& other) const;
  static Result<UInt32> sha256_ch(ConstraintSystem& cs, const UInt32& a, const UInt32& b,
                                  const UInt32& c);
  static Result<UInt32> sha256_maj(ConstraintSystem& cs, const UInt32& a, const UInt32& b,
                                   const UInt32& c);
  /// Σ operands mod 2^32, 2 ≤ n ≤ 10 (invalid_argument otherwise).
  static Result<UInt32> addmany(ConstraintSystem& cs, MultiEq& meq,
                                std::span<const UInt32> operands);

 private:
  std::array<Boolean, 32> bits_{};
  std::optional<std::uint32_t> value_;
};

}  // namespace cuzk
