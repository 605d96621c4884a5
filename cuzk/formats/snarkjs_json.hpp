// snarkjs JSON files (tools/oracles/README.md, "JSON files"), written as snarkjs writes them
// (JSON.stringify(x, null, 1): one-space indent, no trailing newline):
//   proof.json              {"pi_a": [x, y, "1"], "pi_b": [[x.c0, x.c1], [y.c0, y.c1], ["1", "0"]],
//                            "pi_c": [x, y, "1"], "protocol": "groth16", "curve": "bls12381"}
//   public.json             ["w1", ..., "w_nPublic"]
//   verification_key.json   protocol, curve, nPublic, vk_alpha_1, vk_beta_2, vk_gamma_2, vk_delta_2,
//                           vk_alphabeta_12 (= e(α, β), [[c0.c0, c0.c1, c0.c2], [c1.c0, c1.c1, c1.c2]]), IC
// Decimal strings of canonical affine coordinates, projective with Z = 1 (the identity: Z = 0).
// Readers check every value (< p or < r), the curve equation and the subgroup (snarkjs checks only
// the curve), and name the field at fault.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cuzk/base/status.hpp"
#include "cuzk/ff/fr.hpp"
#include "cuzk/groth16/keys.hpp"
#include "cuzk/groth16/proof.hpp"

namespace cuzk {

std::string proof_to_snarkjs_json(const Proof& proof);
Result<Proof> proof_from_snarkjs_json(std::string_view text);

std::string public_to_snarkjs_json(std::span<const Fr> inputs);
Result<std::vector<Fr>> public_from_snarkjs_json(std::string_view text);

/// Computes vk_alphabeta_12 = e(α, β) (one pairing).
std::string vk_to_snarkjs_json(const VerifyingKey& vk);
/// Reads the key; vk_alphabeta_12 is checked against e(α, β) (bad_encoding when it differs).
Result<VerifyingKey> vk_from_snarkjs_json(std::string_view text);

}  // namespace cuzk
