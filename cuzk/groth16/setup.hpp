// Groth16 key generation [Gro16 §3.2] from an R1CS, for tests, benchmarks and users without a
// ceremony. Steps and costs (n the domain size, m the columns):
//   1. the Lagrange basis at τ (≈ 5n multiplications, batch inversion), in parallel;
//   2. the column evaluations u, v, w (groth16/column_evaluations.hpp): a transposed SpMV of the
//      plain matrices (one thread) or of the compact form (parallel, no plain matrices);
//   3. the query scalars (β·u + α·v + w)/γ or /δ, τ^i·Z(τ)/δ, u and v of the non-zero columns),
//      chunk by chunk, and their fixed-base multiplications by the G1 / G2 generator through a
//      FixedBaseExecutor (backend/fixed_base.hpp: the CPU tables, or the GPU), the first and last
//      point of every call recomputed on the CPU (device_failure when they differ);
//   4. the points delivered to a KeySink (groth16/key_sink.hpp) query by query in the .params
//      order, so a key can be written while it is computed. Memory: u, v, w (96 B per column) and
//      one chunk of scalars and points; the key itself only when the sink keeps it.
#pragma once

#include <cstdint>

#include "cuzk/backend/fixed_base.hpp"
#include "cuzk/base/status.hpp"
#include "cuzk/base/thread_pool.hpp"
#include "cuzk/ff/fr.hpp"
#include "cuzk/groth16/key_sink.hpp"
#include "cuzk/groth16/keys.hpp"
#include "cuzk/groth16/rng.hpp"
#include "cuzk/r1cs/matrices.hpp"
#include "cuzk/r1cs/pce_compact.hpp"

namespace cuzk {

/// The secret values of a setup ("toxic waste"); all must be non-zero.
struct Trapdoor {
  Fr tau, alpha, beta, gamma, delta;
};

/// Seconds spent per step (filled when SetupOptions::stats is set).
struct SetupStats {
  double lagrange = 0;    ///< step 1
  double columns = 0;     ///< step 2
  double scalars = 0;     ///< step 3, the scalars
  double fixed_base = 0;  ///< step 3, inside the executor
  double sink = 0;        ///< step 4, inside the sink (encoding, writing)
  double total = 0;
};

struct SetupOptions {
  KeyLayout layout = KeyLayout::bellperson;
  /// Threads for the Lagrange basis, the column evaluations and the scalars (nullptr: one
  /// thread); also the CPU fixed-base executor's when |fixed_base| is null.
  ThreadPool* pool = nullptr;
  /// The fixed-base multiplications (nullptr: the CPU executor on |pool|).
  FixedBaseExecutor* fixed_base = nullptr;
  /// Scalars per executor call (and per sink append).
  std::size_t chunk = std::size_t{1} << 22;
  SetupStats* stats = nullptr;
};

/// A trapdoor drawn from |rng| (τ outside the domain, so Z(τ) ≠ 0).
Trapdoor random_trapdoor(Rng& rng);

/// The key of |m| for the trapdoor |td|, delivered to |sink|. invalid_argument for a zero
/// trapdoor value, τ in the domain, more than 2^32 constraints, or (bellperson layout) an aux
/// variable that occurs in no constraint (its l point would be the identity, which bellperson's
/// reader rejects); these are found before the sink receives anything.
Status setup_into(const R1csMatrices& m, const Trapdoor& td, KeySink& sink,
                  const SetupOptions& opt = {});
/// The same from the compact form (no plain matrices); the same key as from compact_to_matrices.
Status setup_into(const CompactR1cs& c, const Trapdoor& td, KeySink& sink,
                  const SetupOptions& opt = {});

/// The proving key of |m| (or |c|) for the trapdoor |td|, in memory.
Result<ProvingKey> setup_with_trapdoor(const R1csMatrices& m, const Trapdoor& td,
                                       const SetupOptions& opt = {});
Result<ProvingKey> setup_with_trapdoor(const CompactR1cs& c, const Trapdoor& td,
                                       const SetupOptions& opt = {});

/// The proving key of |m| for a trapdoor drawn from |rng| and then forgotten.
Result<ProvingKey> setup(const R1csMatrices& m, Rng& rng, const SetupOptions& opt = {});

}  // namespace cuzk
