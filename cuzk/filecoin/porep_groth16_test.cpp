// The strongest check of the PoRep challenges and the SDR graph's parents: a real Groth16 proof
// over the Filecoin 2 KiB PoRep circuit (eigerco/polka-storage, its own setup; shared/filecoin
// polka-2kib/porep_2kib.json) verifies with the public inputs computed here, and fails when any
// one of them changes. Needs CUZK_FILECOIN_DATA.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cuzk/ec/encoding.hpp"
#include "cuzk/filecoin/porep_public_inputs.hpp"
#include "cuzk/filecoin/replica_id.hpp"
#include "cuzk/formats/bellperson.hpp"
#include "cuzk/groth16/verify.hpp"

namespace cuzk::filecoin {
namespace {

namespace fs = std::filesystem;

// The vk as the JSON's "encoding" says: alpha_g1, beta_g1, beta_g2, gamma_g2, delta_g1, delta_g2
// (compressed), u32 big-endian IC count, IC points.
Result<VerifyingKey> parse_polka_vk(const std::vector<std::uint8_t>& b) {
  std::size_t at = 0;
  auto g1 = [&]() -> Result<G1Affine> {
    if (at + 48 > b.size()) return Status(Errc::truncated, "vk ends at " + std::to_string(at));
    auto p = g1_from_compressed(std::span<const std::uint8_t, 48>(b.data() + at, 48));
    at += 48;
    return p;
  };
  auto g2 = [&]() -> Result<G2Affine> {
    if (at + 96 > b.size()) return Status(Errc::truncated, "vk ends at " + std::to_string(at));
    auto p = g2_from_compressed(std::span<const std::uint8_t, 96>(b.data() + at, 96));
    at += 96;
    return p;
  };
  VerifyingKey vk;
  {
    auto r_ = g1();
    if (!r_.ok()) return r_.status();
    vk.alpha_g1 = *r_;
  }
  {
    auto r_ = g1();
    if (!r_.ok()) return r_.status();
    vk.beta_g1 = *r_;
  }
  {
    auto r_ = g2();
    if (!r_.ok()) return r_.status();
    vk.beta_g2 = *r_;
  }
  {
    auto r_ = g2();
    if (!r_.ok()) return r_.status();
    vk.gamma_g2 = *r_;
  }
  {
    auto r_ = g1();
    if (!r_.ok()) return r_.status();
    vk.delta_g1 = *r_;
  }
  {
    auto r_ = g2();
    if (!r_.ok()) return r_.status();
    vk.delta_g2 = *r_;
  }
  if (at + 4 > b.size()) return Status(Errc::truncated, "vk: no IC count");
  const std::uint32_t n = std::uint32_t{b[at]} << 24 | std::uint32_t{b[at + 1]} << 16 |
                          std::uint32_t{b[at + 2]} << 8 | b[at + 3];
  at += 4;
  for (std::uint32_t i = 0; i < n; ++i) {
    G1Affine p;
    {
      auto r_ = g1();
      if (!r_.ok()) return r_.status();
      p = *r_;
    }
    vk.ic.push_back(p);
  }
  if (at != b.size()) return Status(Errc::size_mismatch, "vk: trailing bytes");
  return vk;
}

TEST(PorepGroth16, PolkaStorageTwoKiBProofVerifiesWithOurPublicInputs) {
  const char* data_dir = std::getenv("CUZK_FILECOIN_DATA");
  if (!data_dir)
    GTEST_SKIP() << "CUZK_FILECOIN_DATA is unset: polka-2kib/porep_2kib.json is needed";
  std::ifstream in(fs::path(data_dir) / "polka-2kib" / "porep_2kib.json");
  ASSERT_TRUE(in) << "cannot open polka-2kib/porep_2kib.json";
  const nlohmann::json j = nlohmann::json::parse(in);
  auto bytes = [&](const char* key) {
    return parse_hex(j.at(key).get<std::string>(), j.at(key).get<std::string>().size() / 2).value();
  };
  auto node = [&](const char* key) {
    return parse_hex32(j.at(key).get<std::string>(), key).value();
  };

  auto vk = parse_polka_vk(bytes("verifying_key_hex"));
  ASSERT_TRUE(vk.ok()) << vk.status().to_string();
  ASSERT_EQ(vk->ic.size(), 40u);  // 39 inputs: 3 + 18 per challenge, 2 challenges
  auto proofs = parse_proofs(bytes("proof_hex"));
  ASSERT_TRUE(proofs.ok()) << proofs.status().to_string();
  ASSERT_EQ(proofs->size(), 1u);

  // StackedDRG2KiBV1P1 = API 1.1.0 with porep_id 0 (the record's porep_id_hex).
  SealProof proof = seal_proof("StackedDrg2KiBV1_1").value();
  const Node porep_id = node("porep_id_hex");
  std::copy(porep_id.begin(), porep_id.end(), proof.porep_id.begin());
  const Node comm_d = node("comm_d_hex"), comm_r = node("comm_r_hex"), seed = node("seed_hex");
  const Node rid = replica_id(node("prover_id_hex"), j.at("sector").get<std::uint64_t>(),
                              node("ticket_hex"), comm_d, proof.porep_id);
  auto inputs = porep_partition_public_inputs(proof, rid, comm_d, comm_r, seed, 0);
  ASSERT_TRUE(inputs.ok());
  ASSERT_EQ(inputs->size(), 39u);

  const PreparedVerifyingKey pvk = prepare_verifying_key(*vk);
  auto ok = verify(pvk, *inputs, (*proofs)[0]);
  ASSERT_TRUE(ok.ok()) << ok.status().to_string();
  EXPECT_TRUE(*ok) << "the proof does not verify with the derived public inputs";

  for (std::size_t i = 0; i < inputs->size(); ++i) {
    auto changed = *inputs;
    changed[i] = changed[i] + Fr::one();
    auto bad = verify(pvk, changed, (*proofs)[0]);
    ASSERT_TRUE(bad.ok());
    EXPECT_FALSE(*bad) << "input " << i << " changed and still verifies";
  }
  // Another seed gives other challenges, so other inputs, and the proof fails.
  Node seed2 = seed;
  seed2[0] ^= 1;
  auto other = porep_partition_public_inputs(proof, rid, comm_d, comm_r, seed2, 0);
  ASSERT_TRUE(other.ok());
  EXPECT_FALSE(*verify(pvk, *other, (*proofs)[0]));
  // The API 1.0.0 graph (predecessor in slot 5) gives other parents.
  SealProof v1 = proof;
  v1.api = ApiVersion::v1_0_0;
  auto v1_inputs = porep_partition_public_inputs(v1, rid, comm_d, comm_r, seed, 0);
  EXPECT_FALSE(*verify(pvk, *v1_inputs, (*proofs)[0]));
}

}  // namespace
}  // namespace cuzk::filecoin
