// Groth16 keys [Gro16 §3.2] over BLS12-381 in the two query layouts cuzk reads and writes.
//
// With u_i, v_i, w_i the A, B, C polynomials of variable i (Lagrange basis over the domain ⟨ω⟩ of
// size n) and the toxic waste τ, α, β, γ, δ:
//   ic[i]  = (β·u_i + α·v_i + w_i)(τ)/γ · G1   for the inputs (i = 0 is ONE)
//   l[j]   = (β·u_j + α·v_j + w_j)(τ)/δ · G1   for the aux variables
//   a[k]   = u_k(τ)·G1,  b_g1[k] = v_k(τ)·G1,  b_g2[k] = v_k(τ)·G2
// Layouts (FORMATS.md §1.3 and tools/oracles/README.md "zkey"):
//   bellperson: ω from 7^((r−1)/2^32); h[i] = τ^i·Z(τ)/δ for i < n − 1; a, b_g1, b_g2 omit the
//               points of variables whose polynomial is zero (the prover walks density bitmaps).
//   snarkjs:    ω from 5^((r−1)/2^32); h[j] = L^{(2n)}_{2j+1}(τ)/δ for j < n (odd-index Lagrange
//               basis of the 2n-domain); a, b_g1, b_g2 have one point per variable, the identity
//               kept, so the prover uses no density.
#pragma once

#include <cstdint>
#include <vector>

#include "cuzk/ec/g1.hpp"
#include "cuzk/ec/g2.hpp"
#include "cuzk/ec/pairing.hpp"
#include "cuzk/ff/fp12.hpp"
#include "cuzk/groth16/point_array.hpp"

namespace cuzk {

/// Which H query and A/B layout a key uses (see the file comment).
enum class KeyLayout { bellperson, snarkjs };

/// The verifying key: α, β, γ, δ and the input query ic (one point per input, ONE first).
struct VerifyingKey {
  G1Affine alpha_g1 = G1Affine::identity();
  G1Affine beta_g1 = G1Affine::identity();
  G2Affine beta_g2 = G2Affine::identity();
  G2Affine gamma_g2 = G2Affine::identity();
  G1Affine delta_g1 = G1Affine::identity();
  G2Affine delta_g2 = G2Affine::identity();
  std::vector<G1Affine> ic;
  /// Number of public inputs (ONE excluded).
  std::size_t num_public() const { return ic.empty() ? 0 : ic.size() - 1; }
  friend bool operator==(const VerifyingKey&, const VerifyingKey&) = default;
};

/// Points per query table (where the tables are kept elsewhere, e.g. decoded by a device from
/// a mapped .params file: ResidentKey::load_encoded).
struct QueryCounts {
  std::uint64_t h = 0, l = 0, a = 0, b_g1 = 0, b_g2 = 0;
  friend bool operator==(const QueryCounts&, const QueryCounts&) = default;
};

/// The proving key: the verifying key plus the five queries.
struct ProvingKey {
  KeyLayout layout = KeyLayout::bellperson;
  VerifyingKey vk;
  /// Domain size n (a power of two ≥ the constraint count, input constraints included).
  std::uint64_t domain_size = 0;
  // The queries: owned (huge-page advised) or views of a mapped key image (point_array.hpp).
  PointArray<G1Affine> h;     ///< n − 1 (bellperson) or n (snarkjs) points
  PointArray<G1Affine> l;     ///< one per aux variable
  PointArray<G1Affine> a;     ///< see KeyLayout
  PointArray<G1Affine> b_g1;  ///< see KeyLayout
  PointArray<G2Affine> b_g2;  ///< same index set as b_g1
  /// Inputs (ONE included) and aux variables of the circuit.
  std::uint64_t num_inputs() const { return vk.ic.size(); }
  std::uint64_t num_aux() const { return l.size(); }
  QueryCounts query_counts() const {
    return {.h = h.size(), .l = l.size(), .a = a.size(), .b_g1 = b_g1.size(), .b_g2 = b_g2.size()};
  }
  /// Bytes of the five queries.
  std::uint64_t query_bytes() const {
    return h.size_bytes() + l.size_bytes() + a.size_bytes() + b_g1.size_bytes() + b_g2.size_bytes();
  }
  friend bool operator==(const ProvingKey&, const ProvingKey&) = default;
};

/// A verifying key ready for pairings: e(α, β) and the prepared lines of −γ and −δ.
struct PreparedVerifyingKey {
  Fp12 alpha_beta;
  G2Prepared neg_gamma;
  G2Prepared neg_delta;
  std::vector<G1Affine> ic;
};

}  // namespace cuzk
