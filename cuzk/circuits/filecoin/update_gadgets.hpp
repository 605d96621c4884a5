// The SnapDeals-specific gadgets of rust-fil-proofs storage-proofs-update gadgets.rs (the apex
// tree, the gen-randomness hash and the bit decomposition are general and live in r1cs/gadgets/):
//   gen_challenge_bits       per digest j (0 ≤ j < D, D = ⌈challenges / ⌊254 / b⌋⌉, b the bits
//                            per challenge): digest_index = k·D + j allocated
//                            ("digest_index_j") with (D·k + j·ONE)·ONE = digest_index;
//                            digest = H_custom1(comm_r_new, digest_index) ("digest_j", 311);
//                            its 255 bits with (Σ 2^i·b_i)·1 = digest ("digest_j_bits", 256);
//                            then consecutive b-bit chunks are the challenges        568 per digest
//   challenge_high_bits      for each of the 6 hs[i] (h = hs[i], scopes "(h=…, k=i)"): pack the h
//                            top bits of the challenge (pack_bits, 1), c_high_or_zero with
//                            c_high·h_select_bit = c_high_or_zero (1); then c_high_selected with
//                            (Σ c_high_or_zero)·1 = c_high_selected                  13 in all
//   label_r_new              d·rho = p (AllocatedNum::mul, 1); (r_old + p)·1 = r_new (1)      2
// Costs of gen_challenge_bits per partition (upstream test): 568 (≤ 2^10 and 2^18, 2^19 nodes),
// 4,544 (2^24), 5,680 (2^30, 2^31).
#pragma once

#include <array>
#include <span>
#include <vector>

#include "cuzk/r1cs/gadgets/num.hpp"

namespace cuzk::circuits::filecoin {

/// The |challenges| challenges' |bits_per_challenge| random bits each (LSB first) for the
/// partition whose index is the allocated |partition|.
Result<std::vector<std::vector<AllocatedBit>>> gen_challenge_bits(ConstraintSystem& cs,
                                                                  const AllocatedNum& comm_r_new,
                                                                  const AllocatedNum& partition,
                                                                  unsigned challenges,
                                                                  unsigned bits_per_challenge);

/// The value of the top h bits of the challenge |c_bits| (LSB first), h = hs[i] for the one set
/// bit i of |h_select_bits| (get_challenge_high_bits); size_mismatch unless 6 select bits.
Result<AllocatedNum> challenge_high_bits(ConstraintSystem& cs, std::span<const AllocatedBit> c_bits,
                                         std::span<const AllocatedBit> h_select_bits,
                                         const std::array<unsigned, 6>& hs);

/// label_r_new = label_r_old + label_d_new·rho.
Result<AllocatedNum> label_r_new(ConstraintSystem& cs, const AllocatedNum& label_r_old,
                                 const AllocatedNum& label_d_new, const AllocatedNum& rho);

}  // namespace cuzk::circuits::filecoin
