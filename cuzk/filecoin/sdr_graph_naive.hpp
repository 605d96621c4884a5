// The slow twin of SdrGraph for tests: a line-by-line transcription of upstream's
// BucketGraph::parents (drgraph.rs), feistel.rs and StackedGraph::correspondent (graph.rs) that
// shares no logic with sdr_graph.cpp / feistel.cpp: seeds through one-shot SHA-256 of a
// concatenated buffer, the bucket count through f64 ceil(log2) as upstream computes it, and the
// Feistel round through OpenSSL's BLAKE2b-512 on a byte buffer packed big-endian byte by byte.
// Each call derives everything from scratch: slow, only for sampled nodes.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "cuzk/filecoin/registered_proof.hpp"
#include "cuzk/hash/blake2b.hpp"
#include "cuzk/hash/chacha8.hpp"
#include "cuzk/hash/sha256.hpp"

namespace cuzk::filecoin::naive {

inline hash::Digest32 porep_seed(const char* tag, const PorepId& porep_id) {
  std::vector<std::uint8_t> buf(tag, tag + std::char_traits<char>::length(tag));
  buf.insert(buf.end(), porep_id.begin(), porep_id.end());
  return hash::sha256(buf);
}

inline std::uint64_t feistel_f(std::uint64_t right, std::uint64_t key, std::uint64_t mask) {
  std::uint8_t data[16];
  for (int i = 0; i < 8; ++i) data[i] = static_cast<std::uint8_t>(right >> (56 - 8 * i));
  for (int i = 0; i < 8; ++i) data[8 + i] = static_cast<std::uint8_t>(key >> (56 - 8 * i));
  const hash::Digest64 h = hash::blake2b512(data);
  std::uint64_t r = 0;
  for (int i = 0; i < 8; ++i) r = r << 8 | h[i];
  return r & mask;
}

inline std::uint64_t feistel_encode(std::uint64_t index, const std::uint64_t* keys,
                                    std::uint64_t left_mask, std::uint64_t right_mask,
                                    unsigned half_bits) {
  std::uint64_t left = (index & left_mask) >> half_bits, right = index & right_mask;
  for (int i = 0; i < 3; ++i) {
    const std::uint64_t l = right, r = left ^ feistel_f(right, keys[i], right_mask);
    left = l, right = r;
  }
  return left << half_bits | right;
}

/// Upstream's permute(n, index, keys, precompute(n)).
inline std::uint64_t feistel_permute(std::uint64_t n, std::uint64_t index,
                                     const std::uint64_t* keys) {
  std::uint64_t next_pow4 = 4;
  unsigned log4 = 1;
  while (next_pow4 < n) next_pow4 *= 4, log4 += 1;
  const std::uint64_t left_mask = ((std::uint64_t{1} << log4) - 1) << log4;
  const std::uint64_t right_mask = (std::uint64_t{1} << log4) - 1;
  std::uint64_t u = feistel_encode(index, keys, left_mask, right_mask, log4);
  while (u >= n) u = feistel_encode(u, keys, left_mask, right_mask, log4);
  return u;
}

/// The 14 parents of |node| in a graph of |nodes| nodes.
inline std::array<std::uint32_t, 14> parents(std::uint64_t nodes, const PorepId& porep_id,
                                             ApiVersion api, std::uint64_t node) {
  std::array<std::uint32_t, 14> out{};
  const bool legacy = api == ApiVersion::v1_0_0;
  // BucketGraph::parents
  if (node >= 2) {
    const hash::Digest32 raw = porep_seed("Filecoin_DRSample", porep_id);
    std::array<std::uint8_t, 32> seed{};
    std::copy_n(raw.begin(), 28, seed.begin());
    const auto n32 = static_cast<std::uint32_t>(node);
    for (int b = 0; b < 4; ++b) seed[28 + b] = static_cast<std::uint8_t>(n32 >> (8 * b));
    hash::ChaCha8Rng rng(seed);
    const std::uint64_t m_prime = 5;
    const std::uint64_t metagraph_node = node * m_prime;
    const auto n_buckets =
        static_cast<std::uint64_t>(std::ceil(std::log2(static_cast<double>(metagraph_node))));
    const std::size_t predecessor_index = legacy ? m_prime : 0;
    std::uint32_t* other = legacy ? &out[0] : &out[1];
    for (std::size_t k = 0; k < m_prime; ++k) {
      const std::uint64_t bucket_index = (rng.next_u64() % n_buckets) + 1;
      const std::uint64_t largest = std::min(metagraph_node, std::uint64_t{1} << bucket_index);
      const std::uint64_t smallest = std::max<std::uint64_t>(2, largest >> 1);
      const std::uint64_t n_distances = largest - smallest + 1;
      const std::uint64_t distance = smallest + (rng.next_u64() % n_distances);
      const std::uint64_t metagraph_parent = metagraph_node - distance;
      const auto mapped = static_cast<std::uint32_t>(metagraph_parent / m_prime);
      other[k] = mapped == n32 ? n32 - 1 : mapped;
    }
    out[predecessor_index] = n32 - 1;
  }
  // StackedGraph::generate_expanded_parents
  const hash::Digest32 fk = porep_seed("Filecoin_Feistel", porep_id);
  std::uint64_t keys[4] = {};
  for (int i = 0; i < 4; ++i)
    for (int b = 7; b >= 0; --b) keys[i] = keys[i] << 8 | fk[8 * i + b];
  for (std::uint64_t i = 0; i < 8; ++i) {
    const std::uint64_t transformed = feistel_permute(nodes * 8, node * 8 + i, keys);
    out[6 + i] = legacy ? static_cast<std::uint32_t>(transformed) / 8u
                        : static_cast<std::uint32_t>(transformed / 8);
  }
  return out;
}

}  // namespace cuzk::filecoin::naive
