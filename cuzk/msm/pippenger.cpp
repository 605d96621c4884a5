#include "cuzk/msm/pippenger.hpp"

#include <algorithm>
#include <vector>

#include "cuzk/ec/g1.hpp"
#include "cuzk/ec/g2.hpp"
#include "cuzk/ec/xyzz.hpp"
#include "cuzk/msm/digits.hpp"

namespace cuzk {

PippengerShape pippenger_shape(std::size_t n, std::size_t threads, std::size_t xyzz_bytes) {
  threads = std::max<std::size_t>(1, threads);
  PippengerShape best;
  double best_cost = -1;
  for (unsigned c = 1; c <= 22; ++c) {
    if ((std::size_t{1} << (c - 1)) * xyzz_bytes > (std::size_t{48} << 20)) break;
    const std::size_t k = msm_window_count(c);
    for (unsigned p = 1; p <= 16; ++p) {
      if (p > 1 && n / p < (std::size_t{1} << c)) break;  // chunks smaller than the buckets waste work
      const double rounds = static_cast<double>((k * p + threads - 1) / threads);
      const double cost = rounds * (static_cast<double>(n) / p + 2.7 * static_cast<double>(std::size_t{1} << c));
      if (best_cost < 0 || cost < best_cost) {
        best_cost = cost;
        best = {c, p};
      }
    }
  }
  return best;
}

namespace {

// Σ over points [begin, end) of window |j|: bucket accumulation then running-sum reduction.
template <class C>
Xyzz<C> window_sum(const SignedWindowPlan& plan, unsigned j, std::span<const Affine<C>> bases,
                   std::span<const Limbs<4>> recoded, std::span<const std::uint32_t> indices, std::size_t begin,
                   std::size_t end, std::vector<Xyzz<C>>& buckets) {
  const std::uint32_t nb = plan.buckets();
  buckets.assign(nb, Xyzz<C>::identity());
  const bool direct = indices.empty();
  auto digit = [&](std::size_t i) { return msm_signed_digit(plan, recoded[i].data(), j); };
  // One point of lookahead: prefetch the next bucket and base while this addition runs.
  std::int32_t d_next = begin < end ? digit(begin) : 0;
  for (std::size_t i = begin; i < end; ++i) {
    const std::int32_t d = d_next;
    if (i + 1 < end) {
      d_next = digit(i + 1);
      if (d_next != 0) {
        const std::uint32_t nx = static_cast<std::uint32_t>(d_next < 0 ? -d_next : d_next) - 1;
        __builtin_prefetch(&buckets[nx]);
        __builtin_prefetch(&bases[direct ? i + 1 : indices[i + 1]]);
      }
    }
    if (d == 0) continue;
    const Affine<C>& q = bases[direct ? i : indices[i]];
    if (d > 0) {
      buckets[static_cast<std::uint32_t>(d) - 1].add_mixed(q);
    } else {
      buckets[static_cast<std::uint32_t>(-d) - 1].sub_mixed(q);
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

}  // namespace

template <class C>
Jacobian<C> msm_pippenger_unchecked(std::span<const Affine<C>> bases, std::span<const Limbs<4>> scalars,
                                    std::span<const std::uint32_t> indices, ThreadPool& pool,
                                    const PippengerOptions& options) {
  const std::size_t n = scalars.size();
  if (n == 0) return Jacobian<C>::identity();
  PippengerShape shape = pippenger_shape(n, pool.size(), sizeof(Xyzz<C>));
  if (options.window_bits != 0) shape.window_bits = std::clamp(options.window_bits, 1u, 24u);
  if (options.chunks != 0) shape.chunks = options.chunks;
  const SignedWindowPlan plan = SignedWindowPlan::make(shape.window_bits);
  const std::size_t k = plan.windows;
  const std::size_t p = std::max<std::size_t>(1, std::min<std::size_t>(shape.chunks, n));

  std::vector<Limbs<4>> recoded(n);
  pool.parallel_for(
      n,
      [&](std::size_t b, std::size_t e) {
        for (std::size_t i = b; i < e; ++i) msm_recode(plan, scalars[i].data(), recoded[i].data());
      },
      4096);

  std::vector<Xyzz<C>> partial(k * p, Xyzz<C>::identity());
  pool.parallel_for(k * p, [&](std::size_t t) {
    const unsigned j = static_cast<unsigned>(t / p);
    const std::size_t chunk = t % p;
    const std::size_t begin = n * chunk / p, end = n * (chunk + 1) / p;
    std::vector<Xyzz<C>> buckets;
    partial[t] = window_sum<C>(plan, j, bases, recoded, indices, begin, end, buckets);
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

template Jacobian<G1Curve> msm_pippenger_unchecked<G1Curve>(std::span<const G1Affine>, std::span<const Limbs<4>>,
                                                            std::span<const std::uint32_t>, ThreadPool&,
                                                            const PippengerOptions&);
template Jacobian<G2Curve> msm_pippenger_unchecked<G2Curve>(std::span<const G2Affine>, std::span<const Limbs<4>>,
                                                            std::span<const std::uint32_t>, ThreadPool&,
                                                            const PippengerOptions&);

}  // namespace cuzk
