// Multipacking (bellpepper gadgets/multipack.rs; FORMATS.md §2.6): bits LSB first in chunks of
// 254 (Fr::CAPACITY); pack_into_inputs allocates one input per chunk ("input i") with
// (Σ 2^j·b_j)·1 = input ("packing constraint i"); pack_bits does the same for the first 254 bits
// into one aux variable (scope "input") with "packing constraint".
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/r1cs/gadgets/num.hpp"

namespace cuzk {

inline constexpr std::size_t kFrCapacity = 254;

/// One public input per 254-bit chunk of |bits|.
Status pack_into_inputs(ConstraintSystem& cs, std::span<const Boolean> bits);
/// The first 254 bits packed into a new aux variable.
Result<AllocatedNum> pack_bits(ConstraintSystem& cs, std::span<const Boolean> bits);
/// Out of circuit: the values pack_into_inputs exposes.
std::vector<Fr> compute_multipacking(const std::vector<bool>& bits);
/// Bytes to bits, most significant bit of each byte first.
std::vector<bool> bytes_to_bits(std::span<const std::uint8_t> bytes);
/// Bytes to bits, least significant bit of each byte first.
std::vector<bool> bytes_to_bits_le(std::span<const std::uint8_t> bytes);

}  // namespace cuzk
