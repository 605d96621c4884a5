// A Groth16 proof [Gro16]: π = (A ∈ G1, B ∈ G2, C ∈ G1). Encodings live in formats/
// (bellperson: 192 bytes compressed; snarkjs: proof.json).
#pragma once

#include "cuzk/ec/g1.hpp"
#include "cuzk/ec/g2.hpp"

namespace cuzk {

/// π = (A, B, C), affine.
struct Proof {
  G1Affine a = G1Affine::identity();
  G2Affine b = G2Affine::identity();
  G1Affine c = G1Affine::identity();
  friend bool operator==(const Proof&, const Proof&) = default;
};

}  // namespace cuzk
