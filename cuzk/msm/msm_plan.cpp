#include "cuzk/msm/msm_plan.hpp"

#include <algorithm>
#include <utility>

#include "cuzk/ec/g1.hpp"
#include "cuzk/ec/g2.hpp"
#include "cuzk/ec/xyzz.hpp"
#include "cuzk/ff/limbs.hpp"
#include "cuzk/msm/endomorphism.hpp"

namespace cuzk {

PippengerShape pippenger_shape(std::size_t n, std::size_t threads, std::size_t xyzz_bytes,
                               unsigned scalar_bits, const PippengerCosts* ifma) {
  threads = std::max<std::size_t>(1, threads);
  const PippengerCosts scalar_costs{};
  PippengerShape best;
  double best_cost = -1;
  for (unsigned c = 1; c <= 22; ++c) {
    const bool affine = c >= kBatchAffineMinWindow;
    const PippengerCosts& costs = ifma != nullptr && affine ? *ifma : scalar_costs;
    // Affine buckets are two coordinates and a state byte: about half an XYZZ point.
    const std::size_t bucket_bytes = affine ? xyzz_bytes / 2 + 8 : xyzz_bytes;
    // IFMA: up to kBucketBytesCapIfma per thread, and kBucketBytesTotalIfma over all threads.
    const std::size_t cap =
        ifma != nullptr && affine
            ? std::max(kBucketBytesCap,
                       std::min(kBucketBytesCapIfma, kBucketBytesTotalIfma / threads))
            : (threads == 1 ? kBucketBytesCapOneThread : kBucketBytesCap);
    if ((std::size_t{1} << (c - 1)) * bucket_bytes > cap) break;
    const std::size_t k = msm_window_count(c, scalar_bits);
    const std::size_t full = std::size_t{1} << (c - 1);
    const std::size_t top_live = msm_top_live_buckets(c, scalar_bits);
    // Per point and per bucket of one window with |live| buckets (window_sum_affine's batch rule).
    auto window = [&](std::size_t live, bool top) {
      if (!affine) return std::pair{1.0, 2.7};
      std::size_t batch = batch_affine_batch_size(c);
      if (top) batch = std::max<std::size_t>(16, std::min(batch, live / 4));
      double per_point = costs.affine_add + costs.inversion / static_cast<double>(batch);
      if (ifma != nullptr && live / 4 < 16)
        per_point = 1.0;  // the IFMA path runs a tiny top window in XYZZ
      // Below 1024 buckets the reduction is the scalar running sum.
      const double per_bucket =
          ifma != nullptr && full >= 1024 ? costs.per_bucket : scalar_costs.per_bucket;
      return std::pair{per_point, per_bucket};
    };
    const auto [pp_full, pb_full] = window(full, false);
    const auto [pp_top, pb_top] = ifma != nullptr ? window(top_live, true) : window(full, false);
    const double kd = static_cast<double>(k);
    for (unsigned p = 1; p <= 16; ++p) {
      if (p > 1 && n / p < (std::size_t{1} << c))
        break;  // chunks smaller than the buckets waste work
      const double rounds = static_cast<double>((k * p + threads - 1) / threads);
      const double chunk = static_cast<double>(n) / p;
      // The mean task: K − 1 full windows and the top one, each over a chunk of n/p points.
      const double task =
          ((kd - 1) * (pp_full * chunk + pb_full * static_cast<double>(full)) + pp_top * chunk +
           pb_top * static_cast<double>(ifma != nullptr ? top_live : full)) /
          kd;
      const double cost = rounds * task;
      if (best_cost < 0 || cost < best_cost) {
        best_cost = cost;
        best = {c, p, affine ? PippengerAccumulation::batch_affine : PippengerAccumulation::xyzz,
                cost};
      }
    }
  }
  return best;
}

namespace {

// The CPU executor (msm/pippenger.cpp): the cost model's shape for the plain run and for the
// endomorphism split, the split taken when it saves more than the margin per scalar.
MsmPlan cpu_plan(std::size_t n, std::size_t threads, MsmCurve curve, const CpuMsmPrices& prices,
                 const PippengerOptions& overrides) {
  const bool g2 = curve == MsmCurve::g2;
  const std::size_t xyzz_bytes = g2 ? sizeof(Xyzz<G2Curve>) : sizeof(Xyzz<G1Curve>);
  const std::size_t affine_bytes = g2 ? sizeof(G2Affine) : sizeof(G1Affine);
  const PippengerCosts* costs = prices.ifma ? (g2 ? &prices.ifma_g2 : &prices.ifma_g1) : nullptr;
  // The model's shape with the caller's overrides applied (the model's cost kept).
  auto choose = [&](std::size_t count, unsigned bits) {
    PippengerShape shape = pippenger_shape(count, threads, xyzz_bytes, bits, costs);
    if (overrides.window_bits != 0) shape.window_bits = std::clamp(overrides.window_bits, 1u, 24u);
    if (overrides.chunks != 0) shape.chunks = overrides.chunks;
    if (overrides.window_bits != 0) {
      shape.accumulation = shape.window_bits >= kBatchAffineMinWindow
                               ? PippengerAccumulation::batch_affine
                               : PippengerAccumulation::xyzz;
    }
    if (overrides.accumulation != PippengerAccumulation::automatic)
      shape.accumulation = overrides.accumulation;
    return shape;
  };

  // The endomorphism: D terms per scalar of |endo_bits| bits (endomorphism.hpp).
  const std::size_t dim = g2 ? 4 : 2;
  const unsigned endo_bits = g2 ? kGlsDigitBits : kGlvHalfBits;
  const std::size_t dn = dim * n;
  PippengerShape shape = choose(n, kMsmScalarBits);
  bool endo = overrides.endomorphism == MsmEndomorphism::on;
  if (overrides.endomorphism == MsmEndomorphism::automatic) {
    // Split scalars, signs and mapped bases (with IFMA the caller's bases are copied too, in R'
    // form: dn points instead of dn − n).
    const std::size_t bytes =
        dn * (sizeof(Limbs<4>) + 1) + (prices.ifma ? dn : dn - n) * affine_bytes;
    const PippengerShape split_shape = pippenger_shape(dn, threads, xyzz_bytes, endo_bits, costs);
    const double margin =
        costs != nullptr ? prices.endomorphism_margin_ifma : prices.endomorphism_margin;
    endo = bytes <= prices.endomorphism_max_bytes && overrides.window_bits == 0 &&
           split_shape.cost + margin * static_cast<double>(n) < shape.cost;
  }
  if (endo) shape = choose(dn, endo_bits);

  MsmPlan plan{.executor = MsmExecutor::cpu, .curve = curve, .n = n, .split = prices.split};
  plan.endomorphism = endo;
  plan.terms = endo ? dn : n;
  plan.scalar_bits = endo ? endo_bits : kMsmScalarBits;
  plan.window_bits = shape.window_bits;
  plan.windows = msm_window_count(shape.window_bits, plan.scalar_bits);
  plan.chunks = static_cast<unsigned>(
      std::max<std::size_t>(1, std::min<std::size_t>(shape.chunks, plan.terms)));
  plan.accumulation = shape.accumulation;
  const bool affine = shape.accumulation == PippengerAccumulation::batch_affine;
  plan.ifma = prices.ifma && affine;
  // A top window with few live buckets (batches under 128) is cheaper in XYZZ; in IFMA lanes (an
  // addition a fifth to a third of an XYZZ one) only under 16.
  plan.top_window_xyzz = affine && msm_top_live_buckets(plan.window_bits, plan.scalar_bits) / 4 <
                                       (plan.ifma ? 16u : 128u);
  plan.cost = shape.cost;
  return plan;
}

// The CUDA executor (gpu/msm/pippenger_impl.cuh): measured window thresholds, no endomorphism,
// XYZZ buckets over sorted (bucket, point) pairs.
MsmPlan cuda_plan(std::size_t n, MsmCurve curve, const CudaMsmPrices& prices,
                  const PippengerOptions& overrides) {
  unsigned c = prices.wide_window;
  if (n < prices.wide_from)
    c = prices.narrow_window;
  else if (curve == MsmCurve::g1 && n >= prices.g1_widest_from)
    c = prices.g1_widest_window;
  else if (curve == MsmCurve::g2 && n >= prices.g2_widest_from)
    c = prices.g2_widest_window;
  if (overrides.window_bits != 0) c = overrides.window_bits;
  MsmPlan plan{.executor = MsmExecutor::cuda, .curve = curve, .n = n, .split = prices.split};
  plan.terms = n;
  plan.window_bits = c;
  plan.windows = msm_window_count(c);
  plan.chunks = 1;
  plan.accumulation = PippengerAccumulation::xyzz;
  plan.reduction_chunks = std::min<unsigned>(1u << (c - 1), prices.max_reduction_chunks);
  return plan;
}

}  // namespace

MsmPlan make_msm_plan(std::size_t n, std::size_t threads, MsmCurve curve, const MsmPrices& prices,
                      const PippengerOptions& overrides) {
  return prices.executor == MsmExecutor::cuda ? cuda_plan(n, curve, prices.cuda, overrides)
                                              : cpu_plan(n, threads, curve, prices.cpu, overrides);
}

}  // namespace cuzk
