// SnapDeals: the gen-randomness Poseidon against an independent value, the public parameters and
// challenges against storage-proofs-update's constants and hard-coded test vectors, inclusion
// proofs of every tree shape, and a 2 KiB sector sealed, updated (fast path vs the slow twin),
// decoded, proven, written, read back and verified, with every kind of tampering refused by name.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <random>

#include "cuzk/filecoin/merkle_prove.hpp"
#include "cuzk/filecoin/sector_dir.hpp"
#include "cuzk/filecoin/snap_encode.hpp"
#include "cuzk/filecoin/snap_params.hpp"
#include "cuzk/filecoin/snap_prove.hpp"
#include "cuzk/filecoin/snap_test_util.hpp"
#include "cuzk/filecoin/snap_verify.hpp"
#include "cuzk/filecoin/tree_d.hpp"
#include "cuzk/filecoin/update_dir.hpp"

namespace cuzk::filecoin {
namespace {

namespace fs = std::filesystem;

// A big-endian hex constant as Fr.
Fr fr_be(std::string_view hex) {
  Node n = parse_hex32(hex, "test constant").value();
  std::reverse(n.begin(), n.end());
  return fr_from_node(n).value();
}

TEST(SnapRandomness, Custom1ArityTwoKnownAnswer) {
  // FORMATS.md §5, "Extra Poseidon values (our Python, not upstream)": arity-2 Custom(1) (0, 1).
  EXPECT_EQ(snap_gen_randomness(Fr::zero(), Fr::one()),
            fr_be("314a35c4e7f0924ead1fc58134a0fe25e3580bea397367c7e5a74ec4bc077758"));
  EXPECT_EQ(snap_phi(Fr::zero(), Fr::one()), snap_gen_randomness(Fr::zero(), Fr::one()));
  EXPECT_EQ(snap_rho(Fr::zero(), 1), snap_gen_randomness(Fr::zero(), Fr::one()));
}

TEST(SnapParamsTest, ConstantsOfStorageProofsUpdate) {
  // constants.rs: partition_count, challenge_count, apex_leaf_count, hs, h_default.
  struct Want {
    SectorSize size;
    unsigned partitions, challenges, apex, h_default, h0;
  };
  for (const Want& w :
       {Want{SectorSize::s2KiB, 1, 10, 8, 1, 1}, Want{SectorSize::s8MiB, 4, 10, 128, 10, 7},
        Want{SectorSize::s512MiB, 16, 86, 128, 10, 7}, Want{SectorSize::s32GiB, 16, 86, 128, 10, 7},
        Want{SectorSize::s64GiB, 16, 86, 128, 10, 7}}) {
    const SnapParams p = snap_params(w.size);
    SCOPED_TRACE(std::string(sector_size_name(w.size)));
    EXPECT_EQ(p.partitions, w.partitions);
    EXPECT_EQ(p.challenges, w.challenges);
    EXPECT_EQ(p.apex_leaves, w.apex);
    EXPECT_EQ(p.h_default, w.h_default);
    EXPECT_EQ(p.hs[0], w.h0);
    // registered_proof.hpp's table agrees.
    const UpdateProof u =
        update_proof("StackedDrg" + std::string(sector_size_name(w.size)) + "V1").value();
    EXPECT_EQ(u.partitions, p.partitions);
    EXPECT_EQ(u.challenges_per_partition, p.challenges);
  }
  // Test sizes of constants.rs (1 KiB … 32 KiB): hs = [1; 6] up to 2^10 nodes.
  EXPECT_EQ(snap_params(1u << 10).value().hs[5], 1u);
  EXPECT_EQ(snap_params(1u << 11).value().hs[5], 12u);
  EXPECT_FALSE(snap_params(100).ok());
  // circuit.rs: k_and_h_select = k | (1 << index(h)) << partition_bit_len.
  const SnapParams p32 = snap_params(SectorSize::s32GiB);
  EXPECT_EQ(snap_k_and_h_select(p32, 3, 10).value(), 3u | (8u << 4));
  EXPECT_EQ(snap_k_and_h_select(p32, 15, 7).value(), 15u | (1u << 4));
  EXPECT_FALSE(snap_k_and_h_select(p32, 16, 10).ok());
  EXPECT_FALSE(snap_k_and_h_select(p32, 0, 6).ok());
  EXPECT_EQ(snap_k_and_h_select(snap_params(SectorSize::s2KiB), 0, 1).value(), 1u);
}

// rand_xorshift 0.3 XorShiftRng (from_seed: four little-endian u32; next_u64 = low, then high).
struct XorShift {
  std::uint32_t x, y, z, w;
  explicit XorShift(const std::array<std::uint8_t, 16>& seed) {
    std::uint32_t s[4];
    for (int i = 0; i < 4; ++i)
      s[i] = seed[4 * i] | seed[4 * i + 1] << 8 | seed[4 * i + 2] << 16 |
             static_cast<std::uint32_t>(seed[4 * i + 3]) << 24;
    x = s[0], y = s[1], z = s[2], w = s[3];
  }
  std::uint32_t next_u32() {
    const std::uint32_t t = x ^ (x << 11);
    x = y, y = z, z = w;
    w = w ^ (w >> 19) ^ (t ^ (t >> 8));
    return w;
  }
  std::uint64_t next_u64() {
    const std::uint64_t lo = next_u32();
    return static_cast<std::uint64_t>(next_u32()) << 32 | lo;
  }
};

// blstrs Scalar::random: four next_u64 limbs, the top bit masked off, retried until below r,
// read as the canonical integer.
Fr blstrs_random(XorShift& rng) {
  for (;;) {
    Limbs<4> raw;
    for (auto& l : raw) l = rng.next_u64();
    raw[3] &= ~std::uint64_t{0} >> 1;
    if (auto f = Fr::from_canonical(raw)) return *f;
  }
}

TEST(SnapChallenges, UpstreamHardcodedVectors) {
  // storage-proofs-update src/challenges.rs `test_challenges_against_hardcoded`: comm_r_new =
  // TreeRDomain::random(XorShiftRng::from_seed(TEST_SEED)) (storage-proofs-core lib.rs TEST_SEED);
  // the first five challenges of (sector nodes, partition k).
  XorShift rng({0x59, 0x62, 0xbe, 0x5d, 0x76, 0x3d, 0x31, 0x8d, 0x17, 0xdb, 0x37, 0x32, 0x54, 0x06,
                0xbc, 0xe5});
  const Fr comm_r_new = blstrs_random(rng);
  struct Vector {
    std::uint64_t nodes;
    unsigned k;
    std::array<std::uint64_t, 5> c;
  };
  const Vector vectors[] = {
      {1u << 5, 0, {21, 7, 3, 31, 0}},
      {1u << 6, 0, {53, 51, 56, 3, 0}},
      {1u << 7, 0, {117, 25, 62, 0, 72}},
      {1u << 8, 0, {245, 140, 15, 128, 28}},
      {1u << 9, 0, {245, 140, 15, 128, 28}},
      {1u << 9, 1, {286, 308, 493, 510, 508}},
      {1u << 10, 0, {245, 454, 3, 400, 193}},
      {1u << 10, 1, {542, 666, 955, 927, 911}},
      {1u << 18, 0, {36085, 32783, 44060, 10950, 3731}},
      {1u << 18, 1, {78878, 130797, 112892, 93994, 78379}},
      {1u << 19, 0, {101621, 16391, 109319, 25944, 41193}},
      {1u << 19, 1, {209950, 163702, 175679, 224741, 197410}},
      {1u << 24, 0, {1019125, 116736, 706220, 59698, 799498}},
      {1u << 24, 1, {2092548, 1213276, 1185483, 1164598, 1095197}},
      {1u << 24, 14, {15212432, 15665918, 15015423, 15012912, 15495223}},
      {1u << 24, 15, {16388544, 15794686, 16637142, 16319148, 16328348}},
      {1u << 30, 0, {1019125, 27985696, 15282860, 11586600, 44651330}},
      {1u << 30, 1, {109168525, 127316247, 80331041, 97065716, 72310052}},
      {1u << 30, 14, {990420169, 955146989, 968005601, 976863263, 944650706}},
      {1u << 30, 15, {1038629497, 1053983614, 1030421316, 1027373887, 1068685433}},
      {1ull << 31, 0, {1019125, 13992848, 3820715, 18225541, 57316660}},
      {1ull << 31, 1, {243386253, 197875851, 204632136, 171516766, 247789010}},
      {1ull << 31, 14, {1997053129, 1920414070, 2003609080, 1900492803, 1963254685}},
      {1ull << 31, 15, {2045262457, 2036941247, 2136653521, 2091356007, 2147167623}},
  };
  for (const Vector& v : vectors) {
    SCOPED_TRACE("nodes " + std::to_string(v.nodes) + " k " + std::to_string(v.k));
    const std::vector<std::uint64_t> c =
        snap_challenges(snap_params(v.nodes).value(), comm_r_new, v.k);
    ASSERT_GE(c.size(), 5u);
    EXPECT_EQ(std::vector<std::uint64_t>(c.begin(), c.begin() + 5),
              std::vector<std::uint64_t>(v.c.begin(), v.c.end()));
  }
}

TEST(SnapChallenges, EachPartitionChallengesItsOwnNodes) {
  // challenges.rs `test_challenge_bucketing`, for every size of constants.rs ALLOWED_SECTOR_SIZES.
  std::mt19937_64 rng(7);
  for (unsigned bits : {5u, 6u, 7u, 8u, 9u, 10u, 18u, 19u, 24u, 30u, 31u}) {
    const SnapParams p = snap_params(std::uint64_t{1} << bits).value();
    const Fr comm_r_new = fr_from_node(testing::random_fr32(rng, 1)[0]).value();
    const std::uint64_t per = p.nodes / p.partitions;
    for (unsigned k = 0; k < p.partitions; ++k) {
      const auto c = snap_challenges(p, comm_r_new, k);
      ASSERT_EQ(c.size(), p.challenges);
      for (std::uint64_t x : c) {
        EXPECT_GE(x, k * per);
        EXPECT_LT(x, (k + 1) * per);
      }
    }
  }
}

TEST(MerkleProve, EveryShapeHashesToItsRootAndShowsItsLeaf) {
  std::mt19937_64 rng(11);
  ThreadPool pool(2);
  for (auto [shape, leaves] :
       {std::pair{TreeShape{8, 0, 0}, 512u}, std::pair{TreeShape{8, 8, 0}, 512u},
        std::pair{TreeShape{8, 8, 2}, 1024u}, std::pair{TreeShape{8, 2, 0}, 128u}}) {
    SCOPED_TRACE(shape.name());
    std::vector<Fr> v;
    for (const Node& n : testing::random_fr32(rng, leaves)) v.push_back(fr_from_node(n).value());
    const auto tree = PoseidonTree::build(v, shape, pool).value();
    for (std::uint64_t c :
         {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{63}, std::uint64_t{64},
          std::uint64_t{leaves - 1}, std::uint64_t{rng() % leaves}}) {
      const MerkleProof p = poseidon_tree_proof(tree, c);
      ASSERT_TRUE(check_merkle_shape(p, shape, leaves, "p").ok());
      EXPECT_EQ(path_index(p, shape), c);
      EXPECT_EQ(p.leaf, node_from_fr(v[c]));
      EXPECT_EQ(poseidon_root(p, "p").value(), node_from_fr(tree.root()));
    }
  }
  const std::vector<Node> data = testing::random_fr32(rng, 256);
  const std::vector<Node> tree_d = build_tree_d(data, pool);
  for (std::uint64_t c : {0ull, 5ull, 128ull, 255ull}) {
    const MerkleProof p = tree_d_proof(tree_d, 256, c);
    const TreeShape binary{2, 0, 0};
    ASSERT_TRUE(check_merkle_shape(p, binary, 256, "d").ok());
    EXPECT_EQ(path_index(p, binary), c);
    EXPECT_EQ(p.leaf, data[c]);
    EXPECT_EQ(sha256_root(p, "d").value(), tree_d.back());
  }
  EXPECT_EQ(tree_d_row(tree_d, 256, 8).size(), 1u);
  EXPECT_EQ(tree_d_row(tree_d, 256, 8)[0], tree_d.back());
}

// A 2 KiB sector sealed, then updated with random data (built once).
struct Updated {
  SealResult sealed;
  std::vector<Node> data;
  SnapEncoded enc;
  std::vector<SnapPartitionProof> proofs;
  UpdateProof proof;
  SnapPublic pub;
};

const Updated& updated_2kib() {
  static const Updated u = [] {
    const std::uint64_t seed = 20261219;
    std::printf("seed %llu\n", static_cast<unsigned long long>(seed));
    std::mt19937_64 rng(seed);
    ThreadPool pool(2);
    Updated u;
    u.sealed = testing::seal_random(rng, "StackedDrg2KiBV1_1", pool);
    u.data = testing::random_fr32(rng, 64);
    const auto t0 = std::chrono::steady_clock::now();
    u.enc =
        snap_encode({SectorSize::s2KiB, u.sealed.comm_c, u.sealed.comm_r_last, u.sealed.replica},
                    u.data, 1, pool)
            .value();
    const auto t1 = std::chrono::steady_clock::now();
    u.proof = update_proof("StackedDrg2KiBV1").value();
    const SnapParams p = snap_params(SectorSize::s2KiB);
    const SnapTrees trees{&u.sealed.tree_r_last, u.enc.tree_d, &u.enc.tree_r, u.sealed.comm_c};
    for (unsigned k = 0; k < p.partitions; ++k)
      u.proofs.push_back(snap_partition_proof(p, trees, k).value());
    const auto t2 = std::chrono::steady_clock::now();
    std::printf("2 KiB: encode %.3f ms, vanilla proofs %.3f ms\n",
                std::chrono::duration<double, std::milli>(t1 - t0).count(),
                std::chrono::duration<double, std::milli>(t2 - t1).count());
    u.pub = {u.enc.comm_r_old, u.enc.comm_d_new, u.enc.comm_r_new, 1};
    return u;
  }();
  return u;
}

TEST(Snap2KiB, EncodingMatchesTheSlowTwinAndDecodes) {
  const Updated& u = updated_2kib();
  const testing::NaiveUpdate n = testing::naive_snap_encode(
      SectorSize::s2KiB, u.sealed.comm_c, u.sealed.comm_r_last, u.sealed.replica, u.data, 1);
  EXPECT_EQ(u.enc.comm_d_new, n.comm_d_new);
  EXPECT_EQ(u.enc.comm_r_last_new, n.comm_r_last_new);
  EXPECT_EQ(u.enc.comm_r_new, n.comm_r_new);
  EXPECT_EQ(u.enc.replica, n.replica);
  EXPECT_EQ(u.enc.comm_r_old, u.sealed.comm_r);  // Poseidon2(comm_c, comm_r_last) is the seal's
  EXPECT_NE(u.enc.replica, u.sealed.replica);
  ThreadPool pool(2);
  const SnapSectorKey key{SectorSize::s2KiB, u.sealed.comm_c, u.sealed.comm_r_last,
                          u.sealed.replica};
  EXPECT_EQ(snap_decode(key, u.enc.replica, u.enc.comm_d_new, 1, pool).value(), u.data);
  // Decoding with another comm_d_new (another phi) gives other data.
  Node other = u.enc.comm_d_new;
  other[0] ^= 1;
  EXPECT_NE(snap_decode(key, u.enc.replica, other, 1, pool).value(), u.data);
}

TEST(Snap2KiB, EncodingRefusesBadInputs) {
  const Updated& u = updated_2kib();
  ThreadPool pool(1);
  const SnapSectorKey key{SectorSize::s2KiB, u.sealed.comm_c, u.sealed.comm_r_last,
                          u.sealed.replica};
  auto bad_h = snap_encode(key, u.data, 2, pool);
  ASSERT_FALSE(bad_h.ok());
  EXPECT_EQ(bad_h.status().code(), Errc::invalid_argument);
  EXPECT_NE(bad_h.status().message().find("h = 2"), std::string::npos);
  std::vector<Node> data = u.data;
  data[9].fill(0xff);
  auto bad_node = snap_encode(key, data, 1, pool);
  ASSERT_FALSE(bad_node.ok());
  EXPECT_EQ(bad_node.status().code(), Errc::out_of_range);
  EXPECT_NE(bad_node.status().message().find("data: node 9"), std::string::npos);
  data.pop_back();
  EXPECT_EQ(snap_encode(key, data, 1, pool).status().code(), Errc::size_mismatch);
}

TEST(Snap2KiB, ProofsRoundTripByteForByteAndVerify) {
  const Updated& u = updated_2kib();
  ASSERT_EQ(u.proofs.size(), 1u);
  const SnapPartitionProof& p = u.proofs[0];
  EXPECT_EQ(p.apex_leafs.size(), 8u);
  EXPECT_EQ(p.challenge_proofs.size(), 10u);
  EXPECT_EQ(p.challenge_proofs[0].proof_d_new.base_path.size(), 6u);
  EXPECT_EQ(p.challenge_proofs[0].proof_r_old.base_path.size(), 2u);
  const std::vector<std::uint8_t> bytes = write_snap_partition_proof(p);
  // comm_c 32 + (8 + 8·32) + 8 + 10 · 3 proofs.
  const auto back = read_snap_partition_proof(bytes).value();
  EXPECT_EQ(back, p);
  EXPECT_EQ(write_snap_partition_proof(back), bytes);
  Status s = verify_snap_vanilla(u.proof, u.pub, u.proofs);
  EXPECT_TRUE(s.ok()) << s.to_string();
  s = verify_snap_vanilla(u.proof, u.pub, u.proofs, 0u);
  EXPECT_TRUE(s.ok()) << s.to_string();
}

// Verifies a copy of the 2 KiB proof changed by |change| and returns the error message.
template <class F>
std::string broken(F change, SnapPublic pub = updated_2kib().pub, unsigned k = 0,
                   Errc want = Errc::unsatisfied) {
  const Updated& u = updated_2kib();
  SnapPartitionProof p = u.proofs[0];
  change(p);
  const Status s = verify_snap_partition(u.proof, pub, k, p);
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.code(), want) << s.to_string();
  return s.message();
}

bool has(const std::string& text, const std::string& part) {
  const bool found = text.find(part) != std::string::npos;
  if (!found) ADD_FAILURE() << "'" << part << "' not in: " << text;
  return found;
}

TEST(Snap2KiB, TamperedProofsAreRefusedByName) {
  const Updated& u = updated_2kib();
  // A path hash of proof_r_new in challenge 3.
  std::string m = broken([](SnapPartitionProof& p) {
    p.challenge_proofs[3].proof_r_new.base_path[1].hashes[2][0] ^= 1;
  });
  has(m, "partition 0, challenge 3");
  has(m, "proof_r_new");
  // A tree_d sibling in challenge 5 (below the apex).
  m = broken([](SnapPartitionProof& p) {
    p.challenge_proofs[5].proof_d_new.base_path[0].hashes[0][1] ^= 1;
  });
  has(m, "challenge 5");
  has(m, "proof_d_new");
  // A leaf of proof_r_old (tree_r_old's root no longer matches).
  m = broken([](SnapPartitionProof& p) { p.challenge_proofs[2].proof_r_old.leaf[0] ^= 1; });
  has(m, "challenge 2");
  has(m, "proof_r_old");
  // A leaf of proof_r_new (its path fails before the encoding is checked; the encoding check
  // alone: WrongRhoIsRefused).
  m = broken([](SnapPartitionProof& p) { p.challenge_proofs[7].proof_r_new.leaf[3] ^= 4; });
  has(m, "challenge 7");
  // The path index.
  m = broken(
      [](SnapPartitionProof& p) { p.challenge_proofs[1].proof_r_old.base_path[0].index ^= 1; });
  has(m, "challenge 1");
  has(m, "index");
  // comm_c.
  m = broken([](SnapPartitionProof& p) { p.comm_c[0] ^= 1; });
  has(m, "comm_c");
  // An apex leaf.
  m = broken([](SnapPartitionProof& p) { p.apex_leafs[4][0] ^= 1; });
  has(m, "apex");
  // Counts.
  m = broken([](SnapPartitionProof& p) { p.challenge_proofs.pop_back(); });
  has(m, "challenge_proofs: 9 proofs");
  m = broken([](SnapPartitionProof& p) { p.apex_leafs.pop_back(); });
  has(m, "apex_leafs: 7 leaves");
  // Public data: each comm, h, the partition index.
  const auto same = [](SnapPartitionProof&) {};
  SnapPublic pub = u.pub;
  pub.comm_r_old[0] ^= 1;
  has(broken(same, pub), "comm_r_old");
  pub = u.pub;
  pub.comm_r_new[0] ^= 1;
  has(broken(same, pub), "comm_r_new");
  pub = u.pub;
  pub.comm_d_new[0] ^= 1;
  has(broken(same, pub), "comm_d_new");
  pub = u.pub;
  pub.comm_d_new[31] = 0xff;  // not below r
  has(broken(same, pub, 0, Errc::out_of_range), "comm_d_new");
  pub = u.pub;
  pub.h = 2;
  has(broken(same, pub, 0, Errc::invalid_argument), "h = 2");
  has(broken(same, u.pub, 1, Errc::invalid_argument), "partition 1");
  // All partitions: one proof for a 1-partition size is right, two are not.
  std::vector<SnapPartitionProof> two = {u.proofs[0], u.proofs[0]};
  EXPECT_EQ(verify_snap_vanilla(u.proof, u.pub, two).code(), Errc::size_mismatch);
}

TEST(Snap2KiB, WrongRhoIsRefused) {
  // A replica encoded with rho(0) for every node (consistent trees, comm_r_new of that replica):
  // the challenges in the upper half (high bit 1 with h = 1) fail the encoding check. (A wrong h
  // at 8 MiB: snap_slow_test.)
  const Updated& u = updated_2kib();
  const Fr phi =
      snap_phi(fr_from_node(u.enc.comm_d_new).value(), fr_from_node(u.enc.comm_r_old).value());
  EXPECT_NE(snap_rho(phi, 0), snap_rho(phi, 1));
  // A proof encoded with rho(high = 0) everywhere (h treated as 0) fails the encoding check.
  ThreadPool pool(1);
  SnapEncoded flat = u.enc;
  const Fr rho0 = snap_rho(phi, 0);
  std::vector<Fr> leaves;
  for (std::size_t i = 0; i < u.data.size(); ++i)
    leaves.push_back(fr_from_node(u.sealed.replica[i]).value() +
                     fr_from_node(u.data[i]).value() * rho0);
  flat.tree_r = PoseidonTree::build(leaves, tree_shape(SectorSize::s2KiB), pool).value();
  const SnapParams p = snap_params(SectorSize::s2KiB);
  const SnapTrees trees{&u.sealed.tree_r_last, flat.tree_d, &flat.tree_r, u.sealed.comm_c};
  const SnapPartitionProof proof = snap_partition_proof(p, trees, 0).value();
  SnapPublic pub = u.pub;
  pub.comm_r_new =
      node_from_fr(comm_r_of(fr_from_node(u.sealed.comm_c).value(), flat.tree_r.root()));
  const Status s = verify_snap_partition(u.proof, pub, 0, proof);
  ASSERT_FALSE(s.ok());
  has(s.message(), "proof_r_new.leaf");
  has(s.message(), "rho");
}

TEST(Snap2KiB, UpdateDirectoryRoundTrip) {
  const Updated& u = updated_2kib();
  const fs::path dir = fs::path(::testing::TempDir()) / "cuzk_snap_update_dir";
  fs::remove_all(dir);
  UpdateInfo info;
  info.registered_proof = "StackedDrg2KiBV1";
  info.seal_proof = "StackedDrg2KiBV1_1";
  info.size = SectorSize::s2KiB;
  info.h = 1;
  info.comm_c = u.sealed.comm_c;
  info.comm_r_last_old = u.sealed.comm_r_last;
  info.comm_r_old = u.enc.comm_r_old;
  info.comm_d_new = u.enc.comm_d_new;
  info.comm_r_last_new = u.enc.comm_r_last_new;
  info.comm_r_new = u.enc.comm_r_new;
  info.sector_key_dir = "/somewhere/sealed";
  ASSERT_TRUE(write_update_dir(dir, info, u.enc).ok());
  EXPECT_EQ(read_update_info(dir).value(), info);
  EXPECT_EQ(read_node_file(dir / "replica", 64).value(), u.enc.replica);
  EXPECT_EQ(read_node_file(dir / "sc-02-data-tree-d.dat", 127).value(), u.enc.tree_d);
  // 2 KiB tree_r_last: 64 leaves of arity 8, rows_to_discard 1: only the root is kept.
  EXPECT_EQ(read_node_file(dir / "sc-02-data-tree-r-last.dat", 1).value()[0],
            u.enc.comm_r_last_new);
  EXPECT_EQ(read_small_file(dir / "p_aux").value().size(), 64u);
  auto bad = parse_update_info_json(R"({"registered_proof":"StackedDrg2KiBV1"})");
  EXPECT_FALSE(bad.ok());
  fs::remove_all(dir);
}

}  // namespace
}  // namespace cuzk::filecoin
