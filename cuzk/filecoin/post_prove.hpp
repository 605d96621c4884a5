// PoSt vanilla proof generation from sealed sectors (storage-proofs-post fallback/vanilla.rs
// `vanilla_proof` and `prove_all_partitions`; filecoin-proofs api/post_util.rs
// `generate_fallback_sector_challenges`, `generate_single_vanilla_proof`,
// `partition_vanilla_proofs`; api/winning_post.rs `generate_winning_post_sector_challenge`):
//   * a sector is read from its directory (sector_dir.hpp): sector.json, and tree_r_last rebuilt
//     from the replica (the cache file keeps only the top rows, like upstream's LevelCacheStore;
//     upstream rebuilds the discarded rows from the replica the same way in gen_cached_proof);
//     the rebuilt root must be sector.json's comm_r_last and Poseidon2(comm_c, comm_r_last) its
//     comm_r (upstream reports such a sector as faulty);
//   * the challenged leaves of a sector at position sector_index of the PoSt come from
//     post_challenges.hpp (challenge index by the registered proof's API version);
//   * its proof (FallbackPoStSectorProof) holds one SectorProof: one tree_r_last inclusion proof
//     per challenge in challenge order, comm_c and comm_r_last from sector.json;
//   * WindowPoSt: one proof per sector, sector_index = position in the given list (partition k ·
//     sector_count + i); WinningPoSt: the sector at generate_winning_post_sector_challenge's
//     position in the given sector set, proven at sector_index 0 with 66 challenges.
// A WindowPoSt partition's `fallback::Proof` (what the circuit takes) holds the SectorProofs of
// its sectors, a short (last) partition repeating its last SectorProof up to sector_count — as
// prove_all_partitions and partition_vanilla_proofs pad it, and as the circuit's public inputs
// repeat the last sector's (window_post_partition_proof).
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

#include "cuzk/base/status.hpp"
#include "cuzk/base/thread_pool.hpp"
#include "cuzk/filecoin/merkle_proof.hpp"
#include "cuzk/filecoin/merkle_prove.hpp"
#include "cuzk/filecoin/poseidon_tree.hpp"
#include "cuzk/filecoin/post_vanilla_proof.hpp"
#include "cuzk/filecoin/registered_proof.hpp"
#include "cuzk/filecoin/sector_dir.hpp"

namespace cuzk::filecoin {

/// A sealed sector ready for PoSt: its public data and its whole tree_r_last.
struct PostSector {
  SectorInfo info;
  PoseidonTree tree_r_last;
};

/// Reads sector directory |dir| for |proof|: its size must be the proof's; the replica's tree
/// must have sector.json's comm_r_last as root and comm_r must be Poseidon2(comm_c, comm_r_last)
/// (unsatisfied naming the directory and the value otherwise).
Result<PostSector> load_post_sector(const std::filesystem::path& dir, const PostProof& proof,
                                    ThreadPool& pool);

/// `vanilla_proof` + `generate_single_vanilla_proof`: the proof of |sector| for |challenges|
/// (challenged leaves); out_of_range naming the challenge when a leaf is past the sector.
Result<FallbackPoStSectorProof> post_sector_vanilla_proof(
    const PostSector& sector, std::span<const std::uint64_t> challenges);

/// WindowPoSt: one proof per sector of |sectors| (PoSt order), each at its position.
Result<std::vector<FallbackPoStSectorProof>> window_post_vanilla_proofs(
    const PostProof& proof, const Bytes32& randomness, std::span<const PostSector> sectors);

/// WinningPoSt: which of |sectors| (the eligible set, in order) is challenged, and its proof.
struct WinningVanilla {
  std::uint64_t sector_index = 0;  ///< position in the set
  FallbackPoStSectorProof proof;
};
Result<WinningVanilla> winning_post_vanilla_proof(const PostProof& proof, const Bytes32& randomness,
                                                  const Bytes32& prover_id,
                                                  std::span<const PostSector> sectors);

/// Partition |k|'s SectorProofs (sector_count of them) from |vanilla| (one proof per sector, PoSt
/// order): short partitions repeat their last SectorProof. invalid_argument when k is past the
/// last partition or a proof does not hold exactly one SectorProof.
Result<std::vector<PostSectorProof>> window_post_partition_proof(
    const PostProof& proof, std::span<const FallbackPoStSectorProof> vanilla, std::uint64_t k);

}  // namespace cuzk::filecoin
