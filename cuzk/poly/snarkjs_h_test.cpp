// Interop with snarkjs: the quotient step of groth16_prove.js on the mulchain_1021 vectors (a real
// snarkjs ceremony; tests/data). From the r1cs and witness JSON exports: a_T[c] = Σ A[c]·w,
// b_T likewise, rows nConstraints … nConstraints + nPublic of A hold w[0 … nPublic], c_T = a_T∘b_T;
// each is interpolated on the ffjs domain and evaluated on the coset ω_2n·⟨ω_n⟩, and
// p = a·b − c must equal the recorded `h_coset_evals_first4` / `h_coset_evals_last`.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cuzk/poly/domain.hpp"
#include "cuzk/poly/ntt.hpp"

#ifndef CUZK_TEST_DATA_DIR
#error "CUZK_TEST_DATA_DIR must name the test data directory (tests/data)"
#endif

namespace cuzk {
namespace {

nlohmann::json load(const std::string& rel) {
  const std::string path = std::string(CUZK_TEST_DATA_DIR) + "/oracles/" + rel;
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << "cannot open " << path;
  if (!in.good()) return nlohmann::json();
  return nlohmann::json::parse(in);
}

Fr dec(const std::string& s) {
  auto r = Fr::from_dec(s);
  EXPECT_TRUE(r.ok()) << s;
  return r.ok() ? *r : Fr::zero();
}

TEST(SnarkjsH, MulchainCosetEvaluationsMatch) {
  const auto r1cs = load("mulchain_1021/mulchain_1021.r1cs.json");
  const auto wtns = load("mulchain_1021/mulchain_1021.wtns.json");
  const auto inter = load("mulchain_1021/prover_intermediates_r0x1234_s0x5678.json");
  ASSERT_TRUE(r1cs.is_object() && wtns.is_array() && inter.is_object());

  std::vector<Fr> w;
  for (const auto& v : wtns) w.push_back(dec(v.get<std::string>()));
  const std::size_t n_constraints = r1cs["nConstraints"].get<std::size_t>();
  const std::size_t n_public =
      r1cs["nOutputs"].get<std::size_t>() + r1cs["nPubInputs"].get<std::size_t>();

  auto d = Domain::for_size(n_constraints + n_public + 1);
  ASSERT_TRUE(d.ok());
  const unsigned k = d->log_size();
  auto dom = Domain::from_log_size(k, snarkjs_domain_options(k));
  ASSERT_TRUE(dom.ok());
  const std::size_t n = dom->size();
  EXPECT_EQ(n, 1024u);

  std::vector<Fr> a(n), b(n), c(n);
  auto dot = [&](const nlohmann::json& lc) {
    Fr acc = Fr::zero();
    for (const auto& [sig, val] : lc.items())
      acc += dec(val.get<std::string>()) * w.at(std::stoul(sig));
    return acc;
  };
  for (std::size_t i = 0; i < n_constraints; ++i) {
    a[i] = dot(r1cs["constraints"][i][0]);
    b[i] = dot(r1cs["constraints"][i][1]);
  }
  for (std::size_t i = 0; i <= n_public; ++i) a[n_constraints + i] = w[i];
  for (std::size_t i = 0; i < n; ++i) c[i] = a[i] * b[i];

  ThreadPool pool(2);
  NttPlan plan(*dom);
  for (std::span<Fr> v : {std::span<Fr>(a), std::span<Fr>(b), std::span<Fr>(c)}) {
    ASSERT_TRUE(ntt(v, plan, {.direction = NttDirection::inverse}, pool).ok());
    ASSERT_TRUE(ntt(v, plan, {.coset = true}, pool).ok());
  }
  std::vector<Fr> p(n);
  for (std::size_t i = 0; i < n; ++i) p[i] = a[i] * b[i] - c[i];

  const auto& first4 = inter["h_coset_evals_first4"];
  ASSERT_EQ(first4.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i)
    EXPECT_EQ(p[i], dec(first4[i].get<std::string>())) << "i=" << i;
  EXPECT_EQ(p[n - 1], dec(inter["h_coset_evals_last"].get<std::string>()));

  // The same values through the H helpers: ab_minus_c_over_z divides by Z = g^n − 1 = −2.
  EXPECT_EQ(dom->vanishing_on_coset(), -Fr::from_u64(2));
  ASSERT_TRUE(ab_minus_c_over_z(a, b, c, *dom, pool).ok());
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(a[i] * -Fr::from_u64(2), p[i]) << "i=" << i;
}

TEST(SnarkjsH, CosetShiftIsTheDoubleRoot) {
  for (unsigned k = 0; k < 32; ++k) {
    const Fr g = snarkjs_coset_shift(k);
    auto d = Domain::from_log_size(k + 1, {.roots = RootFamily::ffjs});
    EXPECT_EQ(g, d->omega()) << "k=" << k;
    EXPECT_EQ(g.pow_u64(std::uint64_t{1} << k), -Fr::one()) << "k=" << k;
  }
  EXPECT_EQ(snarkjs_coset_shift(32), Fr::from_u64(25));
  EXPECT_TRUE(Domain::from_log_size(32, snarkjs_domain_options(32)).ok());
}

}  // namespace
}  // namespace cuzk
