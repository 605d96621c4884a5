#include "cuzk/msm/bit_split.hpp"

#include <algorithm>

#include "cuzk/ec/g1.hpp"
#include "cuzk/ec/g2.hpp"
#include "cuzk/ec/xyzz.hpp"
#include "cuzk/msm/affine_buckets.hpp"
#include "cuzk/msm/ifma_buckets.hpp"
#include "cuzk/msm/pippenger.hpp"

namespace cuzk {

namespace {

// The batched sum: the k-th non-identity base of a chunk goes to bucket k mod kSumBuckets and a batch
// holds kSumBuckets additions, so a batch meets each bucket once (no queue) and shares one inversion
// (G1 IFMA: 0.106 µs per addition plus 3.3 µs / 256 for the inversion, against 0.292 µs for an XYZZ
// mixed addition; G2 0.23 + 3.6 / 256 against 1.17 µs; docs/perf/msm.md Versions 5 and 6). The
// buckets are then summed unweighted: kSumBuckets mixed additions per chunk, so chunks are kept at
// kMinBatchedChunk points or more, and shorter lists take the XYZZ chain.
constexpr std::uint32_t kSumBuckets = 256;
constexpr std::size_t kMinBatchedChunk = 4096;

template <class C, class Buckets>
Xyzz<C> sum_batched(std::span<const Affine<C>> bases, std::span<const std::uint32_t> indices,
                    Buckets& buckets) {
  std::uint32_t k = 0;
  for (std::size_t i = 0; i < indices.size(); ++i) {
    if (i + 4 < indices.size()) __builtin_prefetch(&bases[indices[i + 4]]);
    const Affine<C>& p = bases[indices[i]];
    if (p.infinity) continue;
    buckets.add(k, Buckets::bucket_form(p));
    if (++k == kSumBuckets) k = 0;
  }
  buckets.finish();
  return buckets.total();
}

template <class C>
Xyzz<C> sum_chunk(std::span<const Affine<C>> bases, std::span<const std::uint32_t> indices) {
  if (indices.size() >= kMinBatchedChunk) {
#if CUZK_FF_IFMA
    if (msm_ifma_enabled()) {
      ifma::IfmaBuckets<C> buckets(kSumBuckets, kSumBuckets);
      return sum_batched<C>(bases, indices, buckets);
    }
#endif
    AffineBuckets<C> buckets(kSumBuckets, kSumBuckets);
    return sum_batched<C>(bases, indices, buckets);
  }
  Xyzz<C> acc = Xyzz<C>::identity();
  for (std::size_t i = 0; i < indices.size(); ++i) {
    if (i + 4 < indices.size()) __builtin_prefetch(&bases[indices[i + 4]]);
    acc.add_mixed(bases[indices[i]]);
  }
  return acc;
}

}  // namespace

template <class C>
Jacobian<C> sum_bases_unchecked(std::span<const Affine<C>> bases,
                                std::span<const std::uint32_t> indices, ThreadPool& pool) {
  const std::size_t n = indices.size();
  if (n == 0) return Jacobian<C>::identity();
  // Four chunks per thread for balance, but none shorter than kMinBatchedChunk while n allows.
  const std::size_t chunks = std::clamp<std::size_t>(n / kMinBatchedChunk, 1, pool.size() * 4);
  std::vector<Xyzz<C>> partial(chunks, Xyzz<C>::identity());
  pool.parallel_for(chunks, [&](std::size_t t) {
    const std::size_t b = n * t / chunks, e = n * (t + 1) / chunks;
    partial[t] = sum_chunk<C>(bases, indices.subspan(b, e - b));
  });
  Xyzz<C> total = Xyzz<C>::identity();
  for (const auto& s : partial) total.add(s);
  return total.to_jacobian();
}

BitSplitParts bit_split(std::span<const Limbs<4>> scalars, std::span<const std::uint32_t> indices) {
  BitSplitParts parts;
  const bool direct = indices.empty();
  std::size_t ones = 0, zeros = 0;
  for (const auto& k : scalars) {
    const bool high_zero = (k[1] | k[2] | k[3]) == 0;
    zeros += high_zero && k[0] == 0;
    ones += high_zero && k[0] == 1;
  }
  parts.zeros = zeros;
  parts.ones.reserve(ones);
  parts.tail_scalars.reserve(scalars.size() - ones - zeros);
  parts.tail_indices.reserve(scalars.size() - ones - zeros);
  for (std::size_t i = 0; i < scalars.size(); ++i) {
    const auto& k = scalars[i];
    const std::uint32_t idx = direct ? static_cast<std::uint32_t>(i) : indices[i];
    if ((k[1] | k[2] | k[3]) == 0 && k[0] <= 1) {
      if (k[0] == 1) parts.ones.push_back(idx);
      continue;
    }
    parts.tail_scalars.push_back(k);
    parts.tail_indices.push_back(idx);
  }
  return parts;
}

template Jacobian<G1Curve> sum_bases_unchecked<G1Curve>(std::span<const G1Affine>,
                                                        std::span<const std::uint32_t>,
                                                        ThreadPool&);
template Jacobian<G2Curve> sum_bases_unchecked<G2Curve>(std::span<const G2Affine>,
                                                        std::span<const std::uint32_t>,
                                                        ThreadPool&);

}  // namespace cuzk
