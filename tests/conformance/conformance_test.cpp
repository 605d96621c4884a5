// Conformance: each backend named in CUZK_CONFORMANCE_BACKENDS (default "cpu,cuda:0") runs the
// operations of backend.hpp and must give exactly what a reference CpuBackend gives: G1/G2 MSMs at
// random sizes (not powers of two) with identity and repeated bases, scalars 0, 1, r − 1, density
// bitmaps with offsets and every split mode; the NTT family with both coset shifts; the H step in
// both conventions (bellperson, snarkjs); the base-table life cycle and its errors. A backend the
// build or the machine lacks is skipped.
// A new backend joins by adding its name to the list (and a case to make_backend).
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "cuzk/backend/cpu_backend.hpp"
#include "cuzk/backend_factory/make_backend.hpp"
#include "cuzk/ec/batch_affine.hpp"
#include "cuzk/ec/test_util.hpp"

namespace cuzk {
namespace {

using ec_test::fresh_seed;
using ec_test::random_fr;

std::vector<std::string> backend_names() {
  std::string list = "cpu,cuda:0";
  if (const char* env = std::getenv("CUZK_CONFORMANCE_BACKENDS")) list = env;
  std::vector<std::string> out;
  std::stringstream ss(list);
  for (std::string item; std::getline(ss, item, ',');) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

template <class C>
std::vector<Affine<C>> make_bases(std::size_t n, std::mt19937_64& rng) {
  std::vector<Jacobian<C>> steps;
  for (int i = 0; i < 4; ++i) steps.push_back(ec_test::random_subgroup_point<C>(rng));
  std::vector<Jacobian<C>> j(n);
  Jacobian<C> acc = steps[0];
  for (auto& p : j) {
    acc += steps[rng() % 4];
    p = acc;
  }
  auto out = batch_to_affine_vartime<C>(j);
  for (std::size_t i = 0; i < n; ++i) {
    const auto r = rng() % 40;
    if (r == 0)
      out[i] = Affine<C>::identity();
    else if (r == 1 && i > 0)
      out[i] = out[rng() % i];
    else if (r == 2 && i > 0)
      out[i] = -out[rng() % i];
  }
  return out;
}

// Random scalars; |ones_zeros| of them (in percent) are 0 or 1, a few are r − 1.
std::vector<Fr> make_scalars(std::size_t n, unsigned ones_zeros, std::mt19937_64& rng) {
  std::vector<Fr> s(n);
  for (auto& k : s) {
    const auto r = rng() % 100;
    if (r < ones_zeros)
      k = (rng() & 1) ? Fr::one() : Fr::zero();
    else if (r < ones_zeros + 3)
      k = -Fr::one();
    else
      k = random_fr(rng);
  }
  return s;
}

class Conformance : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    auto made = make_backend(GetParam(), pool_);
    if (!made.ok()) GTEST_SKIP() << GetParam() << " unavailable: " << made.status().to_string();
    backend_ = std::move(made).value();
  }
  ThreadPool pool_{2};
  CpuBackend reference_{pool_};
  std::unique_ptr<Backend> backend_;
};

template <class C>
void msm_case(Backend& b, CpuBackend& ref, std::mt19937_64& rng, std::uint64_t seed,
              std::size_t max_n) {
  const bool g1 = std::is_same_v<C, G1Curve>;
  for (int round = 0; round < 6; ++round) {
    std::size_t n = 1 + rng() % max_n;
    if ((n & (n - 1)) == 0) ++n;
    const std::size_t extra = rng() % 5;
    const auto bases = make_bases<C>(n + extra, rng);
    auto load = [&](Backend& x) {
      if constexpr (std::is_same_v<C, G1Curve>)
        return x.load_bases_g1(bases);
      else
        return x.load_bases_g2(bases);
    };
    const auto id = load(b), ref_id = load(ref);
    ASSERT_TRUE(id.ok() && ref_id.ok()) << id.status().to_string();
    const auto scalars = make_scalars(n, round * 15, rng);
    std::vector<std::uint64_t> bits;
    MsmOptions opt{.bit_split = static_cast<BitSplit>(round % 3)};
    if (round >= 3) {
      bits.resize((n + 63) / 64);
      for (auto& w : bits) w = rng() | rng();
      opt.density = {.bits = bits, .base_offset = extra};
    }
    auto run = [&](Backend& x, BasesId i) -> Result<Jacobian<C>> {
      if constexpr (std::is_same_v<C, G1Curve>)
        return x.msm_g1(i, scalars, opt);
      else
        return x.msm_g2(i, scalars, opt);
    };
    const auto got = run(b, *id);
    const auto expect = run(ref, *ref_id);
    ASSERT_TRUE(expect.ok());
    ASSERT_TRUE(got.ok()) << got.status().to_string();
    EXPECT_TRUE(*got == *expect) << (g1 ? "G1" : "G2") << " n=" << n << " round=" << round
                                 << " seed=" << seed;
    EXPECT_TRUE(b.release_bases(*id).ok());
    EXPECT_TRUE(ref.release_bases(*ref_id).ok());
  }
}

TEST_P(Conformance, MsmG1) {
  const auto seed = fresh_seed();
  std::mt19937_64 rng(seed);
  msm_case<G1Curve>(*backend_, reference_, rng, seed, 3000);
}

TEST_P(Conformance, MsmG2) {
  const auto seed = fresh_seed();
  std::mt19937_64 rng(seed);
  msm_case<G2Curve>(*backend_, reference_, rng, seed, 700);
}

TEST_P(Conformance, MsmEdgeCases) {
  const auto seed = fresh_seed();
  std::mt19937_64 rng(seed);
  const std::size_t n = 300 + rng() % 200;
  const auto bases = make_bases<G1Curve>(n, rng);
  const auto id = backend_->load_bases_g1(bases);
  const auto ref_id = reference_.load_bases_g1(bases);
  ASSERT_TRUE(id.ok() && ref_id.ok());
  for (const Fr& k : {Fr::zero(), Fr::one(), -Fr::one()}) {
    const std::vector<Fr> same(n, k);
    for (auto split : {BitSplit::always, BitSplit::never}) {
      const auto got = backend_->msm_g1(*id, same, {.bit_split = split});
      ASSERT_TRUE(got.ok()) << got.status().to_string();
      EXPECT_TRUE(*got == *reference_.msm_g1(*ref_id, same, {}))
          << "k=" << k.to_hex() << " seed=" << seed;
    }
  }
  // An empty density selects nothing past the bitmap; an all-clear bitmap gives the identity.
  const std::vector<std::uint64_t> none((n + 63) / 64, 0);
  const auto scalars = make_scalars(n, 30, rng);
  const auto zero = backend_->msm_g1(*id, scalars, {.density = {.bits = none}});
  ASSERT_TRUE(zero.ok());
  EXPECT_TRUE(zero->is_identity());
  // Too few bases, and a released table.
  std::vector<Fr> too_many(n + 1, Fr::one());
  EXPECT_EQ(backend_->msm_g1(*id, too_many, {}).status().code(), Errc::size_mismatch);
  ASSERT_TRUE(backend_->release_bases(*id).ok());
  EXPECT_EQ(backend_->release_bases(*id).code(), Errc::not_found);
  EXPECT_EQ(backend_->msm_g1(*id, scalars, {}).status().code(), Errc::not_found);
}

TEST_P(Conformance, NttFamily) {
  const auto seed = fresh_seed();
  std::mt19937_64 rng(seed);
  for (unsigned k : {0u, 1u, 4u, 7u, 11u, 14u}) {
    const std::size_t n = std::size_t{1} << k;
    for (std::uint64_t shift : {std::uint64_t{7}, std::uint64_t{25}}) {
      for (auto dir : {NttDirection::forward, NttDirection::inverse}) {
        for (bool coset : {false, true}) {
          std::vector<Fr> v(n);
          for (auto& x : v) x = random_fr(rng);
          auto w = v;
          const NttOptions opt{.direction = dir, .coset = coset, .coset_shift = shift};
          ASSERT_TRUE(backend_->ntt(v, opt).ok());
          ASSERT_TRUE(reference_.ntt(w, opt).ok());
          EXPECT_EQ(v, w) << "n=" << n << " dir=" << static_cast<int>(dir) << " coset=" << coset
                          << " shift=" << shift << " seed=" << seed;
        }
      }
    }
  }
}

TEST_P(Conformance, ComputeH) {
  const auto seed = fresh_seed();
  std::mt19937_64 rng(seed);
  for (unsigned k : {1u, 3u, 9u, 13u}) {
    const std::size_t n = std::size_t{1} << k;
    const std::size_t m = n / 2 + 1 + rng() % (n / 2);  // constraints, the rest zero padding
    std::vector<Fr> a(n, Fr::zero()), b(n, Fr::zero()), c(n, Fr::zero());
    for (std::size_t i = 0; i < std::min(m, n); ++i) {
      a[i] = random_fr(rng);
      b[i] = (i % 3 == 0) ? Fr::one() : random_fr(rng);
      c[i] = a[i] * b[i];
    }
    auto a2 = a, b2 = b, c2 = c;
    std::vector<Fr> h(n - 1), h2(n - 1);
    ASSERT_TRUE(backend_->compute_h({a, b, c}, h).ok());
    ASSERT_TRUE(reference_.compute_h({a2, b2, c2}, h2).ok());
    EXPECT_EQ(h, h2) << "n=" << n << " m=" << m << " seed=" << seed;
  }
}

TEST_P(Conformance, ComputeHSnarkjs) {
  const auto seed = fresh_seed();
  std::mt19937_64 rng(seed);
  for (unsigned k : {1u, 2u, 9u, 10u, 13u}) {
    const std::size_t n = std::size_t{1} << k;
    for (bool padded : {true, false}) {
      const std::size_t m = padded ? n / 2 + 1 + rng() % (n / 2) : n;
      std::vector<Fr> a(n, Fr::zero()), b(n, Fr::zero()), c(n);
      for (std::size_t i = 0; i < std::min(m, n); ++i) {
        a[i] = random_fr(rng);
        b[i] = (i % 3 == 0) ? Fr::one() : random_fr(rng);
      }
      for (auto& v : c) v = random_fr(rng);  // not read in this convention
      auto a2 = a, b2 = b, c2 = c;
      std::vector<Fr> h(n), h2(n);
      ASSERT_TRUE(backend_->compute_h({a, b, c, HConvention::snarkjs}, h).ok());
      ASSERT_TRUE(reference_.compute_h({a2, b2, c2, HConvention::snarkjs}, h2).ok());
      EXPECT_EQ(h, h2) << "n=" << n << " m=" << m << " seed=" << seed;
    }
  }
  std::vector<Fr> a(8), b(8), c(8), h7(7);
  EXPECT_EQ(backend_->compute_h({a, b, c, HConvention::snarkjs}, h7).code(), Errc::size_mismatch);
}

INSTANTIATE_TEST_SUITE_P(Backends, Conformance, ::testing::ValuesIn(backend_names()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name;
                           for (char ch : info.param)
                             name += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
                           return name;
                         });

}  // namespace
}  // namespace cuzk
