#include "cuzk/gpu/msm/streamed.cuh"

#include <algorithm>
#include <bit>
#include <cstring>
#include <vector>

#include "cuzk/gpu/cuda_check.cuh"
#include "cuzk/msm/density.hpp"

namespace cuzk::gpu {

namespace {

// Events of the context's user pool reserved for the two slots' uploads (backend calls are
// serialized per device, so no other call uses them at the same time).
constexpr int kUploadEvent0 = 14;

template <class F, class HostAffine>
StreamedBases make_streamed(DeviceContext& ctx, std::span<const HostAffine> bases, bool g2) {
  static_assert(sizeof(HostAffine) >= 2 * sizeof(F) + 1);
  StreamedBases r;
  r.g2 = g2;
  r.count = bases.size();
  const std::size_t pb = 2 * sizeof(F);
  const std::size_t bytes = std::max<std::size_t>(1, bases.size()) * pb;
  unsigned char* out = nullptr;
  if (auto p = ctx.alloc_pinned_host(bytes, "streamed bases"); p.ok()) {
    r.pinned = std::move(p).value();
    out = static_cast<unsigned char*>(r.pinned.data());
  } else {
    r.plain.reset(new unsigned char[bytes]);
    out = r.plain.get();
  }
  // Packed (x, y) in Montgomery form, the identity as (0, 0): the device layout of DevAffine.
  for (std::size_t i = 0; i < bases.size(); ++i) {
    const auto* rec = reinterpret_cast<const unsigned char*>(&bases[i]);
    unsigned char* dst = out + i * pb;
    if (rec[2 * sizeof(F)] != 0)
      std::memset(dst, 0, pb);
    else
      std::memcpy(dst, rec, pb);
  }
  return r;
}

struct Chunk {
  std::size_t s0, s1;  // scalars [s0, s1), word-aligned s0
  std::size_t b0, nb;  // bases [b0, b0 + nb) of the table
  std::size_t w0, w1;  // density words
};

/// Splits the call into chunks of whole 64-scalar words with at most |slot| bases and at most
/// |max_scalars| scalars each; chunks without a participating scalar are dropped.
std::vector<Chunk> plan_chunks(std::size_t n, std::span<const std::uint64_t> bits,
                               std::size_t base_offset, std::size_t slot, std::size_t max_scalars) {
  std::vector<Chunk> out;
  const std::size_t words = (n + 63) / 64;
  std::size_t w = 0, rank = 0;
  while (w < words) {
    Chunk c{.s0 = w * 64, .s1 = 0, .b0 = base_offset + rank, .nb = 0, .w0 = w, .w1 = w};
    while (w < words) {
      const std::size_t lo = w * 64, hi = std::min(n, lo + 64);
      const std::size_t cnt =
          bits.empty() ? hi - lo : density_popcount(density_word(bits.data(), n, w));
      if (c.w1 > c.w0 && (c.nb + cnt > slot || hi - c.s0 > max_scalars)) break;
      c.nb += cnt;
      rank += cnt;
      c.s1 = hi;
      ++w;
      c.w1 = w;
    }
    if (c.nb > 0) out.push_back(c);
  }
  return out;
}

/// The scalars of a streamed MSM: on the host (each chunk's uploaded before its MSM) or already in
/// the arena (|device|, read in place).
struct ScalarSource {
  const Fr* host = nullptr;
  const Fr* device = nullptr;
  std::size_t n = 0;
};

template <class HostXyzz>
HostXyzz streamed_impl(DeviceContext& ctx, const StreamedBases& bases, ScalarSource scalars,
                       const StreamedMsmConfig& cfg, cudaStream_t compute, cudaStream_t copy,
                       StreamedMsmStats* stats) {
  constexpr bool kG2 = std::is_same_v<HostXyzz, G2Xyzz>;
  const std::size_t pb = bases.point_bytes();
  const std::size_t n = scalars.n;
  const auto bits = cfg.msm.density_bits;
  StreamedMsmStats st;
  st.pinned = bases.is_pinned();
  HostXyzz acc = HostXyzz::identity();

  std::size_t slot = cfg.slot_points;
  if (slot == 0)
    slot = std::bit_floor(std::max<std::size_t>(64, ctx.arena_largest_free() / 4 / pb));
  slot = std::max<std::size_t>(64, std::min(slot, std::max<std::size_t>(64, bases.count)));
  st.slot_points = slot;
  const std::vector<Chunk> chunks =
      plan_chunks(n, bits, cfg.msm.base_offset, slot, std::max<std::size_t>(64, slot));
  st.chunks = chunks.size();
  if (chunks.empty()) {
    if (stats) *stats = st;
    return acc;
  }

  ResidentBases slots[2];
  for (auto& s : slots) {
    s.points = ctx.alloc_or_throw(slot * pb, "streamed bases slot");
    s.g2 = kG2;
  }
  std::size_t max_scalars = 0;
  for (const auto& c : chunks) max_scalars = std::max(max_scalars, c.s1 - c.s0);
  DeviceBuffer d_scalars;
  if (scalars.device == nullptr)
    d_scalars = ctx.alloc_or_throw(max_scalars * sizeof(Fr), "streamed MSM scalars");
  cudaEvent_t uploaded[2] = {ctx.event(kUploadEvent0), ctx.event(kUploadEvent0 + 1)};

  auto upload = [&](std::size_t k) {
    const Chunk& c = chunks[k];
    ResidentBases& s = slots[k & 1];
    s.count = c.nb;
    const unsigned char* src = bases.data() + c.b0 * pb;
    if (bases.is_pinned())
      CUZK_CUDA_CHECK(
          cudaMemcpyAsync(s.points.data(), src, c.nb * pb, cudaMemcpyHostToDevice, copy));
    else
      ctx.upload(s.points.data(), src, c.nb * pb,
                 copy);  // through the staging buffers; returns when done
    CUZK_CUDA_CHECK(cudaEventRecord(uploaded[k & 1], copy));
    st.bytes_uploaded += c.nb * pb;
  };

  upload(0);
  for (std::size_t k = 0; k < chunks.size(); ++k) {
    // The slot of chunk k + 1 held chunk k − 1, whose MSM returned (it synchronizes its stream).
    if (k + 1 < chunks.size()) upload(k + 1);
    const Chunk& c = chunks[k];
    const Fr* sc = scalars.device + c.s0;
    if (scalars.device == nullptr) {
      ctx.upload(d_scalars.data(), scalars.host + c.s0, (c.s1 - c.s0) * sizeof(Fr), compute);
      sc = d_scalars.as<Fr>();
    }
    CUZK_CUDA_CHECK(cudaStreamWaitEvent(compute, uploaded[k & 1], 0));
    GpuMsmConfig mc = cfg.msm;
    mc.density_bits = bits.empty() ? bits : bits.subspan(c.w0, c.w1 - c.w0);
    mc.base_offset = 0;
    mc.compact = {};  // the chunk's scalars are on the device: classified from them
    HostXyzz part;
    if constexpr (kG2)
      part = msm_g2_device_resident(ctx, slots[k & 1], sc, c.s1 - c.s0, mc, compute);
    else
      part = msm_g1_device_resident(ctx, slots[k & 1], sc, c.s1 - c.s0, mc, compute);
    acc.add(part);
  }
  CUZK_CUDA_CHECK(cudaStreamSynchronize(copy));
  if (stats) *stats = st;
  return acc;
}

}  // namespace

StreamedBases make_streamed_bases_g1(DeviceContext& ctx, std::span<const G1Affine> bases) {
  return make_streamed<Fp>(ctx, bases, false);
}
StreamedBases make_streamed_bases_g2(DeviceContext& ctx, std::span<const G2Affine> bases) {
  return make_streamed<Fp2>(ctx, bases, true);
}

G1Xyzz msm_g1_streamed(DeviceContext& ctx, const StreamedBases& bases, std::span<const Fr> scalars,
                       const StreamedMsmConfig& config, cudaStream_t compute, cudaStream_t copy,
                       StreamedMsmStats* stats) {
  return streamed_impl<G1Xyzz>(ctx, bases, {.host = scalars.data(), .n = scalars.size()}, config,
                               compute, copy, stats);
}
G2Xyzz msm_g2_streamed(DeviceContext& ctx, const StreamedBases& bases, std::span<const Fr> scalars,
                       const StreamedMsmConfig& config, cudaStream_t compute, cudaStream_t copy,
                       StreamedMsmStats* stats) {
  return streamed_impl<G2Xyzz>(ctx, bases, {.host = scalars.data(), .n = scalars.size()}, config,
                               compute, copy, stats);
}
G1Xyzz msm_g1_streamed_resident(DeviceContext& ctx, const StreamedBases& bases, const Fr* d_scalars,
                                std::size_t n, const StreamedMsmConfig& config,
                                cudaStream_t compute, cudaStream_t copy, StreamedMsmStats* stats) {
  return streamed_impl<G1Xyzz>(ctx, bases, {.device = d_scalars, .n = n}, config, compute, copy,
                               stats);
}
G2Xyzz msm_g2_streamed_resident(DeviceContext& ctx, const StreamedBases& bases, const Fr* d_scalars,
                                std::size_t n, const StreamedMsmConfig& config,
                                cudaStream_t compute, cudaStream_t copy, StreamedMsmStats* stats) {
  return streamed_impl<G2Xyzz>(ctx, bases, {.device = d_scalars, .n = n}, config, compute, copy,
                               stats);
}

}  // namespace cuzk::gpu
