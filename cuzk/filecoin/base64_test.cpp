// RFC 4648 §10 test vectors, random round trips, and the malformed inputs a strict decoder (Rust's
// base64 STANDARD engine) refuses.
#include "cuzk/filecoin/base64.hpp"

#include <gtest/gtest.h>

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
