// The one interface the Groth16 prover and the engine call for large operations: resident bases,
// the NTT family, G1/G2 multi-scalar multiplication with bellperson density, and the H polynomial.
// Each call does O(n) or more work, so the virtual dispatch costs nothing measurable.
// CpuBackend (backend/cpu_backend.*) is the reference; gpu/ implements the same interface.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cuzk/backend/encoded_bases.hpp"
#include "cuzk/base/clock.hpp"
#include "cuzk/base/status.hpp"
#include "cuzk/base/thread_pool.hpp"
#include "cuzk/ec/g1.hpp"
#include "cuzk/ec/g2.hpp"
#include "cuzk/ff/fr.hpp"
#include "cuzk/msm/density.hpp"   // MsmDensity
#include "cuzk/msm/msm_plan.hpp"  // MsmSplit
#include "cuzk/poly/ntt.hpp"      // NttDirection
#include "cuzk/r1cs/compact_witness.hpp"
#include "cuzk/r1cs/pce_compact.hpp"

namespace cuzk {

/// Handle to a base-point table loaded into a backend (resident until released).
struct BasesId {
  std::uint64_t value = 0;
  friend bool operator==(BasesId, BasesId) = default;
};

/// Handle to a circuit's compact R1CS loaded into a backend (Backend::load_circuit).
struct CircuitId {
  std::uint64_t value = 0;
  friend bool operator==(CircuitId, CircuitId) = default;
};

/// Options of one NTT over a power-of-two length. Natural order in and out.
struct NttOptions {
  NttDirection direction = NttDirection::forward;
  /// Evaluate on (or interpolate from) the coset shift·⟨ω⟩ instead of ⟨ω⟩.
  bool coset = false;
  /// The coset shift; bellperson uses the multiplicative generator 7.
  std::uint64_t coset_shift = kFrGenerator;
};

// MsmDensity (msm/density.hpp): bellperson's density (FORMATS.md §2.3): walk scalars in order;
// scalar i takes part iff bit i of |bits| is set, and the k-th taking part pairs with
// bases[base_offset + k]. An empty |bits| means every scalar takes part.

/// How the bit-aware split (scalars 0 skipped, scalars 1 summed, the rest to Pippenger) is used;
/// automatic: the backend's rule (msm/msm_plan.hpp: the CPU's from a sixteenth of the scalars,
/// the GPU's always).
using BitSplit = MsmSplit;

struct MsmOptions {
  MsmDensity density{};
  BitSplit bit_split = BitSplit::automatic;
};

/// Which H step a proving key expects (FORMATS.md §2.2; tools/oracles/README.md for snarkjs).
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

/// One Groth16 partition's device work (DESIGN.md §2 steps 2–3) in one call: the H step, then
/// the five query MSMs of FORMATS.md §2 over the resident tables of a proving key:
///   bellperson: A  = Σ inputs·a (all) + Σ aux·a (a_aux), B_G1/B_G2 = Σ inputs·b (b_input) +
///               Σ aux·b (b_aux), L = Σ aux·l, H = Σ h·h (h the n − 1 coefficients);
///   snarkjs:    A, B_G1, B_G2 over the whole of z with no density (the densities are not read),
///               L = Σ aux·l, H = Σ h·h (h the n odd-coset values).
/// The caller hands everything once, so a device backend can upload a/b/c and the witness once,
/// keep h where it was computed, and run the MSMs back to back (CudaBackend does).
struct PartitionInputs {
  /// a, b, c over the domain (consumed as scratch: on return they hold unspecified values).
  HInputs abc;
  /// The witness (inputs ‖ aux), ONE first.
  std::span<const Fr> z;
  std::size_t num_inputs = 0;
  /// The key's resident query tables.
  BasesId a, b_g1, b_g2, l, h;
  /// bellperson densities (base_offset included); not read for snarkjs.
  MsmDensity a_aux{}, b_input{}, b_aux{};
};

/// The five sums (without the key's α/β/δ terms).
struct PartitionSums {
  G1Jacobian a, b_g1, l, h;
  G2Jacobian b_g2;
  static PartitionSums identity() {
    return {G1Jacobian::identity(), G1Jacobian::identity(), G1Jacobian::identity(),
            G1Jacobian::identity(), G2Jacobian::identity()};
  }
};

/// Where a backend's host path takes its long vectors and gives them back (the engine's
/// FrBufferPool), so that proof after proof writes memory already mapped instead of faulting in
/// fresh pages (z, a, b, c: 4 × 4.3 GB at 2^27).
class HostVectorPool {
 public:
  virtual ~HostVectorPool() = default;
  /// An empty vector of capacity |n| (its contents unspecified once resized).
  virtual std::vector<Fr> take(std::size_t n) = 0;
  /// Gives |v| back: kept for a later take() or freed.
  virtual void give(std::vector<Fr>&& v) = 0;
};

/// One partition given by its compact witness (r1cs/compact_witness.hpp) and a circuit loaded with
/// load_circuit, instead of z, a, b, c (issue 22): the backend makes z and a = A·z, b = B·z,
/// c = C·z (zero-padded to the domain) itself, then runs prove_partition's H step and MSMs over
/// the same tables and densities (PartitionInputs).
struct CompactPartitionInputs {
  /// The witness (inputs ‖ aux, ONE first; its num_inputs is the partition's); the circuit's
  /// variable count.
  const CompactWitness* witness = nullptr;
  CircuitId circuit{};
  /// The domain n: a power of two ≥ the circuit's constraints (the key's domain size).
  std::uint64_t domain_size = 0;
  HConvention convention = HConvention::bellperson;
  /// The key's resident query tables.
  BasesId a{}, b_g1{}, b_g2{}, l{}, h{};
  /// bellperson densities (base_offset included); not read for snarkjs.
  MsmDensity a_aux{}, b_input{}, b_aux{};
  /// Threads for the work a backend does on the host (the default's expansion and compact SpMV);
  /// the default refuses a null pool (invalid_argument).
  ThreadPool* host_pool = nullptr;
  /// Where the default takes z, a, b, c (and gives them back once the partition is proved); null:
  /// fresh vectors, freed on return. A backend that expands on its device takes none.
  HostVectorPool* host_vectors = nullptr;
};

/// Seconds per stage of prove_partition (a device backend whose stages overlap reports each stage's
/// span on its own timeline; |upload| is the host→device transfer where the backend has one).
struct PartitionTimings {
  double h = 0, msm_a = 0, msm_b1 = 0, msm_b2 = 0, msm_l = 0, msm_h = 0, upload = 0;
  /// prove_partition_compact: z and a, b, c made from the compact witness (expansion + A·z, B·z,
  /// C·z; on a device, the upload of the compact witness excluded).
  double abc = 0;
  /// Bytes moved host → device for the partition (0 on the host): z, a, b, c for prove_partition,
  /// the compact witness for a device's prove_partition_compact. The key's tables and the circuit
  /// are resident and not counted; the step-wise calls (prove_partition_steps, a device's
  /// fallback when the arena cannot hold the partition) do not count theirs (0).
  std::uint64_t upload_bytes = 0;
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
  /// The same for points that stay valid while |owner| lives (a proving key's owned or mapped
  /// storage): a host backend may use them in place instead of copying them (CpuBackend does);
  /// the default copies (load_bases_g1 / load_bases_g2).
  virtual Result<BasesId> load_bases_g1_shared(std::span<const G1Affine> bases,
                                               std::shared_ptr<const void> owner) {
    (void)owner;
    return load_bases_g1(bases);
  }
  virtual Result<BasesId> load_bases_g2_shared(std::span<const G2Affine> bases,
                                               std::shared_ptr<const void> owner) {
    (void)owner;
    return load_bases_g2(bases);
  }
  /// Makes a table resident from its .params encodings (EncodedBases); the error of the first
  /// bad point. The default decodes the whole table on the host (ec/batch_decode, unchecked) and
  /// calls load_bases_g1 / load_bases_g2; a device backend decodes it in place (CudaBackend).
  virtual Result<BasesId> load_bases_g1_encoded(const EncodedBases& bases);
  virtual Result<BasesId> load_bases_g2_encoded(const EncodedBases& bases);
  /// The same loads for a table that a key's placement keeps in host memory
  /// (groth16/key_placement.hpp): a backend with device memory streams it through the device on
  /// each MSM (CudaBackend: gpu/msm/streamed.cuh) whatever its size; the defaults load it as any
  /// other table (a host backend's tables are in host memory already).
  virtual Result<BasesId> load_bases_g1_streamed(std::span<const G1Affine> bases) {
    return load_bases_g1(bases);
  }
  virtual Result<BasesId> load_bases_g2_streamed(std::span<const G2Affine> bases) {
    return load_bases_g2(bases);
  }
  virtual Result<BasesId> load_bases_g1_encoded_streamed(const EncodedBases& bases) {
    return load_bases_g1_encoded(bases);
  }
  virtual Result<BasesId> load_bases_g2_encoded_streamed(const EncodedBases& bases) {
    return load_bases_g2_encoded(bases);
  }
  /// Frees a table (and its window copies); not_found for an unknown id.
  virtual Status release_bases(BasesId id) = 0;
  /// Keeps |copies| − 1 shifted copies of a resident G1 table beside it (the GPU's
  /// precomputed-window MSM, msm/precomputed_windows.hpp; |copies| 2..kMaxPrecomputedCopies) for
  /// its MSMs from then on, which give the same sums with fewer windows to reduce; returns the
  /// copies' device bytes. The key placement asks for them for the H table (rule 3). The default:
  /// unimplemented (a backend without them proves as before); out_of_memory where they do not fit.
  virtual Result<std::uint64_t> add_window_copies(BasesId bases, unsigned copies) {
    (void)bases, (void)copies;
    return Status(Errc::unimplemented, name() + " keeps no window copies");
  }

