// The field value 0 or 1 of a bit, for the witness fast paths that write many bit values: built
// from a mask (ONE's Montgomery limbs AND −bit) instead of a select, which the compiler may turn
// into a branch that mispredicts on every other witness bit (they are random).
#pragma once

#include <cstdint>

#include "cuzk/ff/fr.hpp"

namespace cuzk {

/// Fr::one() when the low bit of |bit| is set, Fr::zero() otherwise; no branch.
inline Fr bit_value(std::uint64_t bit) {
  constexpr Fr one = Fr::one();
  const std::uint64_t mask = std::uint64_t{0} - (bit & 1);
  Fr r;
  for (std::size_t k = 0; k < r.l.size(); ++k) r.l[k] = one.l[k] & mask;
  return r;
}

}  // namespace cuzk
