// ChaCha8Rng as rand_chacha 0.3 defines it (the RNG of Filecoin's BucketGraph, FORMATS.md §7):
// the ChaCha stream cipher with 8 rounds, a 32-byte seed as the key, a 64-bit block counter in
// words 12–13 starting at 0 and the 64-bit stream id 0 in words 14–15. Output is the keystream
// as little-endian u32 words in block order; next_u64() = lo | hi << 32 from two consecutive
// words (rand_core's BlockRng, which reads across block boundaries the same way).
// Cost: one 64-byte block per 16 words, 4 double rounds of 8 quarter-rounds.
#pragma once

#include <array>
#include <cstdint>
#include <span>

namespace cuzk::hash {

class ChaCha8Rng {
 public:
  /// Key = |seed| (little-endian words), counter 0, stream 0.
  explicit ChaCha8Rng(std::span<const std::uint8_t, 32> seed) {
    for (int i = 0; i < 8; ++i)
      key_[i] = std::uint32_t{seed[4 * i]} | std::uint32_t{seed[4 * i + 1]} << 8 |
                std::uint32_t{seed[4 * i + 2]} << 16 | std::uint32_t{seed[4 * i + 3]} << 24;
  }

  std::uint32_t next_u32() {
    if (index_ == 16) refill();
    return block_[index_++];
  }
  std::uint64_t next_u64() {
    const std::uint64_t lo = next_u32();
    return lo | std::uint64_t{next_u32()} << 32;
  }

 private:
  static std::uint32_t rotl(std::uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }
  static void quarter(std::uint32_t* s, int a, int b, int c, int d) {
    s[a] += s[b], s[d] = rotl(s[d] ^ s[a], 16);
    s[c] += s[d], s[b] = rotl(s[b] ^ s[c], 12);
    s[a] += s[b], s[d] = rotl(s[d] ^ s[a], 8);
    s[c] += s[d], s[b] = rotl(s[b] ^ s[c], 7);
  }
  void refill() {
    // "expand 32-byte k"
    std::uint32_t in[16] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};
    for (int i = 0; i < 8; ++i) in[4 + i] = key_[i];
    in[12] = static_cast<std::uint32_t>(counter_);
    in[13] = static_cast<std::uint32_t>(counter_ >> 32);
    in[14] = in[15] = 0;  // stream 0
    std::uint32_t s[16];
    for (int i = 0; i < 16; ++i) s[i] = in[i];
    for (int round = 0; round < 8; round += 2) {
      quarter(s, 0, 4, 8, 12), quarter(s, 1, 5, 9, 13), quarter(s, 2, 6, 10, 14),
          quarter(s, 3, 7, 11, 15);
      quarter(s, 0, 5, 10, 15), quarter(s, 1, 6, 11, 12), quarter(s, 2, 7, 8, 13),
          quarter(s, 3, 4, 9, 14);
    }
    for (int i = 0; i < 16; ++i) block_[i] = s[i] + in[i];
    ++counter_;
    index_ = 0;
  }

  std::uint32_t key_[8];
  std::uint64_t counter_ = 0;
  std::array<std::uint32_t, 16> block_{};
  unsigned index_ = 16;
};

}  // namespace cuzk::hash
