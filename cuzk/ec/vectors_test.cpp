// Known answers from tests/data/bls12_381_vectors.json (noble-curves, cross-checked with
// mcl and ffjavascript): generators, scalar_mul (k·G for 14 scalars incl. 0, r−1, r−2), group_ops
// (P+Q, P−Q, 2P, −P) and msm_g1, each in coordinates and in the three encodings, both directions.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cuzk/ec/encoding.hpp"
#include "cuzk/ec/g1.hpp"
#include "cuzk/ec/g2.hpp"

#ifndef CUZK_TEST_DATA_DIR
#error "CUZK_TEST_DATA_DIR must name the test data directory (tests/data)"
#endif

namespace cuzk {
namespace {

using json = nlohmann::json;

const json& vectors() {
  static const json j = [] {
    const std::string path = std::string(CUZK_TEST_DATA_DIR) + "/bls12_381_vectors.json";
    std::ifstream in(path);
    EXPECT_TRUE(in.good()) << "cannot open " << path;
    return json::parse(in);
  }();
  return j;
}

std::vector<std::uint8_t> unhex(const std::string& s) {
  std::vector<std::uint8_t> out;
  for (std::size_t i = 0; i + 1 < s.size(); i += 2)
    out.push_back(static_cast<std::uint8_t>(std::stoi(s.substr(i, 2), nullptr, 16)));
  return out;
}
template <std::size_t N>
std::vector<std::uint8_t> vec(const std::array<std::uint8_t, N>& a) {
  return {a.begin(), a.end()};
}
template <std::size_t N>
std::span<const std::uint8_t, N> fixed(const std::vector<std::uint8_t>& v) {
  EXPECT_EQ(v.size(), N);
  return std::span<const std::uint8_t, N>(v.data(), N);
}

Fr fr_hex(const std::string& s) { return Fr::from_hex(s).value(); }
Fp fp_hex(const std::string& s) { return Fp::from_hex(s).value(); }

G1Affine g1_point(const json& j) {
  if (j.contains("infinity") && j["infinity"].get<bool>()) return G1Affine::identity();
  return {fp_hex(j["x"]), fp_hex(j["y"]), false};
}
G2Affine g2_point(const json& j) {
  if (j.contains("infinity") && j["infinity"].get<bool>()) return G2Affine::identity();
  return {{fp_hex(j["x"]["c0"]), fp_hex(j["x"]["c1"])},
          {fp_hex(j["y"]["c0"]), fp_hex(j["y"]["c1"])},
          false};
}

/// The point and its three encodings agree with |j| in both directions.
void check_g1(const json& j, const G1Affine& p, const std::string& what) {
  SCOPED_TRACE(what);
  ASSERT_EQ(p, g1_point(j));
  const auto c = unhex(j["compressed"]), u = unhex(j["uncompressed"]), l = unhex(j["snarkjs_lem"]);
  EXPECT_EQ(vec(to_compressed(p)), c);
  EXPECT_EQ(vec(to_uncompressed(p)), u);
  EXPECT_EQ(vec(to_snarkjs_lem(p)), l);
  EXPECT_EQ(g1_from_compressed(fixed<48>(c)).value(), p);
  EXPECT_EQ(g1_from_uncompressed(fixed<96>(u)).value(), p);
  EXPECT_EQ(g1_from_snarkjs_lem(fixed<96>(l)).value(), p);
}
void check_g2(const json& j, const G2Affine& p, const std::string& what) {
  SCOPED_TRACE(what);
  ASSERT_EQ(p, g2_point(j));
  const auto c = unhex(j["compressed"]), u = unhex(j["uncompressed"]), l = unhex(j["snarkjs_lem"]);
  EXPECT_EQ(vec(to_compressed(p)), c);
  EXPECT_EQ(vec(to_uncompressed(p)), u);
  EXPECT_EQ(vec(to_snarkjs_lem(p)), l);
  EXPECT_EQ(g2_from_compressed(fixed<96>(c)).value(), p);
  EXPECT_EQ(g2_from_uncompressed(fixed<192>(u)).value(), p);
  EXPECT_EQ(g2_from_snarkjs_lem(fixed<192>(l)).value(), p);
}

TEST(Vectors, Generators) {
  check_g1(vectors()["G1_generator"], G1Affine::generator(), "G1 generator");
  check_g2(vectors()["G2_generator"], G2Affine::generator(), "G2 generator");
}

TEST(Vectors, ScalarMul) {
  int n = 0;
  for (const auto& e : vectors()["scalar_mul"]) {
    const std::string k = e["k"];
    const Fr s = fr_hex(k);
    const G1Jacobian p1 = mul(G1Jacobian::generator(), s);
    const G2Jacobian p2 = mul(G2Jacobian::generator(), s);
    check_g1(e["kG1"], p1.to_affine(), "kG1 k=" + k);
    check_g2(e["kG2"], p2.to_affine(), "kG2 k=" + k);
    EXPECT_EQ(mul_vartime(G1Jacobian::generator(), s), p1) << k;
    EXPECT_EQ(mul_glv_vartime(G1Jacobian::generator(), s), p1) << k;
    EXPECT_EQ(mul_vartime(G2Jacobian::generator(), s), p2) << k;
    EXPECT_EQ(mul_gls_vartime(G2Jacobian::generator(), s), p2) << k;
    ++n;
  }
  EXPECT_EQ(n, 14);
}

TEST(Vectors, GroupOps) {
  {
    const json& g = vectors()["group_ops"]["G1"];
    const G1Affine p = g1_point(g["P"]), q = g1_point(g["Q"]);
    const G1Jacobian pj = G1Jacobian::from_affine(p), qj = G1Jacobian::from_affine(q);
    check_g1(g["P"], p, "G1 P");
    check_g1(g["Q"], q, "G1 Q");
    check_g1(g["P_plus_Q"], (pj + qj).to_affine(), "G1 P+Q");
    check_g1(g["P_plus_Q"], (pj + q).to_affine_vartime(), "G1 P+Q mixed");
    check_g1(g["P_plus_Q"], (G1Xyzz::from_affine(p) + q).to_affine(), "G1 P+Q xyzz");
    check_g1(g["P_minus_Q"], (pj - qj).to_affine(), "G1 P-Q");
    check_g1(g["two_P"], pj.doubled().to_affine(), "G1 2P");
    check_g1(g["neg_P"], -p, "G1 -P");
  }
  {
    const json& g = vectors()["group_ops"]["G2"];
    const G2Affine p = g2_point(g["P"]), q = g2_point(g["Q"]);
    const G2Jacobian pj = G2Jacobian::from_affine(p), qj = G2Jacobian::from_affine(q);
    check_g2(g["P"], p, "G2 P");
    check_g2(g["Q"], q, "G2 Q");
    check_g2(g["P_plus_Q"], (pj + qj).to_affine(), "G2 P+Q");
    check_g2(g["P_plus_Q"], (pj + q).to_affine_vartime(), "G2 P+Q mixed");
    check_g2(g["P_plus_Q"], (G2Xyzz::from_affine(p) + q).to_affine(), "G2 P+Q xyzz");
    check_g2(g["P_minus_Q"], (pj - qj).to_affine(), "G2 P-Q");
    check_g2(g["two_P"], pj.doubled().to_affine(), "G2 2P");
    check_g2(g["neg_P"], -p, "G2 -P");
  }
}

TEST(Vectors, NaiveMsmG1) {
  const json& m = vectors()["msm_g1"];
  G1Jacobian acc = G1Jacobian::identity();
  ASSERT_EQ(m["points"].size(), m["scalars"].size());
  for (std::size_t i = 0; i < m["points"].size(); ++i) {
    const G1Affine p = g1_point(m["points"][i]);
    check_g1(m["points"][i], p, "msm point " + std::to_string(i));
    acc += mul(p, fr_hex(m["scalars"][i]));
  }
  check_g1(m["result"], acc.to_affine(), "msm result");
}

}  // namespace
}  // namespace cuzk
