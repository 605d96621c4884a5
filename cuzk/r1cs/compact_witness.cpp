#include "cuzk/r1cs/compact_witness.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <string>

#include "cuzk/r1cs/matrices.hpp"

namespace cuzk {
namespace {

// Variables per converter task: 2^20 (16384 bit words), so a 2^27 witness makes 128 tasks.
constexpr std::size_t kChunkWords = std::size_t{1} << 14;

Status run_error(std::size_t r, const std::string& what) {
  return Status(Errc::bad_encoding, "compact witness run " + std::to_string(r) + ": " + what);
}

}  // namespace

Status CompactWitness::validate() const {
  const std::uint64_t n = num_variables();
  if (n > SparseMatrix::kMaxColumns)
    return Status(Errc::out_of_range,
                  "compact witness has " + std::to_string(n) + " variables, more than 2^30");
  if (bits.size() != (n + 63) / 64)
    return Status(Errc::size_mismatch, "compact witness has " + std::to_string(bits.size()) +
                                           " bit words for " + std::to_string(n) + " variables");
  if (n % 64 != 0 && (bits.back() >> (n % 64)) != 0)
    return Status(Errc::bad_encoding, "compact witness sets bits past its last variable");
  if (run_value.size() != run_first.size() + 1 || run_value.front() != 0 ||
      run_value.back() != values.size())
    return Status(Errc::size_mismatch, "compact witness: " + std::to_string(run_value.size()) +
                                           " run value offsets for " +
                                           std::to_string(run_first.size()) +
                                           " runs, not runs + 1 from 0 to the " +
                                           std::to_string(values.size()) + " values");
  std::uint64_t end = 0;  // one past the previous run
  for (std::size_t r = 0; r < run_first.size(); ++r) {
    if (run_value[r + 1] <= run_value[r]) return run_error(r, "empty or offsets decreasing");
    const std::uint64_t first = run_first[r], len = run_value[r + 1] - run_value[r];
    if (r > 0 && first <= end)
      return run_error(r, "starts at variable " + std::to_string(first) +
                              ", not after the previous run's end " + std::to_string(end) +
                              " (runs must be ordered, disjoint and not adjacent)");
    if (first + len > n)
      return run_error(r, "variables [" + std::to_string(first) + ", " +
                              std::to_string(first + len) + ") past the witness's " +
                              std::to_string(n));
    for (std::uint64_t i = first; i < first + len; ++i)
      if ((bits[i / 64] >> (i % 64)) & 1)
        return run_error(r, "bit of variable " + std::to_string(i) + " set inside the run");
    end = first + len;
  }
  for (std::size_t j = 0; j < values.size(); ++j) {
    if (limbs_cmp(values[j].l, Fr::kModulus) >= 0)
      return Status(Errc::bad_encoding,
                    "compact witness value " + std::to_string(j) + " is not below r");
    if (values[j].is_zero() || values[j].is_one())
      return Status(Errc::bad_encoding,
                    "compact witness value " + std::to_string(j) + " is 0 or 1 (a bit)");
  }
  return {};
}

Result<CompactWitness> compact_witness_from_z(ThreadPool& pool, std::span<const Fr> z,
                                              std::uint64_t num_inputs) {
  const std::size_t n = z.size();
  if (num_inputs > n)
    return Status(Errc::invalid_argument, "witness has " + std::to_string(n) +
                                              " values, fewer than its " +
                                              std::to_string(num_inputs) + " inputs");
  if (n > SparseMatrix::kMaxColumns)
    return Status(Errc::invalid_argument,
                  "witness has " + std::to_string(n) + " values, more than 2^30");
  CompactWitness w;
  w.num_inputs = num_inputs;
  w.num_aux = n - num_inputs;
  const std::size_t words = (n + 63) / 64;
  w.bits.assign(words, 0);
  // Per chunk of kChunkWords words: its bits in place, its runs and values apart; then joined in
  // order, a run touching the previous chunk's last run merged into it.
  struct Part {
    std::vector<std::uint32_t> first, len;
    std::vector<Fr> values;
  };
  const std::size_t chunks = (words + kChunkWords - 1) / kChunkWords;
  std::vector<Part> parts(chunks);
  const Limbs<4> one = Fr::one().l;
  pool.parallel_for(chunks, [&](std::size_t c) {
    Part& p = parts[c];
    const std::size_t k0 = c * kChunkWords, k1 = std::min(words, k0 + kChunkWords);
    for (std::size_t k = k0; k < k1; ++k) {
      // 64 values at a time, branch-free: which are 1 (the word of bits), which are neither.
      const std::size_t i0 = k * 64, m = std::min<std::size_t>(64, n - i0);
      const Fr* x = z.data() + i0;
      std::uint64_t ones = 0, others = 0;
      for (std::size_t b = 0; b < m; ++b) {
        const Limbs<4>& l = x[b].l;
        const bool zero = (l[0] | l[1] | l[2] | l[3]) == 0;
        const bool is_one =
            ((l[0] ^ one[0]) | (l[1] ^ one[1]) | (l[2] ^ one[2]) | (l[3] ^ one[3])) == 0;
        ones |= std::uint64_t{is_one} << b;
        others |= std::uint64_t{!zero && !is_one} << b;
      }
      w.bits[k] = ones;
      for (; others != 0; others &= others - 1) {
        const std::size_t i = i0 + static_cast<std::size_t>(std::countr_zero(others));
        if (!p.first.empty() && p.first.back() + p.len.back() == i) {
          ++p.len.back();
        } else {
          p.first.push_back(static_cast<std::uint32_t>(i));
          p.len.push_back(1);
        }
        p.values.push_back(z[i]);
      }
    }
  });
  std::size_t runs = 0, values = 0;
  for (const Part& p : parts) runs += p.first.size(), values += p.values.size();
  w.run_first.reserve(runs);
  w.run_value.reserve(runs + 1);
  w.values.reserve(values);
  w.run_value.push_back(0);
  for (Part& p : parts) {
    for (std::size_t r = 0; r < p.first.size(); ++r) {
      const bool touches = !w.run_first.empty() &&
                           std::uint64_t{w.run_first.back()} +
                                   (w.run_value.back() - w.run_value[w.run_value.size() - 2]) ==
                               p.first[r];
      if (!touches) {
        w.run_first.push_back(p.first[r]);
        w.run_value.push_back(w.run_value.back());
      }
      w.run_value.back() += p.len[r];
    }
    w.values.insert(w.values.end(), p.values.begin(), p.values.end());
    p = Part{};
  }
  return w;
}

Status compact_witness_expand(ThreadPool& pool, const CompactWitness& w, std::span<Fr> z) {
  const std::uint64_t n = w.num_variables();
  if (z.size() != n)
    return Status(Errc::size_mismatch, "witness buffer has " + std::to_string(z.size()) +
                                           " values, the compact witness " + std::to_string(n));
  CUZK_RETURN_IF_ERROR(w.validate());
  const Fr one = Fr::one();
  pool.parallel_for(
      w.bits.size(),
      [&](std::size_t b, std::size_t e) {
        for (std::size_t k = b; k < e; ++k) {
          const std::uint64_t word = w.bits[k];
          const std::size_t i0 = k * 64, i1 = std::min<std::size_t>(n, i0 + 64);
          for (std::size_t i = i0; i < i1; ++i) z[i] = (word >> (i - i0)) & 1 ? one : Fr::zero();
        }
      },
      1024);
  pool.parallel_for(
      w.run_first.size(),
      [&](std::size_t r) {
        const std::size_t len = w.run_value[r + 1] - w.run_value[r];
        std::memcpy(static_cast<void*>(z.data() + w.run_first[r]), w.values.data() + w.run_value[r],
                    len * sizeof(Fr));
      },
      256);
  return {};
}

CompactWitnessStats compact_witness_stats(const CompactWitness& w) {
  CompactWitnessStats s;
  for (const std::uint64_t word : w.bits) s.ones += static_cast<std::uint64_t>(std::popcount(word));
  s.others = w.values.size();
  s.runs = w.run_first.size();
  s.zeros = w.num_variables() - s.ones - s.others;
  return s;
}

}  // namespace cuzk
