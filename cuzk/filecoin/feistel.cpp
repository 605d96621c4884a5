#include "cuzk/filecoin/feistel.hpp"

#include <bit>
#include <utility>

namespace cuzk::filecoin {
namespace {

// BLAKE2b (RFC 7693 §2.6–3.2) for one 16-byte message, no key, 64-byte digest.
constexpr std::uint64_t kIv[8] = {0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b,
                                  0xa54ff53a5f1d36f1, 0x510e527fade682d1, 0x9b05688c2b3e6c1f,
                                  0x1f83d9abfb41bd6b, 0x5be0cd19137e2179};
constexpr unsigned char kSigma[10][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4},
    {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13},
    {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11},
    {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5},
    {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
};

// Message word |I| of the padded block: words 0 and 1 hold the 16 bytes, the rest are zero (known
// at compile time, so their additions vanish).
template <unsigned I>
inline std::uint64_t word(std::uint64_t m0, std::uint64_t m1) {
  if constexpr (I == 0) {
    return m0;
  } else if constexpr (I == 1) {
    return m1;
  } else {
    return 0;
  }
}

inline void mix(std::uint64_t& a, std::uint64_t& b, std::uint64_t& c, std::uint64_t& d,
                std::uint64_t x, std::uint64_t y) {
  a += b + x;
  d = std::rotr(d ^ a, 32);
  c += d;
  b = std::rotr(b ^ c, 24);
  a += b + y;
  d = std::rotr(d ^ a, 16);
  c += d;
  b = std::rotr(b ^ c, 63);
}

template <unsigned R>
inline void round(std::uint64_t (&v)[16], std::uint64_t m0, std::uint64_t m1) {
  constexpr const unsigned char* s = kSigma[R % 10];
  mix(v[0], v[4], v[8], v[12], word<s[0]>(m0, m1), word<s[1]>(m0, m1));
  mix(v[1], v[5], v[9], v[13], word<s[2]>(m0, m1), word<s[3]>(m0, m1));
  mix(v[2], v[6], v[10], v[14], word<s[4]>(m0, m1), word<s[5]>(m0, m1));
  mix(v[3], v[7], v[11], v[15], word<s[6]>(m0, m1), word<s[7]>(m0, m1));
  mix(v[0], v[5], v[10], v[15], word<s[8]>(m0, m1), word<s[9]>(m0, m1));
  mix(v[1], v[6], v[11], v[12], word<s[10]>(m0, m1), word<s[11]>(m0, m1));
  mix(v[2], v[7], v[8], v[13], word<s[12]>(m0, m1), word<s[13]>(m0, m1));
  mix(v[3], v[4], v[9], v[14], word<s[14]>(m0, m1), word<s[15]>(m0, m1));
}

// The first output word of BLAKE2b-512 over the 16 bytes whose little-endian words are m0, m1:
// h0 = IV0 ⊕ 0x01010040 (digest 64, key 0, fanout 1, depth 1); the one block is the last
// (v14 = ¬IV6) with byte count t = 16 (v12 = IV4 ⊕ 16); out0 = h0 ⊕ v0 ⊕ v8 after 12 rounds.
std::uint64_t blake2b512_16_word0(std::uint64_t m0, std::uint64_t m1) {
  const std::uint64_t h0 = kIv[0] ^ 0x01010040;
  std::uint64_t v[16] = {h0,     kIv[1], kIv[2], kIv[3], kIv[4],      kIv[5], kIv[6],  kIv[7],
                         kIv[0], kIv[1], kIv[2], kIv[3], kIv[4] ^ 16, kIv[5], ~kIv[6], kIv[7]};
  [&]<unsigned... R>(std::integer_sequence<unsigned, R...>) { (round<R>(v, m0, m1), ...); }
  (std::make_integer_sequence<unsigned, 12>{});
  return h0 ^ v[0] ^ v[8];
}

std::uint64_t bswap64(std::uint64_t x) {
  // The byte reversal of a u64 (std::byteswap is C++23); compilers emit one bswap.
  x = (x & 0x00000000ffffffffull) << 32 | x >> 32;
  x = (x & 0x0000ffff0000ffffull) << 16 | (x >> 16 & 0x0000ffff0000ffffull);
  return (x & 0x00ff00ff00ff00ffull) << 8 | (x >> 8 & 0x00ff00ff00ff00ffull);
}

#if CUZK_FEISTEL_LANES
}  // namespace
namespace detail {
void blake2b512_16_word0_x4(const std::uint64_t* m0, const std::uint64_t* m1, std::uint64_t* out);
void blake2b512_16_word0_x8(const std::uint64_t* m0, const std::uint64_t* m1, std::uint64_t* out);
}  // namespace detail
namespace {
#endif

void blake2b512_16_word0_x1(const std::uint64_t* m0, const std::uint64_t* m1, std::uint64_t* out) {
  out[0] = blake2b512_16_word0(m0[0], m1[0]);
}

// permute() over [first, first + out.size()) with L permutations in flight, one per lane of
// |hash|: each step runs one Feistel round in every lane; a lane whose encode lands inside the
// domain stores its result and takes the next index, one that lands outside starts another
// encode of the value it holds (its halves are already left and right). Idle lanes at the end
// hash junk that is never read.
template <unsigned L>
void permute_lanes(std::uint64_t first, std::span<std::uint64_t> out, std::uint64_t domain,
                   const std::array<std::uint64_t, 3>& keys, unsigned half_bits, std::uint64_t mask,
                   void (*hash)(const std::uint64_t*, const std::uint64_t*, std::uint64_t*)) {
  std::uint64_t key_words[3];
  for (unsigned i = 0; i < 3; ++i) key_words[i] = bswap64(keys[i]);
  std::uint64_t left[L], right[L], job[L], m0[L], m1[L], h[L];
  unsigned round[L];
  bool busy[L];
  std::size_t next = 0, active = 0;
  auto take = [&](unsigned k) {
    busy[k] = next < out.size();
    if (!busy[k]) return;
    const std::uint64_t x = first + next;
    job[k] = next++;
    left[k] = (x >> half_bits) & mask;
    right[k] = x & mask;
    round[k] = 0;
    ++active;
  };
  for (unsigned k = 0; k < L; ++k) take(k);
  while (active) {
    for (unsigned k = 0; k < L; ++k) {
      m0[k] = bswap64(right[k]);
      m1[k] = key_words[busy[k] ? round[k] : 0];
    }
    hash(m0, m1, h);
    for (unsigned k = 0; k < L; ++k) {
      if (!busy[k]) continue;
      const std::uint64_t r = left[k] ^ (bswap64(h[k]) & mask);
      left[k] = right[k];
      right[k] = r;
      if (++round[k] < 3) continue;
      const std::uint64_t u = left[k] << half_bits | right[k];
      if (u < domain) {
        out[job[k]] = u;
        --active;
        take(k);
      } else {
        round[k] = 0;
      }
    }
  }
}

}  // namespace

bool feistel_lanes_supported(FeistelLanes lanes) {
  switch (lanes) {
    case FeistelLanes::best:
    case FeistelLanes::scalar:
      return true;
#if CUZK_FEISTEL_LANES
    case FeistelLanes::avx2:
      return __builtin_cpu_supports("avx2");
    case FeistelLanes::avx512:
      return __builtin_cpu_supports("avx512f");
#else
    default:
      return false;
#endif
  }
  return false;
}

FeistelLanes feistel_lanes_best() {
  static const FeistelLanes best =
      feistel_lanes_supported(FeistelLanes::avx512) ? FeistelLanes::avx512
      : feistel_lanes_supported(FeistelLanes::avx2) ? FeistelLanes::avx2
                                                    : FeistelLanes::scalar;
  return best;
}

std::uint64_t feistel_round(std::uint64_t right, std::uint64_t key) {
  // The message bytes are u64be(right) ‖ u64be(key); as little-endian words they are the byte
  // reversals. The digest's first 8 bytes read big-endian are the reversal of output word 0.
  return bswap64(blake2b512_16_word0(bswap64(right), bswap64(key)));
}

FeistelPermutation::FeistelPermutation(std::uint64_t domain,
                                       const std::array<std::uint64_t, 4>& keys)
    : domain_(domain), keys_{keys[0], keys[1], keys[2]} {
  // feistel.rs precompute(): next_pow4 starts at 4 (log4 = 1) and grows while below the domain.
  unsigned log4 = 1;
  std::uint64_t pow4 = 4;
  while (pow4 < domain) pow4 *= 4, ++log4;
  half_bits_ = log4;
  right_mask_ = (std::uint64_t{1} << log4) - 1;
}

std::uint64_t FeistelPermutation::encode(std::uint64_t x) const {
  std::uint64_t left = (x >> half_bits_) & right_mask_, right = x & right_mask_;
  for (std::uint64_t key : keys_) {
    const std::uint64_t next = left ^ (feistel_round(right, key) & right_mask_);
    left = right;
    right = next;
  }
  return left << half_bits_ | right;
}

std::uint64_t FeistelPermutation::decode(std::uint64_t x) const {
  std::uint64_t left = (x >> half_bits_) & right_mask_, right = x & right_mask_;
  for (unsigned i = kRounds; i-- > 0;) {
    const std::uint64_t prev = right ^ (feistel_round(left, keys_[i]) & right_mask_);
    right = left;
    left = prev;
  }
  return left << half_bits_ | right;
}

std::uint64_t FeistelPermutation::permute(std::uint64_t index) const {
  std::uint64_t u = encode(index);
  while (u >= domain_) u = encode(u);
  return u;
}

void FeistelPermutation::permute_range(std::uint64_t first, std::span<std::uint64_t> out,
                                       FeistelLanes lanes) const {
  const auto& keys = keys_;
  switch (lanes == FeistelLanes::best ? feistel_lanes_best() : lanes) {
#if CUZK_FEISTEL_LANES
    case FeistelLanes::avx512:
      return permute_lanes<8>(first, out, domain_, keys, half_bits_, right_mask_,
                              detail::blake2b512_16_word0_x8);
    case FeistelLanes::avx2:
      return permute_lanes<4>(first, out, domain_, keys, half_bits_, right_mask_,
                              detail::blake2b512_16_word0_x4);
#endif
    default:
      return permute_lanes<1>(first, out, domain_, keys, half_bits_, right_mask_,
                              blake2b512_16_word0_x1);
  }
}

std::uint64_t FeistelPermutation::invert(std::uint64_t index) const {
  std::uint64_t u = decode(index);
  while (u >= domain_) u = decode(u);
  return u;
}

}  // namespace cuzk::filecoin
