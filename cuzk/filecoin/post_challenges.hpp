// PoSt challenges (storage-proofs-post fallback/vanilla.rs and utils.rs; filecoin-proofs
// api/winning_post.rs, api/post_util.rs; FORMATS.md §4.1, §7):
//
// * WinningPoSt sector selection (generate_winning_post_sector_challenge → generate_sector_challenge):
//   for n in 0..sector_count (1): index = LE-u64(SHA-256(prover_id ‖ randomness ‖ u64le(n))[0..8])
//   mod sector_set_size — a position in the miner's eligible sector set.
// * Challenge index (get_challenge_index): API 1.0.0 and 1.1.0: sector_index · challenge_count + n,
//   where sector_index is the sector's position in the whole PoSt (partition k · sector_count + i);
//   API 1.2.0 (WindowPoSt V1_2, the grinding fix): n alone.
// * Challenged leaf (generate_leaf_challenge): LE-u64(SHA-256(randomness ‖ u64le(sector_id) ‖
//   u64le(challenge_index))[0..8]) mod nodes.
// * WindowPoSt partitions: ceil(sectors / sector_count) (at least 1); partition k holds sectors
//   [k·sector_count, (k+1)·sector_count); a short one repeats its last sector up to sector_count.
// WinningPoSt proves one sector with 66 challenges (sector_index 0, so challenge_index = n for every
// API version); its circuit sees it as 66 one-challenge sectors.
#pragma once

#include <cstdint>
#include <vector>

#include "cuzk/base/status.hpp"
#include "cuzk/filecoin/bytes32.hpp"
#include "cuzk/filecoin/registered_proof.hpp"

namespace cuzk::filecoin {

/// generate_winning_post_sector_challenge: |sector_count| positions in 0..sector_set_size;
/// invalid_argument when the set is empty.
Result<std::vector<std::uint64_t>> winning_post_sector_challenges(const Bytes32& randomness,
                                                                  const Bytes32& prover_id,
                                                                  std::uint64_t sector_set_size,
                                                                  unsigned sector_count = 1);

/// get_challenge_index.
std::uint64_t post_challenge_index(ApiVersion api, std::uint64_t sector_index,
                                   std::uint64_t challenge_count, std::uint64_t n);

/// generate_leaf_challenge: the challenged leaf in 0..nodes.
std::uint64_t post_leaf_challenge(const Bytes32& randomness, std::uint64_t sector_id,
                                  std::uint64_t challenge_index, std::uint64_t nodes);

/// The challenge_count leaves of the sector at |sector_index| (its position in the whole PoSt;
/// 0 for WinningPoSt), as generate_fallback_sector_challenges derives them.
std::vector<std::uint64_t> post_sector_challenges(const PostProof& proof, const Bytes32& randomness,
                                                  std::uint64_t sector_id,
                                                  std::uint64_t sector_index);

/// WindowPoSt partitions for |num_sectors| sectors: ceil(num_sectors / sector_count), at least 1.
std::uint64_t window_post_partitions(std::uint64_t num_sectors, std::uint64_t sector_count);

/// Positions (into the PoSt's sector list) of partition |k|'s sector_count sectors, a short
/// partition repeating its last sector; invalid_argument when k is past the last partition.
Result<std::vector<std::uint64_t>> window_post_partition_sectors(std::uint64_t num_sectors,
                                                                 std::uint64_t sector_count,
                                                                 std::uint64_t k);

}  // namespace cuzk::filecoin
