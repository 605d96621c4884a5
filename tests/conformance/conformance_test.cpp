// Conformance, the one suite: each backend runs the operations of backend.hpp and must give
// exactly what a reference CpuBackend gives: G1/G2 MSMs at random sizes (not powers of two) with
// identity, repeated and negated bases, scalars 0, 1, r − 1, the scalar mixes of Filecoin
// witnesses (the 70 % PoRep mix, zeros and ones only, repeated small and negated values that pile
// into a few buckets, all zero), density bitmaps (longer than needed, with offsets) and every split
// mode, and past 2^17 scalars (the GPU's 16-bit windows); the NTT family at every size to 2^14 with
// both coset shifts; the H step in both conventions (bellperson, satisfied or not; snarkjs); the
// base-table life cycle and its errors. Prints the seed.
//
// Built twice (tests/conformance/CMakeLists.txt): `conformance_test` runs the CPU backend (CI),
// `gpu_conformance_test`, in CUDA builds, runs cuda:0. CUZK_CONFORMANCE_BACKENDS="cpu,cuda:0,cuda:1"
// picks the list at run time; a backend the build or machine lacks is skipped with its reason.
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
#include "tests/support/msm_inputs.hpp"

namespace cuzk {
namespace {

using ec_test::fresh_seed;
using ec_test::random_fr;

#ifndef CUZK_CONFORMANCE_DEFAULT
#define CUZK_CONFORMANCE_DEFAULT "cpu"
#endif

std::vector<std::string> backend_names() {
  std::string list = CUZK_CONFORMANCE_DEFAULT;
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

// Twelve rounds over one table of |nb| bases (n_min ≤ nb < n_min + n_span): the six mixes without
// and then with a density bitmap one word longer than needed (as bellperson's trackers may be)
// and a random base offset; the split mode follows the mix.
template <class C>
void msm_mixes(Backend& b, CpuBackend& ref, std::size_t n_min, std::size_t n_span) {
  const auto seed = fresh_seed();
  std::mt19937_64 rng(seed);
  const std::size_t nb = n_min + rng() % n_span;
  const auto bases = make_bases<C>(nb, rng);
  auto load = [&](Backend& x) {
    if constexpr (std::is_same_v<C, G1Curve>)
      return x.load_bases_g1(bases);
    else
      return x.load_bases_g2(bases);
  };
  const auto id = load(b), ref_id = load(ref);
  ASSERT_TRUE(id.ok() && ref_id.ok()) << id.status().to_string();
  for (int round = 0; round < 12; ++round) {
    const bool density = round >= 6;
    const int mode = round % 6;
    const std::size_t n = density ? nb + rng() % nb : nb - rng() % (nb / 3);
    std::vector<Fr> s(n);
    for (auto& v : s) v = test::mixed_scalar(mode, rng);
    const test::RandomDensity d =
        density ? test::random_density(n, nb, rng) : test::RandomDensity{};
    const MsmOptions o{.density = {.bits = d.bits, .base_offset = d.offset},
                       .bit_split = mode == 1   ? BitSplit::never
                                    : mode == 4 ? BitSplit::always
                                                : BitSplit::automatic};
    auto run = [&](Backend& x, BasesId i) -> Result<Jacobian<C>> {
      if constexpr (std::is_same_v<C, G1Curve>)
        return x.msm_g1(i, s, o);
      else
        return x.msm_g2(i, s, o);
    };
    const auto got = run(b, *id), expect = run(ref, *ref_id);
    ASSERT_TRUE(expect.ok()) << expect.status().to_string();
    ASSERT_TRUE(got.ok()) << got.status().to_string();
    EXPECT_TRUE(*got == *expect) << C::name << " n=" << n << " round=" << round << " seed=" << seed;
  }
  EXPECT_TRUE(b.release_bases(*id).ok());
  EXPECT_TRUE(ref.release_bases(*ref_id).ok());
}

TEST_P(Conformance, MsmMixesG1) { msm_mixes<G1Curve>(*backend_, reference_, 2000, 3000); }

TEST_P(Conformance, MsmMixesG2) { msm_mixes<G2Curve>(*backend_, reference_, 600, 800); }

// Past 2^17 scalars the GPU plans windows of 16 bits (8 below): the wide-window path at a length
// that is not a power of two. The CPU would only compare itself with itself at this size.
TEST_P(Conformance, MsmMixesG1WideWindow) {
  if (GetParam() == "cpu") GTEST_SKIP() << "the CPU backend is the reference";
  msm_mixes<G1Curve>(*backend_, reference_, (1u << 17) + 3000, 1u << 15);
}

TEST_P(Conformance, NttFamily) {
  const auto seed = fresh_seed();
  std::mt19937_64 rng(seed);
  for (unsigned k = 0; k <= 14; ++k) {
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
  for (unsigned k : {1u, 3u, 4u, 9u, 12u, 13u, 15u}) {
    const std::size_t n = std::size_t{1} << k;
    for (bool satisfied : {true, false}) {
      const std::size_t m = n / 2 + 1 + rng() % (n / 2);  // constraints, the rest zero padding
      std::vector<Fr> a(n, Fr::zero()), b(n, Fr::zero()), c(n, Fr::zero());
      for (std::size_t i = 0; i < std::min(m, n); ++i) {
        a[i] = random_fr(rng);
        b[i] = (i % 3 == 0) ? Fr::one() : random_fr(rng);
        c[i] = satisfied ? a[i] * b[i] : random_fr(rng);
      }
      auto a2 = a, b2 = b, c2 = c;
      std::vector<Fr> h(n - 1), h2(n - 1);
      ASSERT_TRUE(backend_->compute_h({a, b, c}, h).ok());
      ASSERT_TRUE(reference_.compute_h({a2, b2, c2}, h2).ok());
      EXPECT_EQ(h, h2) << "n=" << n << " m=" << m << " satisfied=" << satisfied << " seed=" << seed;
    }
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
