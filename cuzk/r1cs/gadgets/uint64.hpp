// UInt64 (rust-fil-proofs storage-proofs-core gadgets/uint64.rs): 64 Booleans, LSB first. alloc
// = 64 allocated bits ("allocated bit i"); pack_into_input = pack_into_inputs of the 64 bits (one
// public input, one constraint). Used for the PoRep challenge (FORMATS.md §3.3, §3.4).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "cuzk/r1cs/gadgets/boolean.hpp"

namespace cuzk {

class UInt64 {
 public:
  UInt64() = default;
  static UInt64 constant(std::uint64_t v);
  static Result<UInt64> alloc(ConstraintSystem& cs, std::optional<std::uint64_t> v);
  /// From 64 bits, most significant first.
  static UInt64 from_bits_be(std::span<const Boolean> bits);
  /// From 64 bits, least significant first.
  static UInt64 from_bits(std::span<const Boolean> bits);
  std::vector<Boolean> to_bits_be() const {
    return std::vector<Boolean>(bits_.rbegin(), bits_.rend());
  }
  std::vector<Boolean> to_bits_le() const {
    return std::vector<Boolean>(bits_.begin(), bits_.end());
  }
  /// One public input holding the value, one packing constraint.
  Status pack_into_input(ConstraintSystem& cs) const;
  std::optional<std::uint64_t> value() const { return value_; }

 private:
  std::array<Boolean, 64> bits_{};
  std::optional<std::uint64_t> value_;
};

}  // namespace cuzk
