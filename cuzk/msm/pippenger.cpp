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

MsmPrices cpu_msm_prices_now() { return cpu_msm_prices(CUZK_FF_IFMA != 0 && msm_ifma_enabled()); }

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
    batch = std::max<std::size_t>(16, std::min(batch, msm_top_live_buckets(plan.c, bits) / 4));
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

// Pippenger over |terms| as |mp| says (its scalars below 2^mp.scalar_bits). |rp_terms| (null
// unless mp.ifma): the same terms with the points in IFMA R' form, accumulated by ifma::IfmaBuckets.
template <class C, class T, class R = T>
Jacobian<C> pippenger_run(const T& terms, const MsmPlan& mp, ThreadPool& pool,
                          const R* rp_terms = nullptr) {
  const std::size_t n = terms.size();
  const unsigned bits = mp.scalar_bits;
  const bool affine = mp.accumulation == PippengerAccumulation::batch_affine;
  const SignedWindowPlan plan = SignedWindowPlan::make(mp.window_bits, bits);
  const std::size_t k = plan.windows;
  const std::size_t p = std::max<std::size_t>(1, std::min<std::size_t>(mp.chunks, n));

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
      const bool small_top = j + 1 == k && mp.top_window_xyzz;
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

// The endomorphism split of each curve: D terms per scalar of |bits| bits (endomorphism.hpp).
template <class C>
struct Endo;
template <>
struct Endo<G1Curve> {
  static constexpr std::size_t kDim = 2;
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
  const MsmPlan mp =
      make_msm_plan(n, pool.size(), std::is_same_v<C, G2Curve> ? MsmCurve::g2 : MsmCurve::g1,
                    cpu_msm_prices_now(), options);
  using E = Endo<C>;
  const std::size_t dn = E::kDim * n;
  // Batch-affine in IFMA lanes: the bases in R' form, converted once per call.
  constexpr bool kIfmaCurve = CUZK_FF_IFMA != 0;
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
  if (!mp.endomorphism) {
    if (!mp.ifma) return pippenger_run<C>(plain, mp, pool);
    ScratchArray<Affine<C>> rp;
    convert(bases, indices, n, rp);
    const PlainTerms<C> rp_terms{rp.span(), scalars, {}};
    return pippenger_run<C>(plain, mp, pool, &rp_terms);
  }

  ScratchArray<Limbs<4>> sc(dn);
  ScratchArray<std::uint8_t> neg(E::kDim == 2 ? dn : 0);
  if (mp.ifma) {
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
    return pippenger_run<C>(terms, mp, pool, &rp_terms);
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
  return pippenger_run<C>(terms, mp, pool);
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
