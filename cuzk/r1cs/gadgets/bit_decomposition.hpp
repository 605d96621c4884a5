// The bit decomposition of storage-proofs-update (SnapDeals; gadgets.rs
// `allocated_num_to_allocated_bits`, circuit.rs `k_and_h_select` bits; FORMATS.md §4.2):
// |count| bits allocated LSB first (AllocatedBit::alloc, (1 − b)·b = 0 each), then ONE constraint
//   (Σ 2^i·b_i) · ONE = x                            (A = the packed sum, B = ONE, C = x)
// Cost: count + 1 constraints (256 for count = 255). This is not AllocatedNum::to_bits_le, which
// writes the same count as 0 · 0 = Σ 2^i·b_i − x: other matrices, so other parameters — the two
// must never stand in for one another. The bits are not range-checked below r.
// Names: the 255-bit form (num_into_bits_le_packed) allocates in scopes "bit i"
// (field_into_allocated_bits_le) with the constraint "binary decomp"; the short form
// (low_bits_le_packed, for k_and_h_select) names the bits "{prefix}_bit_{i}" and the constraint
// "{prefix} binary decomp", in the caller's scope, as circuit.rs does.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "cuzk/r1cs/gadgets/num.hpp"

namespace cuzk {

/// allocated_num_to_allocated_bits: the 255 bits of |x| and (Σ 2^i·b_i)·1 = x.
Result<std::vector<AllocatedBit>> num_into_bits_le_packed(ConstraintSystem& cs,
                                                          const AllocatedNum& x);
/// The low |count| bits of |x| (count ≤ 255) and (Σ 2^i·b_i)·1 = x: satisfiable only when
/// x < 2^count.
Result<std::vector<AllocatedBit>> low_bits_le_packed(ConstraintSystem& cs, const AllocatedNum& x,
                                                     std::size_t count, std::string_view prefix);

/// Out of circuit: bit i of the canonical value of |x|, for i < |count|.
std::vector<bool> bits_le_native(const Fr& x, std::size_t count);
/// Out of circuit: Σ 2^i·bits[i].
Fr pack_bits_le_native(const std::vector<bool>& bits);

}  // namespace cuzk
