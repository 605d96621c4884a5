// gpu_bench: device-side benchmarks of the CUDA backend on the H200 (PERF.md anchors). Prints one
// CSV line per measurement (op,size,ms,metric,unit,anchor,ratio) and a short table at the end.
//   gpu_bench [--quick] [--ops field,ntt,h,msm_g1,msm_g2,msm_g2_mix,batch_add,partition,msm_stream]
//             [--min-log K] [--max-log K] [--partition-log K] [--stream-log K] [--window c]
//             [--g2-acc one_thread,lane_pair,lane_pair_fused,lane_pair_rolled,
//                       lane_pair_rolled2_ahead]   (G2 accumulation
//                                                 kernels, side by side)
//             [--h-variants plain,22:2:16384]   (G1 MSM: plain = the plan's path; c:k:r = window c,
//                                                 k precomputed copies, r reduction chunks; a /bN
//                                                 suffix: accumulate_min_blocks = N, /rS:
//                                                 accumulate_rows_per_step = S, /d:
//                                                 dense_scalars, no classification, /lN:
//                                                 accumulate_lazy = N, /qN:
//                                                 accumulate_square_rows = N, /sP:
//                                                 segment_pairs = P, /s0 the rule)
//             [--msm-logs 24,25,26,27]           (G1 MSM sizes instead of min..max step 2)
//             [--partition-h c:k:r]              (the partition's H MSM as that variant)
//             [--ntt-shapes legacy,10:1,11:2] [--ntt-logs 20,24] [--h-logs 24,27]
//             [--overlap off,auto,h_step,h_msm]   (partition schedules, side by side; default off,auto)
//             [--arena-gib G]   (arena size; a small one keeps ncu's per-replay memory backup short,
//                                or forces the MSM's windows into several groups)
//             [--group-chunks plan|scaled]   (GpuMsmConfig::scale_group_chunks in the MSM rows)
//             [--segment-pairs P]   (GpuMsmConfig::segment_pairs in the msm_g1 / msm_g2 rows; 0:
//                                    the rule; absent: the default)
// (--ntt-shapes: the NTT pass shapes to time side by side, "legacy" = the first kernels; rows of a
// shape other than the default 10:1 are named op@shape.)
// (msm_stream is not in the default list: it reserves a pinned host pool of the table's size.)
// Inputs are generated on the device (hash of the index) so no time goes to host generation; MSM
// bases are 2^16 distinct points (P0 + i·Q, from the host) replicated, as in PERF.md §7.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "bench/comma_items.hpp"
#include "cuzk/ec/batch_affine.hpp"
#include "cuzk/ec/g1.hpp"
#include "cuzk/ec/g2.hpp"
#include "cuzk/ec/scalar_mul.hpp"
#include "cuzk/gpu/cuda_check.cuh"
#include "cuzk/gpu/device_context.hpp"
#include "cuzk/gpu/ec/dev_curves.cuh"
#include "cuzk/gpu/ff/dev_fields.cuh"
#include "cuzk/gpu/msm/pippenger.cuh"
#include "cuzk/gpu/msm/streamed.cuh"
#include "cuzk/gpu/ntt/fr_mul.cuh"
#include "cuzk/gpu/ntt/ntt.cuh"
#include "cuzk/gpu/partition.cuh"
#include "cuzk/gpu/trace.cuh"

namespace cuzk::gpu {
namespace {

struct Row {
  std::string op, size;
  double ms, metric;
  std::string unit;
  double anchor;  // same unit as ms (0: none)
};
std::vector<Row> g_rows;
/// --group-chunks scaled: GpuMsmConfig::scale_group_chunks in the msm_g1 / msm_g2 rows.
bool g_scale_group_chunks = false;
/// --segment-pairs P: GpuMsmConfig::segment_pairs in the msm_g1 / msm_g2 rows (0: the rule; -1,
/// absent: the default).
long g_segment_pairs = -1;

void report(const std::string& op, const std::string& size, double ms, double metric,
            const std::string& unit, double anchor_ms) {
  g_rows.push_back({op, size, ms, metric, unit, anchor_ms});
  std::printf("csv,%s,%s,%.3f,%.4g,%s,%.3f,%.3f\n", op.c_str(), size.c_str(), ms, metric,
              unit.c_str(), anchor_ms, anchor_ms > 0 ? ms / anchor_ms : 0.0);
  std::fflush(stdout);
}

double now_ms() {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// Median of |reps| timed runs after one warm-up; |fn| must finish its work (it synchronizes).
double time_ms(int reps, const std::function<void()>& fn) {
  fn();
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    const double t0 = now_ms();
    fn();
    t.push_back(now_ms() - t0);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

// ---------------------------------------------------------------------------------------------
// Field throughput: 4 independent dependent chains per thread.

template <class F>
__global__ void mul_chain_kernel(F* out, const F* in, int iters) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  F a = in[(4 * i) & 1023], b = in[(4 * i + 1) & 1023], c = in[(4 * i + 2) & 1023],
    d = in[(4 * i + 3) & 1023];
  const F m = in[(i + 7) & 1023];
  for (int k = 0; k < iters; ++k) {
    a = a * m;
    b = b * m;
    c = c * m;
    d = d * m;
  }
  out[i] = a + b + c + d;
}

/// mul_chain_kernel with the NTT's Fr product (ntt/fr_mul.cuh).
__global__ void fr_mul_ntt_chain_kernel(DevFr* out, const DevFr* in, int iters) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  DevFr a = in[(4 * i) & 1023], b = in[(4 * i + 1) & 1023], c = in[(4 * i + 2) & 1023],
        d = in[(4 * i + 3) & 1023];
  const DevFr m = in[(i + 7) & 1023];
  for (int k = 0; k < iters; ++k) {
    a = fr_mul(a, m);
    b = fr_mul(b, m);
    c = fr_mul(c, m);
    d = fr_mul(d, m);
  }
  out[i] = a + b + c + d;
}

template <class F>
__global__ void sqr_chain_kernel(F* out, const F* in, int iters) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  F a = in[(4 * i) & 1023], b = in[(4 * i + 1) & 1023], c = in[(4 * i + 2) & 1023],
    d = in[(4 * i + 3) & 1023];
  for (int k = 0; k < iters; ++k) {
    a = a.square();
    b = b.square();
    c = c.square();
    d = d.square();
  }
  out[i] = a + b + c + d;
}

/// Random field elements below the modulus from a hash of the index (Montgomery form of a random value).
template <class F>
__global__ void fill_random_kernel(F* out, std::size_t n, std::uint64_t seed) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i >= n) return;
  std::uint64_t x = seed ^ (i * 0x9e3779b97f4a7c15ULL);
  F v;
