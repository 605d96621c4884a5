// Base tables made from their .params encodings (backend/encoded_bases.hpp) on the device: the
// direct path of a bellperson key (engine/key_store.hpp), so a 47 GB key reaches VRAM with no
// decoded host copy.
//
//   resident: the raw bytes cross in chunks (EncodedBases::chunk_bytes, default 256 MiB) through
//             the context's pinned staging (DeviceContext::upload: its 8 copy threads read the
//             mapped file) into one arena staging buffer; a kernel decodes each chunk in place of
//             the table (ec/packed_decode.hpp: 96 B G1 / 192 B G2 big-endian → packed (x, y)
//             Montgomery, the layout upload_bases packs) and flags the lowest bad point with one
//             atomicMin; the chunk's source bytes are then handed back (EncodedBases::consumed),
//             so the host holds no more than the staging buffers and one chunk of the mapping.
//   streamed: (a table that will not be resident, msm/streamed.cuh) the same kernel decodes each
//             chunk into an arena scratch buffer, downloaded into the table's packed host copy
//             (pinned pool, else plain memory); the host twin decodes on the host instead when
//             the arena has no room for the two chunk buffers.
// A bad point (flag bits, a coordinate ≥ p, off the curve, G1 x = 0, the identity) is the
// Status packed_decode_status words, "G1 point i: ...", naming the table's index i. Cost: one
// pass over the bytes at PCIe speed (the kernel is a few products a point); chunks are serial
// (upload, decode, check), the decode being ≈ 1/10 of a chunk's upload.
#pragma once

#include <cuda_runtime.h>

#include "cuzk/backend/encoded_bases.hpp"
#include "cuzk/base/status.hpp"
#include "cuzk/gpu/device_context.hpp"
#include "cuzk/gpu/msm/pippenger.cuh"
#include "cuzk/gpu/msm/streamed.cuh"

namespace cuzk::gpu {

/// Decodes |in| into a resident table |out| on |stream|. Throws CudaError on a device failure
/// or when the arena has no room for the table and one staging chunk (cudaErrorMemoryAllocation);
/// returns the first bad point's error.
Status upload_encoded_bases(DeviceContext& ctx, const EncodedBases& in, bool g2,
                            cudaStream_t stream, ResidentBases& out);

/// Decodes |in| into a streamed table |out| (packed host copy). Throws CudaError on a device
/// failure, std::bad_alloc when host memory runs out; returns the first bad point's error.
Status make_streamed_encoded(DeviceContext& ctx, const EncodedBases& in, bool g2,
                             cudaStream_t stream, StreamedBases& out);

}  // namespace cuzk::gpu
