// Fp, the BLS12-381 base field: p = 0x1a0111ea…ffffaaab (381 bits), 6 × 64-bit limbs,
// Montgomery R = 2^384. p ≡ 3 mod 4, so sqrt(a) = a^((p+1)/4) and −1 is a non-residue.
// Source: FORMATS.md §1.1; tests/data/bls12_381_vectors.json `fields.Fp`.
#pragma once

#include "cuzk/ff/mont.hpp"

namespace cuzk {

struct FpParams {
  static constexpr const char* name = "Fp";
  static constexpr unsigned bits = 381;
  static constexpr Limbs<6> modulus = {0xb9feffffffffaaabULL, 0x1eabfffeb153ffffULL,
                                       0x6730d2a0f6b0f624ULL, 0x64774b84f38512bfULL,
                                       0x4b1ba7b6434bacd7ULL, 0x1a0111ea397fe69aULL};
  static constexpr std::uint64_t nonresidue =
      2;  // unused: p ≡ 3 mod 4 takes the direct square root
};

using Fp = MontField<FpParams>;

// The derived constants equal the published ones (vectors file `fields.Fp.R`, `inv64`).
static_assert(Fp::kR == Limbs<6>{0x760900000002fffdULL, 0xebf4000bc40c0002ULL,
                                 0x5f48985753c758baULL, 0x77ce585370525745ULL,
                                 0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL});
static_assert(Fp::kInv == 0x89f3fffcfffcfffdULL);
static_assert(Fp::kTwoAdicity == 1);
static_assert(sizeof(Fp) == 48);

}  // namespace cuzk
