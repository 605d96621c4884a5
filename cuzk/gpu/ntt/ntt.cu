#include "cuzk/gpu/ntt/ntt.cuh"

#include <array>
#include <atomic>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "cuzk/gpu/cuda_check.cuh"
#include "cuzk/gpu/ff/dev_fields.cuh"
#include "cuzk/gpu/ntt/fr_mul.cuh"
#include "cuzk/gpu/ntt/ntt_program.cuh"

namespace cuzk::gpu {

namespace {

// 512 elements (16 KiB of shared memory) and 256 threads per block, at least 2 blocks per SM: one
// block's stage barrier overlaps another's multiplications (v1 ran 1024-element blocks, one per SM).
constexpr int kMaxLogBlock = 9;
constexpr int kThreads = 256;

/// The family's 2^32-th root of unity raised to 2^(32 − log_n): a primitive 2^log_n-th root (host).
Fr root_of_unity(unsigned log_n, RootFamily roots) {
  Fr w = omega32(roots);
  for (unsigned i = log_n; i < 32; ++i) w = w.square();
  return w;
}

struct Pow2Table {
  DevFr p[32];  // ω^(2^k)
};

/// out[j] = ω^j for j < count, from the binary expansion of j (≤ log_n multiplications).
__global__ void build_twiddles_kernel(DevFr* out, Pow2Table t, std::size_t count) {
  const std::size_t j = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (j >= count) return;
  DevFr acc = DevFr::one();
  for (int k = 0; k < 32; ++k)
    if ((j >> k) & 1) acc = acc * t.p[k];
  out[j] = acc;
}

// Global accesses: DevFr has 4-byte alignment (it is byte-identical to the host Fr), so a plain
// element access compiles to eight 32-bit loads; every arena buffer is 256-byte aligned, so two
// 16-byte accesses are safe and move the same 32 bytes in a quarter of the instructions.
CUZK_DEV DevFr ld_global(const DevFr* p) {
  const uint4* q = reinterpret_cast<const uint4*>(p);
  const uint4 a = q[0], b = q[1];
  DevFr r;
  r.l[0] = a.x, r.l[1] = a.y, r.l[2] = a.z, r.l[3] = a.w;
  r.l[4] = b.x, r.l[5] = b.y, r.l[6] = b.z, r.l[7] = b.w;
  return r;
}
CUZK_DEV void st_global(DevFr* p, const DevFr& v) {
  uint4* q = reinterpret_cast<uint4*>(p);
  q[0] = make_uint4(v.l[0], v.l[1], v.l[2], v.l[3]);
  q[1] = make_uint4(v.l[4], v.l[5], v.l[6], v.l[7]);
}

// Shared memory holds a block's elements limb-planar: limb i of element e at word i·E + e. With
// 32-byte elements stored whole, the 32 lanes of a warp reading limb i of consecutive elements hit
// only 4 of the 32 banks (an 8-way conflict on each of the 8 limb loads); planar, they hit 32.
CUZK_DEV DevFr ld_sm(const std::uint32_t* sm, int E, int e) {
  DevFr r;
#pragma unroll
  for (int i = 0; i < DevFr::N; ++i) r.l[i] = sm[i * E + e];
  return r;
}
CUZK_DEV void st_sm(std::uint32_t* sm, int E, int e, const DevFr& v) {
#pragma unroll
  for (int i = 0; i < DevFr::N; ++i) sm[i * E + e] = v.l[i];
}

CUZK_DEV DevFr pow_at(const DevFr* tab, std::uint64_t k) {
  return ld_global(tab + (k & 1023)) * ld_global(tab + 1024 + ((k >> 10) & 1023)) *
         ld_global(tab + 2048 + (k >> 20));
}

/// Radix-2 DIT stages [s0, s0 + S) on sub-transforms of stride 2^s0, 2^l of them per block.
/// kFirst: the gather pass (s0 = 0) reading in[bitrev(i)], optionally times pow_at(scale, bitrev(i)).
template <bool kFirst>
__global__ void __launch_bounds__(kThreads, 2)
    ntt_pass_kernel(DevFr* out, const DevFr* in, const DevFr* tw, int log_n, int s0, int S, int l,
                    const DevFr* scale) {
  extern __shared__ std::uint32_t sm[];  // limb-planar, see ld_sm
  const int L = 1 << l;
  const int E = (1 << S) << l;
  const std::uint64_t groups_lo = (std::uint64_t{1} << s0) >> l;
  const std::uint64_t b = blockIdx.x;
  const std::uint64_t lo_base = (b % groups_lo) << l;
  const std::uint64_t hi = b / groups_lo;
  auto gidx = [&](int e) -> std::uint64_t {
    return (hi << (s0 + S)) | (static_cast<std::uint64_t>(e >> l) << s0) |
           (lo_base + static_cast<std::uint64_t>(e & (L - 1)));
  };
  for (int e = threadIdx.x; e < E; e += blockDim.x) {
    const std::uint64_t gi = gidx(e);
    DevFr v;
    if constexpr (kFirst) {
      const std::uint64_t src = log_n == 0 ? 0 : (__brevll(gi) >> (64 - log_n));
      v = ld_global(in + src);
      if (scale) v = v * pow_at(scale, src);
    } else {
      v = ld_global(in + gi);
    }
    st_sm(sm, E, e, v);
  }
  __syncthreads();
  for (int k = 0; k < S; ++k) {
    const int m = 1 << k;
    const int shift = log_n - 1 - (s0 + k);
    for (int t = threadIdx.x; t < E / 2; t += blockDim.x) {
      const int lo = t & (L - 1);
      const int bf = t >> l;
      const int i_mid = ((bf >> k) << (k + 1)) | (bf & (m - 1));
      const int j_mid = i_mid + m;
      const std::uint64_t j = (static_cast<std::uint64_t>(i_mid & (m - 1)) << s0) |
                              (lo_base + static_cast<std::uint64_t>(lo));
      const DevFr w = ld_global(tw + (j << shift));
      const int ia = (i_mid << l) | lo, ib = (j_mid << l) | lo;
      const DevFr u = ld_sm(sm, E, ia);
      const DevFr v = ld_sm(sm, E, ib) * w;
      st_sm(sm, E, ia, u + v);
      st_sm(sm, E, ib, u - v);
    }
    __syncthreads();
  }
  for (int e = threadIdx.x; e < E; e += blockDim.x) st_global(out + gidx(e), ld_sm(sm, E, e));
}

__global__ void scale_pow_kernel(DevFr* v, std::size_t n, const DevFr* tab) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i < n) st_global(v + i, ld_global(v + i) * pow_at(tab, i));
}

