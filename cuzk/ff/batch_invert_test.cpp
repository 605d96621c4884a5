// batch_invert_vartime against element-by-element inverse() (its slow twin): random sizes that are
// not powers of two, zeros sprinkled in (and all-zero batches), scratch buffers smaller than the
// input, for Fp, Fr and Fp2.
#include "cuzk/ff/batch_invert.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "cuzk/ff/fp.hpp"
#include "cuzk/ff/fp2.hpp"
#include "cuzk/ff/fr.hpp"

namespace cuzk {
namespace {

template <class F>
F random_value(std::mt19937_64& rng) {
  if constexpr (std::is_same_v<F, Fp2>) {
    return Fp2{random_value<Fp>(rng), random_value<Fp>(rng)};
  } else {
    typename F::Repr c{};
    for (auto& w : c) w = rng();
    c[F::N - 1] >>= 3;  // below 2^(64N − 3), then reduced mod p
    return F::from_limbs_reduce(c);
  }
}

template <class F>
class BatchInvert : public ::testing::Test {};
using Types = ::testing::Types<Fp, Fr, Fp2>;
TYPED_TEST_SUITE(BatchInvert, Types);

TYPED_TEST(BatchInvert, MatchesOneByOne) {
  using F = TypeParam;
  const std::uint64_t seed = std::random_device{}();
  std::printf("seed=%llu\n", static_cast<unsigned long long>(seed));
  std::mt19937_64 rng(seed);
  for (int round = 0; round < 25; ++round) {
    const std::size_t n = round == 0 ? 0 : round == 1 ? 1 : 2 + rng() % 97;
    const int zero_mode = round % 4;  // 0: none, 1: a few, 2: every other, 3: all (for small n)
    std::vector<F> v(n);
    for (std::size_t i = 0; i < n; ++i) {
      bool zero = (zero_mode == 1 && rng() % 7 == 0) || (zero_mode == 2 && i % 2 == 0) ||
                  (zero_mode == 3 && n < 10);
      v[i] = zero ? F::zero() : random_value<F>(rng);
    }
    if (n > 0 && zero_mode == 1) v[n - 1] = F::zero();  // a zero at the end of the batch too
    std::vector<F> want(n);
    for (std::size_t i = 0; i < n; ++i) want[i] = v[i].inverse();

    std::vector<F> got = v;
    batch_invert_vartime(std::span<F>(got));
    ASSERT_EQ(got, want) << "n=" << n << " seed=" << seed;

    // a scratch buffer smaller than the input: the batch runs in chunks
    const std::size_t s = rng() % (n + 2);
    std::vector<F> scratch(s), got2 = v;
    batch_invert_vartime(std::span<F>(got2), std::span<F>(scratch));
    ASSERT_EQ(got2, want) << "n=" << n << " scratch=" << s << " seed=" << seed;

    for (std::size_t i = 0; i < n; ++i) {
      if (!v[i].is_zero()) {
        ASSERT_TRUE((v[i] * got[i]).is_one()) << "i=" << i << " seed=" << seed;
      }
    }
  }
}

}  // namespace
}  // namespace cuzk
