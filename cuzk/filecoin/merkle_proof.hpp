// Merkle inclusion proofs as rust-fil-proofs stores them (storage-proofs-core merkle/proof.rs):
// `MerkleProof { data: ProofData }` with `ProofData` one of
//   0 Single { root, leaf, path }                          a tree of one level kind (8-0-0, tree_d)
//   1 Sub    { base_proof, sub_proof, root, leaf }         8-8-0: base levels, then one sub level
//   2 Top    { base_proof, sub_proof, top_proof, root, leaf }   8-8-2: one more (top) level
// (the variant index and the field order are what bincode writes; JSON names them). A path
// (`InclusionPath { path: Vec<PathElement> }`) runs from the leaf up; each element holds the
// arity − 1 siblings in order and the position 0..arity−1 of the current node among them
// (`PathElement { hashes, index }`). The root of a path: at each level insert the current node
// into the siblings at |index| and hash the arity nodes (Poseidon with the MerkleTree tag for
// tree_c/tree_r_last, SHA-256 with byte 31 &= 0x3f for the binary tree_d). The leaf index a proof
// shows: base digits in base |base arity| (leaf level least significant), then the sub digit times
// base^levels, then the top digit times base^levels·sub (MerkleProofTrait::path_index).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cuzk/base/status.hpp"
#include "cuzk/filecoin/bincode.hpp"
#include "cuzk/filecoin/bytes32.hpp"
#include "cuzk/filecoin/registered_proof.hpp"

namespace cuzk::filecoin {

/// One level of a path: the arity − 1 siblings and the current node's position.
struct PathElement {
  std::vector<Bytes32> hashes;
  std::uint64_t index = 0;
  bool operator==(const PathElement&) const = default;
};

/// Levels from the leaf up.
using InclusionPath = std::vector<PathElement>;

/// ProofData's variant; the value is its bincode index.
enum class MerkleProofKind : std::uint32_t { single = 0, sub = 1, top = 2 };

/// "Single", "Sub", "Top" (the serde variant names).
std::string_view merkle_proof_kind_name(MerkleProofKind k);
/// The variant trees of |shape| produce: Single for 8-0-0 (and binary tree_d), Sub for 8-8-0, Top
/// for 8-8-2.
MerkleProofKind merkle_proof_kind(const TreeShape& shape);

struct MerkleProof {
  MerkleProofKind kind = MerkleProofKind::single;
  InclusionPath base_path;  ///< Single: `path`; Sub and Top: `base_proof`
  InclusionPath sub_path;   ///< Sub and Top: `sub_proof` (one level)
  InclusionPath top_path;   ///< Top: `top_proof` (one level)
  Bytes32 root{};
  Bytes32 leaf{};
  bool operator==(const MerkleProof&) const = default;

  /// All levels, leaf first.
  std::size_t levels() const { return base_path.size() + sub_path.size() + top_path.size(); }
};

/// Base levels of a tree of |leaves| leaves in |shape| (leaves split evenly among the base trees);
/// invalid_argument when the base trees' leaf count is not a power of the base arity.
Result<unsigned> base_levels(const TreeShape& shape, std::uint64_t leaves);

/// Checks that |p| has the variant, level counts, sibling counts and index range of a tree of
/// |leaves| leaves in |shape|; errors name |name| and the offending path and level.
Status check_merkle_shape(const MerkleProof& p, const TreeShape& shape, std::uint64_t leaves,
                          std::string_view name);

/// The inclusion proof of |leaf| in a tree whose node |index| of level |l| (leaf level 0) is
/// node_at(l, index): |arity| per level from the leaf up, the first |base_levels| levels the base
/// path, the next the sub path, the one above it the top path.
template <class NodeAt>
MerkleProof proof_from_nodes(MerkleProofKind kind, std::span<const unsigned> arity,
                             unsigned base_levels, std::uint64_t leaf, const NodeAt& node_at,
                             const Bytes32& root) {
  MerkleProof p;
  p.kind = kind;
  p.leaf = node_at(0u, leaf);
  std::uint64_t idx = leaf;
  for (unsigned l = 0; l < arity.size(); ++l) {
    const unsigned a = arity[l];
    PathElement e;
    e.index = idx % a;
    for (unsigned j = 0; j < a; ++j)
      if (j != e.index) e.hashes.push_back(node_at(l, idx - e.index + j));
    if (l < base_levels)
      p.base_path.push_back(std::move(e));
    else if (l == base_levels)
      p.sub_path.push_back(std::move(e));
    else
      p.top_path.push_back(std::move(e));
    idx /= a;
  }
  p.root = root;
  return p;
}

/// The leaf index |p| shows (MerkleProofTrait::path_index); |p| must pass check_merkle_shape.
std::uint64_t path_index(const MerkleProof& p, const TreeShape& shape);

/// The root computed from the leaf and the path with Poseidon (MerkleTree tag, arity per level =
/// siblings + 1: 2, 4, 8, 11); out_of_range naming |name| and the node when a node is not below r,
/// invalid_argument for a level arity without Poseidon constants.
Result<Bytes32> poseidon_root(const MerkleProof& p, std::string_view name);

/// The root computed with SHA-256 (binary, digest byte 31 &= 0x3f: tree_d); every level must have
/// one sibling.
Result<Bytes32> sha256_root(const MerkleProof& p, std::string_view name);

/// bincode of a MerkleProof (u32 variant, then its fields in declaration order).
Status read_merkle_proof(BincodeReader& r, MerkleProof& out);
void write_merkle_proof(BincodeWriter& w, const MerkleProof& p);

}  // namespace cuzk::filecoin