/// c ← a·b (snarkjs's H step takes C = A∘B on ⟨ω⟩).
__global__ void mul_kernel(DevFr* c, const DevFr* a, const DevFr* b, std::size_t n) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i < n) c[i] = a[i] * b[i];
}

/// a ← (a·b − c)·zinv, the pointwise step of H on the coset.
__global__ void h_combine_kernel(DevFr* a, const DevFr* b, const DevFr* c, std::size_t n,
                                 DevFr zinv) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i < n) st_global(a + i, (ld_global(a + i) * ld_global(b + i) - ld_global(c + i)) * zinv);
}

unsigned grid_for(std::size_t n, unsigned threads) {
  return static_cast<unsigned>((n + threads - 1) / threads);
}

/// Runs the passes of one transform: values → scratch (gather) → … → values.
void run_passes(const DevFr* tw, DevFr* values, DevFr* scratch, unsigned log_n,
                const DevFr* pre_scale, cudaStream_t stream) {
  struct Pass {
    int s0, S, l;
  };
  std::vector<Pass> passes;
  const int first = std::min<int>(kMaxLogBlock, static_cast<int>(log_n));
  passes.push_back({0, first, 0});
  const int rest = static_cast<int>(log_n) - first;
  if (rest > 0) {
    const int count = (rest + 7) / 8;
    int s0 = first;
    for (int p = 0; p < count; ++p) {
      const int S = (rest - (s0 - first) + (count - p) - 1) / (count - p);
      const int l = std::min(s0, kMaxLogBlock - S);
      passes.push_back({s0, S, l});
      s0 += S;
    }
  }
  const std::size_t n = std::size_t{1} << log_n;
  for (std::size_t p = 0; p < passes.size(); ++p) {
    const auto& ps = passes[p];
    const bool last = p + 1 == passes.size();
    const DevFr* src = p == 0 ? values : scratch;
    DevFr* dst = last ? values : scratch;
    const std::size_t elems = (std::size_t{1} << ps.S) << ps.l;
    const unsigned blocks = static_cast<unsigned>(n / elems);
    const unsigned threads =
        static_cast<unsigned>(std::min<std::size_t>(kThreads, std::max<std::size_t>(1, elems / 2)));
    const std::size_t smem = elems * sizeof(DevFr);
    if (p == 0)
      ntt_pass_kernel<true><<<blocks, threads, smem, stream>>>(
          dst, src, tw, static_cast<int>(log_n), ps.s0, ps.S, ps.l, pre_scale);
    else
      ntt_pass_kernel<false><<<blocks, threads, smem, stream>>>(
          dst, src, tw, static_cast<int>(log_n), ps.s0, ps.S, ps.l, nullptr);
    CUZK_CUDA_CHECK_LAUNCH();
  }
}

