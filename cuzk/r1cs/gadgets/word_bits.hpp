// Shared by UInt32 and UInt64: the bits of a W-bit word as Booleans, least significant first, and
// the word's value when every bit's value is known (bellpepper's UInt32/UInt64 constructors).
#pragma once

#include <array>
#include <optional>
#include <span>
#include <string>

#include "cuzk/r1cs/gadgets/assign.hpp"
#include "cuzk/r1cs/gadgets/bit_value.hpp"
#include "cuzk/r1cs/gadgets/boolean.hpp"

namespace cuzk::word_bits {

/// Constant bits of |v| (no variables, no constraints).
template <unsigned W, class T>
void constant(T v, std::array<Boolean, W>& bits) {
  for (unsigned i = 0; i < W; ++i) bits[i] = Boolean::constant(((v >> i) & 1) != 0);
}

/// One allocated bit per position, least significant first, each in scope "allocated bit i"
/// (one boolean constraint each).
template <unsigned W, class T>
Status alloc(ConstraintSystem& cs, std::optional<T> v, std::array<Boolean, W>& bits) {
  if (v && cs.fast_witness()) {
    // Witness fast path: the W values in one block, one booleanity constraint each.
    const ConstraintSystem::AuxBlock blk = cs.alloc_aux_block(W);
    for (unsigned i = 0; i < W; ++i) {
      const bool b = ((*v >> i) & 1) != 0;
      blk.values[i] = bit_value(b);
      bits[i] = Boolean::from(AllocatedBit(Variable::aux(blk.first + i), b));
    }
    cs.count_skipped_constraints(W);
    return Status();
  }
  for (unsigned i = 0; i < W; ++i) {
    Namespace ns(cs, [i] { return "allocated bit " + std::to_string(i); });
    std::optional<bool> b;
    if (v) b = ((*v >> i) & 1) != 0;
    CUZK_ASSIGN_OR_RETURN(AllocatedBit bit, AllocatedBit::alloc(cs, b));
    bits[i] = Boolean::from(bit);
  }
  return Status();
}

/// The value of W bits given most significant first; nullopt when any bit's value is unknown.
template <unsigned W, class T>
std::optional<T> value_msb_first(std::span<const Boolean> msb_first) {
  std::optional<T> v = 0;
  for (unsigned i = 0; i < W; ++i) {
    auto bv = msb_first[i].value();
    if (v && bv)
      v = static_cast<T>((*v << 1) | (*bv ? 1u : 0u));
    else
      v = std::nullopt;
  }
  return v;
}

/// The value of W bits given least significant first; nullopt when any bit's value is unknown.
template <unsigned W, class T>
std::optional<T> value_lsb_first(std::span<const Boolean> lsb_first) {
  std::optional<T> v = 0;
  for (unsigned i = W; i-- > 0;) {
    auto bv = lsb_first[i].value();
    if (v && bv)
      v = static_cast<T>((*v << 1) | (*bv ? 1u : 0u));
    else
      v = std::nullopt;
  }
  return v;
}

}  // namespace cuzk::word_bits
