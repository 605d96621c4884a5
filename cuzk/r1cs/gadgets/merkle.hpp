// Merkle inclusion (PoR) gadgets as rust-fil-proofs builds them (storage-proofs-core gadgets/por.rs,
// filecoin-hashers sha256.rs / poseidon.rs; FORMATS.md §3.4). Per level, in scope
// "merkle tree hash i": log2(A) index bits ("index bit j", LSB first), the A − 1 siblings
// ("path element j"), insert (2 / 8 / 22 constraints), then the node hash in scope
// "computation of commitment hash":
//   SHA-256 (binary): each child to_bits_le (scope "{i}_num_into_bits", 256), padded to 256 with a
//     constant 0, bytes reversed to MSB-first; sha256 (scope "hash"); output bytes re-reversed,
//     254 bits packed with pack_bits (scope "pack_le")              → 45,382 constraints per level
//   Poseidon: neptune's legacy circuit with the MerkleTree tag 2^A − 1 → 314 / 387 / 530 (A = 2/4/8)
// Base levels (scope "base"), then one sub level ("sub") and one top level ("top") when present;
// then all index bits go to pack_into_inputs (scope "path", one input), and the computed root is
// checked against the root: root·1 check "enforce root is correct" (2 constraints of overhead).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "cuzk/r1cs/gadgets/num.hpp"

namespace cuzk {

enum class MerkleHash { sha256, poseidon };

/// One level of a path: the A − 1 siblings in order and the current node's position 0..A−1.
struct MerklePathLevel {
  std::vector<std::optional<Fr>> siblings;
  std::optional<std::uint64_t> index;
};

/// A path through base levels of |base_arity|, then at most one sub and one top level.
struct MerklePath {
  unsigned base_arity = 2;
  std::vector<MerklePathLevel> base;
  unsigned sub_arity = 0;  ///< 0: no sub level
  std::vector<MerklePathLevel> sub;
  unsigned top_arity = 0;  ///< 0: no top level
  std::vector<MerklePathLevel> top;
};

/// A blank path (no values) of |levels| base levels and the given sub/top arities.
MerklePath blank_merkle_path(unsigned base_arity, std::size_t levels, unsigned sub_arity,
                             unsigned top_arity);

/// Hash of |children| in circuit, named as the hasher's hash_multi_leaf_circuit.
Result<AllocatedNum> merkle_node_circuit(ConstraintSystem& cs, MerkleHash hash,
                                         std::span<const AllocatedNum> children);
/// Ascends |path| from |leaf|, packs the index bits into one public input; returns the root.
Result<AllocatedNum> por_compute_root(ConstraintSystem& cs, MerkleHash hash,
                                      const AllocatedNum& leaf, const MerklePath& path);
/// por_compute_root, then root check against the existing variable |root| (PoRep/PoSt form).
Status por_with_root(ConstraintSystem& cs, MerkleHash hash, const AllocatedNum& leaf,
                     const MerklePath& path, const AllocatedNum& root);
/// PoRCircuit::synthesize with values: allocates the leaf ("value"), ascends, packs, allocates
/// the root ("root_value"), checks it and, unless |private_root|, inputizes it ("root").
Status por_circuit(ConstraintSystem& cs, MerkleHash hash, std::optional<Fr> leaf,
                   const MerklePath& path, std::optional<Fr> root, bool private_root);

/// Out of circuit: SHA-256 node = LE-Fr(SHA256(le32(l) ‖ le32(r)) with the top two bits cleared).
Fr sha256_node_native(std::span<const Fr> children);
/// Out of circuit node hash for either hasher.
Fr merkle_node_native(MerkleHash hash, std::span<const Fr> children);
/// Out of circuit: the root reached from |leaf| along |path| (every value must be present).
Fr merkle_root_native(MerkleHash hash, const Fr& leaf, const MerklePath& path);

}  // namespace cuzk
