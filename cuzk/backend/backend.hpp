// The one interface the Groth16 prover and the engine call for large operations: resident bases,
// the NTT family, G1/G2 multi-scalar multiplication with bellperson density, and the H polynomial.
// Each call does O(n) or more work, so the virtual dispatch costs nothing measurable.
// CpuBackend (backend/cpu_backend.*) is the reference; gpu/ implements the same interface.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "cuzk/base/status.hpp"
#include "cuzk/ec/g1.hpp"
#include "cuzk/ec/g2.hpp"
#include "cuzk/ff/fr.hpp"
#include "cuzk/poly/ntt.hpp"  // NttDirection

namespace cuzk {

/// Handle to a base-point table loaded into a backend (resident until released).
struct BasesId {
  std::uint64_t value = 0;
  friend bool operator==(BasesId, BasesId) = default;
};

/// Options of one NTT over a power-of-two length. Natural order in and out.
struct NttOptions {
  NttDirection direction = NttDirection::forward;
  /// Evaluate on (or interpolate from) the coset shift·⟨ω⟩ instead of ⟨ω⟩.
  bool coset = false;
  /// The coset shift; bellperson uses the multiplicative generator 7.
  std::uint64_t coset_shift = kFrGenerator;
};

/// bellperson density (FORMATS.md §2.3): walk scalars in order; scalar i takes part iff bit i of
/// |bits| is set, and the k-th taking part pairs with bases[base_offset + k]. An empty |bits|
/// means every scalar takes part (scalar i pairs with bases[base_offset + i]).
struct MsmDensity {
  std::span<const std::uint64_t> bits{};
  std::size_t base_offset = 0;
};

/// How the bit-aware split (scalars 0 skipped, scalars 1 summed, the rest to Pippenger) is used.
enum class BitSplit { automatic, always, never };

struct MsmOptions {
  MsmDensity density{};
  BitSplit bit_split = BitSplit::automatic;
};

/// Which H step a proving key expects (FORMATS.md §2.2; oracles/README.md for snarkjs).
enum class HConvention {
  /// bellperson: bellman roots, coset 7, (A·B − C)/Z interpolated back to its n − 1 low
  /// coefficients (7 transforms).
  bellperson,
  /// snarkjs (groth16_prove.js): ffjs roots, c ← a∘b (the input c is not read), and the n values
  /// (A·B − C)(ω_2n^(2j+1)) on the odd coset ω_2n·⟨ω_n⟩, not divided by Z (6 transforms).
  snarkjs,
};

/// Inputs of the H step (DESIGN.md §2 step 2): a, b, c have one common power-of-two length n
/// (the domain size); entries past the constraint count are zero. They are consumed (scratch).
struct HInputs {
  std::span<Fr> a, b, c;
  HConvention convention = HConvention::bellperson;
};

/// A device (or the CPU) that runs the prover's large operations.
class Backend {
 public:
  virtual ~Backend() = default;
  /// "cpu", "cuda:0", ...
  virtual std::string name() const = 0;

  /// Makes a G1 base table resident; bases may contain the identity.
  virtual Result<BasesId> load_bases_g1(std::span<const G1Affine> bases) = 0;
  /// Makes a G2 base table resident.
  virtual Result<BasesId> load_bases_g2(std::span<const G2Affine> bases) = 0;
  /// Frees a table; not_found for an unknown id.
  virtual Status release_bases(BasesId id) = 0;

  /// In-place NTT of a power-of-two length ≤ 2^32.
  virtual Status ntt(std::span<Fr> values, const NttOptions& options) = 0;

  /// Σ scalars[i]·bases[...] with the density rule of MsmDensity; size_mismatch when the bases run
  /// out.
  virtual Result<G1Jacobian> msm_g1(BasesId bases, std::span<const Fr> scalars, const MsmOptions& options) = 0;
  virtual Result<G2Jacobian> msm_g2(BasesId bases, std::span<const Fr> scalars, const MsmOptions& options) = 0;

  /// The H step over the domain of size n = len(a) in the inputs' convention, written to |h|:
  /// bellperson → the n − 1 low coefficients of (A·B − C)/Z (|h| has n − 1 entries); snarkjs →
  /// the n odd-coset evaluations of A·B − C (|h| has n entries). FORMATS.md §2.2. size_mismatch
  /// for other lengths.
  virtual Status compute_h(HInputs inputs, std::span<Fr> h) = 0;
};

}  // namespace cuzk
