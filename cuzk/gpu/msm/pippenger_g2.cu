// G2 instantiation of the GPU MSM (pippenger_impl.cuh).
#include "cuzk/gpu/msm/pippenger_impl.cuh"

namespace cuzk::gpu {

using namespace pippenger_detail;

ResidentBases upload_bases_g2(DeviceContext& ctx, std::span<const G2Affine> bases,
                              cudaStream_t stream) {
  return upload_bases<DevFp2>(ctx, bases, stream, true);
}
G2Xyzz msm_g2_device(DeviceContext& ctx, const ResidentBases& bases, std::span<const Fr> scalars,
                     const GpuMsmConfig& config, cudaStream_t stream, GpuMsmStats* stats) {
  return msm_host_scalars<DevG2Curve, G2Xyzz>(ctx, bases, scalars, config, stream, stats);
}
G2Xyzz msm_g2_device_resident(DeviceContext& ctx, const ResidentBases& bases, const Fr* d_scalars,
                              std::size_t n, const GpuMsmConfig& config, cudaStream_t stream,
                              GpuMsmStats* stats) {
  return msm_impl<DevG2Curve, G2Xyzz>(ctx, bases, d_scalars, n, config, stream, stats);
}

}  // namespace cuzk::gpu
