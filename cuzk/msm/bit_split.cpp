#include "cuzk/msm/bit_split.hpp"

#include <algorithm>

#include "cuzk/ec/g1.hpp"
#include "cuzk/ec/g2.hpp"
#include "cuzk/ec/xyzz.hpp"

namespace cuzk {

template <class C>
Jacobian<C> sum_bases_unchecked(std::span<const Affine<C>> bases, std::span<const std::uint32_t> indices,
                                ThreadPool& pool) {
  const std::size_t n = indices.size();
  if (n == 0) return Jacobian<C>::identity();
  const std::size_t chunks = std::min<std::size_t>(n, pool.size() * 4);
  std::vector<Xyzz<C>> partial(chunks, Xyzz<C>::identity());
  pool.parallel_for(chunks, [&](std::size_t t) {
    const std::size_t b = n * t / chunks, e = n * (t + 1) / chunks;
    Xyzz<C> acc = Xyzz<C>::identity();
    for (std::size_t i = b; i < e; ++i) {
      if (i + 4 < e) __builtin_prefetch(&bases[indices[i + 4]]);
      acc.add_mixed(bases[indices[i]]);
    }
    partial[t] = acc;
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

template Jacobian<G1Curve> sum_bases_unchecked<G1Curve>(std::span<const G1Affine>, std::span<const std::uint32_t>,
                                                        ThreadPool&);
template Jacobian<G2Curve> sum_bases_unchecked<G2Curve>(std::span<const G2Affine>, std::span<const std::uint32_t>,
                                                        ThreadPool&);

}  // namespace cuzk
