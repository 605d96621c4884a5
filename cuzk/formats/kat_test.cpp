// Known-answer tests on the snarkjs oracle sets in tests/data/oracles (tools/oracles/README.md):
// zkeys from a real snarkjs ceremony (poseidon, mulchain_1021) and from a known trapdoor
// (poseidon_trapdoor).
//  * prove with r = 0x1234, s = 0x5678 → exactly proof_deterministic_r0x1234_s0x5678.json, byte
//    for byte as snarkjs writes it;
//  * the vk exported from the zkey → exactly verification_key.json (vk_alphabeta_12 included);
//  * snarkjs's own proof verifies; tampered public inputs and proofs do not;
//  * setup from the published trapdoor → the same key as poseidon_td.zkey, and write_zkey's image
//    parses back to it.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "cuzk/backend/cpu_backend.hpp"
#include "cuzk/formats/snarkjs_json.hpp"
#include "cuzk/formats/zkey.hpp"
#include "cuzk/groth16/prove.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/verify.hpp"
#include "cuzk/r1cs/circom.hpp"

namespace cuzk {
namespace {

const std::string kDir = std::string(CUZK_TEST_DATA_DIR) + "/oracles";

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot open " << path;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Case {
  const char* dir;
  const char* zkey;
  const char* wtns;
};

class SnarkjsKat : public ::testing::TestWithParam<Case> {};

TEST_P(SnarkjsKat, DeterministicProofVkAndVerification) {
  const Case c = GetParam();
  const std::string d = kDir + "/" + c.dir + "/";
  ThreadPool pool(2);
  auto zk = read_zkey(d + c.zkey, {.check_subgroup = true, .pool = &pool});
  ASSERT_TRUE(zk.ok()) << zk.status().to_string();
  auto w = read_snarkjs_wtns(kDir + "/" + c.wtns);
  ASSERT_TRUE(w.ok()) << w.status().to_string();
  ASSERT_EQ(w->size(), zk->n_vars);

  // The verification key export.
  EXPECT_EQ(vk_to_snarkjs_json(zk->pk.vk), slurp(d + "verification_key.json"));

  // The deterministic proof.
  CpuBackend backend(pool);
  auto proof = prove(backend, pool, zk->pk, zk->matrices, *w,
                     {.r = Fr::from_u64(0x1234), .s = Fr::from_u64(0x5678)});
  ASSERT_TRUE(proof.ok()) << proof.status().to_string();
  EXPECT_EQ(proof_to_snarkjs_json(*proof), slurp(d + "proof_deterministic_r0x1234_s0x5678.json"));

  // Public inputs are w[1..nPublic].
  const std::span<const Fr> pub(w->data() + 1, zk->n_public);
  EXPECT_EQ(public_to_snarkjs_json(pub), slurp(d + "public.json"));

  // Verification of our proof and of snarkjs's (random r, s) through the JSON vk.
  auto vk = vk_from_snarkjs_json(slurp(d + "verification_key.json"));
  ASSERT_TRUE(vk.ok()) << vk.status().to_string();
  const auto pvk = prepare_verifying_key(*vk);
  auto pub_json = public_from_snarkjs_json(slurp(d + "public.json"));
  ASSERT_TRUE(pub_json.ok());
  EXPECT_TRUE(*verify(pvk, *pub_json, *proof));
  if (std::string(c.dir) != "poseidon_trapdoor") {  // no snarkjs proof was recorded for it
    auto theirs = proof_from_snarkjs_json(slurp(d + "proof_snarkjs.json"));
    ASSERT_TRUE(theirs.ok()) << theirs.status().to_string();
    EXPECT_TRUE(*verify(pvk, *pub_json, *theirs));
    Proof bad = *theirs;
    std::swap(bad.a, bad.c);
    EXPECT_FALSE(*verify(pvk, *pub_json, bad));
  }
  std::vector<Fr> bad_pub = *pub_json;
  bad_pub.back() += Fr::one();
  EXPECT_FALSE(*verify(pvk, bad_pub, *proof));
}

INSTANTIATE_TEST_SUITE_P(
    Oracle, SnarkjsKat,
    ::testing::Values(Case{"poseidon", "poseidon.zkey", "poseidon/poseidon.wtns"},
                      Case{"mulchain_1021", "mulchain_1021.zkey",
                           "mulchain_1021/mulchain_1021.wtns"},
                      Case{"poseidon_trapdoor", "poseidon_td.zkey", "poseidon/poseidon.wtns"}),
    [](const auto& info) { return std::string(info.param.dir); });

TEST(SnarkjsKatSetup, TrapdoorSetupReproducesTheTrapdoorZkey) {
  ThreadPool pool(2);
  const auto td_json =
      nlohmann::json::parse(slurp(kDir + "/poseidon_trapdoor/poseidon_trapdoor.json"));
  auto f = [&](const char* k) { return *Fr::from_dec(td_json[k].get<std::string>()); };
  const Trapdoor td{f("tau"), f("alpha"), f("beta"), f("gamma"), f("delta")};
  auto r1cs = read_circom_r1cs(kDir + "/poseidon/poseidon.r1cs");
  ASSERT_TRUE(r1cs.ok()) << r1cs.status().to_string();
  auto pk = setup_with_trapdoor(r1cs->matrices, td, {.layout = KeyLayout::snarkjs, .pool = &pool});
  ASSERT_TRUE(pk.ok()) << pk.status().to_string();
  auto ref = read_zkey(kDir + "/poseidon_trapdoor/poseidon_td.zkey",
                       {.check_subgroup = false, .pool = &pool});
  ASSERT_TRUE(ref.ok()) << ref.status().to_string();
  EXPECT_EQ(pk->domain_size, ref->pk.domain_size);
  EXPECT_TRUE(pk->vk == ref->pk.vk);
  EXPECT_TRUE(pk->h == ref->pk.h);
  EXPECT_TRUE(pk->l == ref->pk.l);
  EXPECT_TRUE(pk->a == ref->pk.a);
  EXPECT_TRUE(pk->b_g1 == ref->pk.b_g1);
  EXPECT_TRUE(pk->b_g2 == ref->pk.b_g2);

  // Our zkey image parses back to the same key and the same A/B rows as the reference file.
  auto img = write_zkey(*pk, r1cs->matrices, &pool);
  ASSERT_TRUE(img.ok()) << img.status().to_string();
  auto back = parse_zkey(*img, {.check_subgroup = false, .pool = &pool});
  ASSERT_TRUE(back.ok()) << back.status().to_string();
  EXPECT_TRUE(back->pk == ref->pk);
  EXPECT_TRUE(back->matrices.a == ref->matrices.a);
  EXPECT_TRUE(back->matrices.b == ref->matrices.b);
  EXPECT_EQ(back->matrices.num_constraints, ref->matrices.num_constraints);
  // Byte-identical except for the order of the coefficient entries (section 4 has the same size).
  auto ref_bytes = slurp(kDir + "/poseidon_trapdoor/poseidon_td.zkey");
  EXPECT_EQ(img->size(), ref_bytes.size());
}

}  // namespace
}  // namespace cuzk
