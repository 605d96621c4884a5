// GPU NTT over Fr (natural order in and out) and the fused Groth16 H step, on buffers that live in
// a DeviceContext arena. Same transforms as poly/ntt.hpp (forward, inverse with n^{-1}, and their
// coset variants with shift g: x_i·g^i before / g^{-i} after).
//
// Algorithm: programs of radix-2 passes in shared memory (ntt_program.cuh): tiles of 2^11 elements,
// 2^27 in 3 passes, scalings folded into the loads and stores, the H step's iNTT as DIF and coset NTT
// as DIT so that only its last transform permutes; Fr products by fr_mul.cuh (224 multiply-adds).
// Twiddles ω^j (j < n/2) come from a table per size built once on the device. The first kernels
// (gather DIT, 4 passes at 2^27, separate scaling kernels) remain under NttTuning::legacy.
#pragma once

#include <cuda_runtime.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <utility>

#include "cuzk/ff/fr.hpp"
#include "cuzk/gpu/device_context.hpp"
#include "cuzk/gpu/ntt/ntt_program.cuh"
#include "cuzk/poly/domain.hpp"  // RootFamily, omega32, snarkjs_coset_shift

namespace cuzk::gpu {

/// Twiddle tables per size and root family (poly/domain.hpp), built on first use and kept in the
/// arena.
class NttTables {
 public:
  explicit NttTables(DeviceContext& ctx) : ctx_(ctx) {}
  struct Size {
    DeviceBuffer fwd, inv;  ///< ω^j and ω^{−j}, j < n/2
  };
  /// The tables of 2^log_n with ω from |roots| (built on |stream| the first time).
  const Size& get(unsigned log_n, cudaStream_t stream, RootFamily roots = RootFamily::bellman);
  /// The scaling table of c·g^i (2·2^15 elements: c·g^j and g^(j·2^15), j < 2^15), built on
  /// |stream| the first time (2 MiB each; the programs use at most three per size).
  const Fr* pow_table(const Fr& g, const Fr& c, cudaStream_t stream);
  /// Frees every table.
  void clear();

 private:
  DeviceContext& ctx_;
  std::mutex mu_;
  std::map<std::pair<unsigned, RootFamily>, std::unique_ptr<Size>> sizes_;
  std::map<std::array<std::uint64_t, 8>, DeviceBuffer> pows_;
};

/// A power table g^k = t0[k & 1023]·t1[(k >> 10) & 1023]·t2[k >> 20] (times a constant folded
/// into t0), for k < 2^30: the coset and scaling factors of the element-wise passes.
struct PowTable {
  Fr t[3][1024];
};
/// c·g^k as a PowTable.
PowTable make_pow_table(const Fr& g, const Fr& c);

struct GpuNttMode {
  bool inverse = false;
  bool coset = false;
  std::uint64_t coset_shift = kFrGenerator;
};

/// The pass shape every following call uses (process-wide; a bench switch, default NttTuning{}).
void set_ntt_tuning(const NttTuning& t);
NttTuning ntt_tuning();

/// In-place NTT of |values| (device, 2^log_n elements) using |scratch| (device, same size).
void ntt_device(DeviceContext& ctx, NttTables& tables, Fr* values, Fr* scratch, unsigned log_n,
                const GpuNttMode& mode, cudaStream_t stream);

/// The H step on device buffers a, b, c (2^log_n each; consumed): on return |a| holds the n
/// coefficients of (A·B − C)/Z (FORMATS.md §2.2). |scratch| has n elements.
/// |before| (optional) is called with 0, 1, 2 before the kernels that read a, b, c are queued: a
/// caller whose uploads are still running blocks there until that vector is on the device, so a's
/// transforms run while b and c cross the bus.
void compute_h_device(DeviceContext& ctx, NttTables& tables, Fr* a, Fr* b, Fr* c, Fr* scratch,
                      unsigned log_n, cudaStream_t stream,
                      const std::function<void(int)>& before = {});

/// snarkjs's H step (HConvention::snarkjs, poly/ntt.hpp compute_h_snarkjs) on device buffers a, b, c
/// (2^log_n each, log_n ≤ 30; consumed): c ← a∘b (its input is not read), ffjs roots, coset shift
/// ω_2n; on return |a| holds the n values (A·B − C)(ω_2n^(2j+1)), not divided by Z. 6 transforms.
/// |before| as above (0 and 1 only: c is formed on the device).
void compute_h_snarkjs_device(DeviceContext& ctx, NttTables& tables, Fr* a, Fr* b, Fr* c,
                              Fr* scratch, unsigned log_n, cudaStream_t stream,
                              const std::function<void(int)>& before = {});

}  // namespace cuzk::gpu
