#include "cuzk/filecoin/porep_verify.hpp"

#include <array>
#include <string>

#include "cuzk/filecoin/merkle_proof.hpp"
#include "cuzk/filecoin/porep_challenges.hpp"
#include "cuzk/filecoin/sdr_graph.hpp"
#include "cuzk/filecoin/sdr_hashes.hpp"
#include "cuzk/filecoin/sdr_labels.hpp"
#include "cuzk/hash/sha256.hpp"

namespace cuzk::filecoin {
namespace {

constexpr unsigned kTotalParents = 37;

Status fail(const std::string& where, const std::string& what) {
  return Status(Errc::unsatisfied, where + ": " + what);
}

// Shape, path index, leaf-to-root hash and root of a Poseidon-tree proof of |node|.
Status check_poseidon_path(const MerkleProof& p, const TreeShape& shape, std::uint64_t nodes,
                           std::uint64_t node, const Bytes32& expected_root,
                           std::string_view expected_name, const std::string& name) {
  Status s = check_merkle_shape(p, shape, nodes, name);
  if (!s.ok()) return Status(Errc::unsatisfied, s.message());
  const std::uint64_t index = path_index(p, shape);
  if (index != node)
    return Status(Errc::unsatisfied, name + ": the path's index bits show node " +
                                         std::to_string(index) + ", not node " +
                                         std::to_string(node));
  auto root = poseidon_root(p, name);
  if (!root.ok()) return Status(Errc::unsatisfied, root.status().message());
  if (*root != p.root)
    return Status(Errc::unsatisfied, name + ": the leaf and the path hashes give root " +
                                         to_hex(*root) + ", the proof's root is " + to_hex(p.root));
  if (p.root != expected_root)
    return Status(Errc::unsatisfied, name + ".root " + to_hex(p.root) + " is not " +
                                         std::string(expected_name) + " " + to_hex(expected_root));
  return {};
}

Status check_column(const ColumnProof& cp, const TreeShape& shape, std::uint64_t nodes,
                    unsigned layers, std::uint64_t node, const Bytes32& comm_c,
                    const std::string& name) {
  if (cp.column.index != node)
    return Status(Errc::unsatisfied, name + ".column.index is " + std::to_string(cp.column.index) +
                                         ", expected node " + std::to_string(node));
  if (cp.column.rows.size() != layers)
    return Status(Errc::unsatisfied, name +
                                         ".column.rows: " + std::to_string(cp.column.rows.size()) +
                                         " rows, " + std::to_string(layers) + " layers expected");
  std::vector<Fr> rows(layers);
  for (unsigned l = 0; l < layers; ++l) {
    auto x = fr_from_bytes32(cp.column.rows[l], name + ".column.rows[" + std::to_string(l) + "]");
    if (!x.ok()) return Status(Errc::unsatisfied, x.status().message());
    rows[l] = *x;
  }
  const Bytes32 h = bytes32_from_fr(column_hash(rows));
  if (cp.inclusion_proof.leaf != h)
    return Status(Errc::unsatisfied,
                  name + ".inclusion_proof.leaf " + to_hex(cp.inclusion_proof.leaf) +
                      " is not the column hash of " + name + ".column.rows (" + to_hex(h) + ")");
  return check_poseidon_path(cp.inclusion_proof, shape, nodes, node, comm_c, "comm_c",
                             name + ".inclusion_proof");
}

// trunc(SHA-256(prefix(layer, node) ‖ parents)).
Bytes32 label_of(const Bytes32& replica_id, const LabelingProof& lp) {
  hash::Sha256 h;
  h.update(label_prefix(replica_id, lp.layer_index, lp.node));
  for (const Bytes32& p : lp.parents) h.update(p);
  Bytes32 out = h.finish();
  truncate_to_fr254(out);
  return out;
}

Status check_labeling(const LabelingProof& lp, const ReplicaColumnProof& rcp, unsigned layer,
                      std::uint64_t node, const std::string& name) {
  if (lp.layer_index != layer)
    return Status(Errc::unsatisfied, name + ".layer_index is " + std::to_string(lp.layer_index) +
                                         ", expected " + std::to_string(layer));
  if (lp.node != node)
    return Status(Errc::unsatisfied, name + ".node is " + std::to_string(lp.node) +
                                         ", the challenged node is " + std::to_string(node));
  if (lp.parents.size() != kTotalParents)
    return Status(Errc::unsatisfied, name + ".parents: " + std::to_string(lp.parents.size()) +
                                         " parents, " + std::to_string(kTotalParents) +
                                         " expected");
  // The labels the columns give: base parents' layer ℓ, expander parents' layer ℓ − 1, cycled.
  std::vector<const Bytes32*> base;
  std::vector<std::string> from;
  for (std::size_t i = 0; i < rcp.drg_parents.size(); ++i) {
    base.push_back(&rcp.drg_parents[i].column.rows[layer - 1]);
    from.push_back("drg_parents[" + std::to_string(i) + "].column.rows[" +
                   std::to_string(layer - 1) + "]");
  }
  if (layer > 1)
    for (std::size_t i = 0; i < rcp.exp_parents.size(); ++i) {
      base.push_back(&rcp.exp_parents[i].column.rows[layer - 2]);
      from.push_back("exp_parents[" + std::to_string(i) + "].column.rows[" +
                     std::to_string(layer - 2) + "]");
    }
  for (unsigned i = 0; i < kTotalParents; ++i)
    if (lp.parents[i] != *base[i % base.size()])
      return Status(Errc::unsatisfied,
                    name + ".parents[" + std::to_string(i) + "] " + to_hex(lp.parents[i]) +
                        " is not replica_column_proofs." + from[i % base.size()] + " " +
                        to_hex(*base[i % base.size()]));
  return {};
}

Status verify_challenge(const SdrGraph& graph, unsigned layers, const TreeShape& shape,
                        const PorepPublicInputs& pub, const Bytes32& comm_c,
                        const Bytes32& comm_r_last, std::uint64_t c, const PorepChallengeProof& p) {
  const std::uint64_t nodes = graph.nodes();
  // comm_d_proofs: binary SHA-256 tree_d.
  {
    const TreeShape binary{.base = 2, .sub = 0, .top = 0};
    Status s = check_merkle_shape(p.comm_d_proofs, binary, nodes, "comm_d_proofs");
    if (!s.ok()) return Status(Errc::unsatisfied, s.message());
    const std::uint64_t index = path_index(p.comm_d_proofs, binary);
    if (index != c)
      return Status(Errc::unsatisfied, "comm_d_proofs: the path's index bits show node " +
                                           std::to_string(index) + ", not the challenged node");
    auto root = sha256_root(p.comm_d_proofs, "comm_d_proofs");
    if (!root.ok()) return Status(Errc::unsatisfied, root.status().message());
    if (*root != p.comm_d_proofs.root)
      return Status(Errc::unsatisfied, "comm_d_proofs: the leaf and the path hashes give root " +
                                           to_hex(*root) + ", the proof's root is " +
                                           to_hex(p.comm_d_proofs.root));
    if (p.comm_d_proofs.root != pub.comm_d)
      return Status(Errc::unsatisfied, "comm_d_proofs.root " + to_hex(p.comm_d_proofs.root) +
                                           " is not the public comm_d " + to_hex(pub.comm_d));
  }
  CUZK_RETURN_IF_ERROR(check_poseidon_path(p.comm_r_last_proof, shape, nodes, c, comm_r_last,
                                           "comm_r_last (the first proof's)", "comm_r_last_proof"));
  const ReplicaColumnProof& rcp = p.replica_column_proofs;
  CUZK_RETURN_IF_ERROR(
      check_column(rcp.c_x, shape, nodes, layers, c, comm_c, "replica_column_proofs.c_x"));
  std::array<std::uint32_t, SdrGraph::kDegree> parents;
  graph.parents(c, parents);
  if (rcp.drg_parents.size() != SdrGraph::kBaseDegree)
    return Status(Errc::unsatisfied,
                  "replica_column_proofs.drg_parents: " + std::to_string(rcp.drg_parents.size()) +
                      " columns, 6 expected");
  if (rcp.exp_parents.size() != SdrGraph::kExpansionDegree)
    return Status(Errc::unsatisfied,
                  "replica_column_proofs.exp_parents: " + std::to_string(rcp.exp_parents.size()) +
                      " columns, 8 expected");
  for (unsigned i = 0; i < SdrGraph::kBaseDegree; ++i)
    CUZK_RETURN_IF_ERROR(
        check_column(rcp.drg_parents[i], shape, nodes, layers, parents[i], comm_c,
                     "replica_column_proofs.drg_parents[" + std::to_string(i) + "]"));
  for (unsigned i = 0; i < SdrGraph::kExpansionDegree; ++i)
    CUZK_RETURN_IF_ERROR(
        check_column(rcp.exp_parents[i], shape, nodes, layers, parents[SdrGraph::kBaseDegree + i],
                     comm_c, "replica_column_proofs.exp_parents[" + std::to_string(i) + "]"));
  if (p.labeling_proofs.size() != layers)
    return Status(Errc::unsatisfied,
                  "labeling_proofs: " + std::to_string(p.labeling_proofs.size()) + " proofs, " +
                      std::to_string(layers) + " layers expected");
  for (unsigned l = 1; l <= layers; ++l) {
    const std::string name = "labeling_proofs[" + std::to_string(l - 1) + "]";
    const LabelingProof& lp = p.labeling_proofs[l - 1];
    CUZK_RETURN_IF_ERROR(check_labeling(lp, rcp, l, c, name));
    const Bytes32 label = label_of(pub.replica_id, lp);
    if (label != rcp.c_x.column.rows[l - 1])
      return Status(Errc::unsatisfied, name + ": the parents hash to label " + to_hex(label) +
                                           ", replica_column_proofs.c_x.column.rows[" +
                                           std::to_string(l - 1) + "] is " +
                                           to_hex(rcp.c_x.column.rows[l - 1]));
  }
  // encoding_proof: replica = data + key.
  const EncodingProof& e = p.encoding_proof;
  CUZK_RETURN_IF_ERROR(check_labeling(e, rcp, layers, c, "encoding_proof"));
  const Bytes32 key = label_of(pub.replica_id, e);
  auto data = fr_from_bytes32(p.comm_d_proofs.leaf, "comm_d_proofs.leaf");
  if (!data.ok()) return Status(Errc::unsatisfied, data.status().message());
  const Bytes32 encoded = bytes32_from_fr(*data + fr_from_bytes32(key, "key").value());
  if (encoded != p.comm_r_last_proof.leaf)
    return Status(Errc::unsatisfied,
                  "encoding_proof: comm_d_proofs.leaf + the key its parents hash to is " +
                      to_hex(encoded) + ", comm_r_last_proof.leaf is " +
                      to_hex(p.comm_r_last_proof.leaf));
  return {};
}

}  // namespace

PorepPublicInputs porep_public_inputs(const SealCommitPhase1Output& c1) {
  return {.replica_id = c1.replica_id, .comm_d = c1.comm_d, .comm_r = c1.comm_r, .seed = c1.seed};
}

Status verify_porep_vanilla(const SealProof& proof, const PorepPublicInputs& pub,
                            const SealCommitPhase1Output& c1) {
  if (c1.registered_proof != proof.name)
    return fail("registered_proof", "the C1 is for " + c1.registered_proof + ", not " + proof.name);
  if (c1.vanilla_size != proof.size)
    return fail("vanilla_proofs", "proofs of a " + std::string(sector_size_name(c1.vanilla_size)) +
                                      " sector, " + proof.name + " has " +
                                      std::string(sector_size_name(proof.size)));
  for (const auto* v : {&pub.replica_id, &pub.comm_d, &pub.comm_r}) {
    const char* what = v == &pub.replica_id ? "replica_id" : v == &pub.comm_d ? "comm_d" : "comm_r";
    auto x = fr_from_bytes32(*v, what);
    if (!x.ok()) return Status(Errc::unsatisfied, x.status().message());
  }
  const PorepChallengeConfig cc = porep_challenge_config(proof);
  if (c1.vanilla_proofs.size() != cc.partitions)
    return fail("vanilla_proofs", std::to_string(c1.vanilla_proofs.size()) + " partitions, " +
                                      proof.name + " has " + std::to_string(cc.partitions));
  const unsigned layers = sdr_layers(proof.size);
  const TreeShape shape = tree_shape(proof.size);
  const SdrGraph graph(cc.nodes, proof.porep_id, proof.api);
  if (c1.vanilla_proofs[0].empty()) return fail("vanilla_proofs[0]", "no proofs");
  const Bytes32 comm_c = c1.vanilla_proofs[0][0].replica_column_proofs.c_x.inclusion_proof.root;
  const Bytes32 comm_r_last = c1.vanilla_proofs[0][0].comm_r_last_proof.root;
  {
    auto fc = fr_from_bytes32(comm_c, "comm_c");
    auto fl = fr_from_bytes32(comm_r_last, "comm_r_last");
    if (!fc.ok() || !fl.ok())
      return fail("partition 0, challenge 0", "comm_c or comm_r_last is not below r");
    const Bytes32 comm_r = bytes32_from_fr(comm_r_of(*fc, *fl));
    if (comm_r != pub.comm_r)
      return fail("partition 0, challenge 0",
                  "Poseidon_2(comm_c " + to_hex(comm_c) + ", comm_r_last " + to_hex(comm_r_last) +
                      ") = " + to_hex(comm_r) + " is not the public comm_r " + to_hex(pub.comm_r));
  }
  for (unsigned k = 0; k < cc.partitions; ++k) {
    const auto& proofs = c1.vanilla_proofs[k];
    const auto challenges = porep_challenges(cc, pub.replica_id, pub.comm_r, pub.seed, k);
    if (proofs.size() != challenges.size())
      return fail("vanilla_proofs[" + std::to_string(k) + "]",
                  std::to_string(proofs.size()) + " proofs, " + std::to_string(challenges.size()) +
                      " challenges per partition expected");
    for (std::size_t i = 0; i < proofs.size(); ++i) {
      Status s = verify_challenge(graph, layers, shape, pub, comm_c, comm_r_last, challenges[i],
                                  proofs[i]);
      if (!s.ok())
        return s.with_context("partition " + std::to_string(k) + ", challenge " +
                              std::to_string(i) + " (node " + std::to_string(challenges[i]) + ")");
    }
  }
  return {};
}

}  // namespace cuzk::filecoin
