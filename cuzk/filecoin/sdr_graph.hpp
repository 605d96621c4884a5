// The SDR graph of a sector (FORMATS.md §7): per node 14 parents, 6 from the BucketGraph DRG
// (degree 6, ChaCha8 seeded from porep_id and the node; the predecessor node − 1 in slot 5 for
// API 1.0.0, slot 0 from 1.1.0) then 8 from the Feistel expander (degree 8, keys from porep_id).
// Labels of layer 1 use the 6 base parents; later layers use all 14 (the 8 expander parents'
// labels come from the previous layer). Cost per node: 5 ChaCha8 draws of 2 words (one block
// per 8 draws) + 8 Feistel permutations of 3 BLAKE2b-512 rounds each (plus cycle walks).
//
// Upstream: storage-proofs-core src/drgraph.rs (BucketGraph), src/crypto/feistel.rs, and
// storage-proofs-porep src/stacked/vanilla/graph.rs (StackedGraph). Two upstream quirks are kept:
// the bucket count is ceil(log2(node·5)) (computed here exactly on integers, which equals the f64
// formula for every u32 node), and under API 1.0.0 an expander parent is the permuted index
// truncated to u32 before the division by 8 (`transformed as u32 / 8`), which at 32 GiB and
// 64 GiB (8·nodes > 2^32) keeps every expander parent below 2^29: upstream's "graph distribution
// pathology", part of the V1 sectors' graph and of their parent caches.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "cuzk/filecoin/feistel.hpp"
#include "cuzk/filecoin/registered_proof.hpp"

namespace cuzk::filecoin {

class SdrGraph {
 public:
  static constexpr unsigned kBaseDegree = 6;
  static constexpr unsigned kExpansionDegree = 8;
  static constexpr unsigned kDegree = kBaseDegree + kExpansionDegree;

  /// The most nodes a graph may have: parents are u32 and upstream requires nodes ≤ u32::MAX;
  /// 64 GiB sectors have 2^31.
  static constexpr std::uint64_t kMaxNodes = std::uint64_t{1} << 31;

  /// The graph of a sector of |nodes| nodes (2 ≤ nodes ≤ kMaxNodes; sectors have a power of two
  /// ≥ 64) for |porep_id| and |api|.
  SdrGraph(std::uint64_t nodes, const PorepId& porep_id, ApiVersion api);

  std::uint64_t nodes() const { return nodes_; }
  ApiVersion api() const { return api_; }
  const PorepId& porep_id() const { return porep_id_; }
  /// The ChaCha8 seed prefix of the DRG: SHA-256("Filecoin_DRSample" ‖ porep_id)[0..28).
  const std::array<std::uint8_t, 28>& drg_seed() const { return drg_seed_; }
  /// The four Feistel keys (the parent cache's name hashes all four; rounds use three).
  const std::array<std::uint64_t, 4>& feistel_keys() const { return feistel_keys_; }

  /// Parents of |node|: out[0..6) base (DRG), out[6..14) expander.
  void parents(std::uint64_t node, std::span<std::uint32_t, kDegree> out) const;
  /// The 6 base parents only.
  void base_parents(std::uint64_t node, std::span<std::uint32_t, kBaseDegree> out) const;
  /// The 8 expander parents only.
  void expansion_parents(std::uint64_t node, std::span<std::uint32_t, kExpansionDegree> out) const;
  /// parents() of nodes [first, first + out.size() / 14), 14 per node in order; the expander's
  /// permutations run in |lanes| vector lanes side by side (parents() is the one-node twin).
  void parents_range(std::uint64_t first, std::span<std::uint32_t> out,
                     FeistelLanes lanes = FeistelLanes::best) const;

 private:
  std::uint64_t nodes_;
  ApiVersion api_;
  PorepId porep_id_;
  std::array<std::uint8_t, 28> drg_seed_;  ///< SHA-256("Filecoin_DRSample" ‖ porep_id)[0..28]
  std::array<std::uint64_t, 4>
      feistel_keys_;            ///< LE u64s of SHA-256("Filecoin_Feistel" ‖ porep_id)
  FeistelPermutation feistel_;  ///< over [0, nodes·8)
};

}  // namespace cuzk::filecoin
