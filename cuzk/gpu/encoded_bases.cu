#include "cuzk/gpu/encoded_bases.cuh"

#include <algorithm>
#include <cstring>
#include <limits>

#include "cuzk/ec/packed_decode.hpp"
#include "cuzk/gpu/cuda_check.cuh"
#include "cuzk/gpu/ec/dev_curves.cuh"

namespace cuzk::gpu {

namespace {

constexpr std::size_t kDefaultChunkBytes = std::size_t{256} << 20;
constexpr unsigned long long kNoError = std::numeric_limits<unsigned long long>::max();

// The host constants byte for byte in the device types (STYLE.md rule 6: one layout).
template <class DevCoord, class HostCoord>
PackedDecodeConstants<DevCoord, DevFp> device_constants(
    const PackedDecodeConstants<HostCoord, Fp>& host) {
  static_assert(sizeof(PackedDecodeConstants<DevCoord, DevFp>) ==
                sizeof(PackedDecodeConstants<HostCoord, Fp>));
  PackedDecodeConstants<DevCoord, DevFp> d;
  std::memcpy(static_cast<void*>(&d), &host, sizeof d);
  return d;
}

/// Point i of the chunk: decoded into out[i], or the lowest bad index (table index << 8 | error)
/// kept in |first_bad| (the identity is refused: a .params query never holds it).
template <class Coord>
__global__ void decode_encoded_kernel(DevAffine<Coord>* out, const unsigned char* raw,
                                      std::size_t n, std::size_t first_index,
                                      PackedDecodeConstants<Coord, DevFp> k,
                                      unsigned long long* first_bad) {
  constexpr std::size_t kBytes = 2 * sizeof(Coord);
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i >= n) return;
  DevAffine<Coord> p;
  const PackedDecodeError e = decode_uncompressed_packed(raw + i * kBytes, k, p.x, p.y);
  if (e != PackedDecodeError::ok) {
    atomicMin(first_bad, (static_cast<unsigned long long>(first_index + i) << 8) |
                             static_cast<unsigned long long>(e));
    p.x = Coord::zero();
    p.y = Coord::zero();
  }
  out[i] = p;
}

std::size_t chunk_points(const EncodedBases& in, std::size_t per, std::size_t count) {
  const std::size_t bytes = in.chunk_bytes ? in.chunk_bytes : kDefaultChunkBytes;
  return std::max<std::size_t>(1, std::min(count, bytes / per));
}

/// Decodes every chunk of |in| on |stream| into the device array given by |dst(off)| (packed
/// points for the chunk starting at point off), calling |after(off, n)| once chunk [off, off+n)
/// is decoded. |raw| holds one chunk of encodings; |flag| is one device word.
template <class Coord, class Dst, class After>
Status decode_chunks(DeviceContext& ctx, const EncodedBases& in, std::size_t count,
                     std::size_t chunk, const DeviceBuffer& raw, const DeviceBuffer& flag,
                     cudaStream_t stream, Dst&& dst, After&& after) {
  constexpr bool kG2 = sizeof(Coord) != sizeof(DevFp);
  constexpr std::size_t per = kG2 ? 192 : 96;
  const auto k = [] {
    if constexpr (kG2)
      return device_constants<Coord>(g2_packed_constants());
    else
      return device_constants<Coord>(g1_packed_constants());
  }();
  unsigned long long bad = kNoError;
  ctx.upload(flag.data(), &bad, sizeof bad, stream);
  for (std::size_t off = 0; off < count; off += chunk) {
    const std::size_t n = std::min(chunk, count - off);
    // Returns when the bytes are on the device (the previous chunk's kernel has run: one stream).
    ctx.upload(raw.data(), in.bytes.data() + off * per, n * per, stream);
    if (in.consumed) in.consumed(off * per, n * per);
    decode_encoded_kernel<Coord><<<static_cast<unsigned>((n + 255) / 256), 256, 0, stream>>>(
        dst(off), raw.as<unsigned char>(), n, off, k, flag.as<unsigned long long>());
    CUZK_CUDA_CHECK_LAUNCH();
    ctx.download(&bad, flag.data(), sizeof bad, stream);  // after the kernel (stream order)
    if (bad != kNoError)
      return packed_decode_status(static_cast<PackedDecodeError>(bad & 0xff), kG2, bad >> 8, false);
    after(off, n);
  }
  return {};
}

template <class Coord>
Status upload_encoded(DeviceContext& ctx, const EncodedBases& in, cudaStream_t stream,
                      ResidentBases& out) {
  constexpr bool kG2 = sizeof(Coord) != sizeof(DevFp);
  constexpr std::size_t per = kG2 ? 192 : 96;
  const std::size_t count = in.bytes.size() / per;
  ResidentBases r;
  r.g2 = kG2;
  r.count = count;
  r.points = ctx.alloc_or_throw(std::max<std::size_t>(1, count) * sizeof(DevAffine<Coord>),
                                "resident bases");
  const std::size_t chunk = chunk_points(in, per, std::max<std::size_t>(1, count));
  DeviceBuffer raw = ctx.alloc_or_throw(chunk * per, "encoded bases staging");
  DeviceBuffer flag = ctx.alloc_or_throw(sizeof(unsigned long long), "decode flag");
  auto* table = r.points.as<DevAffine<Coord>>();
  CUZK_RETURN_IF_ERROR(decode_chunks<Coord>(
      ctx, in, count, chunk, raw, flag, stream, [&](std::size_t off) { return table + off; },
      [](std::size_t, std::size_t) {}));
  out = std::move(r);
  return {};
}

template <class Coord, class HostCoord>
Status streamed_encoded(DeviceContext& ctx, const EncodedBases& in, cudaStream_t stream,
                        StreamedBases& out) {
  constexpr bool kG2 = sizeof(Coord) != sizeof(DevFp);
  constexpr std::size_t per = kG2 ? 192 : 96;
  const std::size_t count = in.bytes.size() / per;
  StreamedBases r;
  r.g2 = kG2;
  r.count = count;
  const std::size_t bytes = std::max<std::size_t>(1, count) * per;
  unsigned char* host = nullptr;
  if (auto p = ctx.alloc_pinned_host(bytes, "streamed bases"); p.ok()) {
    r.pinned = std::move(p).value();
    host = static_cast<unsigned char*>(r.pinned.data());
  } else {
    r.plain.reset(new unsigned char[bytes]);
    host = r.plain.get();
  }
  // Decoded on the device through two chunk buffers when the arena has room for them (a
  // quarter of its largest free block at most), else by the host twin.
  std::size_t chunk = chunk_points(in, per, std::max<std::size_t>(1, count));
  chunk = std::min(chunk, std::max<std::size_t>(1, ctx.arena_largest_free() / 4 / per));
  auto raw = ctx.alloc(chunk * per, "encoded bases staging");
  auto packed = ctx.alloc(chunk * per, "decoded bases staging");
  auto flag = ctx.alloc(sizeof(unsigned long long), "decode flag");
  if (raw.ok() && packed.ok() && flag.ok()) {
    CUZK_RETURN_IF_ERROR(decode_chunks<Coord>(
        ctx, in, count, chunk, *raw, *flag, stream,
        [&](std::size_t) { return packed->as<DevAffine<Coord>>(); },
        [&](std::size_t off, std::size_t n) {
          ctx.download(host + off * per, packed->data(), n * per, stream);
        }));
  } else {
    auto* dst = reinterpret_cast<PackedAffine<HostCoord>*>(host);
    auto decode_on_host = [&]() -> Status {
      if constexpr (kG2)
        return decode_packed_g2(in.bytes, std::span(dst, count), false);
      else
        return decode_packed_g1(in.bytes, std::span(dst, count), false);
    };
    CUZK_RETURN_IF_ERROR(decode_on_host());
    if (in.consumed) in.consumed(0, in.bytes.size());
  }
  out = std::move(r);
  return {};
}

}  // namespace

Status upload_encoded_bases(DeviceContext& ctx, const EncodedBases& in, bool g2,
                            cudaStream_t stream, ResidentBases& out) {
  return g2 ? upload_encoded<DevFp2>(ctx, in, stream, out)
            : upload_encoded<DevFp>(ctx, in, stream, out);
}

Status make_streamed_encoded(DeviceContext& ctx, const EncodedBases& in, bool g2,
                             cudaStream_t stream, StreamedBases& out) {
  return g2 ? streamed_encoded<DevFp2, Fp2>(ctx, in, stream, out)
            : streamed_encoded<DevFp, Fp>(ctx, in, stream, out);
}

}  // namespace cuzk::gpu
