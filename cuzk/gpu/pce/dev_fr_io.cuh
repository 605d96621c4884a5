// 32-byte loads and stores of a DevFr as two 16-byte accesses (the widest a thread issues): read
// through the read-only data cache, written with the streaming hint (a value written once and not
// read again by the kernel should not push reused lines out of L2).
#pragma once

#include <cuda_runtime.h>

#include "cuzk/gpu/ff/dev_fields.cuh"

namespace cuzk::gpu {

/// *p through the read-only cache; |p| 32-byte aligned (arena buffers are 256-aligned).
CUZK_DEV DevFr load_fr(const DevFr* p) {
  const uint4* q = reinterpret_cast<const uint4*>(p);
  const uint4 x = __ldg(q), y = __ldg(q + 1);
  DevFr r;
  r.l[0] = x.x, r.l[1] = x.y, r.l[2] = x.z, r.l[3] = x.w;
  r.l[4] = y.x, r.l[5] = y.y, r.l[6] = y.z, r.l[7] = y.w;
  return r;
}

/// *p = v with the streaming (evict-first) hint.
CUZK_DEV void store_fr_streaming(DevFr* p, const DevFr& v) {
  uint4* q = reinterpret_cast<uint4*>(p);
  __stcs(q, make_uint4(v.l[0], v.l[1], v.l[2], v.l[3]));
  __stcs(q + 1, make_uint4(v.l[4], v.l[5], v.l[6], v.l[7]));
}

}  // namespace cuzk::gpu
