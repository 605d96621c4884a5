// The Feistel permutation behind the SDR expander (rust-fil-proofs storage-proofs-core
// crypto/feistel.rs; FORMATS.md §7). For a domain of n elements, log4 = the smallest k ≥ 1 with
// 4^k ≥ n; an index is split into a left and a right half of k bits each and goes through three
// rounds (L, R) ← (R, L ⊕ F(R, key_i)) with keys[0..3); F(R, K) = the first 8 bytes, read
// big-endian, of BLAKE2b-512(u64be(R) ‖ u64be(K)), masked to k bits. The 2k-bit result is
// re-encrypted while it is ≥ n (cycle walking), which keeps the map a bijection on [0, n).
// When n is not a power of four (every SDR sector but 64 GiB), half the 2k-bit space lies
// outside, so a permute() costs 2 encodes on average: 6 BLAKE2b compressions.
//
// F is computed by a BLAKE2b-512 written for this one shape of message (16 bytes, one block,
// no key): 12 rounds of 8 G mixes where only message words 0 and 1 are nonzero. It is checked
// against OpenSSL's BLAKE2b-512 (feistel_test.cpp). permute_range() runs 4 (AVX2) or 8
// (AVX-512) permutations side by side, one BLAKE2b per vector lane, each lane taking the next
// index when its own leaves the cycle walk; permute() is its one-at-a-time twin. Figures in
// docs/filecoin/parent-cache.md.
#pragma once

#include <array>
#include <cstdint>
#include <span>

namespace cuzk::filecoin {

/// How permute_range computes BLAKE2b: one message at a time, or 4 / 8 in vector lanes.
enum class FeistelLanes { best = 0, scalar = 1, avx2 = 4, avx512 = 8 };
/// Whether this build and CPU run |lanes| (best and scalar always).
bool feistel_lanes_supported(FeistelLanes lanes);
/// What |best| resolves to here.
FeistelLanes feistel_lanes_best();

/// F(|right|, |key|) before masking: BLAKE2b-512(u64be(right) ‖ u64be(key))[0..8) as a
/// big-endian integer.
std::uint64_t feistel_round(std::uint64_t right, std::uint64_t key);

class FeistelPermutation {
 public:
  static constexpr unsigned kRounds = 3;

  /// The permutation of [0, |domain|) (|domain| ≥ 1) under |keys| (only the first three are used,
  /// as upstream's FEISTEL_ROUNDS = 3).
  FeistelPermutation(std::uint64_t domain, const std::array<std::uint64_t, 4>& keys);

  std::uint64_t domain() const { return domain_; }
  /// Bits in each half: the smallest k ≥ 1 with 4^k ≥ domain.
  unsigned half_bits() const { return half_bits_; }

  /// The image of |index| (< domain): encode, repeated while the result is ≥ domain.
  std::uint64_t permute(std::uint64_t index) const;
  /// The inverse of permute (decode, repeated while ≥ domain).
  std::uint64_t invert(std::uint64_t index) const;
  /// out[k] = permute(first + k) for every k (first + out.size() ≤ domain); |lanes| must be
  /// supported.
  void permute_range(std::uint64_t first, std::span<std::uint64_t> out,
                     FeistelLanes lanes = FeistelLanes::best) const;

  /// One pass of the three rounds over the 2·half_bits-bit space (no cycle walk).
  std::uint64_t encode(std::uint64_t x) const;
  /// The inverse of encode.
  std::uint64_t decode(std::uint64_t x) const;

 private:
  std::uint64_t domain_;
  std::array<std::uint64_t, kRounds> keys_;
  unsigned half_bits_;
  std::uint64_t right_mask_;
};

}  // namespace cuzk::filecoin
