// MSM over bases that stay in host memory (the small-card path, DESIGN.md §3): a table too large
// for the VRAM arena keeps a packed host copy (96 bytes per G1 point, 192 per G2, the device
// layout) and each MSM streams it through two arena slots in chunks:
//
//   chunk k covers a run of 64-scalar words whose participating scalars pair with a contiguous
//   range of bases (bellperson density, FORMATS.md §2.3); while chunk k accumulates on the compute
//   stream (the resident MSM of pippenger.cuh over the slot), chunk k + 1 is copied into the other
//   slot on the copy stream; the chunks' sums are added on the host.
//
// The host copy comes from the context's pinned host pool when it has room (copies straight into
// the slot by DMA, overlapped); otherwise from plain host memory (copied through the pinned
// staging buffers, not overlapped). Nothing here allocates device or pinned memory outside the
// context's arena and pools (interlock rule).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "cuzk/ec/g1.hpp"
#include "cuzk/ec/g2.hpp"
#include "cuzk/ff/fr.hpp"
#include "cuzk/gpu/device_context.hpp"
#include "cuzk/gpu/msm/pippenger.cuh"

namespace cuzk::gpu {

/// A base table kept in host memory in the packed device layout.
struct StreamedBases {
  PinnedHostBlock pinned;                  // when the pinned pool had room
  std::unique_ptr<unsigned char[]> plain;  // otherwise
  std::size_t count = 0;
  bool g2 = false;
  const unsigned char* data() const {
    return pinned ? static_cast<const unsigned char*>(pinned.data()) : plain.get();
  }
  bool is_pinned() const { return static_cast<bool>(pinned); }
  std::size_t point_bytes() const { return g2 ? 192 : 96; }
  std::size_t bytes() const { return count * point_bytes(); }
};

/// Packs host points into a StreamedBases (pinned pool first, plain memory otherwise).
StreamedBases make_streamed_bases_g1(DeviceContext& ctx, std::span<const G1Affine> bases);
StreamedBases make_streamed_bases_g2(DeviceContext& ctx, std::span<const G2Affine> bases);

struct StreamedMsmConfig {
  /// Bases per arena slot (two slots); 0 sizes them to a quarter of the largest free arena block
  /// each (at least 64, at most the table).
  std::size_t slot_points = 0;
  /// Per-chunk MSM settings (density_bits / base_offset are the whole call's: the chunks split them).
  GpuMsmConfig msm{};
};

/// What one streamed MSM did, for benchmarks and tests.
struct StreamedMsmStats {
  std::size_t chunks = 0, slot_points = 0;
  std::uint64_t bytes_uploaded = 0;
  bool pinned = false;
};

/// Σ scalars[i]·bases[...] with the density rule; |compute| runs the chunk MSMs, |copy| the
/// uploads. Throws CudaError on a device failure or when the arena cannot hold two slots.
/// The caller checked that the bases cover every participating scalar.
G1Xyzz msm_g1_streamed(DeviceContext& ctx, const StreamedBases& bases, std::span<const Fr> scalars,
                       const StreamedMsmConfig& config, cudaStream_t compute, cudaStream_t copy,
                       StreamedMsmStats* stats = nullptr);
G2Xyzz msm_g2_streamed(DeviceContext& ctx, const StreamedBases& bases, std::span<const Fr> scalars,
                       const StreamedMsmConfig& config, cudaStream_t compute, cudaStream_t copy,
                       StreamedMsmStats* stats = nullptr);
/// The same over |n| scalars already in the arena (|d_scalars|, e.g. a partition's z expanded on
/// the device): only the bases cross the bus.
G1Xyzz msm_g1_streamed_resident(DeviceContext& ctx, const StreamedBases& bases, const Fr* d_scalars,
                                std::size_t n, const StreamedMsmConfig& config,
                                cudaStream_t compute, cudaStream_t copy,
                                StreamedMsmStats* stats = nullptr);
G2Xyzz msm_g2_streamed_resident(DeviceContext& ctx, const StreamedBases& bases, const Fr* d_scalars,
                                std::size_t n, const StreamedMsmConfig& config,
                                cudaStream_t compute, cudaStream_t copy,
                                StreamedMsmStats* stats = nullptr);

}  // namespace cuzk::gpu
