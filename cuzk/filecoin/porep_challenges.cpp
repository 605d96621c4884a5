#include "cuzk/filecoin/porep_challenges.hpp"

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include <algorithm>
#include <new>
#include <string_view>

#include "cuzk/hash/sha256.hpp"

namespace cuzk::filecoin {
namespace {

constexpr std::string_view kNiTag = "filecoin.io|PoRep|1|NonInteractive|1";
constexpr std::string_view kSynthGenKey = "filecoin.io|PoRep|1|Synthetic|1|Generation";
constexpr std::string_view kSynthSelKey = "filecoin.io|PoRep|1|Synthetic|1|Selection";
constexpr std::array<std::uint8_t, 12> kSynthNonce = {'s', 'y', 'n', 't', 'h', '-',
                                                      'p', 'o', 'r', 'e', 'p', 0};
constexpr std::uint64_t kDefaultSynthCount = std::uint64_t{1} << 18;

std::span<const std::uint8_t> bytes_of(std::string_view s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

std::array<std::uint8_t, 4> u32le(std::uint32_t v) {
  return {static_cast<std::uint8_t>(v), static_cast<std::uint8_t>(v >> 8),
          static_cast<std::uint8_t>(v >> 16), static_cast<std::uint8_t>(v >> 24)};
}

std::uint32_t rotl(std::uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }

void chacha20_block(const std::uint32_t in[16], std::uint8_t out[64]) {
  std::uint32_t s[16];
  std::copy(in, in + 16, s);
  auto quarter = [&s](int a, int b, int c, int d) {
    s[a] += s[b], s[d] = rotl(s[d] ^ s[a], 16);
    s[c] += s[d], s[b] = rotl(s[b] ^ s[c], 12);
    s[a] += s[b], s[d] = rotl(s[d] ^ s[a], 8);
    s[c] += s[d], s[b] = rotl(s[b] ^ s[c], 7);
  };
  for (int round = 0; round < 20; round += 2) {
    quarter(0, 4, 8, 12), quarter(1, 5, 9, 13), quarter(2, 6, 10, 14), quarter(3, 7, 11, 15);
    quarter(0, 5, 10, 15), quarter(1, 6, 11, 12), quarter(2, 7, 8, 13), quarter(3, 4, 9, 14);
  }
  for (int i = 0; i < 16; ++i) {
    const std::uint32_t w = s[i] + in[i];
    for (int b = 0; b < 4; ++b) out[4 * i + b] = static_cast<std::uint8_t>(w >> (8 * b));
  }
}

std::uint32_t load_le32(const std::uint8_t* p) {
  return std::uint32_t{p[0]} | std::uint32_t{p[1]} << 8 | std::uint32_t{p[2]} << 16 |
         std::uint32_t{p[3]} << 24;
}

}  // namespace

void chacha20_keystream(const std::array<std::uint8_t, 32>& key,
                        const std::array<std::uint8_t, 12>& nonce, std::uint64_t offset,
                        std::span<std::uint8_t> out) {
  std::uint32_t in[16] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};
  for (int i = 0; i < 8; ++i) in[4 + i] = load_le32(key.data() + 4 * i);
  for (int i = 0; i < 3; ++i) in[13 + i] = load_le32(nonce.data() + 4 * i);
  std::uint8_t block[64];
  std::size_t done = 0;
  while (done < out.size()) {
    const std::uint64_t at = offset + done;
    in[12] = static_cast<std::uint32_t>(at / 64);
    chacha20_block(in, block);
    const std::size_t skip = at % 64;
    const std::size_t take = std::min<std::size_t>(64 - skip, out.size() - done);
    std::copy(block + skip, block + skip + take, out.begin() + done);
    done += take;
  }
}

std::array<std::uint8_t, 32> blake2b256_keyed(std::span<const std::uint8_t> key,
                                              std::span<const std::uint8_t> data) {
  static EVP_MAC* mac = EVP_MAC_fetch(nullptr, "BLAKE2BMAC", nullptr);
  EVP_MAC_CTX* ctx = mac ? EVP_MAC_CTX_new(mac) : nullptr;
  if (!ctx) throw std::bad_alloc();
  std::size_t size = 32;
  OSSL_PARAM params[] = {OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &size),
                         OSSL_PARAM_construct_end()};
  std::array<std::uint8_t, 32> out{};
  std::size_t len = 0;
  const bool ok = EVP_MAC_init(ctx, key.data(), key.size(), params) == 1 &&
                  EVP_MAC_update(ctx, data.data(), data.size()) == 1 &&
                  EVP_MAC_final(ctx, out.data(), &len, out.size()) == 1 && len == 32;
  EVP_MAC_CTX_free(ctx);
  if (!ok) throw std::bad_alloc();  // only allocation can fail for these fixed sizes
  return out;
}