/// Uploads |t| into a fresh arena buffer.
DeviceBuffer upload_pow_table(DeviceContext& ctx, const PowTable& t, cudaStream_t stream) {
  DeviceBuffer buf = ctx.alloc_or_throw(sizeof(PowTable), "NTT scale table");
  ctx.upload(buf.data(), &t, sizeof(PowTable), stream);
  return buf;
}

// ---------------------------------------------------------------------------------------------
// The passes of ntt_program.cuh (the default; the kernels above stay for NttTuning::legacy).

constexpr int kPowSplit = 15;  // c·g^i = t[i mod 2^15]·t[2^15 + (i >> 15)], i < 2^30

/// A scaling on the device: kind as NttScale::Kind; |table| the two halves of c·g^i.
struct DevScale {
  int kind = 0;
  int rev = 0;
  DevFr c;
  const DevFr* table = nullptr;
};

struct StepArgs {
  DevFr* out;
  const DevFr* in;
  const DevFr* in_b;
  const DevFr* in_c;
  const DevFr* aux;
  const DevFr* tw;
  const DevFr* tw_fwd;  // a round trip's DIT stages
  NttPass pass;
  int log_n;
  DevScale load, store, mid;
};

// The step kernels' tiles: halves of an element in two planes of 16-byte words (half h of element e
// at word h·E + e), so an element moves in two 128-bit shared accesses instead of eight 32-bit
// ones; eight lanes of consecutive elements fill the 128-byte width, the same bank behaviour as the
// limb-planar layout above.
CUZK_DEV DevFr ld_tile(const uint4* sm, int E, int e) {
  const uint4 a = sm[e], b = sm[E + e];
  DevFr r;
  r.l[0] = a.x, r.l[1] = a.y, r.l[2] = a.z, r.l[3] = a.w;
  r.l[4] = b.x, r.l[5] = b.y, r.l[6] = b.z, r.l[7] = b.w;
  return r;
}
CUZK_DEV void st_tile(uint4* sm, int E, int e, const DevFr& v) {
  sm[e] = make_uint4(v.l[0], v.l[1], v.l[2], v.l[3]);
  sm[E + e] = make_uint4(v.l[4], v.l[5], v.l[6], v.l[7]);
}

CUZK_DEV DevFr scale_factor(const DevScale& s, std::uint64_t idx) {
  if (s.kind == 1) return s.c;
  return fr_mul(ld_global(s.table + (idx & ((1u << kPowSplit) - 1))),
                ld_global(s.table + (1u << kPowSplit) + (idx >> kPowSplit)));
}