#pragma unroll
  for (int k = 0; k < F::N; ++k) {
    x ^= x >> 31;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 29;
    v.l[k] = static_cast<std::uint32_t>(x >> 16);
  }
  v.l[F::N - 1] &= 0x0fffffffu;  // below p for both fields
  out[i] = v;
}

/// Scalars with the PoRep mix: |p0| zeros, |p1| ones (per 1000), the rest random.
__global__ void fill_mix_kernel(DevFr* out, std::size_t n, std::uint64_t seed, unsigned p0,
                                unsigned p1) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i >= n) return;
  std::uint64_t x = seed ^ (i * 0x9e3779b97f4a7c15ULL);
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  const unsigned roll = static_cast<unsigned>(x % 1000);
  if (roll < p0)
    out[i] = DevFr::zero();
  else if (roll < p0 + p1)
    out[i] = DevFr::one();
}

template <class F>
void fill_random(F* p, std::size_t n, std::uint64_t seed, cudaStream_t s) {
  fill_random_kernel<F><<<static_cast<unsigned>((n + 255) / 256), 256, 0, s>>>(p, n, seed);
  CUZK_CUDA_CHECK_LAUNCH();
}

template <class F>
__global__ void replicate_kernel(DevAffine<F>* out, std::size_t n, std::size_t distinct) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i >= n || i < distinct) return;
  out[i] = out[i % distinct];
}

void bench_field(DeviceContext& ctx) {
  cudaStream_t s = ctx.stream();
  const std::size_t threads = static_cast<std::size_t>(ctx.sm_count()) * 2048;
  auto in = ctx.alloc(1024 * sizeof(DevFp2), "in");
  auto out = ctx.alloc(threads * sizeof(DevFp2), "out");
  if (!in.ok() || !out.ok()) return;
  fill_random(in->as<DevFp>(), 2048, 1, s);
  const int iters = 256;
  const unsigned grid = static_cast<unsigned>(threads / 256);
  // anchor: the time sppark's rate (PERF.md §4b) would take for the same count
  auto time_kernel = [&](const char* name, const std::function<void()>& launch,
                         double anchor_gops) {
    const double ms = time_ms(3, [&] {
      launch();
      CUZK_CUDA_CHECK_LAUNCH();
      CUZK_CUDA_CHECK(cudaStreamSynchronize(s));
    });
    const double count = static_cast<double>(threads) * iters * 4;
    report(name, std::to_string(static_cast<long long>(count)), ms, count / (ms * 1e6), "G/s",
           anchor_gops > 0 ? count / (anchor_gops * 1e6) : 0);
  };
  DevFp* fo = out->as<DevFp>();
  DevFp* fi = in->as<DevFp>();
  DevFr* ro = out->as<DevFr>();
  DevFr* ri = in->as<DevFr>();
  DevFp2* qo = out->as<DevFp2>();
  DevFp2* qi = in->as<DevFp2>();
  time_kernel(
      "fp_mul", [&] { mul_chain_kernel<DevFp><<<grid, 256, 0, s>>>(fo, fi, iters); }, 27.16);
  time_kernel(
      "fp_sqr", [&] { sqr_chain_kernel<DevFp><<<grid, 256, 0, s>>>(fo, fi, iters); }, 33.8);
  time_kernel(
      "fp_sqr_products",
      [&] {
        sqr_chain_kernel<DevFpProductSquares>
            <<<grid, 256, 0, s>>>(reinterpret_cast<DevFpProductSquares*>(fo),
                                  reinterpret_cast<const DevFpProductSquares*>(fi), iters);
      },
      33.8);
  time_kernel(
      "fr_mul", [&] { mul_chain_kernel<DevFr><<<grid, 256, 0, s>>>(ro, ri, iters); }, 58.75);
  time_kernel(
      "fr_mul_ntt", [&] { fr_mul_ntt_chain_kernel<<<grid, 256, 0, s>>>(ro, ri, iters); }, 58.75);
  time_kernel(
      "fp2_mul", [&] { mul_chain_kernel<DevFp2><<<grid, 256, 0, s>>>(qo, qi, iters); }, 0);
}

// ---------------------------------------------------------------------------------------------

double ntt_anchor(unsigned lg, int variant) {
  // PERF.md §2 (sppark on this H200): forward NN; inverse and coset where measured.
  switch (lg) {
    case 20:
      return variant == 0 ? 0.27 : variant == 1 ? 0.29 : 0;
    case 22:
      return variant == 0 ? 1.12 : 0;
    case 24:
      return variant == 0 ? 4.73 : variant == 1 ? 4.98 : 5.33;
    case 25:
      return variant == 0 ? 9.99 : 0;
    case 26:
      return variant == 0 ? 23.8 : variant == 1 ? 24.8 : 26.2;
    case 27:
      return variant == 0 ? 44.3 : variant == 1 ? 46.9 : 49.1;
  }
  return 0;
}

/// A pass shape (--ntt-shapes): "legacy" or "TILE:RUN" (NttTuning's log_tile and min_log_run),
/// either with "/c7": the H step takes c to the coset (NttTuning::h_c_coset, 7 transforms).
struct NamedShape {
  std::string name;
  NttTuning tuning;
};
std::vector<NamedShape> parse_shapes(const std::string& list) {
  std::vector<NamedShape> out;
  for (const std::string& item : cuzk::bench::comma_items(list)) {
    NttTuning t;
    std::string shape = item;
    if (shape.size() > 3 && shape.ends_with("/c7")) {
      t.h_c_coset = true;
      shape.resize(shape.size() - 3);
    }
    if (shape == "legacy") {
      t.legacy = true;
    } else {
      const std::size_t colon = shape.find(':');
      t.log_tile = std::stoi(shape.substr(0, colon));
      if (colon != std::string::npos) t.min_log_run = std::stoi(shape.substr(colon + 1));
      if (t.log_tile < 2 || t.log_tile > 12 || t.min_log_run < 1 || t.min_log_run >= t.log_tile)
        throw std::invalid_argument("--ntt-shapes: bad shape " + item);
    }
    out.push_back({item, t});
  }
  if (out.empty()) throw std::invalid_argument("--ntt-shapes needs at least one shape");
  return out;
}
std::vector<unsigned> parse_logs(const std::string& list) {
  std::vector<unsigned> out;
  for (const std::string& item : cuzk::bench::comma_items(list))
    out.push_back(static_cast<unsigned>(std::stoul(item)));
  return out;
}
/// "ntt_fwd" for the default shape, "ntt_fwd@legacy" / "ntt_fwd@10:1" for the others.
std::string shaped(const char* op, const NamedShape& sh) {
  return sh.name == "10:1" ? op : std::string(op) + "@" + sh.name;
}

