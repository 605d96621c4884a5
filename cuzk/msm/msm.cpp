#include "cuzk/msm/msm.hpp"

#include <algorithm>
#include <bit>
#include <string>
#include <vector>

#include "cuzk/ec/g1.hpp"
#include "cuzk/ec/g2.hpp"
#include "cuzk/msm/bit_split.hpp"
#include "cuzk/msm/density.hpp"
#include "cuzk/msm/scratch.hpp"

namespace cuzk {

std::size_t msm_selected_count(std::span<const std::uint64_t> bits, std::size_t n) {
  return density_selected_count(bits, n);
}

template <class C>
Result<Jacobian<C>> msm(std::span<const Affine<C>> bases, std::span<const Fr> scalars,
                        ThreadPool& pool, const MsmConfig& config, MsmReport* report) {
  const std::size_t n = scalars.size();
  const auto bits = config.density_bits;
  const bool dense = bits.empty();
  CUZK_RETURN_IF_ERROR(check_density_bits(n, bits));
  // Words of the bitmap in chunks of 256 (16384 scalars) so the compaction runs in parallel.
  constexpr std::size_t kWordsPerChunk = 256;
  const std::size_t words = (n + 63) / 64;
  const std::size_t chunks = (words + kWordsPerChunk - 1) / kWordsPerChunk;
  std::vector<std::size_t> chunk_start(chunks + 1, 0);
  std::size_t selected = n;
  if (!dense) {
    pool.parallel_for(chunks, [&](std::size_t c) {
      chunk_start[c + 1] = density_count_words(bits, n, c * kWordsPerChunk,
                                               std::min(words, (c + 1) * kWordsPerChunk));
    });
    for (std::size_t c = 0; c < chunks; ++c) chunk_start[c + 1] += chunk_start[c];
    selected = chunk_start[chunks];
  }
  CUZK_RETURN_IF_ERROR(check_density_bases(selected, config.base_offset, bases.size()));
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
        std::uint64_t word = density_word(bits.data(), n, w);
        while (word != 0) {
          const std::size_t i = w * 64 + static_cast<std::size_t>(std::countr_zero(word));
          word &= word - 1;
          canon[pos] = scalars[i].to_canonical();
          ++pos;
        }
      }
    });
  }

  // The CPU's split rule (msm_plan.hpp): counted here, then applied.
  const MsmSplitRule rule = cpu_msm_prices_now().cpu.split;
  bool split = config.split == MsmSplit::always;
  BitSplitParts parts;
  if (config.split != MsmSplit::never) {
    parts = bit_split(canon.span(), {});
    split = msm_split_used(rule, config.split, selected, parts.zeros + parts.ones.size());
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
