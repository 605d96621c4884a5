// RFC 4648 §10 test vectors, random round trips, and the malformed inputs a strict decoder (Rust's
// base64 STANDARD engine) refuses.
#include "cuzk/filecoin/base64.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <random>

namespace cuzk::filecoin {
namespace {

std::vector<std::uint8_t> bytes_of(std::string_view s) { return {s.begin(), s.end()}; }

TEST(Base64, Rfc4648Vectors) {
  const std::pair<const char*, const char*> v[] = {{"", ""},
                                                   {"f", "Zg=="},
                                                   {"fo", "Zm8="},
                                                   {"foo", "Zm9v"},
                                                   {"foob", "Zm9vYg=="},
                                                   {"fooba", "Zm9vYmE="},
                                                   {"foobar", "Zm9vYmFy"}};
  for (auto [plain, enc] : v) {
    EXPECT_EQ(base64_encode(bytes_of(plain)), enc);
    auto d = base64_decode(enc, "test");
    ASSERT_TRUE(d.ok()) << enc << ": " << d.status().to_string();
    EXPECT_EQ(*d, bytes_of(plain));
  }
  // The 32 zero bytes of curio-32gib-post/postpub.json's Randomness.
  auto z = base64_decode("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=", "Randomness");
  ASSERT_TRUE(z.ok());
  EXPECT_EQ(*z, std::vector<std::uint8_t>(32, 0));
}

TEST(Base64, RandomRoundTrips) {
  const std::uint64_t seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  for (int t = 0; t < 200; ++t) {
    std::vector<std::uint8_t> b(rng() % 100);
    for (auto& x : b) x = static_cast<std::uint8_t>(rng());
    auto d = base64_decode(base64_encode(b), "rt");
    ASSERT_TRUE(d.ok());
    EXPECT_EQ(*d, b);
  }
}

// The decoder's unchecked loop against a plain bit-by-bit decoder (its slow twin here): random
// texts of random lengths, some with one character replaced; the same bytes, or an error at the
// same character (compared before the last quad, which both decoders check one by one).
std::optional<std::vector<std::uint8_t>> plain_decode(std::string_view t, std::size_t& bad_at) {
  const std::string_view alphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::vector<std::uint8_t> out;
  std::uint32_t acc = 0;
  int bits = 0;
  std::size_t pad = 0;
  for (std::size_t i = 0; i < t.size(); ++i) {
    bad_at = i;
    if (t[i] == '=') {
      if (i + 2 < t.size() || (i + 2 == t.size() && t[i + 1] != '=') || i % 4 < 2) return {};
      ++pad;
      continue;
    }
    const std::size_t v = alphabet.find(t[i]);
    if (v == std::string_view::npos || pad) return {};
    acc = acc << 6 | static_cast<std::uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<std::uint8_t>(acc >> bits));
      acc &= (1u << bits) - 1;
    }
  }
  bad_at = t.size() - 1 - pad;
  if (t.size() % 4 != 0 || acc != 0) return {};
  return out;
}

TEST(Base64, FastLoopMatchesPlainDecoder) {
  const std::uint64_t seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  for (int t = 0; t < 2000; ++t) {
    std::vector<std::uint8_t> b(rng() % 200);
    for (auto& x : b) x = static_cast<std::uint8_t>(rng());
    std::string text = base64_encode(b);
    if (t % 2 && !text.empty()) text[rng() % text.size()] = "A=+/!\n\0"[rng() % 7];
    std::size_t bad_at = 0;
    auto want = plain_decode(text, bad_at);
    auto got = base64_decode(text, "x");
    std::string into;
    Status into_status = base64_decode_into(text, into, "x", 64);
    ASSERT_EQ(got.ok(), want.has_value()) << text;
    ASSERT_EQ(into_status.ok(), want.has_value()) << text;
    if (want) {
      EXPECT_EQ(*got, *want);
      EXPECT_EQ(into, std::string(want->begin(), want->end()));
      EXPECT_GE(into.capacity(), into.size() + 64);
    } else if (text.size() % 4 == 0 && bad_at + 4 < text.size()) {  // before the last quad
      const std::string at = "at character " + std::to_string(bad_at) + ":";
      EXPECT_NE(got.status().message().find(at), std::string::npos)
          << text << ": " << got.status().message();
    }
  }
}

TEST(Base64, MalformedInputsNameTheField) {
  const char* bad[] = {"Zg=",                   // length not a multiple of 4
                       "Zm9v!A==", "Zg==Zg==",  // bad character; '=' before the end
                       "Z===",                  // too much padding
                       "Zh==",                  // unused bits not zero
                       "Zm9 ",                  // whitespace
                       "Zm=v"};                 // a character after '='
  for (const char* s : bad) {
    auto d = base64_decode(s, "Phase1Out");
    ASSERT_FALSE(d.ok()) << s;
    EXPECT_EQ(d.status().code(), Errc::bad_encoding) << s;
    EXPECT_NE(d.status().message().find("Phase1Out"), std::string::npos) << d.status().message();
  }
}

}  // namespace
}  // namespace cuzk::filecoin