void bench_ntt(DeviceContext& ctx, NttTables& tables, const std::vector<unsigned>& logs,
               const std::vector<NamedShape>& shapes) {
  cudaStream_t s = ctx.stream();
  for (unsigned lg : logs) {
    const std::size_t n = std::size_t{1} << lg;
    auto v = ctx.alloc(n * sizeof(Fr), "ntt values");
    auto sc = ctx.alloc(n * sizeof(Fr), "ntt scratch");
    if (!v.ok() || !sc.ok()) {
      std::printf("skip ntt 2^%u: %s\n", lg,
                  (v.ok() ? sc.status() : v.status()).to_string().c_str());
      continue;
    }
    fill_random(v->as<DevFr>(), n, lg, s);
    const char* names[4] = {"ntt_fwd", "ntt_inv", "ntt_coset_fwd", "ntt_coset_inv"};
    for (const auto& sh : shapes) {
      set_ntt_tuning(sh.tuning);
      for (int variant = 0; variant < 4; ++variant) {
        const GpuNttMode mode{.inverse = (variant & 1) != 0, .coset = variant >= 2};
        const double ms =
            time_ms(5, [&] { ntt_device(ctx, tables, v->as<Fr>(), sc->as<Fr>(), lg, mode, s); });
        report(shaped(names[variant], sh), "2^" + std::to_string(lg), ms, ms, "ms",
               variant < 3 ? ntt_anchor(lg, variant) : 0);
      }
    }
    set_ntt_tuning(NttTuning{});
  }
}

void bench_h(DeviceContext& ctx, NttTables& tables, unsigned lg, const NamedShape& sh) {
  set_ntt_tuning(sh.tuning);
  cudaStream_t s = ctx.stream();
  const std::size_t n = std::size_t{1} << lg;
  DeviceBuffer buf[4];
  for (auto& b : buf) {
    auto r = ctx.alloc(n * sizeof(Fr), "h buffers");
    if (!r.ok()) {
      std::printf("skip h 2^%u: %s\n", lg, r.status().to_string().c_str());
      return;
    }
    b = std::move(r).value();
  }
  const double ms = time_ms(3, [&] {
    for (int i = 0; i < 3; ++i) fill_random(buf[i].as<DevFr>(), n, 100 + i, s);
    CUZK_CUDA_CHECK(cudaStreamSynchronize(s));
    compute_h_device(ctx, tables, buf[0].as<Fr>(), buf[1].as<Fr>(), buf[2].as<Fr>(),
                     buf[3].as<Fr>(), lg, s);
  });
  // anchor: 7 sppark NTTs ≈ 0.32 s at 2^27 (PERF.md §2), scaled by size
  report(shaped("h_compute", sh), "2^" + std::to_string(lg), ms, ms, "ms", lg == 27 ? 320.0 : 0);
  set_ntt_tuning(NttTuning{});
}

template <class C>
std::vector<Affine<C>> host_distinct_points(std::size_t n) {
  std::mt19937_64 rng(42);
  const Jacobian<C> g = Jacobian<C>::generator();
  Limbs<4> k1{rng(), rng(), rng(), rng() >> 2}, k2{rng(), rng(), rng(), rng() >> 2};
  const Jacobian<C> q = mul_vartime(g, Fr::from_limbs_reduce(k2));
  Jacobian<C> p = mul_vartime(g, Fr::from_limbs_reduce(k1));
  std::vector<Jacobian<C>> jac(n);
  for (auto& j : jac) {
    j = p;
    p.add(q);
  }
  return batch_to_affine_vartime<C>(jac);
}

/// Resident bases of |n| points: 2^16 distinct ones replicated.
template <class C, class F>
ResidentBases make_bases(DeviceContext& ctx, std::size_t n, cudaStream_t s,
                         ResidentBases (*upload)(DeviceContext&, std::span<const Affine<C>>,
                                                 cudaStream_t)) {
  const std::size_t distinct = std::min<std::size_t>(n, 1 << 16);
  const auto pts = host_distinct_points<C>(distinct);
  ResidentBases small = upload(ctx, pts, s);
  ResidentBases r;
  r.count = n;
  r.g2 = small.g2;
  r.points = ctx.alloc_or_throw(n * sizeof(DevAffine<F>), "bench bases");
  CUZK_CUDA_CHECK(cudaMemcpyAsync(r.points.data(), small.points.data(),
                                  distinct * sizeof(DevAffine<F>), cudaMemcpyDeviceToDevice, s));
  replicate_kernel<F><<<static_cast<unsigned>((n + 255) / 256), 256, 0, s>>>(
      r.points.as<DevAffine<F>>(), n, distinct);
  CUZK_CUDA_CHECK_LAUNCH();
  CUZK_CUDA_CHECK(cudaStreamSynchronize(s));
  return r;
}

double msm_g1_anchor(unsigned lg) {
  switch (lg) {
    case 20:
      return 22.1;
    case 22:
      return 53.9;
    case 24:
      return 159.6;
    case 25:
      return 290.3;
    case 26:
      return 557.4;
    case 27:
      return 1080.0;
  }
  return 0;
}
double msm_g2_anchor(unsigned lg) {
  switch (lg) {
    case 20:
      return 48.9;
    case 22:
      return 139.2;
    case 24:
      return 456.2;
    case 25:
      return 840.0;
  }
  return 0;
}

const char* g2_accumulation_name(G2Accumulation a) {
  switch (a) {
    case G2Accumulation::one_thread:
      return "one_thread";
    case G2Accumulation::lane_pair:
      return "lane_pair";
    case G2Accumulation::lane_pair_fused:
      return "lane_pair_fused";
    case G2Accumulation::lane_pair_rolled:
      return "lane_pair_rolled";
    case G2Accumulation::lane_pair_rolled2_ahead:
      return "lane_pair_rolled2_ahead";
  }
  return "?";
}

