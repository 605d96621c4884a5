#include "cuzk/msm/pippenger.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include "cuzk/ec/g1.hpp"
#include "cuzk/ec/g2.hpp"
#include "cuzk/ec/xyzz.hpp"
#include "cuzk/msm/affine_buckets.hpp"
#include "cuzk/msm/batch_schedule.hpp"
#include "cuzk/msm/digits.hpp"
#include "cuzk/msm/endomorphism.hpp"
#include "cuzk/msm/ifma_buckets.hpp"
#include "cuzk/msm/scratch.hpp"

namespace cuzk {

namespace {
bool ifma_default() {
  const char* env = std::getenv("CUZK_MSM_IFMA");
  return ifma::ifma_kernel_available() && !(env != nullptr && env[0] == '0');
}
bool g_msm_ifma = ifma_default();
}  // namespace

bool msm_ifma_enabled() { return g_msm_ifma; }
bool set_msm_ifma_enabled(bool on) {
  const bool prev = g_msm_ifma;
  g_msm_ifma = on && ifma::ifma_kernel_available();
  return prev;
}

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
    // The top window's live buckets (top_live_buckets below).
    const unsigned top_bits = scalar_bits - static_cast<unsigned>(k - 1) * c;
    const std::size_t top_live =
        std::min<std::size_t>((std::size_t{1} << std::min(top_bits, c)) + 1, full);
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

// The terms of an MSM as Pippenger reads them: term i is (scalar(i), ±point(i)).
// PlainTerms: the caller's scalars and bases (through |indices| when not empty).
template <class C>
struct PlainTerms {
  std::span<const Affine<C>> bases;
  std::span<const Limbs<4>> scalars;
  std::span<const std::uint32_t> indices;

  std::size_t size() const { return scalars.size(); }
  const Limbs<4>& scalar(std::size_t i) const { return scalars[i]; }
  const Affine<C>& point(std::size_t i) const { return bases[indices.empty() ? i : indices[i]]; }
  const void* point_address(std::size_t i) const { return &point(i); }
  bool negated(std::size_t) const { return false; }
};

// SplitTerms: D·n terms after an endomorphism split; term t·n + i pairs scalars[t·n + i] with the
// caller's base i (t = 0, through |indices|) or mapped[(t − 1)·n + i]; |neg| (empty: none) flips a
// term's sign.
template <class C>
struct SplitTerms {
  std::span<const Affine<C>> bases;
  std::span<const std::uint32_t> indices;
  std::span<const Affine<C>> mapped;
  std::span<const Limbs<4>> scalars;
  std::span<const std::uint8_t> neg;
  std::size_t n = 0;

  std::size_t size() const { return scalars.size(); }
  const Limbs<4>& scalar(std::size_t i) const { return scalars[i]; }
  const Affine<C>& point(std::size_t i) const {
    return i < n ? bases[indices.empty() ? i : indices[i]] : mapped[i - n];
  }
  const void* point_address(std::size_t i) const { return &point(i); }
  bool negated(std::size_t i) const { return !neg.empty() && neg[i] != 0; }
};

// The terms of |inner| (points in IFMA R' form) back in Fp's form, point by point: for the XYZZ
// windows of a run whose tables exist only in R' form.
template <class C, class T>
struct FromRpTerms {
  const T& inner;

