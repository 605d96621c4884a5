// C1 JSON: the writer against JSON written by hand from the serde rules and the upstream struct
// definitions (FORMATS.md §3.5); random round trips of every sector size's shape; the reader
// accepting what serde_json accepts (whitespace, any field order, unknown fields) and refusing
// malformed input with the field named; Curio's request envelope.
#include "cuzk/filecoin/c1_json.hpp"

#include <gtest/gtest.h>

#include "cuzk/filecoin/base64.hpp"
#include "cuzk/filecoin/curio_c1_request.hpp"
#include "cuzk/filecoin/vanilla_test_util.hpp"

namespace cuzk::filecoin {
namespace {

Bytes32 b(std::uint8_t first) {
  Bytes32 x{};
  x[0] = first;
  return x;
}

// "[x,0,…,0]": a [u8; 32] whose first byte is x, as serde_json writes it.
std::string B(int x) {
  std::string s = "[" + std::to_string(x);
  for (int i = 0; i < 31; ++i) s += ",0";
  return s + "]";
}

SealCommitPhase1Output tiny_c1() {
  SealCommitPhase1Output c1;
  c1.registered_proof = "StackedDrg32GiBV1_1";
  c1.vanilla_size = SectorSize::s32GiB;
  PorepChallengeProof p;
  p.comm_d_proofs.root = b(1);
  p.comm_d_proofs.leaf = b(2);
  p.comm_d_proofs.base_path = {{{b(3)}, 1}};
  p.comm_r_last_proof.kind = MerkleProofKind::sub;
  p.comm_r_last_proof.base_path = {{{b(4), b(5)}, 0}};
  p.comm_r_last_proof.sub_path = {{{b(6)}, 7}};
  p.comm_r_last_proof.root = b(8);
  p.comm_r_last_proof.leaf = b(9);
  ColumnProof& cx = p.replica_column_proofs.c_x;
  cx.column.index = 4000000000u;
  cx.column.rows = {b(10), b(11)};
  cx.inclusion_proof.kind = MerkleProofKind::top;
  cx.inclusion_proof.base_path = {};
  cx.inclusion_proof.sub_path = {{{b(12)}, 2}};
  cx.inclusion_proof.top_path = {{{b(13)}, 1}};
  cx.inclusion_proof.root = b(14);
  cx.inclusion_proof.leaf = b(15);
  p.replica_column_proofs.drg_parents = {};
  ColumnProof e;
  e.column.index = 3;
  e.inclusion_proof.root = b(16);
  e.inclusion_proof.leaf = b(17);
  p.replica_column_proofs.exp_parents = {e};
  p.labeling_proofs = {{{b(18)}, 1, 12345678901234ull}};
  p.encoding_proof = {{}, 11, 5};
  c1.vanilla_proofs = {{p}};
  c1.comm_r = b(20);
  c1.comm_d = b(21);
  c1.replica_id = b(22);
  c1.seed = b(23);
  c1.ticket = b(255);
  return c1;
}

std::string tiny_c1_json() {
  return "{\"registered_proof\":\"StackedDrg32GiBV1_1\",\"vanilla_proofs\":{\"StackedDrg32GiBV1\":["
         "[{"
         "\"comm_d_proofs\":{\"data\":{\"Single\":{\"root\":" +
         B(1) + ",\"leaf\":" + B(2) + ",\"path\":{\"path\":[{\"hashes\":[" + B(3) +
         "],\"index\":1}]}}}},"
         "\"comm_r_last_proof\":{\"data\":{\"Sub\":{\"base_proof\":{\"path\":[{\"hashes\":[" +
         B(4) + "," + B(5) + "],\"index\":0}]},\"sub_proof\":{\"path\":[{\"hashes\":[" + B(6) +
         "],\"index\":7}]},\"root\":" + B(8) + ",\"leaf\":" + B(9) +
         "}}},"
         "\"replica_column_proofs\":{\"c_x\":{\"column\":{\"index\":4000000000,\"rows\":[" +
         B(10) + "," + B(11) +
         "],\"_h\":null},\"inclusion_proof\":{\"data\":{\"Top\":{\"base_proof\":{"
         "\"path\":[]},\"sub_proof\":{\"path\":[{\"hashes\":[" +
         B(12) +
         "],\"index\":2}]},"
         "\"top_proof\":{\"path\":[{\"hashes\":[" +
         B(13) + "],\"index\":1}]},\"root\":" + B(14) + ",\"leaf\":" + B(15) +
         "}}}},\"drg_parents\":[],\"exp_parents\":[{\"column\":{\"index\":3,"
         "\"rows\":[],\"_h\":null},\"inclusion_proof\":{\"data\":{\"Single\":{\"root\":" +
         B(16) + ",\"leaf\":" + B(17) +
         ",\"path\":{\"path\":[]}}}}}]},"
         "\"labeling_proofs\":[{\"parents\":[" +
         B(18) +
         "],\"layer_index\":1,\"node\":"
         "12345678901234}],\"encoding_proof\":{\"parents\":[],\"layer_index\":11,\"node\":5}}]]},"
         "\"comm_r\":" +
         B(20) + ",\"comm_d\":" + B(21) + ",\"replica_id\":" + B(22) + ",\"seed\":" + B(23) +
         ",\"ticket\":" + B(255) + "}";
}

TEST(C1Json, WriterMatchesSerdeForm) {
  EXPECT_EQ(write_c1_json(tiny_c1()), tiny_c1_json());
  auto back = read_c1_json(tiny_c1_json());
  ASSERT_TRUE(back.ok()) << back.status().to_string();
  EXPECT_TRUE(*back == tiny_c1());
}

TEST(C1Json, RoundTripsEverySize) {
  const std::uint64_t seed = testing::fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed) + " (replay with CUZK_SEED)");
  std::mt19937_64 rng(seed);
  for (const SealProof& seal : seal_proofs()) {
    if (seal.id % 5 != seal.id / 5 % 5) continue;  // one seal proof per size, across families
    const SealCommitPhase1Output c1 = testing::random_c1(rng, seal, 2, 2);
    const std::string json = write_c1_json(c1);
    auto back = read_c1_json(json);
    ASSERT_TRUE(back.ok()) << seal.name << ": " << back.status().to_string();
    EXPECT_TRUE(*back == c1) << seal.name;
    EXPECT_EQ(write_c1_json(*back), json) << seal.name;
  }
}

