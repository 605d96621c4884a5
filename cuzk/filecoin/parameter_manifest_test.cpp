// parameters.json parsing and the BLAKE2b digest check of parameter files. Known digests were
// computed when the test was written with coreutils `b2sum -l 512` and python3
// hashlib.blake2b (both agree), first 32 hex digits; the slow twin is the one-shot BLAKE2b-512.
#include "cuzk/filecoin/parameter_manifest.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <random>

#include "cuzk/hash/blake2b.hpp"

namespace cuzk::filecoin {
namespace {

namespace fs = std::filesystem;

struct TempDir {
  fs::path path;
  TempDir() {
    std::string t = (fs::temp_directory_path() / "cuzk-manifest-XXXXXX").string();
    path = ::mkdtemp(t.data());
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

void write(const fs::path& p, const std::vector<std::uint8_t>& bytes) {
  std::ofstream f(p, std::ios::binary);
  f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

// (1 << 20) + 13 bytes, byte i = i mod 251.
std::vector<std::uint8_t> pattern(std::size_t n = (std::size_t{1} << 20) + 13) {
  std::vector<std::uint8_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::uint8_t>(i % 251);
  return v;
}

// b2sum -l 512 / hashlib.blake2b, first 32 hex digits.
constexpr const char* kEmptyDigest = "786a02f742015903c6c6fd852552d272";
constexpr const char* kAbcDigest = "ba80a53f981c4d0d6a2797b69f12f6e9";  // RFC 7693 Appendix A
constexpr const char* kPatternDigest = "e873bb7c53f4058d436885197c10116d";
constexpr const char* kPatternTruncDigest = "797c6241704933d0c62cea0793db1dd5";  // first 2^20
constexpr const char* kPatternFlipDigest = "ac56ca6b4c8086effb1bd85c2b06fa8c";   // byte 4096 ^ 1

TEST(ParameterManifest, DigestKnownAnswers) {
  TempDir dir;
  write(dir.path / "empty", {});
  write(dir.path / "abc", {'a', 'b', 'c'});
  write(dir.path / "pattern", pattern());
  for (std::size_t chunk :
       {std::size_t{1}, std::size_t{7}, std::size_t{4096}, std::size_t{16} << 20}) {
    EXPECT_EQ(parameter_file_digest(dir.path / "empty", {.chunk_bytes = chunk})->digest,
              kEmptyDigest);
    EXPECT_EQ(parameter_file_digest(dir.path / "abc", {.chunk_bytes = chunk})->digest, kAbcDigest);
    if (chunk == 1) continue;  // a million one-byte reads add nothing over 7
    auto d = parameter_file_digest(dir.path / "pattern", {.chunk_bytes = chunk});
    ASSERT_TRUE(d.ok()) << d.status().to_string();
    EXPECT_EQ(d->digest, kPatternDigest) << "chunk " << chunk;
    EXPECT_EQ(d->bytes, (1u << 20) + 13);
  }
  auto missing = parameter_file_digest(dir.path / "nope");
  EXPECT_EQ(missing.status().code(), Errc::io_error);
  EXPECT_NE(missing.status().message().find("nope"), std::string::npos);
}

// Streamed digest against the one-shot BLAKE2b-512 over random sizes and chunk sizes.
TEST(ParameterManifest, StreamedDigestMatchesOneShot) {
  const unsigned seed = std::random_device{}();
  std::mt19937_64 rng(seed);
  TempDir dir;
  static constexpr char kHex[] = "0123456789abcdef";
  for (int round = 0; round < 20; ++round) {
    std::vector<std::uint8_t> data(rng() % 300000);
    for (auto& b : data) b = static_cast<std::uint8_t>(rng());
    write(dir.path / "f", data);
    const hash::Digest64 full = hash::blake2b512(data);
    std::string want;
    for (int i = 0; i < 16; ++i) {
      want.push_back(kHex[full[i] >> 4]);
      want.push_back(kHex[full[i] & 15]);
    }
    const std::size_t chunk = 1 + rng() % 70000;
    auto d = parameter_file_digest(dir.path / "f", {.chunk_bytes = chunk});
    ASSERT_TRUE(d.ok()) << d.status().to_string();
    EXPECT_EQ(d->digest, want) << "seed=" << seed << " round=" << round << " size=" << data.size()
                               << " chunk=" << chunk;
    EXPECT_EQ(d->bytes, data.size());
  }
}

std::string manifest_json() {
  return std::string(R"({
  "a.params": {"cid": "QmA", "digest": ")") +
         kPatternDigest + R"(", "sector_size": 2048},
  "b.vk": {"cid": "QmB", "digest": ")" +
         kPatternDigest + R"(", "sector_size": 2048},
  "c.params": {"cid": "QmC", "digest": ")" +
         kPatternDigest + R"(", "sector_size": 8388608},
  "d.vk": {"cid": "QmD", "digest": ")" +
         kAbcDigest + R"(", "sector_size": 8388608},
  "e.params": {"cid": "QmE", "digest": ")" +
         kAbcDigest + R"(", "sector_size": 8388608},
  "f.vk": {"cid": "QmF", "digest": ")" +
         kAbcDigest + R"(", "sector_size": 2048, "extra": "ignored like serde does"}
})";
}

// a: intact; b: one bit flipped; c: truncated; d: missing; e: a directory; f: intact;
// g.params: present but not in the manifest; notes.txt: unknown.
void make_directory(const fs::path& dir) {
  write(dir / "a.params", pattern());
  auto flipped = pattern();
  flipped[4096] ^= 1;
  write(dir / "b.vk", flipped);
  write(dir / "c.params", pattern(std::size_t{1} << 20));
  fs::create_directory(dir / "e.params");
  write(dir / "f.vk", {'a', 'b', 'c'});
  write(dir / "g.params", {'a', 'b', 'c'});
  write(dir / "notes.txt", {'x'});
}

TEST(ParameterManifest, DirectoryCheckOutcomes) {
  TempDir dir;
  make_directory(dir.path);
  auto m = parse_manifest(manifest_json());
  ASSERT_TRUE(m.ok()) << m.status().to_string();
  ASSERT_EQ(m->size(), 6u);
  EXPECT_EQ(m->at("c.params").sector_size, 8388608u);
  EXPECT_EQ(m->at("a.params").cid, "QmA");

  auto r = check_parameter_directory(
      dir.path, {.manifest = &*m, .verify_digests = true, .digest = {.chunk_bytes = 65536}});
  ASSERT_TRUE(r.ok()) << r.status().to_string();
  ASSERT_EQ(r->files.size(), 6u);  // the manifest's names, sorted
  std::map<std::string, ParameterFileStatus> by;
  for (const auto& f : r->files) by[f.name] = f;
  EXPECT_EQ(by["a.params"].check, DigestCheck::ok);
  EXPECT_EQ(by["a.params"].size, (1u << 20) + 13);
  EXPECT_EQ(by["b.vk"].check, DigestCheck::mismatch);
  EXPECT_EQ(by["b.vk"].digest.digest, kPatternFlipDigest);
  EXPECT_EQ(by["c.params"].check, DigestCheck::mismatch);
  EXPECT_EQ(by["c.params"].digest.digest, kPatternTruncDigest);
  EXPECT_EQ(by["c.params"].size, 1u << 20);
  EXPECT_FALSE(by["d.vk"].found);
  EXPECT_EQ(by["d.vk"].check, DigestCheck::not_checked);
  EXPECT_TRUE(by["e.params"].found);
  EXPECT_EQ(by["e.params"].check, DigestCheck::unreadable);
  EXPECT_NE(by["e.params"].error.find("not a regular file"), std::string::npos);
  EXPECT_EQ(by["f.vk"].check, DigestCheck::ok);
  EXPECT_EQ(r->found(), 5u);
  EXPECT_EQ(r->missing(), 1u);
  EXPECT_EQ(r->count(DigestCheck::mismatch), 2u);
  EXPECT_FALSE(r->digests_ok());
  EXPECT_EQ(r->unknown, (std::vector<std::string>{"g.params", "notes.txt"}));

  // Explicit names: g.params is found but the manifest does not name it; no digests read
  // without verify_digests.
  auto n = check_parameter_directory(
      dir.path,
      {.names = {"g.params", "a.params", "zz.vk"}, .manifest = &*m, .verify_digests = true});
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(n->files[0].check, DigestCheck::not_in_manifest);
  EXPECT_EQ(n->files[1].check, DigestCheck::ok);
  EXPECT_FALSE(n->files[2].found);
  EXPECT_TRUE(n->digests_ok());
  std::vector<std::string> seen;
  auto quick = check_parameter_directory(
      dir.path,
      {.manifest = &*m, .on_file = [&](const ParameterFileStatus& f) { seen.push_back(f.name); }});
  ASSERT_TRUE(quick.ok());
  EXPECT_EQ(seen,
            (std::vector<std::string>{"a.params", "b.vk", "c.params", "d.vk", "e.params", "f.vk"}));
  for (const auto& f : quick->files)
    EXPECT_EQ(f.check, f.name == "e.params" ? DigestCheck::unreadable : DigestCheck::not_checked)
        << f.name;

  EXPECT_EQ(check_parameter_directory(dir.path / "absent", {.manifest = &*m}).status().code(),
            Errc::not_found);
  EXPECT_EQ(check_parameter_directory(dir.path, {.verify_digests = true}).status().code(),
            Errc::invalid_argument);
}

TEST(ParameterManifest, VerifyDirectoryNamesTheBadFiles) {
  TempDir dir;
  make_directory(dir.path);
  { std::ofstream(dir.path / "parameters.json") << manifest_json(); }
  Status st = verify_parameter_directory(dir.path, dir.path / "parameters.json");
  EXPECT_EQ(st.code(), Errc::unsatisfied);
  EXPECT_NE(st.message().find("b.vk has digest " + std::string(kPatternFlipDigest)),
            std::string::npos)
      << st.message();
  EXPECT_NE(st.message().find("c.params"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("e.params is not a regular file"), std::string::npos);
  EXPECT_EQ(st.message().find("a.params"), std::string::npos) << st.message();
  // Once the bad files are gone the rest (intact, missing, unlisted) pass.
  fs::remove(dir.path / "b.vk");
  fs::remove(dir.path / "c.params");
  fs::remove(dir.path / "e.params");
  EXPECT_TRUE(verify_parameter_directory(dir.path, dir.path / "parameters.json").ok());
  EXPECT_EQ(verify_parameter_directory(dir.path, dir.path / "none.json").code(), Errc::io_error);
}

void expect_bad(const std::string& text, const std::string& needle) {
  auto m = parse_manifest(text, "p.json");
  ASSERT_FALSE(m.ok()) << text;
  EXPECT_EQ(m.status().code(), Errc::bad_encoding) << text;
  EXPECT_NE(m.status().message().find(needle), std::string::npos)
      << "'" << m.status().message() << "' lacks '" << needle << "'";
  EXPECT_NE(m.status().message().find("p.json"), std::string::npos);
}

TEST(ParameterManifest, BadManifestsAreNamed) {
  const std::string d = kAbcDigest;
  expect_bad("", "not JSON");
  expect_bad("{\"a\": ", "not JSON");
  // A number past double's range is nlohmann's out_of_range, not parse_error (found by
  // a libFuzzer run of parse_manifest: it escaped and terminated the process).
  expect_bad("1E596", "not JSON");
  expect_bad(R"({"a.vk": {"cid": "Q", "digest": ")" + d + R"(", "sector_size": 1e999}})",
             "not JSON");
  expect_bad("[1, 2]", "must be a JSON object");
  expect_bad(R"({"a.vk": 3})", "entry 'a.vk': must be an object");
  expect_bad(R"({"a.vk": {"digest": ")" + d + R"(", "sector_size": 1}})", "field 'cid'");
  expect_bad(R"({"a.vk": {"cid": "", "digest": ")" + d + R"(", "sector_size": 1}})", "field 'cid'");
  expect_bad(R"({"a.vk": {"cid": "Q", "sector_size": 1}})", "field 'digest' must be a string");
  expect_bad(R"({"a.vk": {"cid": "Q", "digest": "abc", "sector_size": 1}})",
             "field 'digest' must be 32 lowercase hex digits, got 'abc'");
  expect_bad(R"({"a.vk": {"cid": "Q", "digest": "BA80A53F981C4D0D6A2797B69F12F6E9",
                "sector_size": 1}})",
             "32 lowercase hex");
  expect_bad(R"({"a.vk": {"cid": "Q", "digest": ")" + d + R"("}})", "field 'sector_size'");
  expect_bad(R"({"a.vk": {"cid": "Q", "digest": ")" + d + R"(", "sector_size": -1}})",
             "field 'sector_size'");
  expect_bad(R"({"a.vk": {"cid": "Q", "digest": ")" + d + R"(", "sector_size": "2048"}})",
             "field 'sector_size'");
  expect_bad(R"({"../a.vk": {"cid": "Q", "digest": ")" + d + R"(", "sector_size": 1}})",
             "entry '../a.vk': a file name without '/'");
  EXPECT_TRUE(parse_manifest("{}")->empty());
  EXPECT_EQ(load_manifest("/nonexistent/parameters.json").status().code(), Errc::io_error);
}

// The real parameters.json: 44 entries; one digest pinned from the file itself.
TEST(ParameterManifest, ReadsUpstreamParametersJson) {
  const char* data = std::getenv("CUZK_FILECOIN_DATA");
  if (!data) GTEST_SKIP() << "CUZK_FILECOIN_DATA is unset: no parameters.json to read";
  auto m = load_manifest(fs::path(data) / "parameters.json");
  ASSERT_TRUE(m.ok()) << m.status().to_string();
  EXPECT_EQ(m->size(), 44u);
  const auto& e = m->at(
      "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0-sha256_hasher-"
      "82a357d2f2ca81dc61bb45f4a762807aedee1b0a53fd6c4e77b46a01bfef7820.params");
  EXPECT_EQ(e.digest, "6a388072a518cf46ebd661f5cc46900a");  // parameters.json @ 87348a74
  EXPECT_EQ(e.cid, "QmengpM684XLQfG8754ToonszgEg2bQeAGUan5uXTHUQzJ");
  EXPECT_EQ(e.sector_size, 34359738368u);
}

}  // namespace
}  // namespace cuzk::filecoin
