#include "cuzk/r1cs/compact_witness.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <mutex>
#include <string>

#include "cuzk/r1cs/compact_witness_bound.hpp"
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

namespace {

// The slice [first, first + count) of a witness as a fragment of the compact form, in one
// allocation of exactly its size (what CompactWitnessBound::fragment_bytes counts):
//   bits    ⌈count/64⌉ words relative to |first|: bit b of word b / 64 is variable first + b;
//   runs    one word per run: its first variable (absolute) << 32 | its length;
//   values  4 words per value, in variable order.
struct Fragment {
  std::uint64_t first = 0, count = 0;
  std::size_t runs = 0, values = 0;
  std::vector<std::uint64_t> words;

  std::size_t bit_words() const { return static_cast<std::size_t>((count + 63) / 64); }
  std::uint64_t run_first(std::size_t r) const { return words[bit_words() + r] >> 32; }
  std::uint64_t run_len(std::size_t r) const { return words[bit_words() + r] & 0xffffffffu; }
  const std::uint64_t* value_words() const { return words.data() + bit_words() + runs; }
};
static_assert(sizeof(Fragment) <= CompactWitnessBound::kFragmentHeader);
static_assert(sizeof(Fr) == 4 * sizeof(std::uint64_t));

// Which of x[i0, i0 + 64) ∩ x are one and which are neither zero nor one, as two words,
// branch-free.
struct Masks {
  std::uint64_t ones = 0, others = 0;
};
Masks classify(std::span<const Fr> x, std::size_t i0) {
  const Limbs<4> one = Fr::one().l;
  const std::size_t m = std::min<std::size_t>(64, x.size() - i0);
  Masks k;
  for (std::size_t b = 0; b < m; ++b) {
    const Limbs<4>& l = x[i0 + b].l;
    const bool zero = (l[0] | l[1] | l[2] | l[3]) == 0;
    const bool is_one =
        ((l[0] ^ one[0]) | (l[1] ^ one[1]) | (l[2] ^ one[2]) | (l[3] ^ one[3])) == 0;
    k.ones |= std::uint64_t{is_one} << b;
    k.others |= std::uint64_t{!zero && !is_one} << b;
  }
  return k;
}

// Two passes: the first classifies 64 values at a time, keeps the masks (16 B per 64 values:
// CompactWitnessBound::add_bytes) and counts the values and the runs (an other whose predecessor,
// across words too, is not one starts a run), so that the fragment is allocated once at its exact
// size; the second fills it from the masks.
Fragment make_fragment(std::uint64_t first, std::span<const Fr> x) {
  Fragment f;
  f.first = first;
  f.count = x.size();
  const std::size_t words = f.bit_words();
  std::vector<Masks> masks(words);
  std::uint64_t carry = 0;  // the previous word's last variable is an other
  for (std::size_t k = 0; k < words; ++k) {
    masks[k] = classify(x, k * 64);
    const std::uint64_t others = masks[k].others;
    f.values += static_cast<std::size_t>(std::popcount(others));
    f.runs += static_cast<std::size_t>(std::popcount(others & ~((others << 1) | carry)));
    carry = others >> 63;
  }
  f.words = std::vector<std::uint64_t>(words + f.runs + 4 * f.values);  // exactly this size
  std::uint64_t* run = f.words.data() + words;
  std::uint64_t* value = run + f.runs;
  std::uint64_t last_end = 0;  // one past the last run, 0 before the first (variable 0 is ONE)
  for (std::size_t k = 0; k < words; ++k) {
    f.words[k] = masks[k].ones;
    for (std::uint64_t others = masks[k].others; others != 0; others &= others - 1) {
      const std::size_t i = k * 64 + static_cast<std::size_t>(std::countr_zero(others));
      const std::uint64_t v = first + i;
      if (run != f.words.data() + words && last_end == v) {
        ++run[-1];
      } else {
        *run++ = v << 32 | 1;
      }
      last_end = v + 1;
      std::memcpy(value, &x[i], sizeof(Fr));
      value += 4;
    }
  }
  return f;
}

}  // namespace

struct CompactWitnessBuilder::Fragments {
  std::mutex mu;
  std::vector<Fragment> list;
};

CompactWitnessBuilder::CompactWitnessBuilder(std::uint64_t num_inputs, std::uint64_t num_aux)
    : num_inputs_(num_inputs), num_aux_(num_aux), fragments_(std::make_unique<Fragments>()) {}