  std::size_t size() const { return inner.size(); }
  const Limbs<4>& scalar(std::size_t i) const { return inner.scalar(i); }
  Affine<C> point(std::size_t i) const { return ifma::from_rp(inner.point(i)); }
  const void* point_address(std::size_t i) const { return inner.point_address(i); }
  bool negated(std::size_t i) const { return inner.negated(i); }
};

// Digit |j| of a canonical scalar: the recoding k + H is redone per window (a 4-limb addition, a few
// ns against a bucket addition), so no recoded copy of the scalars (n·32 bytes) is kept.
inline std::int32_t recoded_digit(const SignedWindowPlan& plan, const Limbs<4>& k, unsigned j) {
  std::uint64_t kr[4];
  msm_recode(plan, k.data(), kr);
  return msm_signed_digit(plan, kr, j);
}

// Σ over points [begin, end) of window |j|: XYZZ bucket accumulation then running-sum reduction.
template <class C, class T>
Xyzz<C> window_sum(const SignedWindowPlan& plan, unsigned j, const T& terms, std::size_t begin,
                   std::size_t end, std::vector<Xyzz<C>>& buckets) {
  const std::uint32_t nb = plan.buckets();
  buckets.assign(nb, Xyzz<C>::identity());
  auto digit = [&](std::size_t i) { return recoded_digit(plan, terms.scalar(i), j); };
  // One point of lookahead: prefetch the next bucket and base while this addition runs.
  std::int32_t d_next = begin < end ? digit(begin) : 0;
  for (std::size_t i = begin; i < end; ++i) {
    const std::int32_t d = d_next;
    if (i + 1 < end) {
      d_next = digit(i + 1);
      if (d_next != 0) {
        const std::uint32_t nx = static_cast<std::uint32_t>(d_next < 0 ? -d_next : d_next) - 1;
        __builtin_prefetch(&buckets[nx]);
        __builtin_prefetch(terms.point_address(i + 1));
      }
    }
    if (d == 0) continue;
    const Affine<C>& q = terms.point(i);
    Xyzz<C>& bucket = buckets[static_cast<std::uint32_t>(d < 0 ? -d : d) - 1];
    if ((d > 0) != terms.negated(i)) {
      bucket.add_mixed(q);
    } else {
      bucket.sub_mixed(q);
    }
  }
  // Σ_b (b + 1)·B_b = Σ_b (B_b + B_{b+1} + … ) by running sums from the top bucket down.
  Xyzz<C> running = Xyzz<C>::identity();
  Xyzz<C> sum = Xyzz<C>::identity();
  for (std::uint32_t b = nb; b-- > 0;) {
    running.add(buckets[b]);
    sum.add(running);
  }
  return sum;
}

// Buckets the top window can reach for scalars below 2^|bits|: digits ≤ 2^(bits − (K−1)c) + 1.
inline std::size_t top_live_buckets(const SignedWindowPlan& plan, unsigned bits) {
  const unsigned top_bits = bits - (plan.windows - 1) * plan.c;
  return std::min<std::size_t>((std::size_t{1} << std::min(top_bits, plan.c)) + 1, plan.buckets());
}

// Points are taken in blocks whose digits are computed first, so the bucket of the point
// kPrefetchAhead places later can be prefetched (a bucket array of 2^15 entries lives in L3/DRAM).
inline constexpr std::size_t kDigitBlock = 256;
inline constexpr std::size_t kPrefetchAhead = 8;

template <class C, class T, class Buckets>
Xyzz<C> window_sum_affine(const SignedWindowPlan& plan, unsigned bits, unsigned j, const T& terms,
                          std::size_t begin, std::size_t end, Buckets& buckets) {
  // The top window uses only the buckets up to 2^(bits − (K−1)c) + 1: a batch of a quarter of the
  // live buckets keeps collisions (queue, XYZZ overflow) as rare as in the full windows.
  std::size_t batch = batch_affine_batch_size(plan.c);
  if (j + 1 == plan.windows)
    batch = std::max<std::size_t>(16, std::min(batch, top_live_buckets(plan, bits) / 4));
  buckets.reset(batch);
  std::int32_t digits[kDigitBlock];
  for (std::size_t blk = begin; blk < end; blk += kDigitBlock) {
    const std::size_t len = std::min(kDigitBlock, end - blk);
    for (std::size_t t = 0; t < len; ++t) digits[t] = recoded_digit(plan, terms.scalar(blk + t), j);
    for (std::size_t t = 0; t < std::min(len, kPrefetchAhead); ++t) {
      if (digits[t] != 0)
        buckets.prefetch(static_cast<std::uint32_t>(digits[t] < 0 ? -digits[t] : digits[t]) - 1);
    }
    for (std::size_t t = 0; t < len; ++t) {
      if (t + kPrefetchAhead < len) {
        const std::int32_t dn = digits[t + kPrefetchAhead];
        if (dn != 0) {
          buckets.prefetch(static_cast<std::uint32_t>(dn < 0 ? -dn : dn) - 1);
          __builtin_prefetch(terms.point_address(blk + t + kPrefetchAhead));
        }
      }
      const std::int32_t d = digits[t];
      if (d == 0) continue;
      const std::size_t i = blk + t;
      const Affine<C>& q = terms.point(i);
      if (q.infinity) continue;
      const std::uint32_t b = static_cast<std::uint32_t>(d < 0 ? -d : d) - 1;
      if ((d > 0) != terms.negated(i)) {
        buckets.add(b, q);
      } else {
        buckets.add(b, -q);
      }
    }
  }
  buckets.finish();
  return buckets.reduce();
}

// Pippenger over |terms| whose scalars are below 2^|bits|, in the given shape. |rp_terms| (or null):
// the same terms with the points in IFMA R' form, accumulated by ifma::IfmaBuckets.
template <class C, class T, class R = T>
Jacobian<C> pippenger_run(const T& terms, unsigned bits, PippengerShape shape, ThreadPool& pool,
                          const R* rp_terms = nullptr) {
  const std::size_t n = terms.size();
  const bool affine = shape.accumulation == PippengerAccumulation::batch_affine;
  const SignedWindowPlan plan = SignedWindowPlan::make(shape.window_bits, bits);
  const std::size_t k = plan.windows;
  const std::size_t p = std::max<std::size_t>(1, std::min<std::size_t>(shape.chunks, n));

  std::vector<Xyzz<C>> partial(k * p, Xyzz<C>::identity());
  // One bucket array per range of tasks, reused window after window.
  pool.parallel_for(k * p, [&](std::size_t tb, std::size_t te) {
    std::unique_ptr<AffineBuckets<C>> affine_buckets;
#if CUZK_FF_IFMA
    std::unique_ptr<ifma::IfmaBuckets<C>> ifma_buckets;
#endif
    std::vector<Xyzz<C>> buckets;
    if (affine) {
#if CUZK_FF_IFMA
      if (rp_terms != nullptr) {
        ifma_buckets =
            std::make_unique<ifma::IfmaBuckets<C>>(plan.buckets(), batch_affine_batch_size(plan.c));
      }
      if (!ifma_buckets)
#endif
        affine_buckets =
            std::make_unique<AffineBuckets<C>>(plan.buckets(), batch_affine_batch_size(plan.c));
    }
    for (std::size_t t = tb; t < te; ++t) {
      const unsigned j = static_cast<unsigned>(t / p);
      const std::size_t chunk = t % p;
      const std::size_t begin = n * chunk / p, end = n * (chunk + 1) / p;
      // A top window with few live buckets (batches under 128) is cheaper in XYZZ; in IFMA lanes
      // (an addition a fifth to a third of an XYZZ one) only under 16.
      const bool small_top =
          j + 1 == k && top_live_buckets(plan, bits) / 4 < (rp_terms != nullptr ? 16u : 128u);
      if (affine && !small_top) {
#if CUZK_FF_IFMA
        if (ifma_buckets) {
          partial[t] = window_sum_affine<C>(plan, bits, j, *rp_terms, begin, end, *ifma_buckets);
          continue;
        }
#endif
        partial[t] = window_sum_affine<C>(plan, bits, j, terms, begin, end, *affine_buckets);
      } else {
        partial[t] = window_sum<C>(plan, j, terms, begin, end, buckets);
      }
    }
  });

  // Horner over the windows, top first: acc = 2^c·acc + W_j.
  Jacobian<C> acc = Jacobian<C>::identity();
  for (std::size_t j = k; j-- > 0;) {
    if (j + 1 < k) {
      for (unsigned s = 0; s < plan.c; ++s) acc.dbl();
    }
    for (std::size_t q = 0; q < p; ++q) acc.add(partial[j * p + q].to_jacobian());
  }
  return acc;
}

// The shape for |n| terms of |bits|-bit scalars, with the caller's overrides applied.
// The IFMA shape model's prices (PippengerCosts) per curve, fit to one-thread window sweeps of the
// endomorphism-split MSM at 2^16 and 2^18 (docs/perf/msm.md Version 5): G1 addition 0.106 µs,
// inversion 3.3 µs, reduction 0.10 µs per bucket against a 0.292 µs XYZZ mixed addition; G2 0.23,
// 3.6, 0.24 against 1.17 µs.
template <class C>
const PippengerCosts* ifma_costs() {
  static constexpr PippengerCosts kG1{.affine_add = 0.36, .inversion = 11.3, .per_bucket = 0.34};
  static constexpr PippengerCosts kG2{.affine_add = 0.20, .inversion = 3.1, .per_bucket = 0.20};
  if (!msm_ifma_enabled()) return nullptr;
  return std::is_same_v<C, G2Curve> ? &kG2 : &kG1;
}

template <class C>
PippengerShape choose_shape(std::size_t n, unsigned bits, std::size_t threads,
                            const PippengerOptions& options) {
  PippengerShape shape = pippenger_shape(n, threads, sizeof(Xyzz<C>), bits, ifma_costs<C>());
  if (options.window_bits != 0) shape.window_bits = std::clamp(options.window_bits, 1u, 24u);
  if (options.chunks != 0) shape.chunks = options.chunks;
  if (options.window_bits != 0) {
    shape.accumulation = shape.window_bits >= kBatchAffineMinWindow
                             ? PippengerAccumulation::batch_affine
                             : PippengerAccumulation::xyzz;
  }
  if (options.accumulation != PippengerAccumulation::automatic)
    shape.accumulation = options.accumulation;
  return shape;
}

// The endomorphism split of each curve: D terms per scalar of |bits| bits (endomorphism.hpp).
template <class C>
struct Endo;
template <>
struct Endo<G1Curve> {
  static constexpr std::size_t kDim = 2;
  static constexpr unsigned kBits = kGlvHalfBits;
  static constexpr Fp kBeta2 = G1Curve::kBeta * G1Curve::kBeta;  // σ²(x, y) = (β²x, y) = [λ]P
  // Term i: (m1, ±P); term n + i: (m2, ±σ²(P)), the sign of the second folded into the table.
  static void split(const Limbs<4>& k, const G1Affine& p, std::size_t i, std::size_t n,
                    Limbs<4>* sc, std::uint8_t* neg, G1Affine* mapped) {
    const GlvHalves h = glv_split_g1(k);
    sc[i] = {h.m1[0], h.m1[1], 0, 0};
    sc[n + i] = {h.m2[0], h.m2[1], 0, 0};
    neg[i] = h.neg1 ? 1 : 0;
    neg[n + i] = 0;
    mapped[i] = {p.x * kBeta2, h.neg2 ? -p.y : p.y, p.infinity};
  }
};
template <>
struct Endo<G2Curve> {
  static constexpr std::size_t kDim = 4;
  static constexpr unsigned kBits = kGlsDigitBits;
  // Terms t·n + i: (a_t, P), (a_1, −ψ(P)), (a_2, ψ²(P)), (a_3, −ψ³(P)); no signs.
  static void split(const Limbs<4>& k, const G2Affine& p, std::size_t i, std::size_t n,
                    Limbs<4>* sc, std::uint8_t*, G2Affine* mapped) {
    std::uint64_t a[4];
    gls_split_g2(k, a);
    for (std::size_t t = 0; t < 4; ++t) sc[t * n + i] = {a[t], 0, 0, 0};
    const G2Affine p1 = psi(p);
    const G2Affine p2{p.x.mul_fp(G2Curve::kPsi2X), -p.y, p.infinity};
    mapped[i] = -p1;
    mapped[n + i] = p2;
    mapped[2 * n + i] = -psi(p2);
  }
};

}  // namespace

