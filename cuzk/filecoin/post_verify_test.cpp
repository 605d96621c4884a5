// The PoSt vanilla verifier: synthetic proofs of every size from sparse trees hashed with the
// reference Poseidon (WindowPoSt V1 and V1_2 with several sectors and a partition index,
// WinningPoSt), each of which verifies and fails with the named field when one value changes; and
// the real 32 GiB WindowPoSt proof of Curio (CUZK_FILECOIN_DATA) with its public info, which
// verifies and fails, naming the field, when any of several chosen bytes changes.
#include "cuzk/filecoin/post_verify.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "cuzk/filecoin/post_challenges.hpp"
#include "cuzk/filecoin/vanilla_test_util.hpp"

namespace cuzk::filecoin {
namespace {

// An honest prover's proof of |sector_id| at |sector_index|, and its public data.
std::pair<PostPublicSector, FallbackPoStSectorProof> make_sector(const PostProof& proof,
                                                                 const Bytes32& randomness,
                                                                 std::uint64_t sector_id,
                                                                 std::uint64_t sector_index,
                                                                 std::mt19937_64& rng) {
  const std::vector<std::uint64_t> leaves =
      post_sector_challenges(proof, randomness, sector_id, sector_index);
  testing::SparseTree tree(tree_shape(proof.size), sector_nodes(proof.size), leaves, rng());
  PostSectorProof sp;
  for (std::uint64_t leaf : leaves) sp.inclusion_proofs.push_back(tree.proof(leaf));
  sp.comm_c = testing::random_node(rng);
  sp.comm_r_last = tree.root();
  const Fr pair[2] = {*fr_from_bytes32(sp.comm_c, "comm_c"),
                      *fr_from_bytes32(sp.comm_r_last, "comm_r_last")};
  const Bytes32 comm_r = bytes32_from_fr(hash::poseidon_hash_reference(
      *hash::poseidon_constants(2), hash::poseidon_merkle_tag(2), pair));
  FallbackPoStSectorProof v;
  v.sector_id = sector_id;
  v.comm_r = comm_r;
  v.sectors = {sp};
  return {{sector_id, comm_r}, v};
}

void expect_fails(const PostProof& proof, const Bytes32& randomness,
                  const std::vector<PostPublicSector>& pub,
                  const std::vector<FallbackPoStSectorProof>& vanilla, const std::string& needle,
                  std::optional<std::uint64_t> k = std::nullopt) {
  Status s = verify_post_vanilla(proof, randomness, pub, vanilla, k);
  ASSERT_FALSE(s.ok()) << needle;
  EXPECT_NE(s.message().find(needle), std::string::npos) << s.message();
}

TEST(PostVerify, SyntheticEverySizeAndRule) {
  const std::uint64_t seed = testing::fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed) + " (replay with CUZK_SEED)");
  std::mt19937_64 rng(seed);
  for (const PostProof& proof : post_proofs()) {
    SCOPED_TRACE(proof.name);
    const Bytes32 randomness = testing::random_node(rng);
    const unsigned n = proof.kind == PostKind::winning ? 1 : 3;
    std::vector<PostPublicSector> pub;
    std::vector<FallbackPoStSectorProof> vanilla;
    for (unsigned i = 0; i < n; ++i) {
      auto [p, v] = make_sector(proof, randomness, 1000 + 7 * i, i, rng);
      pub.push_back(p);
      vanilla.push_back(v);
    }
    Status s = verify_post_vanilla(proof, randomness, pub, vanilla);
    ASSERT_TRUE(s.ok()) << s.to_string();
    // Proofs are matched by sector id, not by position.
    std::vector<FallbackPoStSectorProof> reversed(vanilla.rbegin(), vanilla.rend());
    EXPECT_TRUE(verify_post_vanilla(proof, randomness, pub, reversed).ok());

    const std::string s0 = "sector " + std::to_string(pub[0].sector_id);
    auto changed = [&](auto edit, const std::string& needle) {
      std::vector<FallbackPoStSectorProof> v = vanilla;
      edit(v[0]);
      expect_fails(proof, randomness, pub, v, needle);
    };
    changed([](auto& v) { v.sectors[0].comm_c[0] ^= 1; }, s0 + ": comm_c: Poseidon2");
    changed([](auto& v) { v.sectors[0].comm_r_last[0] ^= 1; }, "is not comm_r_last");
    changed([](auto& v) { v.sectors[0].inclusion_proofs[0].leaf[0] ^= 1; },
            s0 + ", challenge 0 (leaf ");
    changed([](auto& v) { v.sectors[0].inclusion_proofs.back().base_path[0].hashes[2][0] ^= 1; },
            "do not hash to the proof's root");
    changed([](auto& v) { v.sectors[0].inclusion_proofs[0].root[1] ^= 1; },
            "inclusion_proofs[0]: the leaf and the path hashes do not hash");
    changed(
        [](auto& v) {
          auto& e = v.sectors[0].inclusion_proofs[0].base_path[0];
          e.index = (e.index + 1) % 8;
        },
        "inclusion_proofs[0] path index bits show leaf");
    changed([](auto& v) { v.sectors[0].inclusion_proofs.pop_back(); }, "inclusion proofs, ");
    changed([](auto& v) { v.sectors[0].inclusion_proofs[0].base_path.pop_back(); }, "levels");
    changed([](auto& v) { v.comm_r[0] ^= 1; }, s0 + ": comm_r: the vanilla proof has");
    changed([](auto& v) { v.sectors.push_back(v.sectors[0]); }, "vanilla_proof.sectors: 2");
    // Another randomness changes every challenge.
    Bytes32 other = randomness;
    other[0] ^= 1;
    expect_fails(proof, other, pub, vanilla, "path index bits show leaf");
    if (proof.kind == PostKind::window) {
      // The sector order decides the challenges under the V1 rule only.
      std::vector<PostPublicSector> swapped = pub;
      std::swap(swapped[0], swapped[1]);
      Status sw = verify_post_vanilla(proof, randomness, swapped, vanilla);
      EXPECT_EQ(sw.ok(), proof.api == ApiVersion::v1_2_0) << sw.to_string();
      // As partition 1 the sectors sit at positions sector_count.. instead of 0..
      Status k1 = verify_post_vanilla(proof, randomness, {pub.data(), 1}, {vanilla.data(), 1}, 1);
      EXPECT_EQ(k1.ok(), proof.api == ApiVersion::v1_2_0) << k1.to_string();
      expect_fails(proof, randomness, pub, {vanilla[0], vanilla[1], vanilla[1]},
                   "sector " + std::to_string(pub[2].sector_id) + ": no vanilla proof");
    }
  }
}