/// The pass's stages on the tile in shared memory (DIF falling, DIT rising); a barrier after each.
template <bool kDif>
CUZK_DEV void tile_stages(uint4* tile, int E, const NttPass& p, const NttTileOrigin& o,
                          unsigned log_n, const DevFr* tw) {
  for (int kk = 0; kk < p.S; ++kk) {
    const int k = kDif ? p.S - 1 - kk : kk;
    const bool trivial = p.s0 + k == 0;  // ω^0
    for (int t = threadIdx.x; t < E / 2; t += blockDim.x) {
      const NttButterfly b = tile_butterfly(p, log_n, o, k, t);
      DevFr u = ld_tile(tile, E, b.ia), v = ld_tile(tile, E, b.ib);
      if constexpr (kDif) {
        const DevFr d = u - v;
        u = u + v;
        v = trivial ? d : fr_mul(d, ld_global(tw + b.tw));
      } else {
        if (!trivial) v = fr_mul(v, ld_global(tw + b.tw));
        const DevFr sum = u + v;
        v = u - v;
        u = sum;
      }
      st_tile(tile, E, b.ia, u);
      st_tile(tile, E, b.ib, v);
    }
    __syncthreads();
  }
}

/// One pass (ntt_program.cuh): load the tile (with the step's load and scaling), run its stages in
/// shared memory (a round trip: DIF stages, the mid scaling, DIT stages), store it. Per butterfly
/// one multiplication (none on stage 0).
template <bool kDif, NttLoad kLoad, NttStore kStore, bool kRoundTrip>
__global__ void __launch_bounds__(kThreads, 2) ntt_step_kernel(const StepArgs a) {
  extern __shared__ uint4 ntt_tile[];  // two planes, see ld_tile
  const NttPass p = a.pass;
  const int E = 1 << (p.S + p.l);
  const NttTileOrigin o = tile_origin(p, blockIdx.x);
  const unsigned log_n = static_cast<unsigned>(a.log_n);
  for (int e = threadIdx.x; e < E; e += blockDim.x) {
    const std::uint64_t gi = tile_element_index(p, o, e);
    DevFr v;
    if constexpr (kLoad == NttLoad::gather) {
      v = ld_global(a.in + bit_reverse(gi, log_n));
    } else if constexpr (kLoad == NttLoad::product) {
      v = fr_mul(ld_global(a.in + gi), ld_global(a.in_b + gi));
      if (a.in_c) v = v - ld_global(a.in_c + gi);
    } else {
      v = ld_global(a.in + gi);
    }
    if (a.load.kind != 0)
      v = fr_mul(v, scale_factor(a.load, a.load.rev ? bit_reverse(gi, log_n) : gi));
    st_tile(ntt_tile, E, e, v);
  }
  __syncthreads();
  tile_stages<kDif>(ntt_tile, E, p, o, log_n, a.tw);
  if constexpr (kRoundTrip) {
    for (int e = threadIdx.x; e < E; e += blockDim.x) {
      const std::uint64_t gi = tile_element_index(p, o, e);
      const DevFr f = scale_factor(a.mid, a.mid.rev ? bit_reverse(gi, log_n) : gi);
      st_tile(ntt_tile, E, e, fr_mul(ld_tile(ntt_tile, E, e), f));
    }
    __syncthreads();
    tile_stages<false>(ntt_tile, E, p, o, log_n, a.tw_fwd);
  }
  for (int e = threadIdx.x; e < E; e += blockDim.x) {
    const std::uint64_t gi = tile_element_index(p, o, e);
    DevFr v = ld_tile(ntt_tile, E, e);
    if (a.store.kind != 0)
      v = fr_mul(v, scale_factor(a.store, a.store.rev ? bit_reverse(gi, log_n) : gi));
    if constexpr (kStore == NttStore::combine)
      v = fr_mul(ld_global(a.out + gi), v) - ld_global(a.aux + gi);
    if constexpr (kStore == NttStore::scatter_sub) v = v - ld_global(a.aux + gi);
    constexpr bool kScatter = kStore == NttStore::scatter || kStore == NttStore::scatter_sub;
    st_global(a.out + (kScatter ? bit_reverse(gi, log_n) : gi), v);
  }
}

/// out[j] = c·g^j (j < 2^15), out[2^15 + j] = g^(j·2^15): the table of DevScale.
__global__ void build_pow_table_kernel(DevFr* out, Pow2Table g, DevFr c) {
  const unsigned j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= 2u << kPowSplit) return;
  const bool high = j >> kPowSplit;
  const std::uint64_t k = high ? std::uint64_t{j - (1u << kPowSplit)} << kPowSplit : j;
  DevFr acc = high ? DevFr::one() : c;
  for (int b = 0; b < 32; ++b)
    if ((k >> b) & 1) acc = acc * g.p[b];
  out[j] = acc;
}

