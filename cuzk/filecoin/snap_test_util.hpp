// Test helpers for SnapDeals: a sealed sector of seeded pseudo-random data and an update of it,
// and the slow twin of the encoding (snap_encode.hpp), written from vanilla.rs `encode_into`
// node by node with the reference Poseidon permutation and a top-down tree root (seal_naive.hpp).
#pragma once

#include <functional>
#include <random>
#include <vector>

#include "cuzk/filecoin/sdr_hashes.hpp"
#include "cuzk/filecoin/seal.hpp"
#include "cuzk/filecoin/seal_naive.hpp"
#include "cuzk/filecoin/snap_encode.hpp"
#include "cuzk/hash/poseidon.hpp"
#include "cuzk/hash/sha256.hpp"

namespace cuzk::filecoin::testing {

/// |n| random Fr32 nodes (top two bits clear).
inline std::vector<Node> random_fr32(std::mt19937_64& rng, std::size_t n) {
  std::vector<Node> v(n);
  for (Node& x : v) {
    for (auto& b : x) b = static_cast<std::uint8_t>(rng());
    x[31] &= 0x3f;
  }
  return v;
}

/// A sector sealed with |proof_name| over random data from |rng|.
inline SealResult seal_random(std::mt19937_64& rng, const char* proof_name, ThreadPool& pool) {
  const SealConfig config = seal_config(seal_proof(proof_name).value());
  const std::vector<Node> data = random_fr32(rng, config.nodes);
  SectorIdentity id;
  for (auto& b : id.prover_id) b = static_cast<std::uint8_t>(rng());
  id.prover_id[31] &= 0x3f;
  id.sector_id = rng() % 1000;
  for (auto& b : id.ticket) b = static_cast<std::uint8_t>(rng());
  return seal(config, id, data, pool).value();
}

/// The slow twin of snap_encode: comm_d_new, comm_r_last_new, comm_r_new and the new replica.
struct NaiveUpdate {
  Node comm_d_new, comm_r_last_new, comm_r_new;
  std::vector<Node> replica;
};
inline NaiveUpdate naive_snap_encode(SectorSize size, const Node& comm_c, const Node& comm_r_last,
                                     std::span<const Node> key, std::span<const Node> data,
                                     unsigned h) {
  const hash::PoseidonConstants& c2 = *hash::poseidon_constants(2);
  const auto h2 = [&](const Fr& a, const Fr& b, const Fr& tag) {
    const Fr pre[2] = {a, b};
    return hash::poseidon_hash_reference(c2, tag, pre);
  };
  const Fr custom = Fr::from_u64(std::uint64_t{1} << 40);  // Custom(1): 1·2^40
  const Fr merkle = Fr::from_u64(3);                       // MerkleTree arity 2: 2^2 − 1
  NaiveUpdate out;
  // tree_d root, top-down.
  std::function<Node(std::span<const Node>)> d_root = [&](std::span<const Node> l) -> Node {
    if (l.size() == 1) return l[0];
    const Node a = d_root(l.first(l.size() / 2)), b = d_root(l.subspan(l.size() / 2));
    std::uint8_t msg[64];
    std::copy(a.begin(), a.end(), msg);
    std::copy(b.begin(), b.end(), msg + 32);
    Node r = hash::sha256(msg);
    r[31] &= 0x3f;
    return r;
  };
  out.comm_d_new = d_root(data);
  const Fr comm_c_fr = fr_from_node(comm_c).value();
  const Fr comm_r_old = h2(comm_c_fr, fr_from_node(comm_r_last).value(), merkle);
  const Fr phi = h2(fr_from_node(out.comm_d_new).value(), comm_r_old, custom);
  unsigned bits = 0;
  while ((std::uint64_t{1} << bits) < key.size()) ++bits;
  std::vector<Fr> replica;
  for (std::size_t i = 0; i < key.size(); ++i) {
    const Fr rho = h2(phi, Fr::from_u64(i >> (bits - h)), custom);
    replica.push_back(fr_from_node(key[i]).value() + fr_from_node(data[i]).value() * rho);
    out.replica.push_back(node_from_fr(replica.back()));
  }
  const TreeShape shape = tree_shape(size);
  const std::vector<unsigned> arities = naive::shape_arities(shape, key.size());
  const Fr root = naive::poseidon_root(replica, arities);
  out.comm_r_last_new = node_from_fr(root);
  out.comm_r_new = node_from_fr(h2(comm_c_fr, root, merkle));
  return out;
}

}  // namespace cuzk::filecoin::testing