/// One G1 MSM configuration of --h-variants: "plain" (the plan's, today's path) or c:k:r = window
/// width c, k precomputed copies (1: none), r reduction chunks (0: the plan's); either with
/// suffixes "/bN": GpuMsmConfig::accumulate_min_blocks = N (0: uncapped, 3: three blocks an SM;
/// absent: the default), "/rS": accumulate_rows_per_step = S (0 or 3; absent: the default, or 0
/// with /b0), "/d": dense_scalars (the scalars in place, no classification: the partition's H),
/// "/l1", "/l0": accumulate_lazy on or off (the accumulator in the lazy form, the default; or reduced
/// after every product), "/q1", "/q0": accumulate_square_rows on or off (the addition's squares by
/// the square rows, the default; or by the rolled product), "/sP": segment_pairs = P (the
/// accumulation's segment; /s0: the rule; absent: the default).
struct HVariant {
  unsigned c = 0, copies = 1, chunks = 0;
  bool plain = true;
  int min_blocks = -1;     // -1: GpuMsmConfig's default
  int rows_per_step = -1;  // -1: GpuMsmConfig's default (0 with min_blocks 0)
  bool dense = false;
  int lazy = -1;      // -1: GpuMsmConfig's default
  int squares = -1;   // -1: GpuMsmConfig's default
  long segment = -1;  // -1: GpuMsmConfig's default (0: the rule)
  std::string name() const {
    return (plain ? std::string("plain")
                  : "c" + std::to_string(c) + "k" + std::to_string(copies) + "r" +
                        std::to_string(chunks)) +
           (min_blocks >= 0 ? "/b" + std::to_string(min_blocks) : "") +
           (rows_per_step >= 0 ? "/r" + std::to_string(rows_per_step) : "") + (dense ? "/d" : "") +
           (lazy >= 0 ? "/l" + std::to_string(lazy) : "") +
           (squares >= 0 ? "/q" + std::to_string(squares) : "") +
           (segment >= 0 ? "/s" + std::to_string(segment) : "");
  }
  void apply_accumulation(GpuMsmConfig& cfg) const {
    if (min_blocks >= 0) cfg.accumulate_min_blocks = min_blocks;
    if (rows_per_step >= 0)
      cfg.accumulate_rows_per_step = rows_per_step;
    else if (min_blocks == 0)
      cfg.accumulate_rows_per_step = 0;
    cfg.dense_scalars = dense;
    if (lazy >= 0) cfg.accumulate_lazy = lazy != 0;
    if (squares >= 0) cfg.accumulate_square_rows = squares != 0;
    if (segment >= 0) cfg.segment_pairs = static_cast<std::uint32_t>(segment);
  }
};

std::vector<HVariant> parse_h_variants(const std::string& list) {
  std::vector<HVariant> out;
  for (const std::string& item : cuzk::bench::comma_items(list)) {
    HVariant v;
    std::string body = item;
    int min_blocks = -1;
    int rows_per_step = -1;
    bool dense = false;
    int lazy = -1;
    int squares = -1;
    long segment = -1;
    if (const std::size_t slash = body.find('/'); slash != std::string::npos) {
      std::string rest = body.substr(slash + 1);
      body.resize(slash);
      for (std::size_t at = 0; at <= rest.size();) {
        const std::size_t next = std::min(rest.find('/', at), rest.size());
        const std::string suffix = rest.substr(at, next - at);
        const bool number =
            suffix.size() > 1 && suffix.find_first_not_of("0123456789", 1) == std::string::npos;
        if (number && suffix[0] == 'r')
          rows_per_step = std::stoi(suffix.substr(1));
        else if (number && suffix[0] == 'b')
          min_blocks = std::stoi(suffix.substr(1));
        else if (suffix == "d")
          dense = true;
        else if (number && suffix[0] == 'l' && suffix.size() == 2 && suffix[1] <= '1')
          lazy = suffix[1] - '0';
        else if (number && suffix[0] == 'q' && suffix.size() == 2 && suffix[1] <= '1')
          squares = suffix[1] - '0';
        else if (number && suffix[0] == 's')
          segment = std::stol(suffix.substr(1));
        else
          throw std::invalid_argument("--h-variants: '" + item + "' has a bad suffix '" + suffix +
                                      "' (/bN, /rS, /d, /l0, /l1, /q0, /q1 or /sP)");
        at = next + 1;
      }
    }
    if (body != "plain") {
      unsigned c = 0, k = 0, r = 0;
      char extra = 0;
      if (std::sscanf(body.c_str(), "%u:%u:%u%c", &c, &k, &r, &extra) != 3)
        throw std::invalid_argument("--h-variants: '" + item +
                                    "' is neither plain nor c:k:r (either with /bN)");
      v = {.c = c, .copies = k, .chunks = r, .plain = false};
    }
    v.min_blocks = min_blocks;
    v.rows_per_step = rows_per_step;
    v.dense = dense;
    v.lazy = lazy;
    v.squares = squares;
    v.segment = segment;
    out.push_back(v);
  }
  return out;
}

/// The G1 MSM per --h-variants at each size: the copies' build time once (msm_g1_precompute), then
/// the MSM as bench_msm times it, rows "msm_g1 <variant>".
void bench_msm_g1_variants(DeviceContext& ctx, const std::vector<unsigned>& logs,
                           const std::vector<HVariant>& variants) {
  cudaStream_t s = ctx.stream();
  for (unsigned lg : logs) {
    const std::size_t n = std::size_t{1} << lg;
    ResidentBases rb = make_bases<G1Curve, DevFp>(ctx, n, s, upload_bases_g1);
    DeviceBuffer sc = ctx.alloc_or_throw(n * sizeof(Fr), "msm scalars");
    fill_random(sc.as<DevFr>(), n, lg * 7, s);
    for (const HVariant& v : variants) {
      PrecomputedBases pre;
      GpuMsmConfig cfg;
      cfg.scale_group_chunks = g_scale_group_chunks;
      v.apply_accumulation(cfg);
      if (!v.plain) {
        const double t0 = now_ms();
        pre = precompute_bases_g1(ctx, rb, v.c, v.copies, s);
        if (v.copies > 1)
          report("msm_g1_precompute", "2^" + std::to_string(lg) + " " + v.name(), now_ms() - t0,
                 static_cast<double>(pre.points.size()) / 1e9, "GB", 0);
        cfg.precomputed = &pre;
        cfg.reduction_chunks = v.chunks;
      }
      GpuMsmStats st;
      const double ms =
          time_ms(3, [&] { (void)msm_g1_device_resident(ctx, rb, sc.as<Fr>(), n, cfg, s, &st); });
      if (GpuTrace::enabled()) {
        GpuTrace trace(s);
        GpuMsmConfig traced = cfg;
        traced.trace = &trace;
        const std::string name = v.name();
        traced.trace_name = name.c_str();
        (void)msm_g1_device_resident(ctx, rb, sc.as<Fr>(), n, traced, s);
        CUZK_CUDA_CHECK(cudaStreamSynchronize(s));
        trace.print(stdout, "msm_g1 2^" + std::to_string(lg));
      }
      report("msm_g1 " + v.name(),
             "2^" + std::to_string(lg) + " c=" + std::to_string(st.window_bits) +
                 " K=" + std::to_string(st.windows) + " G=" + std::to_string(st.window_groups) +
                 " S=" + std::to_string(st.segment_pairs),
             ms, ms * 1e6 / static_cast<double>(n), "ns/pt", msm_g1_anchor(lg));
    }
  }
}