template <bool kDif, NttLoad kLoad, NttStore kStore, bool kRoundTrip = false>
void launch_step(const StepArgs& a, unsigned blocks, unsigned threads, std::size_t smem,
                 cudaStream_t stream) {
  // Tiles above 48 KiB need the opt-in, once per device.
  static std::atomic<std::uint64_t> opted_in{0};
  int device = 0;
  CUZK_CUDA_CHECK(cudaGetDevice(&device));
  const std::uint64_t bit = std::uint64_t{1} << (device & 63);
  if (!(opted_in.load(std::memory_order_acquire) & bit)) {
    CUZK_CUDA_CHECK(cudaFuncSetAttribute(ntt_step_kernel<kDif, kLoad, kStore, kRoundTrip>,
                                         cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         (1 << 12) * static_cast<int>(sizeof(DevFr))));
    opted_in.fetch_or(bit, std::memory_order_release);
  }
  ntt_step_kernel<kDif, kLoad, kStore, kRoundTrip><<<blocks, threads, smem, stream>>>(a);
  CUZK_CUDA_CHECK_LAUNCH();
}

/// The kernel of |s|: the combinations the programs use.
void launch_step_kind(const NttStep& s, const StepArgs& a, unsigned blocks, unsigned threads,
                      std::size_t smem, cudaStream_t stream) {
  using L = NttLoad;
  using S = NttStore;
  if (s.round_trip) {
    if (s.dif && s.load == L::plain && s.store == S::plain)
      return launch_step<true, L::plain, S::plain, true>(a, blocks, threads, smem, stream);
    if (s.dif && s.load == L::product && s.store == S::plain)
      return launch_step<true, L::product, S::plain, true>(a, blocks, threads, smem, stream);
    if (s.dif && s.load == L::plain && s.store == S::combine)
      return launch_step<true, L::plain, S::combine, true>(a, blocks, threads, smem, stream);
  } else {
    if (!s.dif && s.load == L::plain && s.store == S::plain)
      return launch_step<false, L::plain, S::plain>(a, blocks, threads, smem, stream);
    if (!s.dif && s.load == L::gather && s.store == S::plain)
      return launch_step<false, L::gather, S::plain>(a, blocks, threads, smem, stream);
    if (!s.dif && s.load == L::plain && s.store == S::combine)
      return launch_step<false, L::plain, S::combine>(a, blocks, threads, smem, stream);
    if (s.dif && s.load == L::plain && s.store == S::plain)
      return launch_step<true, L::plain, S::plain>(a, blocks, threads, smem, stream);
    if (s.dif && s.load == L::product && s.store == S::plain)
      return launch_step<true, L::product, S::plain>(a, blocks, threads, smem, stream);
    if (s.dif && s.load == L::plain && s.store == S::scatter)
      return launch_step<true, L::plain, S::scatter>(a, blocks, threads, smem, stream);
    if (s.dif && s.load == L::product && s.store == S::scatter)
      return launch_step<true, L::product, S::scatter>(a, blocks, threads, smem, stream);
    if (s.dif && s.load == L::plain && s.store == S::scatter_sub)
      return launch_step<true, L::plain, S::scatter_sub>(a, blocks, threads, smem, stream);
    if (s.dif && s.load == L::product && s.store == S::scatter_sub)
      return launch_step<true, L::product, S::scatter_sub>(a, blocks, threads, smem, stream);
  }
  throw std::logic_error("NTT step: no kernel for this load/store/direction");
}

NttTuning& tuning_slot() {
  static NttTuning t;
  return t;
}

DevFr to_dev(const Fr& x) {
  DevFr d;
  std::memcpy(&d, &x, sizeof(Fr));
  return d;
}

