// The Groth16 prover [Gro16 §3.2] through the Backend interface, following FORMATS.md §2:
//   1. a = A·z, b = B·z, c = C·z (r1cs/pce: parallel SpMV);
//   2. H: one Backend::compute_h call in the key's convention: bellperson layout → coset 7, divide
//      by Z, n − 1 coefficients; snarkjs layout → p_j = (a·b − c)(ω_2n^(2j+1)) on the odd coset
//      with the ffjs roots and c = a∘b (snarkjs's groth16_prove.js; tools/oracles/README.md),
//      n values, no division;
//   3. five MSMs (steps 2 and 3 are one Backend::prove_partition call): A_q = Σ z_i·a_i, B1_q, B2_q (G2), L = Σ aux_j·l_j, H = Σ h_i·h_i, with bellperson's
//      density bitmaps for the bellperson layout and none for snarkjs (identity bases kept);
//   4. A = α + A_q + r·δ₁, B = β₂ + B2_q + s·δ₂, B₁ = β₁ + B1_q + s·δ₁,
//      C = H + L + s·A + r·B₁ − r·s·δ₁.
#pragma once

#include <memory>
#include <optional>
#include <span>

#include "cuzk/backend/backend.hpp"
#include "cuzk/base/status.hpp"
#include "cuzk/base/thread_pool.hpp"
#include "cuzk/groth16/key_placement.hpp"
#include "cuzk/groth16/keys.hpp"
#include "cuzk/groth16/proof.hpp"
#include "cuzk/groth16/rng.hpp"
#include "cuzk/poly/ntt.hpp"
#include "cuzk/r1cs/compact_witness.hpp"
#include "cuzk/r1cs/matrices.hpp"
#include "cuzk/r1cs/pce.hpp"
#include "cuzk/r1cs/r1cs_dims.hpp"

namespace cuzk {

/// Seconds spent in each prover stage (filled when ProveOptions::timings is set).
struct ProveTimings {
  double abc = 0, h = 0, msm_a = 0, msm_b1 = 0, msm_b2 = 0, msm_l = 0, msm_h = 0, assemble = 0,
         total = 0;
  /// Host → device transfer inside the partition call (0 where the backend has none); the stage
  /// times of a backend that overlaps stages are spans on its own timeline (PartitionTimings).
  double upload = 0;
  /// Wall time of the Backend::prove_partition call (H and the MSMs; prove_compact: the
  /// prove_partition_compact call, z and a, b, c made from the compact witness included).
  double partition = 0;
  /// Bytes the partition call moved host → device (PartitionTimings::upload_bytes).
  std::uint64_t upload_bytes = 0;
};

struct ProveOptions {
  /// Fixed blinding values (known-answer tests); drawn from |rng| (OsRng when null) otherwise.
  std::optional<Fr> r{}, s{};
  Rng* rng = nullptr;
  ProveTimings* timings = nullptr;
  /// prove_with_abc: when set, a/b/c (scratch once H is computed; their capacity kept) are moved
  /// here instead of freed, so a caller can reuse the buffers for its next proof.
  AbcVectors* used_abc = nullptr;
  /// prove_compact: where a backend that expands the witness on the host takes z, a, b, c and
  /// gives them back (CompactPartitionInputs::host_vectors); null: fresh vectors.
  HostVectorPool* host_vectors = nullptr;
  /// Run the partition as step-wise Backend calls (Backend::prove_partition_steps: compute_h and
  /// eight MSMs) instead of one Backend::prove_partition; benchmarks compare the two.
  bool stepwise = false;
};

/// A proving key whose queries are resident on a backend (loaded once, reused by every proof);
/// releases its tables on destruction. The key and the backend must outlive it.
class ResidentKey {
 public:
  /// |streamed|: the queries kept in host memory (plan_key_placement), loaded with
  /// Backend::load_bases_*_streamed; the others with the backend's own rule.
  static Result<std::unique_ptr<ResidentKey>> load(Backend& backend, const ProvingKey& pk,
                                                   const StreamedQueries& streamed = {});
  /// The five queries of a bellperson .params (EncodedBases, e.g. sections of the mapped file).
  struct EncodedQueries {
    EncodedBases h, l, a, b_g1, b_g2;
  };
  /// The same from the queries' encodings (Backend::load_bases_*_encoded: a device decodes
  /// them in place); |pk| gives the VK, layout and domain (its tables are not read). Errors name
  /// the query ("params section l: G1 point 7: ...").
  static Result<std::unique_ptr<ResidentKey>> load_encoded(Backend& backend, const ProvingKey& pk,
                                                           const EncodedQueries& queries,
                                                           const StreamedQueries& streamed = {});
  ~ResidentKey();
  ResidentKey(const ResidentKey&) = delete;
  ResidentKey& operator=(const ResidentKey&) = delete;

