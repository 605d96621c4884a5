// The one signed-digit recoding (digits.hpp), which the CUDA MSM's digit kernel now runs too,
// against the recoding the GPU had before (gpu/msm/pippenger_impl.cuh digits_kernel at 06ae9d0),
// ported here as the twin: a carry chain over the 32-bit limbs of k where a window plus its carry
// above 2^(c−1) becomes the negative digit (window + carry − 2^c) with a carry out.
//
// digits.hpp's k' = k + H gives the same chain with the tie broken the other way: window + carry
// = 2^(c−1) is −2^(c−1) with a carry out instead of +2^(c−1). So on seeded scalars the two agree
// digit for digit up to the first tie, differ there by exactly that choice, and both sum to k;
// each digit lies in [−2^(c−1), 2^(c−1)] (the same 2^(c−1) buckets). A tie comes about once in
// 2^c windows, so the bucket loads, and the GPU's timings, do not move.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "cuzk/ec/test_util.hpp"
#include "cuzk/ff/fr.hpp"
#include "cuzk/msm/digits.hpp"

namespace cuzk {
namespace {

using ec_test::fresh_seed;
using ec_test::random_fr;

struct FormerDigits {
  std::vector<std::int32_t> d;
  int first_tie = -1;  // the first window whose window + carry was exactly 2^(c−1)
};

// The former GPU recoding, for one canonical scalar and width |c| ≤ 32 (K = ⌈256/c⌉ windows).
FormerDigits former_gpu_digits(const Limbs<4>& k, unsigned c) {
  std::uint32_t l[8];
  for (int i = 0; i < 4; ++i) {
    l[2 * i] = static_cast<std::uint32_t>(k[i]);
    l[2 * i + 1] = static_cast<std::uint32_t>(k[i] >> 32);
  }
  const int windows = static_cast<int>((256 + c - 1) / c);
  const std::uint32_t B = 1u << (c - 1);
  const std::uint64_t mask = (std::uint64_t{1} << c) - 1;
  FormerDigits out;
  std::uint32_t carry = 0;
  for (int w = 0; w < windows; ++w) {
    const int off = w * static_cast<int>(c);
    const int li = off >> 5;
    std::uint64_t win = 0;
    if (li < 8) win = l[li];
    if (li + 1 < 8) win |= static_cast<std::uint64_t>(l[li + 1]) << 32;
    std::uint32_t d = static_cast<std::uint32_t>((win >> (off & 31)) & mask) + carry;
    if (d == B && out.first_tie < 0) out.first_tie = w;
    bool neg = false;
    if (d > B) {
      d = (1u << c) - d;
      neg = true;
      carry = 1;
    } else {
      carry = 0;
    }
    out.d.push_back(neg ? -static_cast<std::int32_t>(d) : static_cast<std::int32_t>(d));
  }
  return out;
}

// Σ d_j·2^(cj) over Fr.
Fr value_of(const std::vector<std::int32_t>& d, unsigned c) {
  Fr acc = Fr::zero();
  const Fr radix = Fr::from_u64(2).pow_u64(c);
  for (std::size_t j = d.size(); j-- > 0;) {
    const Fr m = Fr::from_u64(static_cast<std::uint64_t>(d[j] < 0 ? -std::int64_t{d[j]} : d[j]));
    acc = acc * radix + (d[j] < 0 ? -m : m);
  }
  return acc;
}

TEST(MsmDigits, SharedRecodingMatchesTheFormerGpuRecoding) {
  const auto seed = fresh_seed();
  std::mt19937_64 rng(seed);
  // The widths the GPU plans (8, 16, 20) and others a caller may force.
  for (unsigned c : {1u, 2u, 5u, 8u, 11u, 13u, 16u, 17u, 20u, 22u, 24u}) {
    const SignedWindowPlan plan = SignedWindowPlan::make(c);
    const std::int32_t half = std::int32_t{1} << (c - 1);
    std::vector<Fr> ks = {Fr::zero(), Fr::one(), -Fr::one(), Fr::from_u64(half),
                          Fr::from_u64(3ull * half)};
    // k = H mod r (when H < r every window below the top one is a tie).
    ks.push_back(Fr::from_limbs_reduce({plan.h[0], plan.h[1], plan.h[2], plan.h[3]}));
    for (int i = 0; i < 300; ++i) ks.push_back(random_fr(rng));
    std::size_t tied = 0;
    for (const Fr& k : ks) {
      const Limbs<4> kc = k.to_canonical();
      std::uint64_t kr[4];
      msm_recode(plan, kc.data(), kr);
      std::vector<std::int32_t> shared(plan.windows);
      for (unsigned j = 0; j < plan.windows; ++j) shared[j] = msm_signed_digit(plan, kr, j);
      const FormerDigits former = former_gpu_digits(kc, c);
      const auto where = ::testing::Message()
                         << "c=" << c << " k=" << k.to_hex() << " seed=" << seed;
      ASSERT_EQ(former.d.size(), shared.size()) << where;
      EXPECT_EQ(value_of(shared, c), k) << where;
      EXPECT_EQ(value_of(former.d, c), k) << where;
      const std::size_t agree =
          former.first_tie < 0 ? shared.size() : static_cast<std::size_t>(former.first_tie);
      for (std::size_t j = 0; j < agree; ++j)
        EXPECT_EQ(shared[j], former.d[j]) << where << " j=" << j;
      if (former.first_tie >= 0) {
        ++tied;
        EXPECT_EQ(former.d[agree], half) << where;
        EXPECT_EQ(shared[agree], -half) << where;
      }
      for (std::size_t j = 0; j < shared.size(); ++j) {
        EXPECT_LE(shared[j], half) << where;
        EXPECT_GE(shared[j], -half) << where;
        EXPECT_LE(former.d[j], half) << where;
        EXPECT_GE(former.d[j], -half) << where;
      }
    }
    // The tie branch is exercised at every width (k = 2^(c−1) and k = H tie at window 0).
    EXPECT_GE(tied, 2u) << "c=" << c;
    // Random scalars rarely tie at wide windows: most agree digit for digit.
    if (c >= 16) {
      EXPECT_LE(tied, 2u + 300u / 8u) << "c=" << c << " seed=" << seed;
    }
  }
}

}  // namespace
}  // namespace cuzk
