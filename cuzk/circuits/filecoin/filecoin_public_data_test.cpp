// The public-data API (filecoin_public_data.hpp) against real Groth16 proofs of an independent
// implementation: eigerco/polka-storage's 2 KiB PoRep and WindowPoSt proofs with their own setup
// (shared/filecoin polka-2kib/*.json, CUZK_FILECOIN_DATA). Each verifies with
// partition_public_inputs of its public data alone, and fails when one input changes or with
// other public data (another sector id, randomness, or — under V1 — partition position).
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "cuzk/circuits/filecoin/filecoin_public_data.hpp"
#include "cuzk/ec/encoding.hpp"
#include "cuzk/filecoin/node.hpp"
#include "cuzk/formats/bellperson.hpp"
#include "cuzk/groth16/verify.hpp"
#include "tests/support/filecoin_data.hpp"

namespace cuzk::circuits::filecoin {
namespace {

namespace fc = cuzk::filecoin;

// polka-2kib "encoding": alpha_g1, beta_g1, beta_g2, gamma_g2, delta_g1, delta_g2 compressed,
// u32 big-endian IC count, IC points compressed.
Result<VerifyingKey> read_polka_vk(const std::vector<std::uint8_t>& b) {
  std::size_t at = 0;
  bool short_read = false;
  auto g1 = [&](G1Affine& out) {
    if (at + 48 > b.size()) return short_read = true, void();
    auto p = g1_from_compressed(std::span<const std::uint8_t, 48>(b.data() + at, 48));
    at += 48;
    if (!p.ok()) return short_read = true, void();
    out = *p;
  };
  auto g2 = [&](G2Affine& out) {
    if (at + 96 > b.size()) return short_read = true, void();
    auto p = g2_from_compressed(std::span<const std::uint8_t, 96>(b.data() + at, 96));
    at += 96;
    if (!p.ok()) return short_read = true, void();
    out = *p;
  };
  VerifyingKey vk;
  g1(vk.alpha_g1), g1(vk.beta_g1), g2(vk.beta_g2), g2(vk.gamma_g2), g1(vk.delta_g1);
  g2(vk.delta_g2);
  if (short_read || at + 4 > b.size()) return Status(Errc::bad_encoding, "polka vk header");
  const std::uint32_t n = std::uint32_t{b[at]} << 24 | std::uint32_t{b[at + 1]} << 16 |
                          std::uint32_t{b[at + 2]} << 8 | b[at + 3];
  at += 4;
  vk.ic.resize(n);
  for (G1Affine& p : vk.ic) g1(p);
  if (short_read || at != b.size()) return Status(Errc::bad_encoding, "polka vk points");
  return vk;
}

struct Vector {
  nlohmann::json j;
  std::vector<std::uint8_t> bytes(const char* key) const {
    const std::string s = j.at(key).get<std::string>();
    return fc::parse_hex(s, s.size() / 2).value();
  }
  fc::Bytes32 node(const char* key) const {
    return fc::parse_hex32(j.at(key).get<std::string>(), key).value();
  }
};

std::optional<Vector> load(const char* name) {
  std::ifstream in(*cuzk::test::filecoin_data_dir() / "polka-2kib" / name);
  if (!in) return std::nullopt;
  return Vector{nlohmann::json::parse(in)};
}

// |inputs| verify |proof_hex| under the vector's key; each changed input fails.
template <class Public>
void expect_verifies_exactly(const Vector& v, const Public& pub, const Public& other) {
  auto vk = read_polka_vk(v.bytes("verifying_key_hex"));
  ASSERT_TRUE(vk.ok()) << vk.status().to_string();
  auto proofs = parse_proofs(v.bytes("proof_hex"));
  ASSERT_TRUE(proofs.ok() && proofs->size() == 1);
  const PreparedVerifyingKey pvk = prepare_verifying_key(*vk);
  ASSERT_EQ(partition_count(pub), 1u);
  auto inputs = partition_public_inputs(pub, 0);
  ASSERT_TRUE(inputs.ok()) << inputs.status().to_string();
  ASSERT_EQ(inputs->size() + 1, vk->ic.size());
  EXPECT_TRUE(*verify(pvk, *inputs, (*proofs)[0]));
  for (std::size_t i = 0; i < inputs->size(); ++i) {
    auto changed = *inputs;
    changed[i] = changed[i] + Fr::one();
    EXPECT_FALSE(*verify(pvk, changed, (*proofs)[0])) << "input " << i << " changed";
  }
  auto wrong = partition_public_inputs(other, 0);
  ASSERT_TRUE(wrong.ok());
  EXPECT_FALSE(*verify(pvk, *wrong, (*proofs)[0]));
}

TEST(FilecoinPublicData, PolkaStoragePorepProofVerifies) {
  CUZK_REQUIRE_FILECOIN_DATA();
  auto v = load("porep_2kib.json");
  ASSERT_TRUE(v.has_value());
  // StackedDRG2KiBV1P1: API 1.1.0 with the record's porep_id (zero).
  PorepPublicData pub{.proof = fc::seal_proof("StackedDrg2KiBV1_1").value(),
                      .prover_id = v->node("prover_id_hex"),
                      .sector_id = v->j.at("sector").get<std::uint64_t>(),
                      .ticket = v->node("ticket_hex"),
                      .seed = v->node("seed_hex"),
                      .comm_d = v->node("comm_d_hex"),
                      .comm_r = v->node("comm_r_hex")};
  const fc::Bytes32 porep_id = v->node("porep_id_hex");
  std::copy(porep_id.begin(), porep_id.end(), pub.proof.porep_id.begin());
  PorepPublicData other = pub;
  other.sector_id += 1;  // another replica_id
  expect_verifies_exactly(*v, pub, other);
  EXPECT_EQ(parameter_set(pub).params_file(),
            fc::porep_parameters(fc::SectorSize::s2KiB).params_file());
}

TEST(FilecoinPublicData, PolkaStorageWindowPostProofVerifies) {
  CUZK_REQUIRE_FILECOIN_DATA();
  auto v = load("post_2kib.json");
  ASSERT_TRUE(v.has_value());
  // One sector in partition 0 (the circuit's second sector repeats it). StackedDRGWindow2KiBV1P1
  // is filecoin-proofs-api's V1_2 (challenge indexes independent of the sector's position).
  WindowPostPublicData pub{
      .proof = fc::post_proof("StackedDrgWindow2KiBV1_2").value(),
      .randomness = v->node("randomness_hex"),
      .sectors = {{v->j.at("sector").get<std::uint64_t>(), v->node("comm_r_hex")}},
      .partition_index = 0};
  WindowPostPublicData other = pub;
  other.randomness[0] ^= 1;
  expect_verifies_exactly(*v, pub, other);
  // The position rule: at position 0 V1 and V1_2 draw the same challenges; as partition 1
  // (position 2) V1's differ and V1_2's do not (the grindability fix drops the position).
  auto vk = read_polka_vk(v->bytes("verifying_key_hex"));
  ASSERT_TRUE(vk.ok());
  auto proofs = parse_proofs(v->bytes("proof_hex"));
  ASSERT_TRUE(proofs.ok());
  const PreparedVerifyingKey pvk = prepare_verifying_key(*vk);
  auto verifies = [&](const WindowPostPublicData& d) {
    return *verify(pvk, *partition_public_inputs(d, 0), (*proofs)[0]);
  };
  WindowPostPublicData moved = pub;
  moved.partition_index = 1;
  EXPECT_TRUE(verifies(moved));
  WindowPostPublicData v1 = pub;
  v1.proof = fc::post_proof("StackedDrgWindow2KiBV1").value();
  EXPECT_TRUE(verifies(v1));
  v1.partition_index = 1;
  EXPECT_FALSE(verifies(v1));
  // A job's one partition: k > 0 is refused; so is a partition of more than sector_count sectors.
  EXPECT_EQ(partition_public_inputs(pub, 1).status().code(), Errc::out_of_range);
  WindowPostPublicData three = pub;
  three.sectors.resize(3, pub.sectors[0]);
  EXPECT_EQ(partition_public_inputs(three, 0).status().code(), Errc::invalid_argument);
  WindowPostPublicData none = pub;
  none.sectors.clear();
  EXPECT_EQ(partition_public_inputs(none, 0).status().code(), Errc::invalid_argument);
}

}  // namespace
}  // namespace cuzk::circuits::filecoin