/// Runs |steps| (ntt_program.cuh) on buffers |bufs| (0–2 the caller's, 3 scratch; 2^log_n each).
/// |before|(i) is called before the first step that reads caller buffer i (not for one written
/// first).
void run_program(NttTables& tables, const std::vector<NttStep>& steps, Fr* const bufs[4],
                 unsigned log_n, RootFamily roots, cudaStream_t stream,
                 const std::function<void(int)>& before) {
  const auto& tab = tables.get(log_n, stream, roots);
  bool seen[4] = {false, false, false, false};
  auto dev = [&](int i) -> DevFr* {
    if (i < 0) return nullptr;
    if (i < 3 && !seen[i]) {
      seen[i] = true;
      if (before) before(i);
    }
    return reinterpret_cast<DevFr*>(bufs[i]);
  };
  auto dev_scale = [&](const NttScale& s) {
    DevScale d;
    d.kind = static_cast<int>(s.kind);
    d.rev = s.rev_index;
    d.c = to_dev(s.c);
    if (s.kind == NttScale::Kind::powers)
      d.table = reinterpret_cast<const DevFr*>(tables.pow_table(s.g, s.c, stream));
    return d;
  };
  for (const NttStep& s : steps) {
    StepArgs a;
    a.in = dev(s.in);
    a.in_b = dev(s.in_b);
    a.in_c = dev(s.in_c);
    a.aux = dev(s.aux);
    if (s.store == NttStore::combine) dev(s.out);  // read as well as written
    if (s.out < 3) seen[s.out] = true;
    a.out = reinterpret_cast<DevFr*>(bufs[s.out]);
    a.tw = (s.inverse ? tab.inv : tab.fwd).as<DevFr>();
    a.tw_fwd = tab.fwd.as<DevFr>();
    a.pass = s.pass;
    a.log_n = static_cast<int>(log_n);
    a.load = dev_scale(s.load_scale);
    a.store = dev_scale(s.store_scale);
    a.mid = dev_scale(s.mid_scale);
    const int lg_tile = s.pass.S + s.pass.l;
    const unsigned threads =
        static_cast<unsigned>(std::clamp(1 << std::max(lg_tile - 1, 0), 1, kThreads));
    const std::size_t smem = (std::size_t{1} << lg_tile) * sizeof(DevFr);
    launch_step_kind(s, a, static_cast<unsigned>(pass_blocks(s.pass, log_n)), threads, smem,
                     stream);
  }
}

}  // namespace

PowTable make_pow_table(const Fr& g, const Fr& c) {
  PowTable t;
  Fr base = g;
  for (int level = 0; level < 3; ++level) {
    Fr acc = level == 0 ? c : Fr::one();
    for (int i = 0; i < 1024; ++i) {
      t.t[level][i] = acc;
      acc *= base;
    }
    base = base.pow_u64(1024);  // g^(1024^(level+1))
  }
  return t;
}

const NttTables::Size& NttTables::get(unsigned log_n, cudaStream_t stream, RootFamily roots) {
  std::lock_guard<std::mutex> lock(mu_);
  auto& slot = sizes_[{log_n, roots}];
  if (slot) return *slot;
  auto size = std::make_unique<Size>();
  const std::size_t count = std::max<std::size_t>(1, (std::size_t{1} << log_n) / 2);
  for (int dir = 0; dir < 2; ++dir) {
    DeviceBuffer buf = ctx_.alloc_or_throw(count * sizeof(Fr), "NTT twiddles");
    Fr w = root_of_unity(log_n, roots);
    if (dir == 1) w = w.inverse();
    Pow2Table t;
    for (int k = 0; k < 32; ++k) {
      static_assert(sizeof(DevFr) == sizeof(Fr));
      std::memcpy(&t.p[k], &w, sizeof(Fr));
      w = w.square();
    }
    build_twiddles_kernel<<<grid_for(count, 256), 256, 0, stream>>>(buf.as<DevFr>(), t, count);
    CUZK_CUDA_CHECK_LAUNCH();
    (dir == 0 ? size->fwd : size->inv) = std::move(buf);
  }
  slot = std::move(size);
  return *slot;
}

