// See compact_msm_split.hpp.
#include "cuzk/backend/compact_msm_split.hpp"

#include <algorithm>
#include <numeric>
#include <string>

namespace cuzk {

namespace {

// The count of scalars taking part below each word (the device's exclusive prefix of per-word
// popcounts); empty without a density.
std::vector<std::uint32_t> density_prefix(std::span<const std::uint64_t> bits, std::size_t n) {
  std::vector<std::uint32_t> prefix;
  if (bits.empty()) return prefix;
  const std::size_t words = (n + 63) / 64;
  prefix.resize(words);
  std::uint32_t acc = 0;
  for (std::size_t w = 0; w < words; ++w) {
    prefix[w] = acc;
    acc += density_popcount(density_word(bits.data(), n, w));
  }
  return prefix;
}

Status check_bases(std::size_t base_offset, std::size_t selected) {
  if (base_offset + selected > (std::uint64_t{1} << 32))
    return Status(Errc::out_of_range, "MSM base indices reach " +
                                          std::to_string(base_offset + selected) +
                                          ", past the 32-bit lists");
  return {};
}

}  // namespace

void MsmScalarSplit::sort() {
  std::sort(ones.begin(), ones.end());
  std::vector<std::size_t> order(tail_bases.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(),
            [&](std::size_t x, std::size_t y) { return tail_bases[x] < tail_bases[y]; });
  std::vector<std::uint32_t> bases(order.size());
  std::vector<Fr> scalars(order.size());
  for (std::size_t k = 0; k < order.size(); ++k) {
    bases[k] = tail_bases[order[k]];
    scalars[k] = tail_scalars[order[k]];
  }
  tail_bases = std::move(bases);
  tail_scalars = std::move(scalars);
}

Result<MsmScalarSplit> msm_split_from_compact(const CompactWitness& w, std::uint64_t offset,
                                              std::size_t count, const MsmDensity& density,
                                              bool bit_split) {
  const std::uint64_t nv = w.num_variables();
  if (offset > nv || nv - offset < count)
    return Status(Errc::out_of_range, "MSM over variables [" + std::to_string(offset) + ", " +
                                          std::to_string(offset + count) + ") of a witness of " +
                                          std::to_string(nv));
  CUZK_RETURN_IF_ERROR(w.validate());
  CUZK_RETURN_IF_ERROR(check_density_bits(count, density.bits));
  const std::size_t selected = density_selected_count(density.bits, count);
  CUZK_RETURN_IF_ERROR(check_bases(density.base_offset, selected));
  const std::uint64_t* dbits = density.bits.empty() ? nullptr : density.bits.data();
  const std::vector<std::uint32_t> prefix = density_prefix(density.bits, count);

  MsmScalarSplit out;
  // The ones (or, without the split, the tail's 1-values) word by word.
  const std::size_t words = (count + 63) / 64;
  for (std::size_t wd = 0; wd < words; ++wd) {
    const CompactSplitWord s = compact_split_word(w.bits.data(), offset, count, dbits, wd);
    const std::size_t rank_before = dbits != nullptr ? prefix[wd] : wd * 64;
    for (std::uint64_t m = s.ones; m != 0; m &= m - 1) {
      const auto base = static_cast<std::uint32_t>(compact_split_base(
          density.base_offset, rank_before, s.take, static_cast<unsigned>(std::countr_zero(m))));
      if (bit_split) {
        out.ones.push_back(base);
      } else {
        out.tail_bases.push_back(base);
        out.tail_scalars.push_back(Fr::one());
      }
    }
  }
  // The tail: each run value whose variable lies in the term and takes part.
  const auto runs = static_cast<std::uint32_t>(w.num_runs());
  for (std::uint64_t j = 0; j < w.values.size(); ++j) {
    const std::uint32_t r = compact_run_of_value(w.run_value.data(), runs, j);
    const std::uint64_t v = w.run_first[r] + (j - w.run_value[r]);
    if (v < offset || v - offset >= count) continue;
    const std::size_t i = v - offset;
    if (!density_takes_part(dbits, i)) continue;
    out.tail_bases.push_back(
        static_cast<std::uint32_t>(density.base_offset + density_rank(dbits, prefix.data(), i)));
    out.tail_scalars.push_back(w.values[j]);
  }
  out.zeros = selected - (bit_split ? out.ones.size() : 0) - out.tail_bases.size();
  return out;
}

Result<MsmScalarSplit> msm_split_from_scalars(std::span<const Fr> scalars,
                                              const MsmDensity& density, bool bit_split) {
  const std::size_t n = scalars.size();
  CUZK_RETURN_IF_ERROR(check_density_bits(n, density.bits));
  CUZK_RETURN_IF_ERROR(check_bases(density.base_offset, density_selected_count(density.bits, n)));
  const std::uint64_t* dbits = density.bits.empty() ? nullptr : density.bits.data();
  const std::vector<std::uint32_t> prefix = density_prefix(density.bits, n);
  MsmScalarSplit out;
  for (std::size_t i = 0; i < n; ++i) {
    if (!density_takes_part(dbits, i)) continue;
    const auto base =
        static_cast<std::uint32_t>(density.base_offset + density_rank(dbits, prefix.data(), i));
    const Fr& s = scalars[i];
    if (s.is_zero()) {
      ++out.zeros;
    } else if (bit_split && s.is_one()) {
      out.ones.push_back(base);
    } else {
      out.tail_bases.push_back(base);
      out.tail_scalars.push_back(s);
    }
  }
  return out;
}

}  // namespace cuzk