/// |g2_variants|: the G2 accumulation kernels to time side by side at each size (G1 ignores it).
/// |porep_mix|: the scalars of a PoRep witness (36.3 % zeros, 36.3 % ones, the rest random: the
/// 1-scalars' batch addition beside a 27 % tail), reported as "<op>_mix".
template <bool kG2>
void bench_msm(DeviceContext& ctx, const std::vector<unsigned>& logs, int window,
               const std::vector<G2Accumulation>& g2_variants, bool porep_mix = false) {
  cudaStream_t s = ctx.stream();
  for (unsigned lg : logs) {
    const std::size_t n = std::size_t{1} << lg;
    ResidentBases rb = kG2 ? make_bases<G2Curve, DevFp2>(ctx, n, s, upload_bases_g2)
                           : make_bases<G1Curve, DevFp>(ctx, n, s, upload_bases_g1);
    DeviceBuffer sc = ctx.alloc_or_throw(n * sizeof(Fr), "msm scalars");
    fill_random(sc.as<DevFr>(), n, lg * 7, s);
    if (porep_mix) {
      fill_mix_kernel<<<static_cast<unsigned>((n + 255) / 256), 256, 0, s>>>(sc.as<DevFr>(), n, 11,
                                                                             363, 363);
      CUZK_CUDA_CHECK_LAUNCH();
    }
    const std::string op = std::string(kG2 ? "msm_g2" : "msm_g1") + (porep_mix ? "_mix" : "");
    for (const G2Accumulation acc : kG2 ? g2_variants : std::vector<G2Accumulation>{{}}) {
      GpuMsmStats st;
      GpuMsmConfig cfg{.window_bits = window, .g2_accumulation = acc};
      cfg.scale_group_chunks = g_scale_group_chunks;
      if (g_segment_pairs >= 0) cfg.segment_pairs = static_cast<std::uint32_t>(g_segment_pairs);
      const double ms = time_ms(3, [&] {
        if constexpr (kG2)
          (void)msm_g2_device_resident(ctx, rb, sc.as<Fr>(), n, cfg, s, &st);
        else
          (void)msm_g1_device_resident(ctx, rb, sc.as<Fr>(), n, cfg, s, &st);
      });
      if (GpuTrace::enabled()) {  // one more run, its phases (CUZK_GPU_TRACE=1)
        GpuTrace trace(s);
        GpuMsmConfig traced = cfg;
        traced.trace = &trace;
        traced.trace_name = kG2 ? g2_accumulation_name(acc) : "g1";
        if constexpr (kG2)
          (void)msm_g2_device_resident(ctx, rb, sc.as<Fr>(), n, traced, s);
        else
          (void)msm_g1_device_resident(ctx, rb, sc.as<Fr>(), n, traced, s);
        CUZK_CUDA_CHECK(cudaStreamSynchronize(s));
        trace.print(stdout, op + " 2^" + std::to_string(lg));
      }
      report(kG2 ? op + " " + g2_accumulation_name(acc) : op,
             "2^" + std::to_string(lg) + " c=" + std::to_string(st.window_bits) +
                 " S=" + std::to_string(st.segment_pairs),
             ms, ms * 1e6 / static_cast<double>(n), "ns/pt",
             porep_mix ? 0.0 : (kG2 ? msm_g2_anchor(lg) : msm_g1_anchor(lg)));
    }
  }
}

void bench_batch_add(DeviceContext& ctx, unsigned lg) {
  cudaStream_t s = ctx.stream();
  const std::size_t n = std::size_t{1} << lg;
  ResidentBases rb = make_bases<G1Curve, DevFp>(ctx, n, s, upload_bases_g1);
  DeviceBuffer sc = ctx.alloc_or_throw(n * sizeof(Fr), "scalars");
  fill_mix_kernel<<<static_cast<unsigned>((n + 255) / 256), 256, 0, s>>>(sc.as<DevFr>(), n, 5, 500,
                                                                         500);
  CUZK_CUDA_CHECK_LAUNCH();
  GpuMsmStats st;
  const double ms =
      time_ms(3, [&] { (void)msm_g1_device_resident(ctx, rb, sc.as<Fr>(), n, {}, s, &st); });
  const double ns = ms * 1e6 / static_cast<double>(st.ones);
  report("batch_add", "2^" + std::to_string(lg) + " sel=" + std::to_string(st.ones), ms, ns,
         "ns/sel", st.ones * 0.51e-6);
}

/// The small-card path at 2^lg G1 (msm/streamed.cuh): one MSM with host scalars over bases
/// resident in the arena, against the same MSM with the bases streamed from the pinned host pool
/// through two slots of 2^slot_log points (and from plain host memory once); also the bare H2D copy
/// of the packed table from the pinned pool (the floor of the streamed upload: bytes / PCIe rate).
void bench_msm_stream(DeviceContext& ctx, unsigned lg) {
  cudaStream_t s = ctx.stream(0), copy = ctx.stream(1);
  const std::size_t n = std::size_t{1} << lg;
  const std::size_t distinct = std::min<std::size_t>(n, 1 << 16);
  const auto few = host_distinct_points<G1Curve>(distinct);
  std::vector<G1Affine> pts(n);
  for (std::size_t i = 0; i < n; ++i) pts[i] = few[i % distinct];
  std::mt19937_64 rng(lg * 13);
  std::vector<Fr> sc(n);
  for (auto& v : sc) v = Fr::from_limbs_reduce(Limbs<4>{rng(), rng(), rng(), rng() >> 2});
  const std::string sz = "2^" + std::to_string(lg);
  G1Xyzz ref;
  {
    ResidentBases rb = upload_bases_g1(ctx, pts, s);
    const double ms = time_ms(3, [&] { ref = msm_g1_device(ctx, rb, sc, {}, s); });
    report("msm_resident", sz + " host scalars", ms, ms * 1e6 / static_cast<double>(n), "ns/pt", 0);
  }
  StreamedBases sb = make_streamed_bases_g1(ctx, pts);
  std::printf("streamed table %.1f MiB, pinned %d\n", static_cast<double>(sb.bytes()) / (1 << 20),
              sb.is_pinned() ? 1 : 0);
  if (sb.is_pinned()) {
    auto dst = ctx.alloc(sb.bytes(), "copy probe");
    if (dst.ok()) {
      const double ms = time_ms(3, [&] {
        CUZK_CUDA_CHECK(
            cudaMemcpyAsync(dst->data(), sb.data(), sb.bytes(), cudaMemcpyHostToDevice, copy));
        CUZK_CUDA_CHECK(cudaStreamSynchronize(copy));
      });
      report("h2d_pinned", sz + " bases", ms, static_cast<double>(sb.bytes()) / ms / 1e6, "GB/s",
             0);
    }
  }
  for (unsigned slot_log : {lg - 2, lg - 3, lg - 4}) {
    StreamedMsmStats st;
    G1Xyzz got;
    const double ms = time_ms(3, [&] {
      got = msm_g1_streamed(ctx, sb, sc, {.slot_points = std::size_t{1} << slot_log}, s, copy, &st);
    });
    const bool eq = got.to_affine_vartime() == ref.to_affine_vartime();
    report("msm_streamed", sz + " slot 2^" + std::to_string(slot_log) + (eq ? "" : " WRONG"), ms,
           ms * 1e6 / static_cast<double>(n), "ns/pt", 0);
  }
  {
    StreamedBases plain;
    plain.count = sb.count;
    plain.plain.reset(new unsigned char[sb.bytes()]);
    std::memcpy(plain.plain.get(), sb.data(), sb.bytes());
    G1Xyzz got;
    const double ms =
        time_ms(1, [&] { got = msm_g1_streamed(ctx, plain, sc, {.slot_points = n / 4}, s, copy); });
    const bool eq = got.to_affine_vartime() == ref.to_affine_vartime();
    report("msm_streamed",
           sz + " plain host, slot 2^" + std::to_string(lg - 2) + (eq ? "" : " WRONG"), ms,
           ms * 1e6 / static_cast<double>(n), "ns/pt", 0);
  }
}