const Fr* NttTables::pow_table(const Fr& g, const Fr& c, cudaStream_t stream) {
  std::lock_guard<std::mutex> lock(mu_);
  std::array<std::uint64_t, 8> key;
  std::memcpy(key.data(), &g, sizeof(Fr));
  std::memcpy(key.data() + 4, &c, sizeof(Fr));
  auto& slot = pows_[key];
  if (slot) return slot.as<Fr>();
  DeviceBuffer buf =
      ctx_.alloc_or_throw((std::size_t{2} << kPowSplit) * sizeof(Fr), "NTT scale table");
  Pow2Table t;
  Fr w = g;
  for (int k = 0; k < 32; ++k) {
    std::memcpy(&t.p[k], &w, sizeof(Fr));
    w = w.square();
  }
  build_pow_table_kernel<<<(2u << kPowSplit) / 256, 256, 0, stream>>>(buf.as<DevFr>(), t,
                                                                      to_dev(c));
  CUZK_CUDA_CHECK_LAUNCH();
  // Complete before any stream reads it (the table is shared by every caller).
  CUZK_CUDA_CHECK(cudaStreamSynchronize(stream));
  slot = std::move(buf);
  return slot.as<Fr>();
}

void NttTables::clear() {
  std::lock_guard<std::mutex> lock(mu_);
  sizes_.clear();
  pows_.clear();
}

void set_ntt_tuning(const NttTuning& t) { tuning_slot() = t; }
NttTuning ntt_tuning() { return tuning_slot(); }

void ntt_device(DeviceContext& ctx, NttTables& tables, Fr* values, Fr* scratch, unsigned log_n,
                const GpuNttMode& mode, cudaStream_t stream) {
  if (!tuning_slot().legacy) {
    Fr* const bufs[4] = {values, nullptr, nullptr, scratch};
    run_program(tables,
                plan_ntt_program(log_n, mode.inverse, mode.coset, Fr::from_u64(mode.coset_shift),
                                 tuning_slot()),
                bufs, log_n, RootFamily::bellman, stream, {});
    CUZK_CUDA_CHECK(cudaStreamSynchronize(stream));
    return;
  }
  const auto& tab = tables.get(log_n, stream);
  DevFr* v = reinterpret_cast<DevFr*>(values);
  DevFr* s = reinterpret_cast<DevFr*>(scratch);
  const std::size_t n = std::size_t{1} << log_n;
  const Fr g = Fr::from_u64(mode.coset_shift);
  if (!mode.inverse) {
    DeviceBuffer pre;
    if (mode.coset) pre = upload_pow_table(ctx, make_pow_table(g, Fr::one()), stream);
    run_passes(tab.fwd.as<DevFr>(), v, s, log_n, pre ? pre.as<DevFr>() : nullptr, stream);
    CUZK_CUDA_CHECK(cudaStreamSynchronize(stream));  // |pre| is freed on return
  } else {
    const Fr n_inv = Fr::from_u64(n).inverse();
    DeviceBuffer post =
        upload_pow_table(ctx, make_pow_table(mode.coset ? g.inverse() : Fr::one(), n_inv), stream);
    run_passes(tab.inv.as<DevFr>(), v, s, log_n, nullptr, stream);
    scale_pow_kernel<<<grid_for(n, 256), 256, 0, stream>>>(v, n, post.as<DevFr>());
    CUZK_CUDA_CHECK_LAUNCH();
    CUZK_CUDA_CHECK(cudaStreamSynchronize(stream));
  }
}

