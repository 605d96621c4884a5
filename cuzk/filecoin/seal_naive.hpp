// Test-only slow twins of the sealing code (STYLE.md rule 10): written from FORMATS.md §3.3/§7
// directly, one node at a time, sharing no code with the fast paths beyond the hash primitives
// and the SDR graph.
//   naive_label:        builds the 37-parent list explicitly, then one SHA-256 of the 1248 bytes
//   naive_poseidon_root: top-down recursion over the levels' arities, reference permutation
//   naive_seal_commitments: labels → columns → replica → roots → comm_r with those two
#pragma once

#include <cstring>
#include <span>
#include <vector>

#include "cuzk/filecoin/node.hpp"
#include "cuzk/filecoin/registered_proof.hpp"
#include "cuzk/filecoin/sdr_graph.hpp"
#include "cuzk/hash/poseidon.hpp"
#include "cuzk/hash/sha256.hpp"

namespace cuzk::filecoin::naive {

/// Label of |node| in |layer|: SHA-256(prefix ‖ 37 parent labels), byte 31 &= 0x3f.
inline Node label(const SdrGraph& g, const Node& replica_id, unsigned layer, std::uint64_t node,
                  std::span<const Node> cur, std::span<const Node> prev) {
  std::vector<std::uint8_t> msg(replica_id.begin(), replica_id.end());
  for (int i = 3; i >= 0; --i) msg.push_back(static_cast<std::uint8_t>(layer >> (8 * i)));
  for (int i = 7; i >= 0; --i) msg.push_back(static_cast<std::uint8_t>(node >> (8 * i)));
  msg.resize(msg.size() + 20, 0);
  if (node > 0) {
    std::array<std::uint32_t, SdrGraph::kDegree> p{};
    g.parents(node, p);
    std::vector<Node> parents;
    if (layer == 1) {
      for (int r = 0; r < 7; ++r)
        for (int k = 0; k < 6; ++k) parents.push_back(cur[p[k]]);
      parents.resize(37);
    } else {
      for (int r = 0; r < 3; ++r)
        for (int k = 0; k < 14; ++k) parents.push_back(k < 6 ? cur[p[k]] : prev[p[k]]);
      parents.resize(37);
    }
    for (const Node& x : parents) msg.insert(msg.end(), x.begin(), x.end());
  }
  Node out = hash::sha256(msg);
  out[31] &= 0x3f;
  return out;
}

/// All layers, one node at a time.
inline std::vector<std::vector<Node>> labels(const SdrGraph& g, const Node& replica_id,
                                             unsigned layers) {
  std::vector<std::vector<Node>> out(layers, std::vector<Node>(g.nodes()));
  for (unsigned l = 1; l <= layers; ++l)
    for (std::uint64_t v = 0; v < g.nodes(); ++v)
      out[l - 1][v] = label(g, replica_id, l, v, out[l - 1],
                            l > 1 ? std::span<const Node>(out[l - 2]) : std::span<const Node>());
  return out;
}

/// Root over |leaves| with the levels' arities |arities| listed from the top.
inline Fr poseidon_root(std::span<const Fr> leaves, std::span<const unsigned> arities) {
  if (arities.empty()) return leaves[0];
  const unsigned a = arities[0];
  const std::size_t w = leaves.size() / a;
  std::vector<Fr> kids;
  for (unsigned k = 0; k < a; ++k)
    kids.push_back(poseidon_root(leaves.subspan(k * w, w), arities.subspan(1)));
  return hash::poseidon_hash_reference(*hash::poseidon_constants(a), hash::poseidon_merkle_tag(a),
                                       kids);
}

/// The arities of a tree of |shape| over |leaves| leaves, top first.
inline std::vector<unsigned> shape_arities(const TreeShape& shape, std::uint64_t leaves) {
  std::vector<unsigned> a;
  if (shape.top) a.push_back(shape.top);
  if (shape.sub) a.push_back(shape.sub);
  for (std::uint64_t w = leaves / shape.base_trees(); w > 1; w /= shape.base)
    a.push_back(shape.base);
  return a;
}

struct Commitments {
  Node comm_c, comm_r_last, comm_r;
  std::vector<Node> replica;
};

/// comm_c, comm_r_last, comm_r and the replica from |labels| and |data|.
inline Commitments seal_commitments(const std::vector<std::vector<Node>>& labels,
                                    std::span<const Node> data, const TreeShape& shape) {
  const std::size_t n = data.size();
  const unsigned layers = static_cast<unsigned>(labels.size());
  std::vector<Fr> columns(n), encoded(n);
  Commitments c;
  for (std::size_t v = 0; v < n; ++v) {
    std::vector<Fr> rows;
    for (unsigned l = 0; l < layers; ++l) rows.push_back(fr_from_node(labels[l][v]).value());
    columns[v] = hash::poseidon_hash_reference(*hash::poseidon_constants(layers),
                                               hash::poseidon_merkle_tag(layers), rows);
    encoded[v] = fr_from_node(data[v]).value() + rows.back();
    c.replica.push_back(node_from_fr(encoded[v]));
  }
  const auto arities = shape_arities(shape, n);
  const Fr comm_c = poseidon_root(columns, arities), comm_r_last = poseidon_root(encoded, arities);
  const Fr pair[2] = {comm_c, comm_r_last};
  c.comm_c = node_from_fr(comm_c);
  c.comm_r_last = node_from_fr(comm_r_last);
  c.comm_r = node_from_fr(hash::poseidon_hash_reference(*hash::poseidon_constants(2),
                                                        hash::poseidon_merkle_tag(2), pair));
  return c;
}

}  // namespace cuzk::filecoin::naive
