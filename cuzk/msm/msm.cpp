#include "cuzk/msm/msm.hpp"

#include <algorithm>
#include <bit>
#include <string>
#include <vector>

#include "cuzk/ec/g1.hpp"
#include "cuzk/ec/g2.hpp"
#include "cuzk/msm/bit_split.hpp"
#include "cuzk/msm/scratch.hpp"

namespace cuzk {

bool msm_split_pays(std::size_t selected, std::size_t zeros_and_ones) {
  return selected > 0 && zeros_and_ones * 16 >= selected;
}

namespace {

// The bits of |bits| below |n|, counted over words [wb, we).
std::size_t popcount_words(std::span<const std::uint64_t> bits, std::size_t n, std::size_t wb,
                           std::size_t we) {
  std::size_t count = 0;
  for (std::size_t w = wb; w < we; ++w) {
    std::uint64_t word = bits[w];
    if ((w + 1) * 64 > n)
      word &= (n % 64 == 0) ? ~std::uint64_t{0} : (std::uint64_t{1} << (n % 64)) - 1;
    count += static_cast<std::size_t>(std::popcount(word));
  }
  return count;
}

}  // namespace

std::size_t msm_selected_count(std::span<const std::uint64_t> bits, std::size_t n) {
  if (bits.empty()) return n;
  return popcount_words(bits, n, 0, std::min(bits.size(), (n + 63) / 64));
}

template <class C>
Result<Jacobian<C>> msm(std::span<const Affine<C>> bases, std::span<const Fr> scalars,
                        ThreadPool& pool, const MsmConfig& config, MsmReport* report) {
  const std::size_t n = scalars.size();
  const auto bits = config.density_bits;
  const bool dense = bits.empty();
  if (!dense && bits.size() * 64 < n) {
    return Status(Errc::size_mismatch, "msm: density bitmap has " +
                                           std::to_string(bits.size() * 64) + " bits for " +
                                           std::to_string(n) + " scalars");
  }
  // Words of the bitmap in chunks of 256 (16384 scalars) so the compaction runs in parallel.
  constexpr std::size_t kWordsPerChunk = 256;
  const std::size_t words = (n + 63) / 64;
  const std::size_t chunks = (words + kWordsPerChunk - 1) / kWordsPerChunk;
  std::vector<std::size_t> chunk_start(chunks + 1, 0);
  std::size_t selected = n;
  if (!dense) {
    pool.parallel_for(chunks, [&](std::size_t c) {
      chunk_start[c + 1] =
          popcount_words(bits, n, c * kWordsPerChunk, std::min(words, (c + 1) * kWordsPerChunk));
    });
    for (std::size_t c = 0; c < chunks; ++c) chunk_start[c + 1] += chunk_start[c];
    selected = chunk_start[chunks];
  }
  if (config.base_offset > bases.size() || bases.size() - config.base_offset < selected) {
    return Status(Errc::size_mismatch, "msm: " + std::to_string(selected) +
                                           " scalars take part from base " +
                                           std::to_string(config.base_offset) + " but there are " +
                                           std::to_string(bases.size()) + " bases");
  }
  const auto table = bases.subspan(config.base_offset);
  if (selected > (std::size_t{1} << 32))
    return Status(Errc::invalid_argument, "msm: more than 2^32 bases");
  if (report) *report = MsmReport{.selected = selected};
  if (selected == 0) return Jacobian<C>::identity();

  // Canonical scalars of the selected terms, compacted: the k-th pairs with table[k].
  ScratchArray<Limbs<4>> canon(selected);
  if (dense) {
    pool.parallel_for(
        n,
        [&](std::size_t b, std::size_t e) {
          for (std::size_t i = b; i < e; ++i) canon[i] = scalars[i].to_canonical();
        },
        4096);
  } else {
    pool.parallel_for(chunks, [&](std::size_t c) {
      std::size_t pos = chunk_start[c];
      const std::size_t wb = c * kWordsPerChunk, we = std::min(words, (c + 1) * kWordsPerChunk);
      for (std::size_t w = wb; w < we; ++w) {
        std::uint64_t word = bits[w];
        while (word != 0) {
          const std::size_t i = w * 64 + static_cast<std::size_t>(std::countr_zero(word));
          word &= word - 1;
          if (i >= n) break;
          canon[pos] = scalars[i].to_canonical();
          ++pos;
        }
      }
    });
  }

  bool split = config.split == MsmSplit::always;
  BitSplitParts parts;
  if (config.split != MsmSplit::never) {
    parts = bit_split(canon.span(), {});
    if (config.split == MsmSplit::automatic)
      split = msm_split_pays(selected, parts.zeros + parts.ones.size());
    if (report) {
      report->zeros = parts.zeros;
      report->ones = parts.ones.size();
      report->tail = parts.tail_scalars.size();
    }
  }
  if (report) report->split_used = split;
  if (!split) return msm_pippenger_unchecked<C>(table, canon.span(), {}, pool, config.pippenger);
  canon = ScratchArray<Limbs<4>>();
  Jacobian<C> acc = sum_bases_unchecked<C>(table, parts.ones, pool);
  acc += msm_pippenger_unchecked<C>(table, parts.tail_scalars, parts.tail_indices, pool,
                                    config.pippenger);
  return acc;
}

template Result<Jacobian<G1Curve>> msm<G1Curve>(std::span<const G1Affine>, std::span<const Fr>,
                                                ThreadPool&, const MsmConfig&, MsmReport*);
template Result<Jacobian<G2Curve>> msm<G2Curve>(std::span<const G2Affine>, std::span<const Fr>,
                                                ThreadPool&, const MsmConfig&, MsmReport*);

}  // namespace cuzk