  /// In-place NTT of a power-of-two length ≤ 2^32.
  virtual Status ntt(std::span<Fr> values, const NttOptions& options) = 0;

  /// Σ scalars[i]·bases[...] with the density rule of MsmDensity; size_mismatch when the bases run
  /// out.
  virtual Result<G1Jacobian> msm_g1(BasesId bases, std::span<const Fr> scalars,
                                    const MsmOptions& options) = 0;
  virtual Result<G2Jacobian> msm_g2(BasesId bases, std::span<const Fr> scalars,
                                    const MsmOptions& options) = 0;

  /// The H step over the domain of size n = len(a) in the inputs' convention, written to |h|:
  /// bellperson → the n − 1 low coefficients of (A·B − C)/Z (|h| has n − 1 entries); snarkjs →
  /// the n odd-coset evaluations of A·B − C (|h| has n entries). FORMATS.md §2.2. size_mismatch
  /// for other lengths. |h| may be the prefix of |inputs.a| (no other overlap).
  virtual Status compute_h(HInputs inputs, std::span<Fr> h) = 0;

  /// The whole device part of one partition (PartitionInputs). The default runs the step-wise
  /// sequence (prove_partition_steps); a device backend overrides it to move each input once.
  /// Results are the same either way. |timings| (optional) receives the stage times.
  virtual Result<PartitionSums> prove_partition(const PartitionInputs& in,
                                                PartitionTimings* timings = nullptr) {
    return prove_partition_steps(in, timings);
  }