template <class C>
Jacobian<C> msm_pippenger_unchecked(std::span<const Affine<C>> bases,
                                    std::span<const Limbs<4>> scalars,
                                    std::span<const std::uint32_t> indices, ThreadPool& pool,
                                    const PippengerOptions& options) {
  const std::size_t n = scalars.size();
  if (n == 0) return Jacobian<C>::identity();
  const PlainTerms<C> plain{bases, scalars, indices};
  const PippengerShape shape = choose_shape<C>(n, kMsmScalarBits, pool.size(), options);

  using E = Endo<C>;
  const std::size_t dn = E::kDim * n;
  bool endo = options.endomorphism == MsmEndomorphism::on;
  if (options.endomorphism == MsmEndomorphism::automatic) {
    // (With IFMA the caller's bases are copied too, in R' form: dn points instead of dn − n.)
    const std::size_t bytes =
        dn * (sizeof(Limbs<4>) + 1) + (msm_ifma_enabled() ? dn : dn - n) * sizeof(Affine<C>);
    // The split pays when the model's cost (fewer windows, more points) is lower by a margin for
    // the decomposition and the mapped table: about one mixed addition per scalar at scalar prices,
    // a third of one with IFMA (a few Fp products per point against the cheaper lanes' windows;
    // G1 2^16 one thread: GLV c = 16 2.13 µs/pt against 2.55 plain, docs/perf/msm.md Version 5).
    const PippengerCosts* costs = ifma_costs<C>();
    const PippengerShape split_shape =
        pippenger_shape(dn, pool.size(), sizeof(Xyzz<C>), E::kBits, costs);
    const double margin = costs != nullptr ? 0.3 : 1.0;
    endo = bytes <= kEndomorphismMaxBytes && options.window_bits == 0 &&
           split_shape.cost + margin * static_cast<double>(n) < shape.cost;
  }
  // Batch-affine in IFMA lanes: the bases in R' form, converted once per call.
  constexpr bool kIfmaCurve = CUZK_FF_IFMA != 0;
  const bool use_ifma = kIfmaCurve && msm_ifma_enabled();
  auto convert = [&](std::span<const Affine<C>> in, std::span<const std::uint32_t> idx,
                     std::size_t count, ScratchArray<Affine<C>>& out) {
    out = ScratchArray<Affine<C>>(count);
    pool.parallel_for(
        count,
        [&](std::size_t b, std::size_t e) {
          if constexpr (kIfmaCurve) {
            for (std::size_t i = b; i < e; ++i) out[i] = ifma::to_rp(in[idx.empty() ? i : idx[i]]);
          }
        },
        1024);
  };
  if (!endo) {
    if (!use_ifma || shape.accumulation != PippengerAccumulation::batch_affine) {
      return pippenger_run<C>(plain, kMsmScalarBits, shape, pool);
    }
    ScratchArray<Affine<C>> rp;
    convert(bases, indices, n, rp);
    const PlainTerms<C> rp_terms{rp.span(), scalars, {}};
    return pippenger_run<C>(plain, kMsmScalarBits, shape, pool, &rp_terms);
  }

  ScratchArray<Limbs<4>> sc(dn);
  ScratchArray<std::uint8_t> neg(E::kDim == 2 ? dn : 0);
  const PippengerShape split_shape = choose_shape<C>(dn, E::kBits, pool.size(), options);
  if (use_ifma && split_shape.accumulation == PippengerAccumulation::batch_affine) {
    // The split applied to the bases in R' form gives the mapped points in R' form (σ², ψ are
    // multiplications by constants and conjugations): no Fp-form table of them is made.
    ScratchArray<Affine<C>> rp_first(n), rp_mapped(dn - n);
    pool.parallel_for(
        n,
        [&](std::size_t b, std::size_t e) {
          if constexpr (kIfmaCurve) {
            for (std::size_t i = b; i < e; ++i) {
              rp_first[i] = ifma::to_rp(plain.point(i));
              E::split(scalars[i], rp_first[i], i, n, sc.data(), neg.data(), rp_mapped.data());
            }
          }
        },
        1024);
    const SplitTerms<C> rp_terms{rp_first.span(), {}, rp_mapped.span(), sc.span(), neg.span(), n};
    const FromRpTerms<C, SplitTerms<C>> terms{rp_terms};
    return pippenger_run<C>(terms, E::kBits, split_shape, pool, &rp_terms);
  }
  ScratchArray<Affine<C>> mapped(dn - n);
  pool.parallel_for(
      n,
      [&](std::size_t b, std::size_t e) {
        for (std::size_t i = b; i < e; ++i)
          E::split(scalars[i], plain.point(i), i, n, sc.data(), neg.data(), mapped.data());
      },
      1024);
  const SplitTerms<C> terms{bases, indices, mapped.span(), sc.span(), neg.span(), n};
  return pippenger_run<C>(terms, E::kBits, split_shape, pool);
}

template Jacobian<G1Curve> msm_pippenger_unchecked<G1Curve>(std::span<const G1Affine>,
                                                            std::span<const Limbs<4>>,
                                                            std::span<const std::uint32_t>,
                                                            ThreadPool&, const PippengerOptions&);
template Jacobian<G2Curve> msm_pippenger_unchecked<G2Curve>(std::span<const G2Affine>,
                                                            std::span<const Limbs<4>>,
                                                            std::span<const std::uint32_t>,
                                                            ThreadPool&, const PippengerOptions&);

}  // namespace cuzk
