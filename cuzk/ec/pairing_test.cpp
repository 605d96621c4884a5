// Optimal ate pairing: known values from tests/data (e(G1, G2), e(aG1, bG2)), the final
// exponentiation against a plain power by 3(p¹²−1)/r (exponent computed with GMP), bilinearity,
// negation, multi-pairing = product of pairings (with identities, prepared and not), identity
// handling and the product check. Seeds are printed.
#include <gmp.h>
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "cuzk/ec/pairing.hpp"
#include "cuzk/ff/fr.hpp"
#include "tests/support/seed.hpp"

#ifndef CUZK_TEST_DATA_DIR
#error "CUZK_TEST_DATA_DIR must name the test data directory (tests/data)"
#endif

namespace cuzk {
namespace {
using cuzk::test::fresh_seed;
using cuzk::test::random_fr;

/// [k]P by plain double-and-add over the canonical bits of k (the slow twin of any scalar mul).
template <class Jac, class Aff>
Aff scalar_mul_slow(const Aff& p, const Fr& k) {
  const Limbs<4> e = k.to_canonical();
  Jac acc = Jac::identity();
  const Jac base = Jac::from_affine(p);
  for (unsigned i = limbs_bit_length(e); i-- > 0;) {
    acc = acc.doubled();
    if (limbs_bit(e, i)) acc = acc + base;
  }
  return acc.to_affine();
}
G1Affine g1_mul(const G1Affine& p, const Fr& k) { return scalar_mul_slow<G1Jacobian>(p, k); }
G2Affine g2_mul(const G2Affine& q, const Fr& k) { return scalar_mul_slow<G2Jacobian>(q, k); }

nlohmann::json load_vectors() {
  const std::string path = std::string(CUZK_TEST_DATA_DIR) + "/bls12_381_vectors.json";
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << "cannot open " << path;
  return nlohmann::json::parse(in);
}

/// Fp12 from the vectors layout [[c0.c0, c0.c1, c0.c2], [c1.c0, c1.c1, c1.c2]], Fp2 = [c0, c1].
Fp12 fp12_from_json(const nlohmann::json& j) {
  auto fp = [](const nlohmann::json& s) { return Fp::from_hex(s.get<std::string>()).value(); };
  auto fp2 = [&](const nlohmann::json& a) { return Fp2{fp(a[0]), fp(a[1])}; };
  auto fp6 = [&](const nlohmann::json& a) { return Fp6{fp2(a[0]), fp2(a[1]), fp2(a[2])}; };
  return {fp6(j[0]), fp6(j[1])};
}

Fr fr_from_json(const nlohmann::json& s) { return Fr::from_hex(s.get<std::string>()).value(); }

TEST(Pairing, KnownValuesFromVectors) {
  const auto v = load_vectors();
  const auto& pv = v["pairing"];
  const G1Affine g1 = G1Affine::generator();
  const G2Affine g2 = G2Affine::generator();
  EXPECT_EQ(pairing(g1, g2), fp12_from_json(pv["e_G1_G2"]));
  const Fr a = fr_from_json(pv["a"]), b = fr_from_json(pv["b"]);
  EXPECT_EQ(pairing(g1_mul(g1, a), g2_mul(g2, b)), fp12_from_json(pv["e_aG1_bG2"]));
}

TEST(Pairing, FinalExponentiationIsPowerByThreeTimesPMinus1OverR) {
  // E = 3(p¹² − 1)/r with GMP, as 72 little-endian limbs.
  mpz_t p, r, e;
  mpz_inits(p, r, e, nullptr);
  mpz_import(p, 6, -1, 8, 0, 0, Fp::kModulus.data());
  mpz_import(r, 4, -1, 8, 0, 0, Fr::kModulus.data());
  mpz_pow_ui(e, p, 12);
  mpz_sub_ui(e, e, 1);
  ASSERT_TRUE(mpz_divisible_p(e, r));
  mpz_divexact(e, e, r);
  mpz_mul_ui(e, e, 3);
  Limbs<72> el{};
  size_t count = 0;
  ASSERT_LE(mpz_sizeinbase(e, 2), 72u * 64u);
  mpz_export(el.data(), &count, -1, 8, 0, 0, e);
  mpz_clears(p, r, e, nullptr);

  const std::uint64_t seed = fresh_seed();
  std::mt19937_64 rng(seed);
  auto fp = [&] {
    Limbs<6> c{};
    for (auto& w : c) w = rng();
    c[5] &= (std::uint64_t{1} << 60) - 1;
    return Fp::from_limbs_reduce(c);
  };
  auto fp2 = [&] { return Fp2{fp(), fp()}; };
  auto fp6 = [&] { return Fp6{fp2(), fp2(), fp2()}; };
  const Fp12 f{fp6(), fp6()};
  const Fp12 y = final_exponentiation(f);
  EXPECT_EQ(y, f.pow_vartime(el)) << "seed=" << seed;
  EXPECT_TRUE(y.pow_vartime(Fr::kModulus).is_one()) << "seed=" << seed;
  EXPECT_FALSE(y.is_one()) << "seed=" << seed;
}

TEST(Pairing, BilinearAndNegation) {
  const std::uint64_t seed = fresh_seed();
  std::mt19937_64 rng(seed);
  const G1Affine p = g1_mul(G1Affine::generator(), random_fr(rng));
  const G2Affine q = g2_mul(G2Affine::generator(), random_fr(rng));
  const Fr a = random_fr(rng), b = random_fr(rng);
  const Fp12 e = pairing(p, q);
  EXPECT_FALSE(e.is_one());
  EXPECT_EQ(pairing(g1_mul(p, a), g2_mul(q, b)), e.pow_vartime((a * b).to_canonical()))
      << "seed=" << seed;
  EXPECT_EQ(pairing(g1_mul(p, a), q), pairing(p, g2_mul(q, a))) << "seed=" << seed;
  EXPECT_TRUE((pairing(p, -q) * e).is_one()) << "seed=" << seed;
  EXPECT_EQ(pairing(-p, q), e.conjugate()) << "seed=" << seed;
}

TEST(Pairing, MultiPairingEqualsProductWithIdentities) {
  const std::uint64_t seed = fresh_seed();
  std::mt19937_64 rng(seed);
  const std::size_t n = 3 + rng() % 3;  // 3..5 pairs
  std::vector<G1Affine> ps;
  std::vector<G2Affine> qs;
  std::vector<G2Prepared> prepared;
  for (std::size_t i = 0; i < n; ++i) {
    ps.push_back(g1_mul(G1Affine::generator(), random_fr(rng)));
    qs.push_back(g2_mul(G2Affine::generator(), random_fr(rng)));
  }
  // Sprinkle identities in either slot and a duplicated pair.
  ps[1] = G1Affine::identity();
  qs[2] = G2Affine::identity();
  ps.push_back(ps[0]);
  qs.push_back(qs[0]);
  Fp12 product = Fp12::one();
  for (std::size_t i = 0; i < ps.size(); ++i) {
    product *= pairing(ps[i], qs[i]);
    prepared.push_back(G2Prepared::from_affine(qs[i]));
  }
  const Fp12 multi = final_exponentiation(multi_miller_loop(ps, qs).value());
  EXPECT_EQ(multi, product) << "n=" << ps.size() << " seed=" << seed;
  EXPECT_EQ(
      final_exponentiation(multi_miller_loop(ps, std::span<const G2Prepared>(prepared)).value()),
      product)
      << "seed=" << seed;
  EXPECT_EQ(multi_miller_loop(ps, std::span<const G2Prepared>(prepared)).value(),
            multi_miller_loop(ps, qs).value());
}

TEST(Pairing, IdentityGivesOne) {
  const G1Affine g1 = G1Affine::generator();
  const G2Affine g2 = G2Affine::generator();
  EXPECT_TRUE(pairing(G1Affine::identity(), g2).is_one());
  EXPECT_TRUE(pairing(g1, G2Affine::identity()).is_one());
  EXPECT_TRUE(pairing(G1Affine::identity(), G2Affine::identity()).is_one());
  EXPECT_TRUE(miller_loop(G1Affine::identity(), g2).is_one());
  EXPECT_TRUE(G2Prepared::from_affine(G2Affine::identity()).infinity);
  EXPECT_TRUE(pairing_product_is_one(std::span<const G1Affine>{}, std::span<const G2Affine>{}));
}

TEST(Pairing, ProductCheck) {
  // e(−aG1, bG2)·e(abG1, G2) = 1 (the vectors' product_check), and a perturbed one fails.
  const auto v = load_vectors();
  const Fr a = fr_from_json(v["pairing"]["a"]), b = fr_from_json(v["pairing"]["b"]);
  const G1Affine g1 = G1Affine::generator();
  const G2Affine g2 = G2Affine::generator();
  std::vector<G1Affine> ps = {-g1_mul(g1, a), g1_mul(g1, a * b)};
  std::vector<G2Affine> qs = {g2_mul(g2, b), g2};
  EXPECT_TRUE(pairing_product_is_one(ps, qs));
  std::vector<G2Prepared> prepared = {G2Prepared::from_affine(qs[0]),
                                      G2Prepared::from_affine(qs[1])};
  EXPECT_TRUE(pairing_product_is_one(ps, std::span<const G2Prepared>(prepared)));
  ps[1] = g1_mul(g1, a * b + Fr::one());
  EXPECT_FALSE(pairing_product_is_one(ps, qs));
  EXPECT_FALSE(pairing_product_is_one(ps, std::span<const G2Prepared>(prepared)));
  // Different lengths: an error, not a silent truncation.
  qs.pop_back();
  EXPECT_FALSE(pairing_product_is_one(ps, qs));
  auto r = multi_miller_loop(ps, qs);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Errc::size_mismatch);
}

}  // namespace
}  // namespace cuzk
