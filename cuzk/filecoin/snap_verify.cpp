#include "cuzk/filecoin/snap_verify.hpp"

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "cuzk/filecoin/merkle_proof.hpp"
#include "cuzk/filecoin/sdr_hashes.hpp"
#include "cuzk/filecoin/snap_params.hpp"
#include "cuzk/filecoin/tree_d.hpp"

namespace cuzk::filecoin {
namespace {

Status fail(const std::string& where, const std::string& what) {
  return Status(Errc::unsatisfied, where + ": " + what);
}

// The node a binary path reaches after |levels| levels from its leaf.
Node tree_d_node_at(const MerkleProof& p, unsigned levels) {
  Node cur = p.leaf;
  for (unsigned l = 0; l < levels; ++l) {
    const PathElement& e = p.base_path[l];
    cur = e.index == 0 ? tree_d_hash(cur, e.hashes[0]) : tree_d_hash(e.hashes[0], cur);
  }
  return cur;
}

// Shape, leaf index, hashing and root of one of the three proofs.
Status check_path(const MerkleProof& p, bool tree_d, const TreeShape& shape, std::uint64_t nodes,
                  std::uint64_t c, const Bytes32& want_root, const char* root_name,
                  const std::string& at, const std::string& name) {
  Status s = check_merkle_shape(p, shape, nodes, name);
  if (!s.ok()) return fail(at, s.message());
  const std::uint64_t index = path_index(p, shape);
  if (index != c)
    return fail(at, name + ": the path's index bits show leaf " + std::to_string(index) +
                        ", not the challenged leaf");
  auto root = tree_d ? sha256_root(p, name) : poseidon_root(p, name);
  if (!root.ok()) return Status(root.status().code(), at + ": " + root.status().message());
  if (*root != p.root)
    return fail(at, name + ": the leaf and the path hash to " + to_hex(*root) +
                        ", not the proof's root " + to_hex(p.root));
  if (p.root != want_root)
    return fail(
        at, name + ".root " + to_hex(p.root) + " is not " + root_name + " " + to_hex(want_root));
  return {};
}

}  // namespace

Status verify_snap_partition(const UpdateProof& proof, const SnapPublic& pub, unsigned k,
                             const SnapPartitionProof& v) {
  const SnapParams p = snap_params(proof.size);
  const std::string where = proof.name + " partition " + std::to_string(k);
  if (k >= p.partitions)
    return Status(Errc::invalid_argument, where + ": the partition index is not below the " +
                                              std::to_string(p.partitions) + " partitions");
  if (!p.h_allowed(pub.h))
    return Status(Errc::invalid_argument, where + ": h = " + std::to_string(pub.h) +
                                              " is not one of the size's allowed h values");
  if (v.apex_leafs.size() != p.apex_leaves)
    return fail(where, "apex_leafs: " + std::to_string(v.apex_leafs.size()) + " leaves, expected " +
                           std::to_string(p.apex_leaves));
  if (v.challenge_proofs.size() != p.challenges)
    return fail(where, "challenge_proofs: " + std::to_string(v.challenge_proofs.size()) +
                           " proofs, expected " + std::to_string(p.challenges));
  auto comm_c = fr_from_bytes32(v.comm_c, "comm_c");
  if (!comm_c.ok()) return comm_c.status().with_context(where);
  auto comm_r_old = fr_from_bytes32(pub.comm_r_old, "comm_r_old");
  if (!comm_r_old.ok()) return comm_r_old.status().with_context(where);
  auto comm_d_new = fr_from_bytes32(pub.comm_d_new, "comm_d_new");
  if (!comm_d_new.ok()) return comm_d_new.status().with_context(where);
  auto comm_r_new = fr_from_bytes32(pub.comm_r_new, "comm_r_new");
  if (!comm_r_new.ok()) return comm_r_new.status().with_context(where);

  // The roots of tree_r_old and tree_r_new against the public comm_r's.
  const Bytes32 root_r_old = v.challenge_proofs[0].proof_r_old.root;
  const Bytes32 root_r_new = v.challenge_proofs[0].proof_r_new.root;
  for (auto [root, name, comm, comm_name] :
       {std::tuple{&root_r_old, "proof_r_old", &pub.comm_r_old, "comm_r_old"},
        std::tuple{&root_r_new, "proof_r_new", &pub.comm_r_new, "comm_r_new"}}) {
    auto r = fr_from_bytes32(*root, std::string("challenge_proofs[0].") + name + ".root");
    if (!r.ok()) return r.status().with_context(where);
    const Bytes32 h = bytes32_from_fr(comm_r_of(*comm_c, *r));
    if (h != *comm)
      return fail(where, std::string("comm_c: Poseidon2(comm_c, challenge_proofs[0].") + name +
                             ".root) = " + to_hex(h) + " is not the public " + comm_name + " " +
                             to_hex(*comm));
  }

  // The apex tree over the apex leaves (rows from the leaves to the apex root).
  std::vector<std::vector<Node>> apex{v.apex_leafs};
  while (apex.back().size() > 1) {
    const std::vector<Node>& row = apex.back();
    std::vector<Node> up(row.size() / 2);
    for (std::size_t i = 0; i < up.size(); ++i) up[i] = tree_d_hash(row[2 * i], row[2 * i + 1]);
    apex.push_back(std::move(up));
  }

  const Fr phi = snap_phi(*comm_d_new, *comm_r_old);
  const std::vector<std::uint64_t> challenges = snap_challenges(p, *comm_r_new, k);
  const unsigned shift = snap_high_shift(p, pub.h);
  const unsigned apex_height = p.apex_leafs_height();
  const unsigned partition_from = p.challenge_bit_len - p.partition_bit_len;
  const TreeShape shape_r = tree_shape(proof.size);
  const TreeShape shape_d{.base = 2, .sub = 0, .top = 0};
  for (std::size_t i = 0; i < challenges.size(); ++i) {
    const std::uint64_t c = challenges[i];
    const SnapChallengeProof& cp = v.challenge_proofs[i];
    const std::string at =
        where + ", challenge " + std::to_string(i) + " (node " + std::to_string(c) + ")";
    CUZK_RETURN_IF_ERROR(check_path(cp.proof_r_old, false, shape_r, p.nodes, c, root_r_old,
                                    "root_r_old (challenge_proofs[0].proof_r_old.root)", at,
                                    "proof_r_old"));
    CUZK_RETURN_IF_ERROR(check_path(cp.proof_d_new, true, shape_d, p.nodes, c, pub.comm_d_new,
                                    "comm_d_new", at, "proof_d_new"));
    CUZK_RETURN_IF_ERROR(check_path(cp.proof_r_new, false, shape_r, p.nodes, c, root_r_new,
                                    "root_r_new (challenge_proofs[0].proof_r_new.root)", at,
                                    "proof_r_new"));

    // The encoding: leaf_r_new = leaf_r_old + leaf_d_new · rho.
    auto r_old = fr_from_bytes32(cp.proof_r_old.leaf, "proof_r_old.leaf");
    if (!r_old.ok()) return r_old.status().with_context(at);
    auto d_new = fr_from_bytes32(cp.proof_d_new.leaf, "proof_d_new.leaf");
    if (!d_new.ok()) return d_new.status().with_context(at);
    const Bytes32 want = bytes32_from_fr(*r_old + *d_new * snap_rho(phi, c >> shift));
    if (want != cp.proof_r_new.leaf)
      return fail(at, "proof_r_new.leaf " + to_hex(cp.proof_r_new.leaf) +
                          " is not proof_r_old.leaf + proof_d_new.leaf · rho = " + to_hex(want) +
                          " (h = " + std::to_string(pub.h) + ")");

    // The apex leaves: upstream's sibling check, then the circuit's selected leaf.
    for (unsigned l = 0; l < p.apex_leaf_bit_len; ++l) {
      const Node& sibling = cp.proof_d_new.base_path[apex_height + l].hashes[0];
      const std::vector<Node>& row = apex[l];
      if (std::find(row.begin(), row.end(), sibling) == row.end())
        return fail(at, "proof_d_new level " + std::to_string(apex_height + l) + ": sibling " +
                            to_hex(sibling) + " is not in row " + std::to_string(l) +
                            " of the apex tree over apex_leafs");
    }
    const std::uint64_t apex_index = (c >> apex_height) % p.apex_leaves;
    const Node reached = tree_d_node_at(cp.proof_d_new, apex_height);
    if (reached != v.apex_leafs[apex_index])
      return fail(at, "proof_d_new reaches " + to_hex(reached) + " at height " +
                          std::to_string(apex_height) + ", not apex_leafs[" +
                          std::to_string(apex_index) + "] " + to_hex(v.apex_leafs[apex_index]));
    for (unsigned l = partition_from; l < p.challenge_bit_len; ++l)
      if (cp.proof_d_new.base_path[l].hashes !=
          v.challenge_proofs[0].proof_d_new.base_path[l].hashes)
        return fail(at, "proof_d_new level " + std::to_string(l) +
                            " (partition path) differs from challenge 0's");
  }

  // The apex root up the partition path (bits of k) to comm_d_new.
  Node cur = apex.back()[0];
  for (unsigned l = 0; l < p.partition_bit_len; ++l) {
    const Node& s = v.challenge_proofs[0].proof_d_new.base_path[partition_from + l].hashes[0];
    cur = (k >> l) & 1 ? tree_d_hash(s, cur) : tree_d_hash(cur, s);
  }
  if (cur != pub.comm_d_new)
    return fail(where, "apex_leafs: the apex root hashed up the partition path of k gives " +
                           to_hex(cur) + ", not comm_d_new " + to_hex(pub.comm_d_new));
  return {};
}

Status verify_snap_vanilla(const UpdateProof& proof, const SnapPublic& pub,
                           std::span<const SnapPartitionProof> vanilla,
                           std::optional<unsigned> partition_index) {
  const SnapParams p = snap_params(proof.size);
  if (partition_index) {
    if (vanilla.size() != 1)
      return Status(Errc::size_mismatch, proof.name + ": " + std::to_string(vanilla.size()) +
                                             " partition proofs, expected 1 for partition " +
                                             std::to_string(*partition_index));
    return verify_snap_partition(proof, pub, *partition_index, vanilla[0]);
  }
  if (vanilla.size() != p.partitions)
    return Status(Errc::size_mismatch, proof.name + ": " + std::to_string(vanilla.size()) +
                                           " partition proofs, the size has " +
                                           std::to_string(p.partitions) + " partitions");
  for (unsigned k = 0; k < p.partitions; ++k)
    CUZK_RETURN_IF_ERROR(verify_snap_partition(proof, pub, k, vanilla[k]));
  return {};
}

}  // namespace cuzk::filecoin