PorepChallengeConfig porep_challenge_config(const SealProof& proof) {
  const bool production = proof.size == SectorSize::s32GiB || proof.size == SectorSize::s64GiB;
  PorepChallengeConfig c;
  c.scheme = proof.scheme;
  c.nodes = sector_nodes(proof.size);
  unsigned minimum = 0;
  if (proof.scheme == PorepScheme::non_interactive) {
    c.partitions = production ? 126 : 13;
    minimum = production ? 2253 : 26;
  } else {
    c.partitions = porep_partitions(proof.size);
    minimum = porep_min_challenges(proof.size);
  }
  c.per_partition = (minimum + c.partitions - 1) / c.partitions;
  return c;
}

std::uint64_t challenge_from_bytes(const Node& x, std::uint64_t nodes) {
  const std::uint64_t m = nodes - 1;
  std::uint64_t r = 0;
  // Horner from the most significant (last) byte; m < 2^32 keeps r·256 + 255 in 64 bits.
  for (std::size_t i = x.size(); i-- > 0;) r = (r * 256 + x[i]) % m;
  return r + 1;
}

std::vector<std::uint64_t> interactive_challenges(std::uint64_t nodes, const Node& replica_id,
                                                  const Node& seed, unsigned per_partition,
                                                  unsigned k) {
  std::vector<std::uint64_t> out(per_partition);
  hash::Sha256 h;
  for (unsigned i = 0; i < per_partition; ++i) {
    const auto j = u32le(static_cast<std::uint32_t>(std::uint64_t{per_partition} * k + i));
    out[i] = challenge_from_bytes(h.update(replica_id).update(seed).update(j).finish(), nodes);
  }
  return out;
}

std::vector<std::uint64_t> non_interactive_challenges(std::uint64_t nodes, const Node& replica_id,
                                                      const Node& comm_r, unsigned per_partition,
                                                      unsigned k) {
  std::vector<std::uint64_t> out(per_partition);
  hash::Sha256 h;
  for (unsigned i = 0; i < per_partition; ++i) {
    const auto j = u32le(static_cast<std::uint32_t>(std::uint64_t{per_partition} * k + i));
    out[i] = challenge_from_bytes(
        h.update(bytes_of(kNiTag)).update(replica_id).update(comm_r).update(j).finish(), nodes);
  }
  return out;
}

SynthChallenges::SynthChallenges(std::uint64_t nodes, const Node& replica_id, const Node& comm_r,
                                 std::uint64_t count)
    : nodes_(nodes),
      count_(count ? count : std::min(nodes, kDefaultSynthCount)),
      replica_id_(replica_id) {
  std::array<std::uint8_t, 64> msg;
  std::copy(replica_id.begin(), replica_id.end(), msg.begin());
  std::copy(comm_r.begin(), comm_r.end(), msg.begin() + 32);
  key_gen_ = blake2b256_keyed(bytes_of(kSynthGenKey), msg);
}

std::uint64_t SynthChallenges::challenge(std::uint64_t t) const {
  Node x;
  chacha20_keystream(key_gen_, kSynthNonce, t * 32, x);
  return challenge_from_bytes(x, nodes_);
}

std::vector<std::uint64_t> SynthChallenges::partition_indexes(const Node& seed,
                                                              unsigned per_partition,
                                                              unsigned k) const {
  std::array<std::uint8_t, 64> msg;
  std::copy(replica_id_.begin(), replica_id_.end(), msg.begin());
  std::copy(seed.begin(), seed.end(), msg.begin() + 32);
  const auto key_sel = blake2b256_keyed(bytes_of(kSynthSelKey), msg);
  std::vector<std::uint8_t> bytes(std::size_t{per_partition} * 4);
  chacha20_keystream(key_sel, kSynthNonce, std::uint64_t{k} * per_partition * 4, bytes);
  std::vector<std::uint64_t> out(per_partition);
  for (unsigned i = 0; i < per_partition; ++i) out[i] = load_le32(&bytes[4 * i]) % count_;
  return out;
}

std::vector<std::uint64_t> SynthChallenges::partition_challenges(const Node& seed,
                                                                 unsigned per_partition,
                                                                 unsigned k) const {
  std::vector<std::uint64_t> out = partition_indexes(seed, per_partition, k);
  for (auto& t : out) t = challenge(t);
  return out;
}

std::vector<std::uint64_t> porep_challenges(const PorepChallengeConfig& config,
                                            const Node& replica_id, const Node& comm_r,
                                            const Node& seed, unsigned k) {
  switch (config.scheme) {
    case PorepScheme::interactive:
      return interactive_challenges(config.nodes, replica_id, seed, config.per_partition, k);
    case PorepScheme::non_interactive:
      return non_interactive_challenges(config.nodes, replica_id, comm_r, config.per_partition, k);
    case PorepScheme::synthetic:
      return SynthChallenges(config.nodes, replica_id, comm_r)
          .partition_challenges(seed, config.per_partition, k);
  }
  return {};
}

}  // namespace cuzk::filecoin
