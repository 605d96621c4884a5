#include "cuzk/filecoin/snap_params.hpp"

#include <algorithm>
#include <bit>

#include "cuzk/hash/poseidon.hpp"

namespace cuzk::filecoin {

bool SnapParams::h_allowed(unsigned h) const {
  return std::find(hs.begin(), hs.end(), h) != hs.end();
}

Result<SnapParams> snap_params(std::uint64_t nodes) {
  if (nodes < 8 || !std::has_single_bit(nodes))
    return Status(Errc::invalid_argument,
                  "SnapDeals needs a power-of-two node count ≥ 8, got " + std::to_string(nodes));
  SnapParams p;
  p.nodes = nodes;
  p.challenge_bit_len = static_cast<unsigned>(std::countr_zero(nodes));
  p.partitions = nodes <= (1u << 8) ? 1 : nodes <= (1u << 10) ? 2 : nodes <= (1u << 19) ? 4 : 16;
  p.partition_bit_len = static_cast<unsigned>(std::countr_zero(p.partitions));
  p.challenges = nodes <= (1u << 19) ? 10 : 86;
  p.apex_leaves = nodes <= (1u << 8) ? 8 : 128;
  p.apex_leaf_bit_len = static_cast<unsigned>(std::countr_zero(p.apex_leaves));
  if (p.challenge_bit_len < p.partition_bit_len + p.apex_leaf_bit_len)
    return Status(Errc::invalid_argument,
                  std::to_string(nodes) + " nodes are too few for the partition and apex trees");
  if (nodes <= (1u << 10))
    p.hs = {1, 1, 1, 1, 1, 1};
  else
    p.hs = {7, 8, 9, 10, 11, 12};
  p.h_default = p.hs[3];
  return p;
}

SnapParams snap_params(SectorSize size) { return *snap_params(sector_nodes(size)); }

Result<std::uint64_t> snap_k_and_h_select(const SnapParams& p, unsigned k, unsigned h) {
  if (k >= p.partitions)
    return Status(Errc::invalid_argument, "partition index " + std::to_string(k) + " ≥ " +
                                              std::to_string(p.partitions) + " partitions");
  const auto it = std::find(p.hs.begin(), p.hs.end(), h);
  if (it == p.hs.end())
    return Status(Errc::invalid_argument, "h = " + std::to_string(h) + " is not allowed");
  const std::uint64_t h_select = std::uint64_t{1} << (it - p.hs.begin());
  return std::uint64_t{k} | (h_select << p.partition_bit_len);
}

Fr snap_gen_randomness(const Fr& a, const Fr& b) {
  static const Fr tag = hash::poseidon_custom_tag(1);
  const Fr pre[2] = {a, b};
  return hash::poseidon_hash(*hash::poseidon_constants(2), tag, pre);
}

Fr snap_phi(const Fr& comm_d_new, const Fr& comm_r_old) {
  return snap_gen_randomness(comm_d_new, comm_r_old);
}

Fr snap_rho(const Fr& phi, std::uint64_t high) {
  return snap_gen_randomness(phi, Fr::from_u64(high));
}

unsigned snap_high_shift(const SnapParams& p, unsigned h) { return p.challenge_bit_len - h; }

std::vector<std::uint64_t> snap_challenges(const SnapParams& p, const Fr& comm_r_new, unsigned k) {
  const unsigned bits = p.challenge_bit_len - p.partition_bit_len;
  const unsigned per_digest = 254 / bits;  // Fr::CAPACITY / bits
  const unsigned digests_per_partition = (p.challenges + per_digest - 1) / per_digest;
  std::uint64_t digest_index = std::uint64_t{k} * digests_per_partition;
  const std::uint64_t partition_high = std::uint64_t{k} << bits;
  std::vector<std::uint64_t> out;
  out.reserve(p.challenges);
  Limbs<4> digest{};
  for (unsigned n = 0; n < p.challenges; ++n) {
    const unsigned i = n % per_digest;
    if (i == 0) {
      digest = snap_gen_randomness(comm_r_new, Fr::from_u64(digest_index + n / per_digest))
                   .to_canonical();
    }
    std::uint64_t c = 0;
    for (unsigned b = 0; b < bits; ++b) {
      const unsigned at = i * bits + b;
      c |= ((digest[at / 64] >> (at % 64)) & 1) << b;
    }
    out.push_back(c | partition_high);
  }
  return out;
}

}  // namespace cuzk::filecoin
