#include "cuzk/filecoin/post_challenges.hpp"

#include "cuzk/hash/sha256.hpp"

namespace cuzk::filecoin {

namespace {

void put_u64le(std::uint8_t* out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out[i] = static_cast<std::uint8_t>(v >> (8 * i));
}

std::uint64_t le_u64(const hash::Digest32& d) {
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= static_cast<std::uint64_t>(d[i]) << (8 * i);
  return v;
}

}  // namespace

Result<std::vector<std::uint64_t>> winning_post_sector_challenges(const Bytes32& randomness,
                                                                  const Bytes32& prover_id,
                                                                  std::uint64_t sector_set_size,
                                                                  unsigned sector_count) {
  if (sector_set_size == 0) return Status(Errc::invalid_argument, "winning PoSt: empty sector set");
  std::vector<std::uint64_t> out;
  std::uint8_t msg[32 + 32 + 8];
  std::copy(prover_id.begin(), prover_id.end(), msg);
  std::copy(randomness.begin(), randomness.end(), msg + 32);
  for (unsigned n = 0; n < sector_count; ++n) {
    put_u64le(msg + 64, n);
    out.push_back(le_u64(hash::sha256(msg)) % sector_set_size);
  }
  return out;
}

std::uint64_t post_challenge_index(ApiVersion api, std::uint64_t sector_index,
                                   std::uint64_t challenge_count, std::uint64_t n) {
  switch (api) {
    case ApiVersion::v1_0_0:
    case ApiVersion::v1_1_0:
      return sector_index * challenge_count + n;
    case ApiVersion::v1_2_0:
      return n;
  }
  return n;
}

std::uint64_t post_leaf_challenge(const Bytes32& randomness, std::uint64_t sector_id,
                                  std::uint64_t challenge_index, std::uint64_t nodes) {
  std::uint8_t msg[32 + 8 + 8];
  std::copy(randomness.begin(), randomness.end(), msg);
  put_u64le(msg + 32, sector_id);
  put_u64le(msg + 40, challenge_index);
  return le_u64(hash::sha256(msg)) % nodes;
}

std::vector<std::uint64_t> post_sector_challenges(const PostProof& proof, const Bytes32& randomness,
                                                  std::uint64_t sector_id,
                                                  std::uint64_t sector_index) {
  std::vector<std::uint64_t> leaves;
  const std::uint64_t nodes = sector_nodes(proof.size);
  for (std::uint64_t n = 0; n < proof.challenge_count; ++n)
    leaves.push_back(post_leaf_challenge(
        randomness, sector_id,
        post_challenge_index(proof.api, sector_index, proof.challenge_count, n), nodes));
  return leaves;
}

std::uint64_t window_post_partitions(std::uint64_t num_sectors, std::uint64_t sector_count) {
  if (sector_count == 0) return 1;
  const std::uint64_t p = (num_sectors + sector_count - 1) / sector_count;
  return p > 1 ? p : 1;
}

Result<std::vector<std::uint64_t>> window_post_partition_sectors(std::uint64_t num_sectors,
                                                                 std::uint64_t sector_count,
                                                                 std::uint64_t k) {
  if (num_sectors == 0 || sector_count == 0)
    return Status(Errc::invalid_argument, "window PoSt: no sectors to partition");
  const std::uint64_t parts = window_post_partitions(num_sectors, sector_count);
  if (k >= parts)
    return Status(Errc::invalid_argument,
                  "window PoSt: partition " + std::to_string(k) + " of " + std::to_string(parts));
  std::vector<std::uint64_t> out;
  const std::uint64_t first = k * sector_count;
  const std::uint64_t end = std::min(num_sectors, first + sector_count);
  for (std::uint64_t i = first; i < end; ++i) out.push_back(i);
  while (out.size() < sector_count) out.push_back(end - 1);
  return out;
}

}  // namespace cuzk::filecoin
