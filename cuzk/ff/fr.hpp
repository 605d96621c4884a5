// Fr, the BLS12-381 scalar field: r = 0x73eda753…00000001 (255 bits), 4 × 64-bit limbs,
// Montgomery R = 2^256. 2-adicity 32; multiplicative generator 7 (bellperson's coset shift);
// ROOT_OF_UNITY = 7^((r−1)/2^32). Source: FORMATS.md §1.1; vectors file `fields.Fr`.
#pragma once

#include "cuzk/ff/mont.hpp"

namespace cuzk {

struct FrParams {
  static constexpr const char* name = "Fr";
  static constexpr unsigned bits = 255;
  static constexpr Limbs<4> modulus = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL,
                                       0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL};
  static constexpr std::uint64_t nonresidue = 7;  // the multiplicative generator is a non-residue
};

using Fr = MontField<FrParams>;

static_assert(Fr::kR == Limbs<4>{0x00000001fffffffeULL, 0x5884b7fa00034802ULL,
                                 0x998c4fefecbc4ff5ULL, 0x1824b159acc5056fULL});
static_assert(Fr::kInv == 0xfffffffeffffffffULL);
static_assert(Fr::kTwoAdicity == 32);
static_assert(sizeof(Fr) == 32);

/// The multiplicative generator of Fr^* used for cosets (bellperson: 7).
inline constexpr std::uint64_t kFrGenerator = 7;

/// The primitive 2^32-th root of unity 7^((r−1)/2^32) (FORMATS.md §1.1), canonical limbs.
inline constexpr Limbs<4> kFrRootOfUnity32 = {0x3829971f439f0d2bULL, 0xb63683508c2280b9ULL,
                                              0xd09b681922c813b4ULL, 0x16a2a19edfe81f20ULL};

}  // namespace cuzk