TEST(C1Json, ReaderAcceptsWhatSerdeAccepts) {
  // Whitespace, fields out of order, an unknown field (serde ignores it), escaped key characters.
  std::string json = tiny_c1_json();
  const std::string comm_r = "\"comm_r\":" + B(20) + ",";
  json.erase(json.find(comm_r), comm_r.size());
  json.insert(1, " \n\t\"comm_\\u0072\" : " + B(20) + " ,\r\n \"extra\": {\"x\": [1, \"y\"]},");
  auto c1 = read_c1_json(json + "\n  ");
  ASSERT_TRUE(c1.ok()) << c1.status().to_string();
  EXPECT_TRUE(*c1 == tiny_c1());
}

// The fast reader against its slow twin (the reference reader): random C1s of every size's shape
// with random counts, in serde's compact form and with whitespace between tokens.
TEST(C1Json, FastReaderMatchesReference) {
  const std::uint64_t seed = testing::fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed) + " (replay with CUZK_SEED)");
  std::mt19937_64 rng(seed);
  const char ws[] = {' ', '\n', '\r', '\t'};
  for (const SealProof& seal : seal_proofs()) {
    if (seal.id % 3 != 0 && seal.size != SectorSize::s2KiB) continue;
    const unsigned partitions = 1 + rng() % 3, challenges = rng() % 3;
    const SealCommitPhase1Output c1 = testing::random_c1(rng, seal, partitions, challenges);
    std::string json = write_c1_json(c1);
    for (int spaced = 0; spaced < 2; ++spaced) {
      if (spaced) {  // whitespace after some structural characters (never inside a token)
        std::string t;
        for (char c : json) {
          t.push_back(c);
          if (std::string_view("{}[],:").find(c) != std::string_view::npos && rng() % 8 == 0)
            t.append(1 + rng() % 3, ws[rng() % 4]);
        }
        json = " " + t + "\n";
      }
      auto fast = read_c1_json_fast(json);
      auto ref = read_c1_json_reference(json);
      ASSERT_TRUE(fast.has_value()) << seal.name << " spaced " << spaced;
      ASSERT_TRUE(ref.ok()) << seal.name << ": " << ref.status().to_string();
      EXPECT_TRUE(*fast == c1) << seal.name << " spaced " << spaced;
      EXPECT_TRUE(*ref == c1) << seal.name << " spaced " << spaced;
      std::string copy = json;
      auto in_place = read_c1_json_in_place(copy);
      ASSERT_TRUE(in_place.ok()) << in_place.status().to_string();
      EXPECT_TRUE(*in_place == c1);
      EXPECT_EQ(copy, json);
    }
  }
}

