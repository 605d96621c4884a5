#include "cuzk/groth16/verify.hpp"

#include <string>

#include "cuzk/ec/scalar_mul.hpp"

namespace cuzk {

PreparedVerifyingKey prepare_verifying_key(const VerifyingKey& vk) {
  PreparedVerifyingKey p;
  p.alpha_beta = pairing(vk.alpha_g1, vk.beta_g2);
  p.neg_gamma = G2Prepared::from_affine(-vk.gamma_g2);
  p.neg_delta = G2Prepared::from_affine(-vk.delta_g2);
  p.ic = vk.ic;
  return p;
}

Result<G1Jacobian> input_combination(std::span<const G1Affine> ic, std::span<const Fr> inputs) {
  if (inputs.size() + 1 != ic.size())
    return Status(Errc::size_mismatch,
                  "the key has " + std::to_string(ic.empty() ? 0 : ic.size() - 1) +
                      " public inputs, " + std::to_string(inputs.size()) + " were given");
  G1Jacobian acc = G1Jacobian::from_affine(ic[0]);
  for (std::size_t i = 0; i < inputs.size(); ++i) acc += mul_vartime(ic[i + 1], inputs[i]);
  return acc;
}

Result<bool> verify(const PreparedVerifyingKey& pvk, std::span<const Fr> public_inputs,
                    const Proof& proof) {
  auto l = input_combination(pvk.ic, public_inputs);
  if (!l.ok()) return l.status();
  const G1Affine p[3] = {proof.a, l->to_affine(), proof.c};
  const G2Prepared q[3] = {G2Prepared::from_affine(proof.b), pvk.neg_gamma, pvk.neg_delta};
  auto f = multi_miller_loop(std::span<const G1Affine>(p), std::span<const G2Prepared>(q));
  if (!f.ok()) return f.status();
  return final_exponentiation(*f) == pvk.alpha_beta;
}

Result<bool> verify_batch(const PreparedVerifyingKey& pvk, std::span<const ProofWithInputs> proofs,
                          Rng& rng) {
  if (proofs.empty()) return true;
  if (proofs.size() == 1) return verify(pvk, proofs[0].inputs, *proofs[0].proof);
  const std::size_t n_in = pvk.ic.size() - 1;
  // Σ_j z_j·L_j = Σ_i (Σ_j z_j·x_{j,i})·ic[i + 1] + (Σ_j z_j)·ic[0]: weights per input first.
  std::vector<Fr> w(n_in, Fr::zero());
  Fr z_sum = Fr::zero();
  G1Jacobian c_acc = G1Jacobian::identity();
  std::vector<G1Affine> p;
  std::vector<G2Prepared> q;
  p.reserve(proofs.size() + 2);
  q.reserve(proofs.size() + 2);
  for (std::size_t j = 0; j < proofs.size(); ++j) {
    if (proofs[j].inputs.size() != n_in)
      return Status(Errc::size_mismatch, "proof " + std::to_string(j) + ": the key has " +
                                             std::to_string(n_in) + " public inputs, " +
                                             std::to_string(proofs[j].inputs.size()) +
                                             " were given");
    Limbs<4> zl{rng.next_u64(), rng.next_u64(), 0, 0};
    if (zl[0] == 0 && zl[1] == 0) zl[0] = 1;
    const Fr z = Fr::from_canonical_unchecked(zl);
    z_sum += z;
    for (std::size_t i = 0; i < n_in; ++i) w[i] += z * proofs[j].inputs[i];
    c_acc += mul_limbs_vartime(G1Jacobian::from_affine(proofs[j].proof->c), zl);
    p.push_back(mul_limbs_vartime(G1Jacobian::from_affine(proofs[j].proof->a), zl).to_affine());
    q.push_back(G2Prepared::from_affine(proofs[j].proof->b));
  }
  G1Jacobian l_acc = mul_vartime(pvk.ic[0], z_sum);
  for (std::size_t i = 0; i < n_in; ++i) l_acc += mul_vartime(pvk.ic[i + 1], w[i]);
  p.push_back(l_acc.to_affine());
  q.push_back(pvk.neg_gamma);
  p.push_back(c_acc.to_affine());
  q.push_back(pvk.neg_delta);
  auto f = multi_miller_loop(std::span<const G1Affine>(p), std::span<const G2Prepared>(q));
  if (!f.ok()) return f.status();
  return final_exponentiation(*f) == pvk.alpha_beta.pow_vartime(z_sum.to_canonical());
}

}  // namespace cuzk
