// Known answers from independent sources: SHA-256 FIPS 180-4 examples (NIST CSRC), BLAKE2b-512
// RFC 7693 Appendix A and the BLAKE2 reference's empty-input digest, ChaCha8 keystreams from
// @noble/ciphers 2.4 (the zero-key one is also draft-strombergson-chacha-test-vectors TC1, 8
// rounds). The incremental hashers are checked against the one-shot ones on random splits.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "cuzk/hash/blake2b.hpp"
#include "cuzk/hash/chacha8.hpp"
#include "cuzk/hash/sha256.hpp"

namespace cuzk::hash {
namespace {

template <std::size_t N>
std::string hex(const std::array<std::uint8_t, N>& d) {
  static const char* k = "0123456789abcdef";
  std::string s;
  for (auto b : d) s += k[b >> 4], s += k[b & 15];
  return s;
}

std::span<const std::uint8_t> bytes(const std::string& s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

TEST(Sha256, Fips180Examples) {
  EXPECT_EQ(hex(sha256(std::string_view(""))),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(hex(sha256(std::string_view("abc"))),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(
      hex(sha256(std::string_view("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"))),
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  Sha256 h;
  const std::string thousand(1000, 'a');
  for (int i = 0; i < 1000; ++i) h.update(thousand);
  EXPECT_EQ(hex(h.finish()), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  // finish() resets: the hasher is reusable.
  EXPECT_EQ(hex(h.update("abc").finish()),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(Blake2b512, Rfc7693Examples) {
  EXPECT_EQ(
      hex(blake2b512({})),
      "786a02f742015903c6c6fd852552d272912f4740e15847618a86e217f71f5419d25e1031afee585313896444"
      "934eb04b903a685b1448b755d56f701afe9be2ce");
  EXPECT_EQ(
      hex(blake2b512(bytes("abc"))),
      "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d17d87c5392aab792dc252d5de"
      "4533cc9518d38aa8dbf1925ab92386edd4009923");
}

TEST(Hashers, IncrementalMatchesOneShotOnRandomSplits) {
  const std::uint64_t seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  for (int round = 0; round < 50; ++round) {
    std::vector<std::uint8_t> msg(rng() % 2000);
    for (auto& b : msg) b = static_cast<std::uint8_t>(rng());
    Sha256 s;
    Blake2b512 b;
    for (std::size_t at = 0; at < msg.size();) {
      std::size_t n = std::min<std::size_t>(msg.size() - at, rng() % 130);
      s.update({msg.data() + at, n});
      b.update({msg.data() + at, n});
      at += n;
    }
    EXPECT_EQ(s.finish(), sha256(msg));
    EXPECT_EQ(b.finish(), blake2b512(msg));
  }
}

std::string keystream_hex(ChaCha8Rng& rng, std::size_t words) {
  std::array<std::uint8_t, 4> w;
  std::string s;
  for (std::size_t i = 0; i < words; ++i) {
    std::uint32_t x = rng.next_u32();
    for (int j = 0; j < 4; ++j) w[j] = static_cast<std::uint8_t>(x >> (8 * j));
    s += hex(w);
  }
  return s;
}

TEST(ChaCha8Rng, KeystreamKnownAnswers) {
  std::array<std::uint8_t, 32> zero{};
  ChaCha8Rng a(zero);
  EXPECT_EQ(keystream_hex(a, 32),
            "3e00ef2f895f40d67f5bb8e81f09a5a12c840ec3ce9a7f3b181be188ef711a1e984ce172b9216f419f4453"
            "67456d5619314a42a3da86b001387bfdb80e0cfe42d2aefa0deaa5c151bf0adb6c01f2a5adc0fd581259f9"
            "a2aadcf20f8fd566a26b5032ec38bbc5da98ee0c6f568b872a65a08abf251deb21bb4b56e5d8821e68aa");
  std::array<std::uint8_t, 32> key;
  for (int i = 0; i < 32; ++i) key[i] = static_cast<std::uint8_t>(i);
  ChaCha8Rng b(key);
  EXPECT_EQ(keystream_hex(b, 64),
            "4015b28f6e12ab6ad9e8667b31c51233f78f172790b2d94f326b2ed7ffbcbecbff9ead365f89ce3b6f4055"
            "bc759d90fd8f831d27c7b0df93b3b9ed8238a256d6761a6e0fc8b2b859f5a9f3ae170a7599b0b023ce79d7"
            "659b32ee79373e727289712ff289f30f641fcd822ff8e656ffd8725691f839a7b433a5b61053d99baee042"
            "777fee89b729f64c36f0da14fe6b486409d7023b34b22d364a2a718f4f888e27b18e0f0ad18a245b6f3972"
            "0c7083ef7fe327c8768a762d647830246daef63959b423fcd539ddad10690d9285404106a864e35bcb83af"
            "a33009c07ae094e222f9bcf75b1d656dce4cbed17b3e6e8721a8bf09fda8ffd986da2022263cecb493");
}

TEST(ChaCha8Rng, NextU64IsTwoConsecutiveWordsAcrossBlocks) {
  std::array<std::uint8_t, 32> key;
  for (int i = 0; i < 32; ++i) key[i] = static_cast<std::uint8_t>(7 * i + 1);
  ChaCha8Rng words(key), pairs(key);
  (void)words.next_u32(), (void)pairs.next_u32();  // odd offset: some pairs straddle blocks
  for (int i = 0; i < 100; ++i) {
    std::uint64_t lo = words.next_u32(), hi = words.next_u32();
    EXPECT_EQ(pairs.next_u64(), lo | hi << 32) << i;
  }
}

}  // namespace
}  // namespace cuzk::hash
