// The witness fast path of the SHA-256 compression (sha256.hpp), for systems with
// ConstraintSystem::fast_witness(): the same rounds on native 32-bit words, writing the values
// of the variables the generic gadget code allocates, in its order, in blocks.
//
// A word is three masks: v (each bit's Boolean value), c (which bits are constants) and n (which
// non-constant bits are negated views of their variable; the variable holds v ⊕ n). The gadget's
// constant folding is a function of c and v, so it is decided per word with masks:
//   xor       allocates the bits where neither operand is constant, value (v_a⊕n_a) ⊕ (v_b⊕n_b)
//             (AllocatedBit::xor of the two variables); result v_a⊕v_b, constant where both are,
//             negated as n_a⊕n_b, or as the other operand's n flipped by a constant 1
//   ch / maj  with no constant operand bit: one value (ch), or two (maj, then b∧c) per bit; any
//             other word goes bit by bit through the Boolean case order (a scalar twin of
//             Boolean::sha256_ch / sha256_maj / bit_and)
//   addmany   ⌈log2(n·(2^32−1))⌉ bits of the sum unless every operand bit is constant, and the
//             MultiEq's packing only in the constraint count
// Only the output words' bits name variables (each is a fresh addmany result or a constant), so
// the rounds carry no variable indexes. Cost per compression: ≈ 25k values written (32 B each)
// plus a few hundred word operations, against two virtual calls, a scope and an optional per bit
// on the generic path.
#pragma once

#include <array>
#include <span>

#include "cuzk/r1cs/gadgets/uint32.hpp"

namespace cuzk {

/// sha256_compression_function on a fast_witness() system; the caller checks fast_witness(), a
/// 512-bit |block| and that every bit of |block| and |current| has a value.
Result<std::array<UInt32, 8>> sha256_compression_witness(ConstraintSystem& cs,
                                                         std::span<const Boolean> block,
                                                         const std::array<UInt32, 8>& current);

}  // namespace cuzk
