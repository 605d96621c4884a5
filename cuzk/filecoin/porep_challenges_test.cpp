#include "cuzk/filecoin/porep_challenges.hpp"

#include <gtest/gtest.h>

#include <string>

namespace cuzk::filecoin {
namespace {

Node hex32(std::string_view h) { return parse_hex32(h, "test").value(); }

std::span<const std::uint8_t> bytes_of(std::string_view s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

// Values from Python hashlib (sha256, int.from_bytes(..., 'little') % (nodes - 1) + 1).
const Node kReplicaId = hex32("00070e151c232a31383f464d545b626970777e858c939aa1a8afb6bdc4cbd219");
const Node kSeed = hex32("a5a4a7a6a1a0a3a2adacafaea9a8abaab5b4b7b6b1b0b3b2bdbcbfbeb9b8bbba");
const Node kCommR = hex32("0104070a0d101316191c1f2225282b2e3134373a3d404346494c4f5255585b1e");

TEST(PorepChallenges, InteractiveMatchesHashlib) {
  using V = std::vector<std::uint64_t>;
  EXPECT_EQ(interactive_challenges(64, kReplicaId, kSeed, 4, 0), (V{59, 23, 63, 56}));
  EXPECT_EQ(interactive_challenges(1 << 18, kReplicaId, kSeed, 4, 0),
            (V{81896, 31649, 180684, 209027}));
  EXPECT_EQ(interactive_challenges(1 << 30, kReplicaId, kSeed, 4, 0),
            (V{1018692041, 699441521, 864095715, 953990408}));
  // Partition k numbers its challenges from k·per_partition.
  EXPECT_EQ(interactive_challenges(1 << 18, kReplicaId, kSeed, 2, 1), (V{180684, 209027}));
}

TEST(PorepChallenges, NonInteractiveMatchesHashlib) {
  using V = std::vector<std::uint64_t>;
  EXPECT_EQ(non_interactive_challenges(64, kReplicaId, kCommR, 4, 0), (V{4, 4, 54, 16}));
  EXPECT_EQ(non_interactive_challenges(1 << 18, kReplicaId, kCommR, 2, 1), (V{181746, 258379}));
  EXPECT_EQ(non_interactive_challenges(1 << 30, kReplicaId, kCommR, 4, 0),
            (V{4180621, 85305028, 230198715, 984712822}));
}

TEST(PorepChallenges, ChaCha20Rfc8439Block) {
  // RFC 8439 §2.3.2: key 00..1f, nonce 000000090000004a00000000, block counter 1.
  std::array<std::uint8_t, 32> key;
  for (int i = 0; i < 32; ++i) key[i] = static_cast<std::uint8_t>(i);
  const std::array<std::uint8_t, 12> nonce = {0, 0, 0, 9, 0, 0, 0, 0x4a, 0, 0, 0, 0};
  std::array<std::uint8_t, 64> out;
  chacha20_keystream(key, nonce, 64, out);
  EXPECT_EQ(to_hex(out),
            "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e"
            "d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e");
  // Any offset reads the same stream.
  std::array<std::uint8_t, 200> all;
  chacha20_keystream(key, nonce, 0, all);
  for (std::uint64_t off : {1u, 37u, 63u, 64u, 100u}) {
    std::array<std::uint8_t, 50> part;
    chacha20_keystream(key, nonce, off, part);
    EXPECT_TRUE(std::equal(part.begin(), part.end(), all.begin() + off)) << off;
  }
}

TEST(PorepChallenges, KeyedBlake2bMatchesHashlib) {
  std::array<std::uint8_t, 64> msg;
  std::copy(kReplicaId.begin(), kReplicaId.end(), msg.begin());
  std::copy(kCommR.begin(), kCommR.end(), msg.begin() + 32);
  // hashlib.blake2b(msg, key=b"filecoin.io|PoRep|1|Synthetic|1|Generation", digest_size=32)
  EXPECT_EQ(to_hex(blake2b256_keyed(bytes_of("filecoin.io|PoRep|1|Synthetic|1|Generation"), msg)),
            "ca1fada292c3b38efa8f79e8dc3f1e38778d8a6a30b717dcfd633320d8927dd6");
}

TEST(PorepChallenges, SyntheticMatchesUpstreamHardcoded) {
  // storage-proofs-porep challenges.rs test_synth_challenges_against_hardcoded: 2^10 nodes,
  // replica_id = Fr(55), comm_r = Fr(101), 21 synthetic challenges, rand = [1; 32].
  Node rid{}, comm_r{}, rand;
  rid[0] = 55;
  comm_r[0] = 101;
  rand.fill(1);
  const SynthChallenges synth(1 << 10, rid, comm_r, 21);
  const std::vector<std::uint64_t> expected_synth = {178, 297, 869, 211, 875, 477, 94,
                                                     781, 124, 332, 856, 801, 176, 692,
                                                     429, 691, 290, 204, 986, 210, 973};
  for (std::uint64_t t = 0; t < 21; ++t) EXPECT_EQ(synth.challenge(t), expected_synth[t]) << t;
  EXPECT_EQ(synth.partition_challenges(rand, 10, 0),
            (std::vector<std::uint64_t>{176, 781, 801, 986, 290, 211, 692, 856, 986, 332}));
  // Partition k continues the selection stream: 2 partitions of 5 are the 10 above.
  auto p1 = synth.partition_challenges(rand, 5, 1);
  EXPECT_EQ(p1, (std::vector<std::uint64_t>{211, 692, 856, 986, 332}));
}

TEST(PorepChallenges, CountsPerScheme) {
  struct Want {
    const char* name;
    PorepScheme scheme;
    unsigned partitions, per_partition;
  };
  for (const Want& w :
       {Want{"StackedDrg2KiBV1", PorepScheme::interactive, 1, 2},
        Want{"StackedDrg8MiBV1_1", PorepScheme::interactive, 1, 2},
        Want{"StackedDrg32GiBV1_1", PorepScheme::interactive, 10, 18},
        Want{"StackedDrg64GiBV1_1_Feat_SyntheticPoRep", PorepScheme::synthetic, 10, 18},
        Want{"StackedDrg2KiBV1_1_Feat_SyntheticPoRep", PorepScheme::synthetic, 1, 2},
        Want{"StackedDrg2KiBV1_2_Feat_NonInteractivePoRep", PorepScheme::non_interactive, 13, 2},
        Want{"StackedDrg32GiBV1_2_Feat_NonInteractivePoRep", PorepScheme::non_interactive, 126,
             18}}) {
    const auto c = porep_challenge_config(seal_proof(w.name).value());
    EXPECT_EQ(c.scheme, w.scheme) << w.name;
    EXPECT_EQ(c.partitions, w.partitions) << w.name;
    EXPECT_EQ(c.per_partition, w.per_partition) << w.name;
  }
}

TEST(PorepChallenges, NeverNodeZeroAndInRange) {
  for (std::uint64_t nodes : {64ull, 1ull << 18}) {
    for (unsigned k = 0; k < 50; ++k) {
      for (auto c : interactive_challenges(nodes, kReplicaId, kSeed, 18, k)) {
        EXPECT_GE(c, 1u);
        EXPECT_LT(c, nodes);
      }
    }
  }
}

}  // namespace
}  // namespace cuzk::filecoin
