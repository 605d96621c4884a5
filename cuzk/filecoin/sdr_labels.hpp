// SDR labels: the L layers of the stacked DRG encoding key (storage-proofs-porep
// stacked/vanilla/create_label/single.rs `create_label`, `create_label_exp`, graph.rs
// `copy_parents_data_inner[_exp]`; FORMATS.md §3.3, §7).
//   prefix(ℓ, v) = replica_id ‖ u32be(ℓ) ‖ u64be(v) ‖ 20 zero bytes            (64 bytes)
//   node 0:  label = SHA-256(prefix)
//   layer 1: label = SHA-256(prefix ‖ (p_0..p_5) × 6 ‖ p_0)                     (37 parents)
//            p_k = layer-1 label of base parent k
//   layer ℓ > 1: label = SHA-256(prefix ‖ (q_0..q_13) × 2 ‖ q_0..q_8)           (37 parents)
//            q_0..q_5 = layer-ℓ labels of the base parents, q_6..q_13 = layer-(ℓ−1) labels of
//            the expander parents
//   then byte 31 &= 0x3f.
// Base parents precede the node, so a layer is computed in node order. Cost per node: one
// SHA-256 over 1248 bytes (20 blocks) plus the graph's parents (SdrGraph: ChaCha8 draws and,
// for ℓ > 1, 8 Feistel permutations, run in vector lanes by SdrGraph::parents_range); the
// parents of a chunk of nodes are drawn in parallel, the hashes run in order.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/base/thread_pool.hpp"
#include "cuzk/filecoin/node.hpp"
#include "cuzk/filecoin/sdr_graph.hpp"

namespace cuzk::filecoin {

/// The 64-byte prefix of every label hash of |node| in |layer|.
std::array<std::uint8_t, 64> label_prefix(const Node& replica_id, unsigned layer,
                                          std::uint64_t node);

/// Layer |layer| (1-based) of the labels into |out| (graph.nodes() entries). |prev| is layer
/// |layer| − 1 (ignored, and may be empty, for layer 1).
void sdr_label_layer(const SdrGraph& graph, const Node& replica_id, unsigned layer,
                     std::span<const Node> prev, std::span<Node> out, ThreadPool& pool);

/// All |layers| layers: result[ℓ − 1] is layer ℓ.
std::vector<std::vector<Node>> sdr_labels(const SdrGraph& graph, const Node& replica_id,
                                          unsigned layers, ThreadPool& pool);

}  // namespace cuzk::filecoin
