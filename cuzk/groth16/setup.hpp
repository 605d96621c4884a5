// Groth16 key generation [Gro16 §3.2] from an R1CS, for tests, benchmarks and users without a
// ceremony. Cost: one Lagrange evaluation of the domain (≈ 5n multiplications, batch inversion),
// one transposed SpMV per matrix, then fixed-base multiplications with signed windows (≈ 23 mixed
// additions per G1 point at w = 12) and one batch normalisation per chunk; all parallel on a pool.
#pragma once

#include <cstdint>

#include "cuzk/base/status.hpp"
#include "cuzk/base/thread_pool.hpp"
#include "cuzk/ff/fr.hpp"
#include "cuzk/groth16/keys.hpp"
#include "cuzk/groth16/rng.hpp"
#include "cuzk/r1cs/matrices.hpp"

namespace cuzk {

/// The secret values of a setup ("toxic waste"); all must be non-zero.
struct Trapdoor {
  Fr tau, alpha, beta, gamma, delta;
};

struct SetupOptions {
  KeyLayout layout = KeyLayout::bellperson;
  /// Threads for the Lagrange evaluation and the fixed-base multiplications (nullptr: one thread).
  ThreadPool* pool = nullptr;
};

/// A trapdoor drawn from |rng| (τ outside the domain, so Z(τ) ≠ 0).
Trapdoor random_trapdoor(Rng& rng);

/// The proving key of |m| for the trapdoor |td|. invalid_argument for a zero trapdoor value, τ in
/// the domain, more than 2^32 constraints, or (bellperson layout) an aux variable that occurs in
/// no constraint (its l point would be the identity, which bellperson's reader rejects).
Result<ProvingKey> setup_with_trapdoor(const R1csMatrices& m, const Trapdoor& td,
                                       const SetupOptions& opt = {});

/// The proving key of |m| for a trapdoor drawn from |rng| and then forgotten.
Result<ProvingKey> setup(const R1csMatrices& m, Rng& rng, const SetupOptions& opt = {});

}  // namespace cuzk
