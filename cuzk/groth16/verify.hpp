// Groth16 verification [Gro16 §3.2], as bellperson's verify_proof / verify_proofs_batch
// (FORMATS.md §2.5): accept iff e(A, B)·e(L, −γ)·e(C, −δ) = e(α, β) with L = ic[0] + Σ x_i·ic[i+1].
// One multi-Miller loop of three pairs (γ, δ prepared once) and one final exponentiation.
// Batch: random 128-bit z_j, Π_j e(z_j·A_j, B_j) · e(Σ_j z_j·L_j, −γ) · e(Σ_j z_j·C_j, −δ) =
// e(α, β)^(Σ z_j): N + 2 Miller loops and one final exponentiation for N proofs; a false batch
// passes with probability ≤ 2^−128 per forged proof.
#pragma once

#include <span>
#include <vector>

#include "cuzk/base/status.hpp"
#include "cuzk/ff/fr.hpp"
#include "cuzk/groth16/keys.hpp"
#include "cuzk/groth16/proof.hpp"
#include "cuzk/groth16/rng.hpp"

namespace cuzk {

/// e(α, β), −γ and −δ prepared; the ic points copied.
PreparedVerifyingKey prepare_verifying_key(const VerifyingKey& vk);

/// L = ic[0] + Σ inputs[i]·ic[i + 1]; size_mismatch unless inputs.size() + 1 == ic.size().
Result<G1Jacobian> input_combination(std::span<const G1Affine> ic, std::span<const Fr> inputs);

/// true when the proof is valid for |public_inputs| (ONE excluded), false when it is not;
/// size_mismatch when the input count disagrees with the key. Proof points are trusted to be
/// on their curves and in their subgroups (the decoders of formats/ check that).
Result<bool> verify(const PreparedVerifyingKey& pvk, std::span<const Fr> public_inputs,
                    const Proof& proof);

/// One proof and its public inputs, for batch verification.
struct ProofWithInputs {
  const Proof* proof;
  std::span<const Fr> inputs;
};

/// true when every proof is valid (random linear combination with 128-bit weights from |rng|);
/// an empty batch is valid. size_mismatch when some input count disagrees with the key.
Result<bool> verify_batch(const PreparedVerifyingKey& pvk, std::span<const ProofWithInputs> proofs,
                          Rng& rng);

}  // namespace cuzk
