// Sealing and unsealing of a sector with SDR (stacked DRG PoRep; storage-proofs-porep
// stacked/vanilla/proof.rs `transform_and_replicate_layers`, `extract_and_invert_transform_layers`;
// FORMATS.md §3.3, §7), for sectors that fit in memory (the test sizes: 2 KiB, 8 MiB, 512 MiB).
//   comm_d      = root of tree_d (SHA-256 binary) over the data
//   replica_id  = replica_id(prover_id, sector_id, ticket, comm_d, porep_id)
//   labels      = L SDR layers (sdr_labels.hpp)
//   column(v)   = Poseidon_L(label_1[v], …, label_L[v]), MerkleTree tag 2^L − 1 (L = 2 or 11;
//                 hash.rs `hash_single_column`)
//   tree_c      = Poseidon tree of the columns; comm_c its root
//   replica[v]  = data[v] + label_L[v] (mod r)  (encode)
//   tree_r_last = Poseidon tree of the replica; comm_r_last its root
//   comm_r      = Poseidon_2(comm_c, comm_r_last), MerkleTree tag 3 (PoseidonFunction::hash2)
// Unsealing: data[v] = replica[v] − label_L[v] (mod r); the labels depend only on replica_id and
// the graph, so they are recomputed.
// Memory: the data, L label layers, tree_d (2n nodes), tree_c and tree_r_last (~8/7 n Fr each):
// about (L + 6)·32·n bytes at the peak (512 MiB sector: ~4 GiB).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/base/status.hpp"
#include "cuzk/base/thread_pool.hpp"
#include "cuzk/filecoin/node.hpp"
#include "cuzk/filecoin/poseidon_tree.hpp"
#include "cuzk/filecoin/registered_proof.hpp"
#include "cuzk/filecoin/sdr_hashes.hpp"

namespace cuzk::filecoin {

/// The public parameters a seal depends on.
struct SealConfig {
  std::uint64_t nodes = 0;  ///< 32-byte nodes of the sector
  unsigned layers = 0;      ///< SDR layers L (2 or 11)
  TreeShape shape;          ///< tree_c / tree_r_last shape
  PorepId porep_id{};
  ApiVersion api = ApiVersion::v1_0_0;
};
/// The configuration of a registered seal proof (its size, layers, shape, porep_id and API).
SealConfig seal_config(const SealProof& proof);

/// Who seals which sector with which randomness.
struct SectorIdentity {
  Node prover_id{};
  std::uint64_t sector_id = 0;
  Node ticket{};
  bool operator==(const SectorIdentity&) const = default;
};

/// Everything a seal produces.
struct SealResult {
  Node comm_d{}, comm_c{}, comm_r_last{}, comm_r{}, replica_id{};
  std::vector<Node> replica;              ///< the sealed sector
  std::vector<std::vector<Node>> labels;  ///< labels[ℓ − 1] = layer ℓ
  std::vector<Node> tree_d;               ///< rows of tree_d, leaves first (2n − 1 nodes)
  PoseidonTree tree_c, tree_r_last;
};

/// Checks |data| against |config| (nodes·32 bytes in total, every node < r): size_mismatch or
/// out_of_range naming the first bad node.
Status check_sector_data(const SealConfig& config, std::span<const Node> data);

/// Seals |data| (config.nodes Fr32 nodes) for |id|.
Result<SealResult> seal(const SealConfig& config, const SectorIdentity& id,
                        std::span<const Node> data, ThreadPool& pool);

/// The data of |replica| sealed under |replica_id|; out_of_range when a replica node is ≥ r.
Result<std::vector<Node>> unseal(const SealConfig& config, const Node& replica_id,
                                 std::span<const Node> replica, ThreadPool& pool);

}  // namespace cuzk::filecoin
