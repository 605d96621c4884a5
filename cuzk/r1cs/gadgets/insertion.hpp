// Insertion and selection (rust-fil-proofs storage-proofs-core gadgets/insertion.rs; FORMATS.md
// §3.4): insert |element| among |elements| at the index given by |bits| (LSB first). Sizes 2, 4
// and 8 use the hand-optimised forms (2 / 8 / 22 constraints, built from `pick` and, for 8, one
// nor and one and of the two low bits); other powers of two use one select per position
// (size·(size − 1) constraints). select is a binary tree of picks, most significant bit first.
#pragma once

#include <span>
#include <vector>

#include "cuzk/r1cs/gadgets/num.hpp"

namespace cuzk {

/// |elements| with |element| inserted at position bits (elements.size() + 1 = 2^bits.size()).
Result<std::vector<AllocatedNum>> insert(ConstraintSystem& cs, const AllocatedNum& element,
                                         std::span<const Boolean> bits,
                                         std::span<const AllocatedNum> elements);
/// from[index(bits)], with from.size() = 2^bits.size() (scopes "pick i, j").
Result<AllocatedNum> select(ConstraintSystem& cs, std::span<const AllocatedNum> from,
                            std::span<const Boolean> bits);

}  // namespace cuzk