CompactWitnessBuilder::~CompactWitnessBuilder() = default;

void CompactWitnessBuilder::add(std::uint64_t first, std::span<const Fr> values) {
  if (values.empty()) return;
  Fragment f = make_fragment(first, values);
  std::lock_guard<std::mutex> lock(fragments_->mu);
  fragments_->list.push_back(std::move(f));
}

Result<CompactWitness> CompactWitnessBuilder::finish() {
  const std::uint64_t n = num_inputs_ + num_aux_;
  if (n > SparseMatrix::kMaxColumns)
    return Status(Errc::invalid_argument,
                  "witness has " + std::to_string(n) + " values, more than 2^30");
  std::vector<Fragment> list;
  {
    std::lock_guard<std::mutex> lock(fragments_->mu);
    list.swap(fragments_->list);
  }
  std::sort(list.begin(), list.end(),
            [](const Fragment& x, const Fragment& y) { return x.first < y.first; });
  std::uint64_t next = 0;  // the slices must tile [0, n) in order
  std::size_t runs = 0, values = 0;
  for (const Fragment& f : list) {
    if (f.first != next || f.first + f.count > n)
      return Status(Errc::invalid_argument,
                    "compact witness slices: [" + std::to_string(f.first) + ", " +
                        std::to_string(f.first + f.count) + ") after variables [0, " +
                        std::to_string(next) + ") of " + std::to_string(n) +
                        (f.first < next   ? " overlaps"
                         : f.first > next ? " leaves a gap"
                                          : "") +
                        (f.first + f.count > n ? " runs past the end" : ""));
    next = f.first + f.count;
    runs += f.runs;
    values += f.values;
  }
  if (next != n)
    return Status(Errc::invalid_argument, "compact witness slices cover variables [0, " +
                                              std::to_string(next) + ") of " + std::to_string(n));
  // The result's arrays at their final sizes (runs: at most the fragments', fewer where runs
  // touch across slices), each fragment released once joined.
  CompactWitness w;
  w.num_inputs = num_inputs_;
  w.num_aux = num_aux_;
  w.bits.assign((n + 63) / 64, 0);
  w.run_first.reserve(runs);
  w.run_value.reserve(runs + 1);
  w.values.resize(values);
  w.run_value.push_back(0);
  std::size_t joined = 0;  // values copied so far
  for (Fragment& f : list) {
    // Its bits, shifted into place (a slice need not start on a word).
    const unsigned shift = static_cast<unsigned>(f.first % 64);
    const std::size_t w0 = f.first / 64;
    for (std::size_t k = 0; k < f.bit_words(); ++k) {
      w.bits[w0 + k] |= f.words[k] << shift;
      if (shift != 0 && w0 + k + 1 < w.bits.size())
        w.bits[w0 + k + 1] |= f.words[k] >> (64 - shift);
    }
    // Its runs, the first merged into the previous slice's last when they touch.
    for (std::size_t r = 0; r < f.runs; ++r) {
      const bool touches = !w.run_first.empty() &&
                           std::uint64_t{w.run_first.back()} +
                                   (w.run_value.back() - w.run_value[w.run_value.size() - 2]) ==
                               f.run_first(r);
      if (!touches) {
        w.run_first.push_back(static_cast<std::uint32_t>(f.run_first(r)));
        w.run_value.push_back(w.run_value.back());
      }
      w.run_value.back() += static_cast<std::uint32_t>(f.run_len(r));
    }
    std::memcpy(static_cast<void*>(w.values.data() + joined), f.value_words(),
                f.values * sizeof(Fr));
    joined += f.values;
    f = Fragment{};
  }
  return w;
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
  // Chunks of kChunkWords words, converted in parallel.
  CompactWitnessBuilder builder(num_inputs, n - num_inputs);
  const std::size_t chunk = kChunkWords * 64, chunks = (n + chunk - 1) / chunk;
  pool.parallel_for(chunks, [&](std::size_t c) {
    builder.add(c * chunk, z.subspan(c * chunk, std::min(chunk, n - c * chunk)));
  });
  return builder.finish();
}

std::uint64_t compact_witness_from_z_fragments(std::uint64_t n) {
  const std::uint64_t chunk = kChunkWords * 64;
  return (n + chunk - 1) / chunk;
}

std::uint64_t compact_witness_from_z_slice(std::uint64_t n) {
  return std::min<std::uint64_t>(n, kChunkWords * 64);
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