void compute_h_device(DeviceContext& ctx, NttTables& tables, Fr* a, Fr* b, Fr* c, Fr* scratch,
                      unsigned log_n, cudaStream_t stream, const std::function<void(int)>& before) {
  if (!tuning_slot().legacy) {
    Fr* const bufs[4] = {a, b, c, scratch};
    run_program(tables, plan_h_program(log_n, Fr::from_u64(kFrGenerator), tuning_slot()), bufs,
                log_n, RootFamily::bellman, stream, before);
    CUZK_CUDA_CHECK(cudaStreamSynchronize(stream));
    return;
  }
  const auto& tab = tables.get(log_n, stream);
  const std::size_t n = std::size_t{1} << log_n;
  const Fr g = Fr::from_u64(kFrGenerator);
  const Fr n_inv = Fr::from_u64(n).inverse();
  // iNTT's n^{-1} and the coset's g^i are both folded into the gather of the coset forward NTT.
  DeviceBuffer to_coset = upload_pow_table(ctx, make_pow_table(g, n_inv), stream);
  DeviceBuffer back = upload_pow_table(ctx, make_pow_table(g.inverse(), n_inv), stream);
  DevFr* s = reinterpret_cast<DevFr*>(scratch);
  int i = 0;
  for (Fr* x : {a, b, c}) {
    if (before) before(i);
    ++i;
    DevFr* v = reinterpret_cast<DevFr*>(x);
    run_passes(tab.inv.as<DevFr>(), v, s, log_n, nullptr, stream);
    run_passes(tab.fwd.as<DevFr>(), v, s, log_n, to_coset.as<DevFr>(), stream);
  }
  // Z(X) = X^n − 1 is the constant g^n − 1 on the coset.
  const Fr zinv = (g.pow_u64(n) - Fr::one()).inverse();
  DevFr dz;
  std::memcpy(&dz, &zinv, sizeof(Fr));
  h_combine_kernel<<<grid_for(n, 256), 256, 0, stream>>>(reinterpret_cast<DevFr*>(a),
                                                         reinterpret_cast<const DevFr*>(b),
                                                         reinterpret_cast<const DevFr*>(c), n, dz);
  CUZK_CUDA_CHECK_LAUNCH();
  run_passes(tab.inv.as<DevFr>(), reinterpret_cast<DevFr*>(a), s, log_n, nullptr, stream);
  scale_pow_kernel<<<grid_for(n, 256), 256, 0, stream>>>(reinterpret_cast<DevFr*>(a), n,
                                                         back.as<DevFr>());
  CUZK_CUDA_CHECK_LAUNCH();
  CUZK_CUDA_CHECK(cudaStreamSynchronize(stream));
}

void compute_h_snarkjs_device(DeviceContext& ctx, NttTables& tables, Fr* a, Fr* b, Fr* c,
                              Fr* scratch, unsigned log_n, cudaStream_t stream,
                              const std::function<void(int)>& before) {
  if (!tuning_slot().legacy) {
    Fr* const bufs[4] = {a, b, c, scratch};
    run_program(tables, plan_h_snarkjs_program(log_n, snarkjs_coset_shift(log_n), tuning_slot()),
                bufs, log_n, RootFamily::ffjs, stream, before);
    CUZK_CUDA_CHECK(cudaStreamSynchronize(stream));
    return;
  }
  const auto& tab = tables.get(log_n, stream, RootFamily::ffjs);
  const std::size_t n = std::size_t{1} << log_n;
  const Fr n_inv = Fr::from_u64(n).inverse();
  // iNTT's n^{-1} and the coset's g^i folded into the gather of the coset forward NTT, as above.
  DeviceBuffer to_coset =
      upload_pow_table(ctx, make_pow_table(snarkjs_coset_shift(log_n), n_inv), stream);
  DevFr* da = reinterpret_cast<DevFr*>(a);
  DevFr* db = reinterpret_cast<DevFr*>(b);
  DevFr* dc = reinterpret_cast<DevFr*>(c);
  DevFr* s = reinterpret_cast<DevFr*>(scratch);
  if (before) before(0), before(1);
  mul_kernel<<<grid_for(n, 256), 256, 0, stream>>>(dc, da, db, n);
  CUZK_CUDA_CHECK_LAUNCH();
  for (DevFr* v : {da, db, dc}) {
    run_passes(tab.inv.as<DevFr>(), v, s, log_n, nullptr, stream);
    run_passes(tab.fwd.as<DevFr>(), v, s, log_n, to_coset.as<DevFr>(), stream);
  }
  // No division by Z (the snarkjs zkey's H points absorb it).
  DevFr one;
  const Fr one_h = Fr::one();
  std::memcpy(&one, &one_h, sizeof(Fr));
  h_combine_kernel<<<grid_for(n, 256), 256, 0, stream>>>(da, db, dc, n, one);
  CUZK_CUDA_CHECK_LAUNCH();
  CUZK_CUDA_CHECK(cudaStreamSynchronize(stream));  // |to_coset| is freed on return
}

}  // namespace cuzk::gpu
