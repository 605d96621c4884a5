// The NTT's Fr multiplication on the device: fr_rows.cuh's rows (alternating accumulators, the
// products by r's low limbs 1 and 2^32 − 1 left out) issued by DeviceOps; equal to DevFr's a * b.
#pragma once

#include "cuzk/gpu/ff/carry_ops.cuh"
#include "cuzk/gpu/ff/dev_fields.cuh"
#include "cuzk/gpu/ntt/fr_rows.cuh"

namespace cuzk::gpu {

#ifdef __CUDACC__
/// a·b in Montgomery form, equal to DevFr's a * b.
CUZK_DEV DevFr fr_mul(const DevFr& a, const DevFr& b) {
  DeviceOps ops;
  DevFr r;
  fr_mul_detail::fr_mul_limbs(ops, r.l, a.l, b.l);
  return r;
}
#endif

}  // namespace cuzk::gpu
