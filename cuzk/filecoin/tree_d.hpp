// tree_d: the binary SHA-256 Merkle tree over a sector's unsealed data; its root is comm_d
// (storage-proofs-core merkle with filecoin-hashers sha256.rs; FORMATS.md §3.4, §7).
//   leaves: the raw 32-byte data nodes (no leaf hashing, no domain prefix)
//   parent: SHA-256(left ‖ right) with byte 31 &= 0x3f
// Stored by rust-fil-proofs as the DiskStore `sc-02-data-tree-d.dat` (rows_to_discard 0): every
// row, leaves first, root last, 2n − 1 nodes; build_tree_d returns exactly that layout.
// Cost: n − 1 SHA-256 compressions of a 64-byte message (two blocks with padding).
#pragma once

#include <span>
#include <vector>

#include "cuzk/base/thread_pool.hpp"
#include "cuzk/filecoin/node.hpp"

namespace cuzk::filecoin {

/// SHA-256(|left| ‖ |right|) with byte 31 &= 0x3f.
Node tree_d_hash(const Node& left, const Node& right);

/// Every node of the tree over |leaves| (a power of two ≥ 1): the rows concatenated, leaves
/// first, root last (2n − 1 nodes). Rows are hashed in parallel on |pool|.
std::vector<Node> build_tree_d(std::span<const Node> leaves, ThreadPool& pool);

/// The root of the tree over |leaves| (comm_d), without keeping the rows.
Node tree_d_root(std::span<const Node> leaves, ThreadPool& pool);

}  // namespace cuzk::filecoin