// Public info of curio-32gib-post (postpub.json): WindowPoSt proof type 8 =
// StackedDrgWindow32GiBV1, sector 1 of f01000, randomness 32 zero bytes, and comm_r = the digest
// of SealedCID bagboea4b5abcbx3jccdohrttzfneleehcpkmle4oltwuh4q3rcf5tpdodaoj6mtl (CIDv1,
// fil-commitment-sealed, poseidon-bls12_381-a2-fc1, 32 bytes; decoded with a Python script).
constexpr const char* kCurioCommR =
    "df691086e3c673c95a45908713d4c5938e5ced43f21b888bd9bc6e181c9f326b";
constexpr std::uint64_t kCurioSectorId = 1;

std::vector<std::uint8_t> curio_proof_bytes() {
  const char* dir = std::getenv("CUZK_FILECOIN_DATA");
  if (!dir) return {};
  std::ifstream f(std::string(dir) + "/curio-32gib-post/post.vproof", std::ios::binary);
  return {std::istreambuf_iterator<char>(f), {}};
}

Status verify_curio(const std::vector<std::uint8_t>& bytes) {
  auto v = read_post_sector_proof(bytes);
  if (!v.ok()) return v.status();
  const PostPublicSector pub{kCurioSectorId, *parse_hex32(kCurioCommR, "comm_r")};
  return verify_post_vanilla(*post_proof("StackedDrgWindow32GiBV1"), Bytes32{}, {&pub, 1},
                             {&*v, 1});
}

