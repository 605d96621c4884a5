// Test helpers for the vanilla-proof tests: random nodes and proofs of a given shape (for format
// round trips), and a sparse Poseidon tree that yields consistent inclusion proofs of any shape and
// size without building the whole tree: nodes off the challenged paths are pseudo-random stand-ins
// for subtree roots, which a verifier cannot tell from real ones. The tree hashes with
// poseidon_hash_reference, the slow twin of the optimized Poseidon the verifier uses.
#pragma once

#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <vector>

#include "cuzk/filecoin/bytes32.hpp"
#include "cuzk/filecoin/merkle_proof.hpp"
#include "cuzk/filecoin/registered_proof.hpp"
#include "cuzk/hash/poseidon.hpp"

namespace cuzk::filecoin::testing {

inline std::uint64_t splitmix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/// A canonical Fr encoding (top two bits clear, so below r).
inline Bytes32 random_node(std::mt19937_64& rng) {
  Bytes32 b{};
  for (auto& x : b) x = static_cast<std::uint8_t>(rng());
  b[31] &= 0x3f;
  return b;
}

inline std::vector<Bytes32> random_nodes(std::mt19937_64& rng, std::size_t n) {
  std::vector<Bytes32> v(n);
  for (auto& b : v) b = random_node(rng);
  return v;
}

inline InclusionPath random_path(std::mt19937_64& rng, unsigned arity, unsigned levels) {
  InclusionPath p(levels);
  for (auto& e : p) {
    e.hashes = random_nodes(rng, arity - 1);
    e.index = rng() % arity;
  }
  return p;
}

/// A random proof with the structure of |shape| and |levels| base levels (not a valid path).
inline MerkleProof random_merkle_proof(std::mt19937_64& rng, const TreeShape& shape,
                                       unsigned levels) {
  MerkleProof p;
  p.kind = merkle_proof_kind(shape);
  p.base_path = random_path(rng, shape.base, levels);
  if (shape.sub) p.sub_path = random_path(rng, shape.sub, 1);
  if (shape.top) p.top_path = random_path(rng, shape.top, 1);
  p.root = random_node(rng);
  p.leaf = random_node(rng);
  return p;
}

/// A Poseidon tree of |leaves| leaves in |shape| with real values on the paths of |challenged|.
class SparseTree {
 public:
  SparseTree(const TreeShape& shape, std::uint64_t leaves,
             const std::vector<std::uint64_t>& challenged, std::uint64_t seed)
      : shape_(shape), seed_(seed) {
    const unsigned base = *base_levels(shape, leaves);
    for (unsigned l = 0; l < base; ++l) arity_.push_back(shape.base);
    if (shape.sub) arity_.push_back(shape.sub);
    if (shape.top) arity_.push_back(shape.top);
    for (std::uint64_t leaf : challenged) {
      std::uint64_t idx = leaf;
      for (unsigned l = 0; l <= arity_.size(); ++l) {
        on_path_.insert({l, idx});
        if (l < arity_.size()) idx /= arity_[l];
      }
    }
  }

  Bytes32 root() { return node(static_cast<unsigned>(arity_.size()), 0); }

  /// The inclusion proof of |leaf| (which must be one of the challenged leaves).
  MerkleProof proof(std::uint64_t leaf) {
    MerkleProof p;
    p.kind = merkle_proof_kind(shape_);
    p.leaf = node(0, leaf);
    std::uint64_t idx = leaf;
    const unsigned base =
        static_cast<unsigned>(arity_.size()) - (shape_.sub ? 1 : 0) - (shape_.top ? 1 : 0);
    for (unsigned l = 0; l < arity_.size(); ++l) {
      const unsigned a = arity_[l];
      PathElement e;
      e.index = idx % a;
      for (unsigned j = 0; j < a; ++j)
        if (j != e.index) e.hashes.push_back(node(l, idx / a * a + j));
      (l < base ? p.base_path : l == base && shape_.sub ? p.sub_path : p.top_path).push_back(e);
      idx /= a;
    }
    p.root = root();
    return p;
  }