// Random edits of a small C1 (a character replaced, inserted or deleted; the text cut short): when
// the fast reader returns a value, the reference reader returns the same; read_c1_json answers as
// the reference reader does, error message included.
TEST(C1Json, FastReaderAgreesOnEditedInput) {
  const std::uint64_t seed = testing::fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed) + " (replay with CUZK_SEED)");
  std::mt19937_64 rng(seed);
  const SealCommitPhase1Output c1 =
      testing::random_c1(rng, *seal_proof("StackedDrg2KiBV1_1"), 1, 1);
  const std::string good = write_c1_json(c1);
  const std::string_view alphabet = "0123456789012345678901234567890,,[]{}\":aeln -.+\\ \n\x01\xc3";
  int fast_accepted = 0, ref_accepted = 0;
  for (int round = 0; round < 3000; ++round) {
    std::string json = good;
    for (int edits = 1 + static_cast<int>(rng() % 2); edits > 0; --edits) {
      const std::size_t at = rng() % json.size();
      const char c = alphabet[rng() % alphabet.size()];
      switch (rng() % 5) {
        case 0:
          json.insert(at, 1, c);
          break;
        case 1:
          json.erase(at, 1);
          break;
        case 2:
          json.resize(at);
          break;
        default:
          json[at] = c;
          break;
      }
      if (json.empty()) break;
    }
    SCOPED_TRACE("round " + std::to_string(round));
    auto fast = read_c1_json_fast(json);
    auto ref = read_c1_json_reference(json);
    auto both = read_c1_json(json);
    if (fast) {
      ++fast_accepted;
      ASSERT_TRUE(ref.ok()) << ref.status().to_string() << "\n" << json;
      ASSERT_TRUE(*fast == *ref) << json;
    }
    if (ref.ok()) ++ref_accepted;
    ASSERT_EQ(both.ok(), ref.ok()) << json;
    if (ref.ok())
      EXPECT_TRUE(*both == *ref);
    else
      EXPECT_EQ(both.status().to_string(), ref.status().to_string());
  }
  RecordProperty("fast_accepted", fast_accepted);
  RecordProperty("reference_accepted", ref_accepted);
  // Digit edits inside byte values keep the text valid: both readers must have accepted some.
  EXPECT_GT(fast_accepted, 0);
  EXPECT_GE(ref_accepted, fast_accepted);
}

struct Malformed {
  std::string from, to;  // replace the first |from| with |to|
  Errc code;
  std::string needle;
};

TEST(C1Json, MalformedInputNamesTheField) {
  const std::string good = tiny_c1_json();
  const std::string cx_rows = "\"rows\":[" + B(10);
  const Malformed cases[] = {
      {"\"registered_proof\":\"StackedDrg32GiBV1_1\"", "\"registered_proof\":\"StackedDrg32GiBV9\"",
       Errc::bad_encoding, "field registered_proof: unknown registered seal proof"},
      {"\"registered_proof\":\"StackedDrg32GiBV1_1\"",
       "\"registered_proof\":\"StackedDrg2KiBV1_1\"", Errc::size_mismatch,
       "vanilla_proofs is the StackedDrg32GiBV1 variant"},
      {"\"StackedDrg32GiBV1\":", "\"StackedDrg32GiBV2\":", Errc::bad_encoding,
       "field vanilla_proofs: unknown VanillaSealProof variant `StackedDrg32GiBV2`"},
      {"\"Sub\":", "\"Sideways\":", Errc::bad_encoding,
       "vanilla_proofs[0][0].comm_r_last_proof.data: unknown ProofData variant"},
      {"\"comm_d\":" + B(21), "\"comm_d\":\"abc\"", Errc::bad_encoding,
       "field comm_d: expected an array of 32 integers"},
      {"\"seed\":" + B(23), "\"seed\":[23,0]", Errc::size_mismatch,
       "field seed: 2 bytes, expected 32"},
      {"\"seed\":" + B(23), "\"seed\":[256" + B(0).substr(2), Errc::out_of_range,
       "field seed[0]: 256 is not a byte"},
      {"\"seed\":" + B(23), "\"seed\":[23" + B(0).substr(2, 62) + ",7]", Errc::size_mismatch,
       "field seed: more than 32 bytes"},
      {cx_rows, "\"rows\":[[10,-1" + B(0).substr(4), Errc::bad_encoding,
       "field vanilla_proofs[0][0].replica_column_proofs.c_x.column.rows[0][1]"},
      {"\"index\":4000000000", "\"index\":5000000000", Errc::out_of_range,
       "c_x.column.index: 5000000000 does not fit a u32"},
      {"\"_h\":null", "\"_h\":0", Errc::bad_encoding, "c_x.column._h: expected null"},
      {"\"node\":5}", "\"nod\":5}", Errc::bad_encoding,
       "vanilla_proofs[0][0].encoding_proof: missing field `node`"},
      {"\"layer_index\":11,", "\"layer_index\":11,\"layer_index\":11,", Errc::bad_encoding,
       "encoding_proof: duplicate field `layer_index`"},
      {"\"index\":7}", "\"index\":\"7\"}", Errc::bad_encoding,
       "comm_r_last_proof.data.Sub.sub_proof.path[0].index: expected an unsigned integer"},
      {"\"ticket\":" + B(255) + "}", "\"ticket\":" + B(255) + "}}", Errc::bad_encoding, "trailing"},
  };
  for (const Malformed& m : cases) {
    std::string json = good;
    const std::size_t at = json.find(m.from);
    ASSERT_NE(at, std::string::npos) << m.from;
    json.replace(at, m.from.size(), m.to);
    auto r = read_c1_json(json);
    ASSERT_FALSE(r.ok()) << m.needle;
    EXPECT_EQ(r.status().code(), m.code) << r.status().to_string();
    EXPECT_NE(r.status().message().find(m.needle), std::string::npos) << r.status().message();
  }
}

