// SnapDeals encoding: new data into a sealed sector whose replica becomes the sector key
// (storage-proofs-update vanilla.rs `encode_into`, `decode_from`; filecoin-proofs api/update.rs
// with h = h_default; snap_params.hpp for phi, rho and h):
//   tree_d_new    = SHA-256 binary tree over the new data (tree_d.hpp); comm_d_new its root
//   comm_r_old    = Poseidon_2(comm_c, comm_r_last_old)                  (MerkleTree tag)
//   phi           = H_custom1(comm_d_new, comm_r_old)
//   rho(i)        = H_custom1(phi, i >> (log2(n) − h))                   (2^h distinct values)
//   replica_new[i] = sector_key[i] + data_new[i] · rho(i)                (mod r)
//   tree_r_new    = Poseidon tree of replica_new, same shape as tree_r_last; comm_r_last_new its
//                   root; comm_r_new = Poseidon_2(comm_c, comm_r_last_new)
// Decoding: data_new[i] = (replica_new[i] − sector_key[i]) · rho(i)^−1.
// Memory: the new replica, tree_d (2n nodes) and tree_r_new (~8/7 n Fr): ~4·32·n bytes.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/base/status.hpp"
#include "cuzk/base/thread_pool.hpp"
#include "cuzk/filecoin/node.hpp"
#include "cuzk/filecoin/poseidon_tree.hpp"
#include "cuzk/filecoin/registered_proof.hpp"
#include "cuzk/filecoin/snap_params.hpp"

namespace cuzk::filecoin {

/// What an update needs besides the data: the sealed sector's public values and its replica.
struct SnapSectorKey {
  SectorSize size = SectorSize::s2KiB;
  Node comm_c{}, comm_r_last{};   ///< of the sealed sector (p_aux)
  std::span<const Node> replica;  ///< the sealed replica (the sector key), nodes of the size
};

struct SnapEncoded {
  unsigned h = 0;
  Node comm_r_old{}, comm_d_new{}, comm_r_last_new{}, comm_r_new{}, phi{};
  std::vector<Node> replica;  ///< the new replica
  std::vector<Node> tree_d;   ///< tree_d_new, every row, leaves (the data) first
  PoseidonTree tree_r;        ///< tree_r_new
};

/// rho(i) for every node: the 2^h values, one per h-bit prefix of the node index.
std::vector<Fr> snap_rhos(const SnapParams& p, unsigned h, const Fr& phi);

/// Encodes |data| (Fr32 nodes, one per sector node) into |key| with |h| (an allowed h of the
/// size). invalid_argument for a bad h; size_mismatch / out_of_range naming the input and node.
Result<SnapEncoded> snap_encode(const SnapSectorKey& key, std::span<const Node> data, unsigned h,
                                ThreadPool& pool);

/// The data of |replica_new| (the output of snap_encode with |comm_d_new| and |h|).
Result<std::vector<Node>> snap_decode(const SnapSectorKey& key, std::span<const Node> replica_new,
                                      const Node& comm_d_new, unsigned h, ThreadPool& pool);

}  // namespace cuzk::filecoin