/// The GPU part of one partition at 2^lg constraints with the PoRep statistics (FORMATS.md, r1cs
/// bench circuit): H (7 NTTs), A over ~n (99.7 % density), B_G1 and B_G2 over 25.3 %, L over n,
/// H MSM over n − 1 (dense scalars, as the backend's); witness 72.6 % 0/1 values (split evenly
/// here), the rest random.
/// |window| > 0 forces every MSM's window width (0: the plan's, make_msm_plan); |h_variant|: the
/// H MSM's configuration (--partition-h; plain: as the others, with |window|). Then the same
/// partition through prove_partition_device (gpu/partition.cuh: the MSM terms of a bellperson
/// shape with one input, B_G2 beside and the side lane where the schedule puts them) once per
/// schedule in |overlaps| (rows part_dev_<mode>; CUZK_GPU_TRACE=1 prints each run's per-stream
/// spans).
void bench_partition(DeviceContext& ctx, NttTables& tables, unsigned lg, int window,
                     const HVariant& h_variant,
                     const std::vector<std::pair<std::string, PartitionOverlap>>& overlaps) {
  cudaStream_t s = ctx.stream();
  const std::size_t n = std::size_t{1} << lg;
  const std::size_t nb = n / 4 + n / 250;  // B density ≈ 25.3 %
  ResidentBases a = make_bases<G1Curve, DevFp>(ctx, n, s, upload_bases_g1);
  ResidentBases l = make_bases<G1Curve, DevFp>(ctx, n, s, upload_bases_g1);
  ResidentBases h = make_bases<G1Curve, DevFp>(ctx, n, s, upload_bases_g1);
  ResidentBases b1 = make_bases<G1Curve, DevFp>(ctx, nb, s, upload_bases_g1);
  ResidentBases b2 = make_bases<G2Curve, DevFp2>(ctx, nb, s, upload_bases_g2);
  DeviceBuffer w = ctx.alloc_or_throw(n * sizeof(Fr), "witness");
  fill_random(w.as<DevFr>(), n, 9, s);
  fill_mix_kernel<<<static_cast<unsigned>((n + 255) / 256), 256, 0, s>>>(w.as<DevFr>(), n, 11, 363,
                                                                         363);
  CUZK_CUDA_CHECK_LAUNCH();
  std::vector<std::uint64_t> bdens((n + 63) / 64, 0);
  std::mt19937_64 rng(3);
  for (std::size_t i = 0, k = 0; i < n && k < nb; ++i)
    if (rng() % 1000 < 253) {
      bdens[i / 64] |= std::uint64_t{1} << (i % 64);
      ++k;
    }
  // a, b, c and the scratch of the H step; b, c and the scratch go back to the arena once h is in
  // a, so at 2^27 the MSMs' working sets have 12 GiB more beside the 45 GiB of tables (an 80 GB
  // card holds the whole partition then).
  DeviceBuffer hb[4];
  const auto alloc_h_buffers = [&] {
    for (auto& b : hb)
      if (!b) b = ctx.alloc_or_throw(n * sizeof(Fr), "h buffers");
  };
  PrecomputedBases h_copies;
  GpuMsmConfig h_cfg{.window_bits = window};
  if (!h_variant.plain) {
    const double t0 = now_ms();
    h_copies = precompute_bases_g1(ctx, h, h_variant.c, h_variant.copies, s);
    report("part_h_precompute", "2^" + std::to_string(lg) + " " + h_variant.name(), now_ms() - t0,
           static_cast<double>(h_copies.points.size()) / 1e9, "GB", 0);
    h_cfg = {};
    h_cfg.precomputed = &h_copies;
    h_cfg.reduction_chunks = h_variant.chunks;
  }
  h_variant.apply_accumulation(h_cfg);
  h_cfg.dense_scalars = true;  // as the backend's partition takes H (gpu/partition.cu)
  double t_h = 0, t_a = 0, t_b1 = 0, t_b2 = 0, t_l = 0, t_hm = 0;
  const double total = time_ms(1, [&] {
    alloc_h_buffers();
    for (int i = 0; i < 3; ++i) fill_random(hb[i].as<DevFr>(), n, 20 + i, s);
    CUZK_CUDA_CHECK(cudaStreamSynchronize(s));
    double t0 = now_ms();
    compute_h_device(ctx, tables, hb[0].as<Fr>(), hb[1].as<Fr>(), hb[2].as<Fr>(), hb[3].as<Fr>(),
                     lg, s);
    t_h = now_ms() - t0;
    for (int i = 1; i < 4; ++i) hb[i].reset();
    t0 = now_ms();
    (void)msm_g1_device_resident(ctx, a, w.as<Fr>(), n, {.window_bits = window}, s);
    t_a = now_ms() - t0;
    t0 = now_ms();
    (void)msm_g1_device_resident(ctx, b1, w.as<Fr>(), n,
                                 {.density_bits = bdens, .window_bits = window}, s);
    t_b1 = now_ms() - t0;
    t0 = now_ms();
    (void)msm_g2_device_resident(ctx, b2, w.as<Fr>(), n,
                                 {.density_bits = bdens, .window_bits = window}, s);
    t_b2 = now_ms() - t0;
    t0 = now_ms();
    (void)msm_g1_device_resident(ctx, l, w.as<Fr>(), n, {.window_bits = window}, s);
    t_l = now_ms() - t0;
    t0 = now_ms();
    (void)msm_g1_device_resident(ctx, h, hb[0].as<Fr>(), n - 1, h_cfg, s);
    t_hm = now_ms() - t0;
  });
  const std::string sz = "2^" + std::to_string(lg);
  report("part_h", sz, t_h, t_h, "ms", 0);
  report("part_msm_a", sz, t_a, t_a, "ms", 0);
  report("part_msm_b_g1", sz, t_b1, t_b1, "ms", 0);
  report("part_msm_b_g2", sz, t_b2, t_b2, "ms", 0);
  report("part_msm_l", sz, t_l, t_l, "ms", 0);
  report(h_variant.plain ? std::string("part_msm_h") : "part_msm_h " + h_variant.name(), sz, t_hm,
         t_hm, "ms", 0);
  const double sum = t_h + t_a + t_b1 + t_b2 + t_l + t_hm;
  report("partition", sz, sum, total, "ms(wall)", lg == 27 ? 1800.0 : 0);
  if (overlaps.empty()) return;

  // prove_partition_device: the witness regenerated in the staged z each run (same seeds), a, b, c
  // random; B's density as above (ONE not in B: b_input empty of bits).
  for (auto& b : hb) b.reset();
  w.reset();
  std::vector<std::uint64_t> b_aux((n + 63) / 64, 0), b_input{0};
  for (std::size_t i = 1; i < n; ++i)
    if ((bdens[i / 64] >> (i % 64)) & 1) b_aux[(i - 1) / 64] |= std::uint64_t{1} << ((i - 1) % 64);
  const PartitionShape shape{.domain = n,
                             .witness = n,
                             .num_inputs = 1,
                             .convention = HConvention::bellperson,
                             .a_aux = {.bits = {}, .base_offset = 1},
                             .b_input = {.bits = b_input, .base_offset = 0},
                             .b_aux = {.bits = b_aux, .base_offset = 0}};
  const PartitionTables t{.a = &a, .b_g1 = &b1, .b_g2 = &b2, .l = &l, .h = &h};
  if (Status st = check_partition(shape, t); !st.ok()) {
    std::printf("gpu_bench: partition shape: %s\n", st.to_string().c_str());
    return;
  }
  auto must = [&](std::size_t bytes) { return ctx.alloc_or_throw(bytes, "staged partition"); };
  for (const auto& [name, mode] : overlaps) {
    PartitionTimings tm;
    PartitionSchedule plan;
    const double ms = time_ms(2, [&] {
      StagedPartition sp;
      for (int i = 0; i < 4; ++i) sp.buf[i] = must(n * sizeof(Fr));
      sp.z = must(n * sizeof(Fr));
      fill_random(sp.z.as<DevFr>(), n, 9, s);
      fill_mix_kernel<<<static_cast<unsigned>((n + 255) / 256), 256, 0, s>>>(sp.z.as<DevFr>(), n,
                                                                             11, 363, 363);
      CUZK_CUDA_CHECK_LAUNCH();
      for (int i = 0; i < 3; ++i) fill_random(sp.buf[i].as<DevFr>(), n, 20 + i, s);
      CUZK_CUDA_CHECK(cudaStreamSynchronize(s));
      (void)prove_partition_device(ctx, tables, shape, t, std::move(sp), &tm, mode, &plan);
    });
    static const char* const kSide[3] = {"none", "beside_h_step", "beside_h_msm"};
    std::printf(
        "partition_schedule,%s,%s,g2_beside=%d,side=%s,side_sums=%u,side_budget_mib=%zu,"
        "main_budget_mib=%zu,main_est_ms=%.1f,side_est_ms=%.1f,h=%.1f,a=%.1f,b_g1=%.1f,"
        "b_g2=%.1f,l=%.1f,h_msm=%.1f\n",
        sz.c_str(), name.c_str(), plan.g2_beside ? 1 : 0, kSide[static_cast<int>(plan.side)],
        plan.side_sums, plan.side_budget >> 20, plan.main_budget >> 20, plan.main_ms, plan.side_ms,
        tm.h * 1e3, tm.msm_a * 1e3, tm.msm_b1 * 1e3, tm.msm_b2 * 1e3, tm.msm_l * 1e3,
        tm.msm_h * 1e3);
    report("part_dev_" + name, sz, ms, ms, "ms(wall)", 0);
  }
}

}  // namespace
}  // namespace cuzk::gpu

