// Fixed-base scalar multiplication on the GPU: out[i] = [k_i]·G for one base G of G1 or G2 (a
// Groth16 setup's generators), the GPU twin of ec/fixed_base.hpp (FixedBaseTable, the same signed
// windows and the same table, built on the host and uploaded once).
//
// Per chunk of scalars (bounded so the working set stays under a few hundred MB whatever n is):
//   1. upload the scalars (32 B each);
//   2. mul kernel, one thread per scalar: k to canonical, ⌈256/w⌉ + 1 signed w-bit digits, one
//      mixed addition (7M + 4S) of ±table[j][|d| − 1] per non-zero digit into a Jacobian
//      accumulator: w = 12 → 23 additions, table 23·2^11 points (4.5 MB G1, 9 MB G2: stays in L2);
//   3. normalise kernel: thread t takes the points t, t + T, t + 2T, … (about 32 each, coalesced),
//      Montgomery's trick over their Z (3M per point) and one Fermat inversion (≈ 570M) per thread,
//      then (X/Z², Y/Z³), the identity as (0, 0);
//   4. download the (x, y) pairs (96 B G1, 192 B G2) and unpack them into the host Affine.
// Memory per point in flight: G1 32 + 144 + 48 + 96 = 320 B, G2 32 + 288 + 96 + 192 = 608 B, all
// from the DeviceContext's arena (DESIGN.md §3: no device-global calls; waits on the stream).
#pragma once

#include <cstddef>
#include <span>

#include "cuzk/base/thread_pool.hpp"
#include "cuzk/ec/g1.hpp"
#include "cuzk/ec/g2.hpp"
#include "cuzk/ff/fr.hpp"
#include "cuzk/gpu/device_context.hpp"

namespace cuzk::gpu {

/// The window table of a base, resident in the arena.
template <class HostCurve>
class DeviceFixedBaseTable {
 public:
  /// Builds the table of |base| on the host (ec/fixed_base.hpp, |window| bits) and uploads it on
  /// the context's stream 0. Throws CudaError (arena exhausted: cudaErrorMemoryAllocation).
  DeviceFixedBaseTable(DeviceContext& ctx, const Affine<HostCurve>& base, unsigned window);

  /// out[i] = [ks[i]]·base, at most |chunk| scalars on the device at a time; |pool| unpacks the
  /// downloaded points. Throws CudaError. out.size() must equal ks.size().
  void mul_many(std::span<const Fr> ks, std::span<Affine<HostCurve>> out, std::size_t chunk,
                ThreadPool& pool);

  unsigned window_bits() const { return w_; }
  /// Device bytes per point in flight (what |chunk| multiplies).
  static std::size_t bytes_per_point();

 private:
  DeviceContext& ctx_;
  unsigned w_ = 0, windows_ = 0;
  DeviceBuffer table_;
};

extern template class DeviceFixedBaseTable<G1Curve>;
extern template class DeviceFixedBaseTable<G2Curve>;

}  // namespace cuzk::gpu