TEST(C1Json, TruncatedInputIsAnError) {
  const std::string good = tiny_c1_json();
  for (std::size_t n = 0; n < good.size(); n += 7) {
    auto r = read_c1_json(good.substr(0, n));
    ASSERT_FALSE(r.ok()) << n;
  }
  EXPECT_FALSE(read_c1_json("").ok());
  EXPECT_FALSE(read_c1_json("[]").ok());
}

TEST(CurioC1Request, RoundTripAndFields) {
  const std::string c1 = tiny_c1_json();
  CurioC1Request req{.sector_num = 77, .sector_size = 32ull << 30, .phase1_out = c1};
  const std::string env = write_curio_c1_request(req);
  const auto* p = reinterpret_cast<const std::uint8_t*>(c1.data());
  EXPECT_EQ(env, "{\"SectorNum\":77,\"Phase1Out\":\"" + base64_encode({p, c1.size()}) +
                     "\",\"SectorSize\":34359738368}");
  CurioC1Request header;
  auto back = read_curio_c1(env, &header);
  ASSERT_TRUE(back.ok()) << back.status().to_string();
  EXPECT_TRUE(*back == tiny_c1());
  EXPECT_EQ(header.sector_num, 77u);
  EXPECT_EQ(header.sector_size, 32ull << 30);
  EXPECT_EQ(header.phase1_out, c1);

  // In place, and with a JSON escape inside the base64 text (simdjson unescapes it then).
  std::string copy = env;
  auto in_place = read_curio_c1_in_place(copy);
  ASSERT_TRUE(in_place.ok()) << in_place.status().to_string();
  EXPECT_TRUE(*in_place == tiny_c1());
  EXPECT_EQ(copy, env);
  std::string escaped = env;
  const std::size_t first = escaped.find("Phase1Out") + 12;
  char u[8];
  std::snprintf(u, sizeof u, "\\u%04x", static_cast<unsigned>(escaped[first]));
  escaped.replace(first, 1, u);
  auto unescaped = read_curio_c1(escaped);
  ASSERT_TRUE(unescaped.ok()) << unescaped.status().to_string();
  EXPECT_TRUE(*unescaped == tiny_c1());
  std::string c1_copy = c1;
  auto c1_in_place = read_c1_json_in_place(c1_copy);
  ASSERT_TRUE(c1_in_place.ok());
  EXPECT_TRUE(*c1_in_place == tiny_c1());

  auto fails = [](const std::string& json, const std::string& needle) {
    auto r = read_curio_c1(json);
    ASSERT_FALSE(r.ok()) << needle;
    EXPECT_NE(r.status().message().find(needle), std::string::npos) << r.status().message();
  };
  std::string bad = env;
  bad[env.find("Phase1Out") + 14] = '*';
  fails(bad, "Phase1Out: bad base64 at character 2");
  bad = env;
  bad.replace(bad.find("34359738368"), 11, "2048");
  fails(bad, "field SectorSize: 2048 but the C1 is for StackedDrg32GiBV1_1");
  fails("{\"Phase1Out\":\"\",\"SectorSize\":1}", "field SectorNum: missing");
  fails("{\"SectorNum\":-1,\"Phase1Out\":\"\",\"SectorSize\":1}",
        "field SectorNum: expected an unsigned");
  fails("{\"SectorNum\":1,\"Phase1Out\":7,\"SectorSize\":1}",
        "field Phase1Out: expected a base64 string");
  const std::string inner = "{\"registered_proof\":7}";
  fails("{\"SectorNum\":1,\"Phase1Out\":\"" +
            base64_encode({reinterpret_cast<const std::uint8_t*>(inner.data()), inner.size()}) +
            "\",\"SectorSize\":2048}",
        "Curio C1 request, field Phase1Out: C1 JSON, byte");
}

}  // namespace
}  // namespace cuzk::filecoin