 private:
  Bytes32 node(unsigned level, std::uint64_t idx) {
    auto it = memo_.find({level, idx});
    if (it != memo_.end()) return it->second;
    Bytes32 v{};
    if (level > 0 && on_path_.count({level, idx})) {
      const unsigned a = arity_[level - 1];
      std::vector<Fr> children;
      for (unsigned j = 0; j < a; ++j)
        children.push_back(*fr_from_bytes32(node(level - 1, idx * a + j), "child"));
      const hash::PoseidonConstants& c = *hash::poseidon_constants(a);
      v = bytes32_from_fr(hash::poseidon_hash_reference(c, hash::poseidon_merkle_tag(a), children));
    } else {
      std::uint64_t h = splitmix(seed_ ^ splitmix(level * 0x1000003ull ^ splitmix(idx)));
      for (int i = 0; i < 32; ++i) {
        if (i % 8 == 0) h = splitmix(h);
        v[i] = static_cast<std::uint8_t>(h >> (8 * (i % 8)));
      }
      v[31] &= 0x3f;
    }
    memo_[{level, idx}] = v;
    return v;
  }

  TreeShape shape_;
  std::uint64_t seed_;
  std::vector<unsigned> arity_;  ///< per level, leaf level first
  std::set<std::pair<unsigned, std::uint64_t>> on_path_;
  std::map<std::pair<unsigned, std::uint64_t>, Bytes32> memo_;
};

}  // namespace cuzk::filecoin::testing

#include "cuzk/filecoin/porep_vanilla_proof.hpp"
#include "tests/support/seed.hpp"

namespace cuzk::filecoin::testing {
using cuzk::test::fresh_seed;

/// A C1 output with the real shape of |seal| (random values): partitions × challenges proofs,
/// tree_d paths of log2(nodes) binary levels, tree_c / tree_r_last paths of the sector's shape,
/// L-row columns, 6 DRG + 8 expander parents, L labeling proofs of 37 parents.
inline SealCommitPhase1Output random_c1(std::mt19937_64& rng, const SealProof& seal,
                                        unsigned partitions, unsigned challenges) {
  const TreeShape shape = tree_shape(seal.size);
  const std::uint64_t nodes = sector_nodes(seal.size);
  const unsigned levels = *base_levels(shape, nodes);
  const unsigned layers = sdr_layers(seal.size);
  const unsigned d_levels = *base_levels(TreeShape{2, 0, 0}, nodes);
  auto column = [&] {
    ColumnProof c;
    c.column.index = static_cast<std::uint32_t>(rng() % nodes);
    c.column.rows = random_nodes(rng, layers);
    c.inclusion_proof = random_merkle_proof(rng, shape, levels);
    return c;
  };
  auto labeling = [&](unsigned layer, std::uint64_t node) {
    LabelingProof l;
    l.parents = random_nodes(rng, 37);
    l.layer_index = layer;
    l.node = node;
    return l;
  };
  SealCommitPhase1Output c1;
  c1.registered_proof = seal.name;
  c1.vanilla_size = seal.size;
  c1.vanilla_proofs.resize(partitions);
  for (auto& part : c1.vanilla_proofs)
    for (unsigned i = 0; i < challenges; ++i) {
      PorepChallengeProof p;
      const std::uint64_t node = rng() % nodes;
      p.comm_d_proofs = random_merkle_proof(rng, TreeShape{2, 0, 0}, d_levels);
      p.comm_r_last_proof = random_merkle_proof(rng, shape, levels);
      p.replica_column_proofs.c_x = column();
      for (int j = 0; j < 6; ++j) p.replica_column_proofs.drg_parents.push_back(column());
      for (int j = 0; j < 8; ++j) p.replica_column_proofs.exp_parents.push_back(column());
      for (unsigned l = 1; l <= layers; ++l) p.labeling_proofs.push_back(labeling(l, node));
      p.encoding_proof = labeling(layers, node);
      part.push_back(std::move(p));
    }
  c1.comm_r = random_node(rng);
  c1.comm_d = random_node(rng);
  c1.replica_id = random_node(rng);
  c1.seed = random_node(rng);
  c1.ticket = random_node(rng);
  return c1;
}

}  // namespace cuzk::filecoin::testing
