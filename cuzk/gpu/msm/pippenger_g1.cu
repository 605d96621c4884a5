// G1 instantiation of the GPU MSM (pippenger_impl.cuh).
#include "cuzk/gpu/msm/pippenger_impl.cuh"

#include "cuzk/ec/g2.hpp"

namespace cuzk::gpu {

using namespace pippenger_detail;

ResidentBases upload_bases_g1(DeviceContext& ctx, std::span<const G1Affine> bases,
                              cudaStream_t stream) {
  return upload_bases<DevFp>(ctx, bases, stream, false);
}
PrecomputedBases precompute_bases_g1(DeviceContext& ctx, const ResidentBases& bases,
                                     unsigned window_bits, unsigned copies, cudaStream_t stream) {
  if (bases.g2)
    throw CudaError(cudaErrorInvalidValue, "precomputed copies: a G1 table is required", __FILE__,
                    __LINE__);
  return precompute_bases<DevG1Curve>(ctx, bases, window_bits, copies, stream);
}
G1Xyzz msm_g1_device(DeviceContext& ctx, const ResidentBases& bases, std::span<const Fr> scalars,
                     const GpuMsmConfig& config, cudaStream_t stream, GpuMsmStats* stats) {
  return msm_host_scalars<DevG1Curve, G1Xyzz>(ctx, bases, scalars, config, stream, stats);
}
G1Xyzz msm_g1_device_resident(DeviceContext& ctx, const ResidentBases& bases, const Fr* d_scalars,
                              std::size_t n, const GpuMsmConfig& config, cudaStream_t stream,
                              GpuMsmStats* stats) {
  return msm_impl<DevG1Curve, G1Xyzz>(ctx, bases, d_scalars, n, config, stream, stats);
}

// As msm_impl sizes it: per scalar the tail copy (32 B) and two index lists (8 B); per window of
// c = 16 the (key, value) pairs and their sorted copies (16 B per scalar), 2^15 buckets with their
// ranges, two segment slots per 128 pairs, 2^11 chunk sums; plus 256 MiB of headroom (sort scratch, reductions).
std::size_t msm_working_bytes(std::size_t n, bool g2) {
  const std::size_t p = g2 ? sizeof(G2Xyzz) : sizeof(G1Xyzz);
  const std::size_t per_window =
      n * 16 + (std::size_t{1} << 15) * (p + 8) + 2 * (n / 128 + 1) * p + 2048 * p * 17 / 16;
  return n * 40 + 16 * per_window + (std::size_t{256} << 20);
}

// As msm_impl takes it, in order: the density bitmap, its prefix and counts (16 B per 64
// scalars); the tail copy and the two index lists (40 B per scalar, kept to the end); then either
// the batch-add partials (one point per thread, ≤ 256 per SM, and a sixteenth more for their
// reduction) or the Pippenger windows. msm_impl puts G = min(K, (room − headroom) / per_window)
// windows in a group, headroom = min(256 MiB, room / 8) (the sort scratch and reductions come
// out of it), so room = per_window + min(256 MiB, per_window / 7) gives G ≥ 1; per window: the
// (key, value) pairs and their sorted copies (16 B per scalar), 2^(c−1) buckets with their
// ranges, two segment slots per 128 pairs, the chunk sums (≤ 2^11 and a sixteenth more).
std::size_t msm_min_working_bytes(std::size_t n, bool g2, int sm_count) {
  const std::size_t p = g2 ? sizeof(G2Xyzz) : sizeof(G1Xyzz);
  const MsmPlan plan = make_msm_plan(std::max<std::size_t>(1, n), 0,
                                     g2 ? MsmCurve::g2 : MsmCurve::g1, cuda_msm_prices());
  const std::size_t buckets = std::size_t{1} << (plan.window_bits - 1);
  const std::size_t per_window = n * 16 + buckets * (p + 8) + 2 * ((n + 127) / 128 + 1) * p +
                                 std::min<std::size_t>(buckets, 2048) * p * 17 / 16;
  const std::size_t windows = per_window + std::min(std::size_t{256} << 20, per_window / 7 + 1);
  const std::size_t partials = static_cast<std::size_t>(std::max(sm_count, 1)) * 256 * p * 17 / 16;
  return (n / 64 + 1) * 16 + n * 40 + std::max(windows, partials);
}

}  // namespace cuzk::gpu
