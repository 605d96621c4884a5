// G1 instantiation of the GPU MSM (pippenger_impl.cuh).
#include "cuzk/gpu/msm/pippenger_impl.cuh"

namespace cuzk::gpu {

using namespace pippenger_detail;

ResidentBases upload_bases_g1(DeviceContext& ctx, std::span<const G1Affine> bases, cudaStream_t stream) {
  return upload_bases<DevFp>(ctx, bases, stream, false);
}
G1Xyzz msm_g1_device(DeviceContext& ctx, const ResidentBases& bases, std::span<const Fr> scalars,
                     const GpuMsmConfig& config, cudaStream_t stream, GpuMsmStats* stats) {
  return msm_host_scalars<DevG1Curve, G1Xyzz>(ctx, bases, scalars, config, stream, stats);
}
G1Xyzz msm_g1_device_resident(DeviceContext& ctx, const ResidentBases& bases, const Fr* d_scalars, std::size_t n,
                              const GpuMsmConfig& config, cudaStream_t stream, GpuMsmStats* stats) {
  return msm_impl<DevG1Curve, G1Xyzz>(ctx, bases, d_scalars, n, config, stream, stats);
}

}  // namespace cuzk::gpu