  const ProvingKey& key() const { return *pk_; }
  Backend& backend() const { return *backend_; }
  /// The tables' point counts on the backend (the key's tables may be empty: load_encoded).
  const QueryCounts& counts() const { return counts_; }
  BasesId h, l, a, b_g1, b_g2;

  /// Loads the key's circuit in its compact form on the key's backend (Backend::load_circuit),
  /// released with the key; then circuit() names it for prove_compact. invalid_argument when one
  /// is loaded already; the backend's errors.
  Status load_circuit(std::shared_ptr<const CompactR1cs> circuit);
  /// The circuit loaded with the key (value 0: none).
  CircuitId circuit() const { return circuit_; }

 private:
  ResidentKey() = default;
  QueryCounts counts_;
  CircuitId circuit_{};
  Backend* backend_ = nullptr;
  const ProvingKey* pk_ = nullptr;
};

/// size_mismatch (naming the query) unless |pk| fits the circuit |m| (its counts and densities:
/// plain matrices or a compact form's dims()).
Status check_key_matches(const ProvingKey& pk, const R1csDims& m);
/// The domain rule check_key_matches applies: |domain| is the smallest power of two holding
/// |constraints| (2 may hold 1), as bellperson and snarkjs choose it.
bool domain_fits(std::uint64_t domain, std::uint64_t constraints);
/// The same for a key whose tables have |counts| points (the VK, layout and domain from |pk|).
Status check_key_matches(const ProvingKey& pk, const QueryCounts& counts, const R1csDims& m);

/// A proof for witness |z| = (inputs ‖ aux), ONE first, of circuit |m| under |key|.
/// size_mismatch when the key or witness does not fit the circuit; invalid_argument when δ is
/// the identity. An unsatisfied witness gives a proof that does not verify (not checked here).
Result<Proof> prove(ThreadPool& pool, const ResidentKey& key, const R1csMatrices& m,
                    std::span<const Fr> z, const ProveOptions& opt = {});
/// The same with a/b/c already evaluated (each num_constraints long; consumed as scratch); only
/// the circuit's counts and densities are read, so |m| may come from either form.
Result<Proof> prove_with_abc(ThreadPool& pool, const ResidentKey& key, const R1csDims& m,
                             AbcVectors abc, std::span<const Fr> z, const ProveOptions& opt = {});
/// The same over spans: a, b, c each domain_size long (entries past num_constraints zero), consumed
/// as scratch; nothing is allocated or freed for them (the engine's pinned partition vectors).
Result<Proof> prove_with_abc_spans(ThreadPool& pool, const ResidentKey& key, const R1csDims& m,
                                   std::span<Fr> a, std::span<Fr> b, std::span<Fr> c,
                                   std::span<const Fr> z, const ProveOptions& opt = {});
/// The same from a compact witness (r1cs/compact_witness.hpp) of |circuit|, the circuit's compact
/// R1CS loaded on the key's backend (Backend::load_circuit): one
/// Backend::prove_partition_compact call makes z and a, b, c over the key's domain (on the device
/// where the backend holds the circuit, else on the host over |pool|) and runs the H step and the
/// MSMs; the checks, blinding and assembly are prove_with_abc's, so with the same r, s the proof
/// is the same bytes. |m| gives the counts and densities (the compact form's dims()).
/// size_mismatch when the key or witness does not fit |m|; not_found for a circuit not loaded on
/// the key's backend; the backend's errors.
Result<Proof> prove_compact(ThreadPool& pool, const ResidentKey& key, const R1csDims& m,
                            CircuitId circuit, const CompactWitness& witness,
                            const ProveOptions& opt = {});
/// Loads the key on |backend| for this one proof, then proves.
Result<Proof> prove(Backend& backend, ThreadPool& pool, const ProvingKey& pk, const R1csMatrices& m,
                    std::span<const Fr> z, const ProveOptions& opt = {});

}  // namespace cuzk
