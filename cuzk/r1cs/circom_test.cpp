// circom/snarkjs import against the oracle sets in tests/data/oracles (mulchain_1021, poseidon) and
// their JSON exports: every coefficient, every witness value, public.json, and satisfaction
// A·w ∘ B·w = C·w. Damaged files (other prime, truncation, missing or duplicated section, trailing
// bytes) are rejected with an error that names the defect.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>

#include "cuzk/r1cs/circom.hpp"
#include "cuzk/r1cs/pce.hpp"

#ifndef CUZK_TEST_DATA_DIR
#error "CUZK_TEST_DATA_DIR must name the test data directory (tests/data)"
#endif

namespace cuzk {
namespace {

using nlohmann::json;

std::string vec(const std::string& rel) {
  return std::string(CUZK_TEST_DATA_DIR) + "/oracles/" + rel;
}
json load_json(const std::string& p) {
  std::ifstream f(p);
  return json::parse(f);
}

class CircomVectors : public ::testing::TestWithParam<std::string> {};

TEST_P(CircomVectors, MatchesJsonAndIsSatisfied) {
  const std::string name = GetParam();
  const std::string dir = name == "mulchain_1021" ? "mulchain_1021/" : "poseidon/";
  auto r1cs = read_circom_r1cs(vec(dir + name + ".r1cs"));
  ASSERT_TRUE(r1cs.ok()) << r1cs.status().to_string();
  auto w = read_snarkjs_wtns(vec(dir + name + ".wtns"));
  ASSERT_TRUE(w.ok()) << w.status().to_string();
  const json j = load_json(vec(dir + name + ".r1cs.json"));
  EXPECT_EQ(r1cs->n_wires, j["nVars"].get<std::uint32_t>());
  EXPECT_EQ(r1cs->n_pub_out, j["nOutputs"].get<std::uint32_t>());
  EXPECT_EQ(r1cs->n_pub_in, j["nPubInputs"].get<std::uint32_t>());
  EXPECT_EQ(r1cs->n_prv_in, j["nPrvInputs"].get<std::uint32_t>());
  EXPECT_EQ(r1cs->n_labels, j["nLabels"].get<std::uint64_t>());
  ASSERT_EQ(r1cs->n_constraints, j["constraints"].size());
  const R1csMatrices& m = r1cs->matrices;
  EXPECT_EQ(m.num_inputs, 1u + r1cs->num_public());
  EXPECT_EQ(m.num_constraints, r1cs->n_constraints + 1u + r1cs->num_public());
  const SparseMatrix* mats[3] = {&m.a, &m.b, &m.c};
  for (std::size_t k = 0; k < r1cs->n_constraints; ++k) {
    for (int t = 0; t < 3; ++t) {
      std::map<std::uint32_t, Fr> want, got;
      for (auto& [wire, coeff] : j["constraints"][k][t].items()) {
        Fr c = Fr::from_dec(coeff.get<std::string>()).value();
        if (!c.is_zero()) want[static_cast<std::uint32_t>(std::stoul(wire))] += c;
      }
      mats[t]->for_each_term(k, [&](std::uint32_t col, const Fr& c) { got[col] = c; });
      ASSERT_EQ(got, want) << name << " constraint " << k << " matrix " << t;
    }
  }
  const json wj = load_json(vec(dir + name + ".wtns.json"));
  ASSERT_EQ(w->size(), wj.size());
  for (std::size_t i = 0; i < w->size(); ++i)
    ASSERT_EQ((*w)[i], Fr::from_dec(wj[i].get<std::string>()).value()) << i;
  const json pub = load_json(vec(dir + "public.json"));
  ASSERT_EQ(pub.size(), r1cs->num_public());
  for (std::size_t i = 0; i < pub.size(); ++i)
    EXPECT_EQ((*w)[1 + i], Fr::from_dec(pub[i].get<std::string>()).value());

  ThreadPool pool(2);
  auto abc = pce_evaluate(pool, m, *w);
  ASSERT_TRUE(abc.ok()) << abc.status().to_string();
  std::size_t bad = 0;
  EXPECT_TRUE(abc_satisfied(*abc, &bad)) << name << " row " << bad;
  // A wrong witness value breaks it.
  std::vector<Fr> w2 = *w;
  w2[w2.size() - 1] += Fr::one();
  auto abc2 = pce_evaluate(pool, m, w2);
  EXPECT_FALSE(abc_satisfied(*abc2));
  // The compiled plan (what the engine evaluates circom witnesses with) gives the same a, b, c as
  // the CSR walk and the slow twin, on the true witness and the broken one, with and without the
  // 0/1 path and non-temporal stores.
  const PcePlan plan = pce_plan(m);
  std::uint64_t rows = 0;
  for (std::uint64_t r : plan.rows_by_form) rows += r;
  EXPECT_EQ(rows, m.num_constraints);
  const AbcVectors naive = spmv_naive(m, *w);
  EXPECT_TRUE(naive.a == abc->a && naive.b == abc->b && naive.c == abc->c) << name;
  for (const std::vector<Fr>* z : {&*w, &w2}) {
    const AbcVectors& ref = z == &w2 ? *abc2 : *abc;
    for (bool fast : {true, false})
      for (std::size_t nt : {std::size_t{1}, std::size_t{1} << 40}) {
        auto p = pce_evaluate(pool, m, *z,
                              {.boolean_fast_path = fast, .nt_store_min_rows = nt, .plan = &plan});
        ASSERT_TRUE(p.ok()) << p.status().to_string();
        EXPECT_TRUE(p->a == ref.a && p->b == ref.b && p->c == ref.c)
            << name << (z == &w2 ? " broken witness" : "") << " fast=" << fast << " nt=" << nt;
      }
  }
}

INSTANTIATE_TEST_SUITE_P(Oracles, CircomVectors, ::testing::Values("mulchain_1021", "poseidon"));

// Offsets of each section's payload in a container image.
std::map<std::uint32_t, std::pair<std::size_t, std::size_t>> sections(
    const std::vector<std::uint8_t>& d) {
  std::map<std::uint32_t, std::pair<std::size_t, std::size_t>> s;
  std::uint32_t n;
  std::memcpy(&n, d.data() + 8, 4);
  std::size_t p = 12;
  for (std::uint32_t i = 0; i < n; ++i) {
    std::uint32_t type;
    std::uint64_t size;
    std::memcpy(&type, d.data() + p, 4);
    std::memcpy(&size, d.data() + p + 4, 8);
    s[type] = {p + 12, size};
    p += 12 + size;
  }
  return s;
}

TEST(CircomImport, RejectsDamagedR1cs) {
  const auto good = read_file_bytes(vec("poseidon/poseidon.r1cs")).value();
  ASSERT_TRUE(parse_circom_r1cs(good).ok());
  auto secs = sections(good);
  auto expect_error = [](const std::vector<std::uint8_t>& d, const std::string& needle) {
    auto r = parse_circom_r1cs(d);
    ASSERT_FALSE(r.ok()) << "accepted, expected " << needle;
    EXPECT_NE(r.status().message().find(needle), std::string::npos) << r.status().to_string();
  };
  {  // another prime (BN254's r differs in the low limb)
    auto d = good;
    d[secs[1].first + 4] ^= 1;
    expect_error(d, "prime");
  }
  {  // missing section 3
    auto d = good;
    d[secs[3].first - 12] = 9;
    expect_error(d, "missing section 3 (wire2label)");
  }
  {  // duplicated section id
    auto d = good;
    d[secs[3].first - 12] = 2;
    expect_error(d, "appears twice");
  }
  {  // wrong magic
    auto d = good;
    d[0] = 'x';
    expect_error(d, "magic");
  }
  {  // trailing bytes
    auto d = good;
    d.push_back(0);
    expect_error(d, "trailing");
  }
  {  // wire id out of range inside a constraint
    auto d = good;
    const std::size_t first_term = secs[2].first + 4;
    const std::uint32_t big = 0x7fffffff;
    std::memcpy(d.data() + first_term, &big, 4);
    expect_error(d, "refers to wire");
  }
  const std::uint64_t seed = std::random_device{}();
  std::mt19937_64 rng(seed);
  for (int i = 0; i < 40; ++i) {  // truncation anywhere
    const std::size_t len = rng() % good.size();
    auto r = parse_circom_r1cs(std::span<const std::uint8_t>(good.data(), len));
    ASSERT_FALSE(r.ok()) << "truncated to " << len << " accepted, seed=" << seed;
    EXPECT_EQ(r.status().code(), Errc::truncated) << r.status().to_string();
  }
}

TEST(CircomImport, RejectsDamagedWtns) {
  const auto good = read_file_bytes(vec("mulchain_1021/mulchain_1021.wtns")).value();
  ASSERT_TRUE(parse_snarkjs_wtns(good).ok());
  auto secs = sections(good);
  auto d = good;
  d[secs[1].first + 4 + 31] ^= 0x40;  // top byte of the prime
  auto r = parse_snarkjs_wtns(d);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("prime"), std::string::npos) << r.status().to_string();
  auto t = parse_snarkjs_wtns(std::span<const std::uint8_t>(good.data(), good.size() - 5));
  EXPECT_EQ(t.status().code(), Errc::truncated) << t.status().to_string();
  d = good;
  std::memset(d.data() + secs[2].first + 64, 0xff, 32);  // a value ≥ r
  auto o = parse_snarkjs_wtns(d);
  EXPECT_EQ(o.status().code(), Errc::out_of_range) << o.status().to_string();
  EXPECT_NE(o.status().message().find("wire 2"), std::string::npos) << o.status().to_string();
  EXPECT_EQ(read_snarkjs_wtns("/nonexistent/x.wtns").status().code(), Errc::not_found);
}

}  // namespace
}  // namespace cuzk