  /// prove_partition as one compute_h call (h written over the prefix of a) and eight MSM calls.
  Result<PartitionSums> prove_partition_steps(const PartitionInputs& in,
                                              PartitionTimings* timings = nullptr);

  /// Makes a circuit's compact R1CS available to prove_partition_compact until release_circuit.
  /// The default keeps |circuit| on the host (shared, no copy); a device backend also puts a copy
  /// in device memory where it fits (CudaBackend: the flat layout in its arena).
  /// invalid_argument for a null circuit.
  virtual Result<CircuitId> load_circuit(std::shared_ptr<const CompactR1cs> circuit);
  /// Drops a circuit (and its device copy); not_found for an unknown id.
  virtual Status release_circuit(CircuitId id);
  /// Device bytes load_circuit takes for |circuit| (0 where nothing goes to a device), so a
  /// placement can budget the circuit with its key.
  virtual std::uint64_t device_circuit_bytes(const CompactR1cs& circuit) const {
    (void)circuit;
    return 0;
  }
  /// prove_partition from a compact witness (CompactPartitionInputs). The default expands on the
  /// host: z and a, b, c zero-padded to the domain (compact_partition_vectors_host, on
  /// in.host_pool), then prove_partition. A device backend whose copy of the circuit is resident
  /// overrides it to upload only the compact witness. Same sums either way. Errors:
  /// check_compact_partition_inputs's, then prove_partition's.
  virtual Result<PartitionSums> prove_partition_compact(const CompactPartitionInputs& in,
                                                        PartitionTimings* timings = nullptr);

