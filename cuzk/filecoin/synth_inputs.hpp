// Valid inputs of large (32 and 64 GiB) sectors without sealing one (issue 18 item 8;
// docs/filecoin/synth-inputs.md): PoSt vanilla proofs and a C1 output whose every checked value is
// consistent, so that the vanilla verifiers accept them and the production circuits are
// satisfiable — for prover tests and benchmarks at real sizes. Deterministic from a seed.
//
// The sectors are sparse: only the nodes a proof opens carry non-zero values, every other leaf of
// tree_d, tree_c and tree_r_last is zero, and the roots come from cached zero-subtree digests
// (sparse_tree.hpp).
//   * PoSt, per sector i (sector_id i, its position in the PoSt): comm_c random; the challenged
//     leaves (post_challenges.hpp, the proof's API version) random replica values; comm_r_last the
//     sparse tree_r_last root; comm_r = Poseidon2(comm_c, comm_r_last).
//   * C1 (interactive PoRep, API 1.0.0 or 1.1.0): the data is all zero (a committed-capacity
//     sector), so comm_d is the root of the zero tree_d and replica_id follows from the random
//     prover_id, sector_id and ticket; the challenges are derived from replica_id and the random
//     seed (porep_challenges.hpp interactive_challenges). Every parent (6 DRG + 8 expander, from the SDR graph) of
//     a challenged node that is not itself challenged gets a random column (L random labels); the
//     challenged nodes' labels are then computed, layer by layer in node order, from their
//     parents' labels exactly as SDR does (so a parent that is also challenged carries its computed
//     labels); tree_c has the column hashes of all those nodes as its only non-zero leaves,
//     tree_r_last the replica nodes 0 + label_L of the challenged nodes; comm_r = Poseidon2(comm_c,
//     comm_r_last).
//   * SnapDeals (UpdateProof, h = h_default): every leaf of the three trees is constant on the 2^h
//     rho regions (BlockTree, block_tree.hpp), so the whole sector is defined before its challenges
//     are known: region j has sector key key_j and data d_j (random, non-zero), the new replica
//     key_j + d_j · rho(j) with rho from phi = H(comm_d_new, comm_r_old). The challenges follow
//     from comm_r_new; every challenged leaf carries non-zero data. comm_c random.
// What is random: prover_id (unless given), sector_id, ticket, seed (C1), randomness (PoSt), comm_c (PoSt), the
// challenged replica leaves (PoSt) and the non-challenged parents' labels (C1). Every random
// 32-byte value is SHA-256("cuzk synth-inputs" ‖ purpose ‖ u64le(seed) ‖ u64le(i) ‖ u64le(j))
// with byte 31 &= 0x3f (a 254-bit Fr).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "cuzk/base/status.hpp"
#include "cuzk/base/thread_pool.hpp"
#include "cuzk/filecoin/bytes32.hpp"
#include "cuzk/filecoin/porep_vanilla_proof.hpp"
#include "cuzk/filecoin/post_vanilla_proof.hpp"
#include "cuzk/filecoin/post_verify.hpp"
#include "cuzk/filecoin/registered_proof.hpp"
#include "cuzk/filecoin/snap_vanilla_proof.hpp"
#include "cuzk/filecoin/snap_verify.hpp"

namespace cuzk::filecoin {

/// The deterministic 254-bit value number (|i|, |j|) of |purpose| under |seed|.
Node synth_value(std::string_view purpose, std::uint64_t seed, std::uint64_t i,
                 std::uint64_t j = 0);

/// A synthetic PoSt: its public data and one vanilla proof per sector (PoSt order).
struct SynthPost {
  PostProof proof;
  Bytes32 randomness{}, prover_id{};
  std::vector<PostPublicSector> sectors;
  std::vector<FallbackPoStSectorProof> vanilla;
};

/// |num_sectors| sectors of |proof|'s size (WinningPoSt: exactly 1, the whole eligible set, so it
/// is the selected sector). Sectors are built in parallel on |pool|; the result does not depend
/// on the thread count. |prover_id|: the prover's id (prover_id_of_actor of a miner, so that a
/// daemon request naming that miner matches), else a random one.
Result<SynthPost> synth_post(const PostProof& proof, std::uint64_t seed, std::uint64_t num_sectors,
                             ThreadPool& pool, std::optional<Bytes32> prover_id = std::nullopt);

/// A synthetic C1 and the private values behind it.
struct SynthC1 {
  SealCommitPhase1Output c1;
  Node prover_id{};
  std::uint64_t sector_id = 0;
  Node comm_c{}, comm_r_last{};
};

/// The C1 of |proof| (interactive: V1 or V1_1 of any size); invalid_argument for the synthetic
/// and non-interactive schemes (their challenges are not written yet). |prover_id| as for
/// synth_post (it enters replica_id, so every commitment changes with it).
Result<SynthC1> synth_c1(const SealProof& proof, std::uint64_t seed, ThreadPool& pool,
                         std::optional<Node> prover_id = std::nullopt);

/// A synthetic SnapDeals update: its public data and every partition's proof (in order), with the
/// private values behind them.
struct SynthSnap {
  UpdateProof proof;
  SnapPublic pub;  ///< comm_r_old, comm_d_new, comm_r_new, h = h_default
  Node comm_c{}, comm_r_last_old{}, comm_r_last_new{};
  std::vector<SnapPartitionProof> partitions;
};

/// The update of a |proof|-sized sector (any size; built for 32 and 64 GiB). Deterministic for
/// |seed| whatever the thread count of |pool|.
Result<SynthSnap> synth_snap(const UpdateProof& proof, std::uint64_t seed, ThreadPool& pool);

}  // namespace cuzk::filecoin