int main(int argc, char** argv) {
  using namespace cuzk::gpu;
  using cuzk::PartitionOverlap;
  std::string ops = "field,ntt,h,msm_g1,msm_g2,batch_add,partition";
  unsigned stream_log = 24;
  unsigned max_log = 27, part_log = 27, min_log = 20;
  int window = 0;
  double arena_gib = 0;  // 0: the device context's default (90 % of free memory)
  std::string ntt_shapes = "10:1", ntt_logs, h_logs;
  std::vector<G2Accumulation> g2_variants{GpuMsmConfig{}.g2_accumulation};
  std::string h_variants, msm_logs, partition_h_spec;
  std::vector<std::pair<std::string, PartitionOverlap>> overlaps = {
      {"off", PartitionOverlap::off}, {"auto", PartitionOverlap::automatic}};
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--ops" && i + 1 < argc)
      ops = argv[++i];
    else if (a == "--group-chunks" && i + 1 < argc) {
      const std::string v = argv[++i];
      if (v != "plan" && v != "scaled") {
        std::fprintf(stderr, "gpu_bench: --group-chunks takes plan or scaled, not '%s'\n",
                     v.c_str());
        return 2;
      }
      g_scale_group_chunks = v == "scaled";
    } else if (a == "--segment-pairs" && i + 1 < argc)
      g_segment_pairs = std::stol(argv[++i]);
    else if (a == "--arena-gib" && i + 1 < argc)
      arena_gib = std::stod(argv[++i]);
    else if (a == "--ntt-shapes" && i + 1 < argc)
      ntt_shapes = argv[++i];
    else if (a == "--ntt-logs" && i + 1 < argc)
      ntt_logs = argv[++i];
    else if (a == "--h-logs" && i + 1 < argc)
      h_logs = argv[++i];
    else if (a == "--max-log" && i + 1 < argc)
      max_log = static_cast<unsigned>(std::stoul(argv[++i]));
    else if (a == "--min-log" && i + 1 < argc)
      min_log = static_cast<unsigned>(std::stoul(argv[++i]));
    else if (a == "--partition-log" && i + 1 < argc)
      part_log = static_cast<unsigned>(std::stoul(argv[++i]));
    else if (a == "--h-variants" && i + 1 < argc)
      h_variants = argv[++i];
    else if (a == "--partition-h" && i + 1 < argc)
      partition_h_spec = argv[++i];
    else if (a == "--msm-logs" && i + 1 < argc)
      msm_logs = argv[++i];
    else if (a == "--window" && i + 1 < argc)
      window = std::stoi(argv[++i]);
    else if (a == "--g2-acc" && i + 1 < argc) {
      g2_variants.clear();
      for (const std::string& name : cuzk::bench::comma_items(argv[++i])) {
        if (name == "one_thread")
          g2_variants.push_back(G2Accumulation::one_thread);
        else if (name == "lane_pair")
          g2_variants.push_back(G2Accumulation::lane_pair);
        else if (name == "lane_pair_fused")
          g2_variants.push_back(G2Accumulation::lane_pair_fused);
        else if (name == "lane_pair_rolled")
          g2_variants.push_back(G2Accumulation::lane_pair_rolled);
        else if (name == "lane_pair_rolled2_ahead")
          g2_variants.push_back(G2Accumulation::lane_pair_rolled2_ahead);
        else {
          std::fprintf(stderr, "gpu_bench: unknown --g2-acc kernel '%s'\n", name.c_str());
          return 2;
        }
      }
      if (g2_variants.empty()) {
        std::fprintf(stderr, "gpu_bench: --g2-acc needs at least one kernel\n");
        return 2;
      }
    } else if (a == "--overlap" && i + 1 < argc) {
      overlaps.clear();
      const auto names = cuzk::bench::comma_items(argv[++i]);
      if (names.empty()) {
        std::fprintf(stderr, "gpu_bench: --overlap needs at least one schedule (or none)\n");
        return 2;
      }
      for (const std::string& name : names) {
        if (auto mode = cuzk::parse_partition_overlap(name); mode.ok())
          overlaps.emplace_back(name, *mode);
        else if (name != "none") {
          std::fprintf(stderr, "gpu_bench: unknown --overlap schedule '%s'\n", name.c_str());
          return 2;
        }
      }
    } else if (a == "--stream-log" && i + 1 < argc)
      stream_log = static_cast<unsigned>(std::stoul(argv[++i]));
    else if (a == "--quick")
      max_log = 20, part_log = 20, min_log = 16;
    else {
      std::fprintf(
          stderr,
          "usage: gpu_bench [--quick] [--ops list] [--min-log K] [--max-log K] "
          "[--partition-log K] [--window c] [--h-variants plain,c:k:r] "
          "[--msm-logs 24,27] [--partition-h c:k:r] [--arena-gib G] [--group-chunks plan|scaled] "
          "[--segment-pairs P] [--g2-acc one_thread,lane_pair,lane_pair_fused,lane_pair_rolled,"
          "lane_pair_rolled2_ahead] "
          "[--ntt-shapes legacy,10:1,11:2] [--ntt-logs 20,24] [--h-logs 24,27] "
          "[--overlap off,auto,h_step,h_msm|none]\n");
      return 2;
    }
  }
  std::vector<HVariant> h_list;
  HVariant partition_h;
  try {
    h_list = parse_h_variants(h_variants);
    if (!partition_h_spec.empty()) {
      const auto one = parse_h_variants(partition_h_spec);
      if (one.size() != 1) throw std::invalid_argument("--partition-h takes one variant");
      partition_h = one[0];
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpu_bench: %s\n", e.what());
    return 2;
  }
  auto has = [&](const char* op) {
    return ("," + ops + ",").find("," + std::string(op) + ",") != std::string::npos;
  };
  DeviceContextOptions co;
  co.streams = 4;  // as CudaBackend: stream 3 is a partition's side lane
  co.arena_bytes = static_cast<std::size_t>(arena_gib * static_cast<double>(1u << 30));
  if (has("msm_stream"))
    co.pinned_host_bytes = (std::size_t{96} << stream_log) + (std::size_t{1} << 20);
  auto ctx_r = DeviceContext::create(co);
  if (!ctx_r.ok()) {
    std::printf("gpu_bench: %s\n", ctx_r.status().to_string().c_str());
    return 0;
  }
  auto& ctx = **ctx_r;
  std::printf("device: %s, %d SMs, arena %.1f GiB\n", ctx.device_name().c_str(), ctx.sm_count(),
              static_cast<double>(ctx.arena_bytes()) / (1 << 30));
  try {
    NttTables tables(ctx);
    if (has("field")) bench_field(ctx);
    const auto shapes = parse_shapes(ntt_shapes);
    std::vector<unsigned> nlogs = parse_logs(ntt_logs), hlogs = parse_logs(h_logs);
    if (nlogs.empty())
      for (unsigned lg = min_log; lg <= max_log; ++lg) nlogs.push_back(lg);
    if (hlogs.empty()) hlogs.push_back(max_log);
    if (has("ntt")) bench_ntt(ctx, tables, nlogs, shapes);
    if (has("h"))
      for (unsigned lg : hlogs)
        for (const auto& sh : shapes) bench_h(ctx, tables, lg, sh);
    tables.clear();
    std::vector<unsigned> g1_logs, g2_logs;
    for (unsigned lg = min_log; lg <= max_log; lg += 2) g1_logs.push_back(lg);
    if (max_log >= 25 && (max_log - min_log) % 2) g1_logs.push_back(max_log);
    for (unsigned lg = min_log; lg <= std::min(max_log, 25u); lg += 2) g2_logs.push_back(lg);
    if (max_log >= 25) g2_logs.push_back(25);
    g2_logs.erase(std::unique(g2_logs.begin(), g2_logs.end()), g2_logs.end());
    if (!msm_logs.empty()) {
      g1_logs = parse_logs(msm_logs);
      if (g1_logs.empty()) throw std::invalid_argument("--msm-logs needs at least one size");
    }
    if (has("msm_g1")) {
      if (h_list.empty())
        bench_msm<false>(ctx, g1_logs, window, g2_variants);
      else
        bench_msm_g1_variants(ctx, g1_logs, h_list);
    }
    if (has("msm_g2")) bench_msm<true>(ctx, g2_logs, window, g2_variants);
    if (has("msm_g2_mix")) bench_msm<true>(ctx, g2_logs, window, g2_variants, true);
    if (has("batch_add")) bench_batch_add(ctx, std::min(max_log, 26u));
    if (has("partition")) bench_partition(ctx, tables, part_log, window, partition_h, overlaps);
    if (has("msm_stream")) bench_msm_stream(ctx, stream_log);
  } catch (const CudaError& e) {
    std::printf("gpu_bench: device failure: %s\n", e.what());
  } catch (const std::exception& e) {
    std::printf("gpu_bench: %s\n", e.what());
    return 2;
  }
  std::printf("\n%-16s %-18s %10s %12s %-9s %10s %7s\n", "op", "size", "ms", "metric", "unit",
              "anchor_ms", "ratio");
  for (const auto& r : cuzk::gpu::g_rows)
    std::printf("%-16s %-18s %10.3f %12.4g %-9s %10.3f %7.3f\n", r.op.c_str(), r.size.c_str(), r.ms,
                r.metric, r.unit.c_str(), r.anchor, r.anchor > 0 ? r.ms / r.anchor : 0.0);
  return 0;
}