 protected:
  /// The host copy of a loaded circuit; nullptr for an unknown id.
  std::shared_ptr<const CompactR1cs> loaded_circuit(CircuitId id) const;
  /// The circuit of |in| after the checks every backend makes: a witness, a loaded circuit
  /// (not_found), the witness's variable count (size_mismatch), a power-of-two domain that holds
  /// the constraints (size_mismatch, invalid_argument).
  Result<std::shared_ptr<const CompactR1cs>> check_compact_partition_inputs(
      const CompactPartitionInputs& in) const;

  /// prove_partition's first stage: checks |in| (check_partition_inputs), runs compute_h into
  /// partition_h_span(in) and times it in |tm|.h; returns where h was left.
  Result<std::span<Fr>> partition_h_step(const PartitionInputs& in, PartitionTimings& tm);

 private:
  mutable std::mutex circuits_mu_;
  std::uint64_t next_circuit_ = 1;
  std::map<std::uint64_t, std::shared_ptr<const CompactR1cs>> circuits_;
};

/// The PartitionInputs of a compact partition once z, a, b, c exist (spans of its host or device
/// vectors): the tables, densities and convention of |in|, num_inputs from its witness.
inline PartitionInputs partition_inputs_of(const CompactPartitionInputs& in, std::span<Fr> a,
                                           std::span<Fr> b, std::span<Fr> c,
                                           std::span<const Fr> z) {
  return {.abc = {.a = a, .b = b, .c = c, .convention = in.convention},
          .z = z,
          .num_inputs = static_cast<std::size_t>(in.witness->num_inputs),
          .a = in.a,
          .b_g1 = in.b_g1,
          .b_g2 = in.b_g2,
          .l = in.l,
          .h = in.h,
          .a_aux = in.a_aux,
          .b_input = in.b_input,
          .b_aux = in.b_aux};
}

/// One of the MSMs of a partition (FORMATS.md §2): which sum it adds to, over which table, with
/// which scalars and density. bellperson splits A, B_G1 and B_G2 into an inputs and an aux term.
struct PartitionMsm {
  enum class Sum { a, b_g1, b_g2, l, h };
  Sum sum = Sum::a;
  BasesId bases{};
  std::span<const Fr> scalars{};
  MsmDensity density{};
  bool g2() const { return sum == Sum::b_g2; }
};

/// Where a partition MSM's scalars lie: the witness z ([offset, offset + count)) or the H step's
/// output h (all |count| of it), wherever the backend holds them (host spans, device buffers).
enum class PartitionScalars { witness, h };

/// A PartitionMsm with its scalars named by place instead of by address: the one list of a
/// partition's MSMs that every backend walks (partition_msm_terms).
struct PartitionMsmTerm {
  PartitionMsm::Sum sum = PartitionMsm::Sum::a;
  BasesId bases{};
  PartitionScalars source = PartitionScalars::witness;
  std::size_t offset = 0, count = 0;
  MsmDensity density{};
  bool g2() const { return sum == PartitionMsm::Sum::b_g2; }
};

/// size_mismatch for a domain below 2 rows or a witness shorter than its inputs; else ok.
inline Status check_partition_inputs(const PartitionInputs& in) {
  const std::size_t n = in.abc.a.size();
  if (n < 2)
    return Status(Errc::size_mismatch, "partition domain has " + std::to_string(n) + " rows");
  if (in.num_inputs > in.z.size())
    return Status(Errc::size_mismatch, "witness has " + std::to_string(in.z.size()) +
                                           " values, fewer than " + std::to_string(in.num_inputs) +
                                           " inputs");
  return {};
}

/// Where the H step leaves h: the prefix of a (n values for snarkjs, n − 1 for bellperson).
inline std::span<Fr> partition_h_span(const PartitionInputs& in) {
  const std::size_t n = in.abc.a.size();
  return in.abc.a.subspan(0, in.abc.convention == HConvention::snarkjs ? n : n - 1);
}

/// A partition's sizes, tables and densities without its vectors: what its MSMs need to know
/// wherever a backend holds z and h (a device that made them itself: prove_partition_compact).
struct PartitionShape {
  std::size_t domain = 0;      ///< n
  std::size_t witness = 0;     ///< |z|
  std::size_t num_inputs = 0;  ///< ONE included
  HConvention convention = HConvention::bellperson;
  BasesId a{}, b_g1{}, b_g2{}, l{}, h{};
  MsmDensity a_aux{}, b_input{}, b_aux{};
  /// h's length: n values for snarkjs, n − 1 for bellperson.
  std::size_t h_count() const { return convention == HConvention::snarkjs ? domain : domain - 1; }
};

inline PartitionShape partition_shape(const PartitionInputs& in) {
  return {.domain = in.abc.a.size(),
          .witness = in.z.size(),
          .num_inputs = in.num_inputs,
          .convention = in.abc.convention,
          .a = in.a,
          .b_g1 = in.b_g1,
          .b_g2 = in.b_g2,
          .l = in.l,
          .h = in.h,
          .a_aux = in.a_aux,
          .b_input = in.b_input,
          .b_aux = in.b_aux};
}

/// The partition's MSMs, written once for every backend (FORMATS.md §2), in the order they run
/// (A, B_G1, B_G2, L, H); their sums, added per PartitionMsm::Sum, are PartitionSums:
///   bellperson: A = Σ inputs·a (every input) + Σ aux·a (a_aux density), B_G1 and B_G2 =
///               Σ inputs·b (b_input) + Σ aux·b (b_aux), L = Σ aux·l, H = Σ h·h (n − 1 values);
///   snarkjs:    A, B_G1, B_G2 over the whole of z with no density, L = Σ aux·l, H over n values.
/// num_inputs ≤ witness and domain ≥ 2 (check_partition_inputs).
inline std::vector<PartitionMsmTerm> partition_msm_terms(const PartitionShape& in) {
  using S = PartitionMsm::Sum;
  constexpr auto z = PartitionScalars::witness;
  const std::size_t nz = in.witness, ni = in.num_inputs, n_aux = nz - ni;
  std::vector<PartitionMsmTerm> t;
  if (in.convention == HConvention::snarkjs) {
    t = {{S::a, in.a, z, 0, nz, {}},
         {S::b_g1, in.b_g1, z, 0, nz, {}},
         {S::b_g2, in.b_g2, z, 0, nz, {}}};
  } else {
    t = {{S::a, in.a, z, 0, ni, {}},
         {S::a, in.a, z, ni, n_aux, in.a_aux},
         {S::b_g1, in.b_g1, z, 0, ni, in.b_input},
         {S::b_g1, in.b_g1, z, ni, n_aux, in.b_aux},
         {S::b_g2, in.b_g2, z, 0, ni, in.b_input},
         {S::b_g2, in.b_g2, z, ni, n_aux, in.b_aux}};
  }
  t.push_back({S::l, in.l, z, ni, n_aux, {}});
  t.push_back({S::h, in.h, PartitionScalars::h, 0, in.h_count(), {}});
  return t;
}
inline std::vector<PartitionMsmTerm> partition_msm_terms(const PartitionInputs& in) {
  return partition_msm_terms(partition_shape(in));
}

/// The shape of a compact partition (its witness's sizes, |in|'s domain, tables and densities).
inline PartitionShape partition_shape(const CompactPartitionInputs& in) {
  return {.domain = static_cast<std::size_t>(in.domain_size),
          .witness = static_cast<std::size_t>(in.witness->num_variables()),
          .num_inputs = static_cast<std::size_t>(in.witness->num_inputs),
          .convention = in.convention,
          .a = in.a,
          .b_g1 = in.b_g1,
          .b_g2 = in.b_g2,
          .l = in.l,
          .h = in.h,
          .a_aux = in.a_aux,
          .b_input = in.b_input,
          .b_aux = in.b_aux};
}

/// The terms with their scalars as host spans: z's, and |hs| the H step's output.
inline std::vector<PartitionMsm> partition_msms(const PartitionInputs& in, std::span<const Fr> hs) {
  std::vector<PartitionMsm> out;
  for (const PartitionMsmTerm& m : partition_msm_terms(in)) {
    out.push_back({m.sum, m.bases,
                   m.source == PartitionScalars::h ? hs : in.z.subspan(m.offset, m.count),
                   m.density});
  }
  return out;
}

/// Adds one term's result to its sum; |seconds| to its stage time.
inline void add_partition_term(PartitionSums& out, PartitionTimings& tm, PartitionMsm::Sum sum,
                               const G1Jacobian* g1, const G2Jacobian* g2, double seconds) {
  using S = PartitionMsm::Sum;
  switch (sum) {
    case S::a:
      out.a += *g1, tm.msm_a += seconds;
      break;
    case S::b_g1:
      out.b_g1 += *g1, tm.msm_b1 += seconds;
      break;
    case S::b_g2:
      out.b_g2 += *g2, tm.msm_b2 += seconds;
      break;
    case S::l:
      out.l += *g1, tm.msm_l += seconds;
      break;
    case S::h:
      out.h += *g1, tm.msm_h += seconds;
      break;
  }
}

inline Result<std::span<Fr>> Backend::partition_h_step(const PartitionInputs& in,
                                                       PartitionTimings& tm) {
  CUZK_RETURN_IF_ERROR(check_partition_inputs(in));
  const std::span<Fr> hs = partition_h_span(in);
  const auto t0 = std::chrono::steady_clock::now();
  CUZK_RETURN_IF_ERROR(compute_h(in.abc, hs));
  tm.h = seconds_since(t0);
  return hs;
}

inline Result<PartitionSums> Backend::prove_partition_steps(const PartitionInputs& in,
                                                            PartitionTimings* timings) {
  PartitionTimings tm;
  auto hs = partition_h_step(in, tm);
  if (!hs.ok()) return hs.status();
  PartitionSums out = PartitionSums::identity();
  for (const PartitionMsm& m : partition_msms(in, *hs)) {
    const auto t0 = std::chrono::steady_clock::now();
    if (m.g2()) {
      auto r = msm_g2(m.bases, m.scalars, {.density = m.density});
      if (!r.ok()) return r.status();
      add_partition_term(out, tm, m.sum, nullptr, &*r, seconds_since(t0));
    } else {
      auto r = msm_g1(m.bases, m.scalars, {.density = m.density});
      if (!r.ok()) return r.status();
      add_partition_term(out, tm, m.sum, &*r, nullptr, seconds_since(t0));
    }
  }
  if (timings != nullptr) *timings = tm;
  return out;
}

}  // namespace cuzk
