// Host arrays copied into the arena, one buffer each (the compact R1CS and the compact witness on
// the device): the bytes such an upload takes, and the upload.
#pragma once

#include <cuda_runtime.h>

#include <utility>
#include <vector>

#include "cuzk/gpu/cuda_check.cuh"
#include "cuzk/gpu/device_context.hpp"

namespace cuzk::gpu {

/// Arena bytes of one buffer holding |v|.
template <class T>
std::size_t arena_bytes_of(const std::vector<T>& v) {
  return DeviceContext::arena_block_bytes(v.size() * sizeof(T));
}

/// |v| in a new arena buffer, copied on |stream|; CudaError naming |what| when the arena has no
/// room.
template <class T>
DeviceBuffer upload_array(DeviceContext& ctx, const std::vector<T>& v, const char* what,
                          cudaStream_t stream) {
  DeviceBuffer b = ctx.alloc_or_throw(v.size() * sizeof(T), what);
  ctx.upload(b.data(), v.data(), v.size() * sizeof(T), stream);
  return b;
}

}  // namespace cuzk::gpu