TEST(PostVerify, CurioRealProofVerifies) {
  if (!std::getenv("CUZK_FILECOIN_DATA"))
    GTEST_SKIP() << "CUZK_FILECOIN_DATA is unset: the real Curio PoSt proof is not read";
  const std::vector<std::uint8_t> bytes = curio_proof_bytes();
  ASSERT_EQ(bytes.size(), 24960u);
  Status s = verify_curio(bytes);
  EXPECT_TRUE(s.ok()) << s.to_string();
  // The V1_2 rule derives the same challenges for the first sector of a PoSt.
  auto v = read_post_sector_proof(bytes);
  const PostPublicSector pub{kCurioSectorId, *parse_hex32(kCurioCommR, "comm_r")};
  EXPECT_TRUE(
      verify_post_vanilla(*post_proof("StackedDrgWindow32GiBV1_2"), Bytes32{}, {&pub, 1}, {&*v, 1})
          .ok());
  // At another position in the PoSt the V1 rule derives other challenges.
  EXPECT_FALSE(
      verify_post_vanilla(*post_proof("StackedDrgWindow32GiBV1"), Bytes32{}, {&pub, 1}, {&*v, 1}, 1)
          .ok());
}

TEST(PostVerify, CurioRealProofWithOneByteChanged) {
  if (!std::getenv("CUZK_FILECOIN_DATA"))
    GTEST_SKIP() << "CUZK_FILECOIN_DATA is unset: the real Curio PoSt proof is not read";
  const std::vector<std::uint8_t> good = curio_proof_bytes();
  ASSERT_EQ(good.size(), 24960u);
  // Offsets from the layout (FORMATS.md §7): the first inclusion proof starts at byte 56, each
  // is 2,484 bytes (u32 variant, 9 base levels and 1 sub level of 240 bytes with their u64
  // counts, root, leaf); comm_c and comm_r_last are the last 64 bytes.
  struct Case {
    std::size_t at;
    std::uint8_t (*edit)(std::uint8_t);
    const char* needle;
  };
  const auto flip = [](std::uint8_t b) -> std::uint8_t { return b ^ 1; };
  const auto next_index = [](std::uint8_t b) -> std::uint8_t { return (b + 1) % 8; };
  const Case cases[] = {
      {0, flip, "sector 1: no vanilla proof has it"},
      {8, flip, "sector 1: comm_r: the vanilla proof has"},
      {80, flip, "challenge 0 (leaf 707914199): inclusion_proofs[0]: the leaf and the path hashes"},
      {300, next_index, "challenge 0 (leaf 707914199): inclusion_proofs[0] path index bits"},
      {56 + 3 * 2484 + 4 + 8 + 5 * 240 + 8 + 100, flip,
       "challenge 3 (leaf 548708700): inclusion_proofs[3]: the leaf and the path hashes"},
      {56 + 2484 - 32 + 2, flip, "challenge 0 (leaf 707914199): inclusion_proofs[0]: the leaf"},
      {56 + 6 * 2484 - 64 + 1, flip, "challenge 5 (leaf 6202012): inclusion_proofs[5]: the leaf"},
      {24896, flip, "sector 1: comm_c: Poseidon2(comm_c, comm_r_last)"},
      {24928, flip, "inclusion_proofs[0].root f56b7f7f"},
  };
  for (const Case& c : cases) {
    std::vector<std::uint8_t> bad = good;
    bad[c.at] = c.edit(bad[c.at]);
    Status s = verify_curio(bad);
    ASSERT_FALSE(s.ok()) << "byte " << c.at;
    EXPECT_NE(s.message().find(c.needle), std::string::npos)
        << "byte " << c.at << ": " << s.message();
  }
}

}  // namespace
}  // namespace cuzk::filecoin
