#include "cuzk/filecoin/synth_inputs.hpp"

#include "cuzk/filecoin/porep_challenges.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <string>

#include "cuzk/filecoin/block_tree.hpp"
#include "cuzk/filecoin/post_challenges.hpp"
#include "cuzk/filecoin/replica_id.hpp"
#include "cuzk/filecoin/sdr_graph.hpp"
#include "cuzk/filecoin/sdr_hashes.hpp"
#include "cuzk/filecoin/sdr_labels.hpp"
#include "cuzk/filecoin/snap_params.hpp"
#include "cuzk/filecoin/sparse_tree.hpp"
#include "cuzk/hash/sha256.hpp"

namespace cuzk::filecoin {

namespace {

void put_u64le(hash::Sha256& h, std::uint64_t v) {
  std::uint8_t b[8];
  for (int i = 0; i < 8; ++i) b[i] = static_cast<std::uint8_t>(v >> (8 * i));
  h.update(std::span<const std::uint8_t>(b, 8));
}

std::uint64_t u64_of(const Node& n) {
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= static_cast<std::uint64_t>(n[i]) << (8 * i);
  return v;
}

}  // namespace

Node synth_value(std::string_view purpose, std::uint64_t seed, std::uint64_t i, std::uint64_t j) {
  hash::Sha256 h;
  h.update(std::string_view("cuzk synth-inputs"));
  h.update(purpose);
  put_u64le(h, seed);
  put_u64le(h, i);
  put_u64le(h, j);
  const hash::Digest32 d = h.finish();
  Node n;
  std::copy(d.begin(), d.end(), n.begin());
  truncate_to_fr254(n);
  return n;
}

Result<SynthPost> synth_post(const PostProof& proof, std::uint64_t seed, std::uint64_t num_sectors,
                             ThreadPool& pool, std::optional<Bytes32> prover_id) {
  if (num_sectors == 0) return Status(Errc::invalid_argument, proof.name + ": no sectors");
  if (proof.kind == PostKind::winning && num_sectors != 1)
    return Status(Errc::invalid_argument,
                  proof.name + ": a synthetic WinningPoSt proves its one sector, not " +
                      std::to_string(num_sectors));
  SynthPost out;
  out.proof = proof;
  out.randomness = synth_value("post randomness", seed, 0);
  out.prover_id = prover_id ? *prover_id : synth_value("post prover_id", seed, 0);
  out.sectors.resize(num_sectors);
  out.vanilla.resize(num_sectors);
  const std::uint64_t nodes = sector_nodes(proof.size);
  const TreeShape shape = tree_shape(proof.size);
  std::vector<Status> errors(num_sectors);
  pool.parallel_for(num_sectors, [&](std::size_t i) {
    const std::uint64_t sector_id = i;
    const std::uint64_t position = proof.kind == PostKind::winning ? 0 : i;
    const std::vector<std::uint64_t> leaves =
        post_sector_challenges(proof, out.randomness, sector_id, position);
    std::map<std::uint64_t, Node> values;
    for (std::size_t n = 0; n < leaves.size(); ++n)
      values.emplace(leaves[n], synth_value("post replica leaf", seed, i, leaves[n]));
    auto tree = SparseTree::poseidon(shape, nodes, values);
    if (!tree.ok()) {
      errors[i] = tree.status();
      return;
    }
    PostSectorProof sp;
    for (std::uint64_t leaf : leaves) sp.inclusion_proofs.push_back(tree->proof(leaf));
    sp.comm_c = synth_value("post comm_c", seed, i);
    sp.comm_r_last = tree->root();
    const Node comm_r =
        node_from_fr(comm_r_of(*fr_from_node(sp.comm_c), *fr_from_node(sp.comm_r_last)));
    out.sectors[i] = {sector_id, comm_r};
    out.vanilla[i].sector_id = sector_id;
    out.vanilla[i].comm_r = comm_r;
    out.vanilla[i].sectors.push_back(std::move(sp));
  });
  for (const Status& s : errors)
    if (!s.ok()) return s;
  return out;
}

namespace {

// The 37 parent labels a label hash takes (ℓ = 1: 6 base parents repeated; ℓ > 1: the 14
// parents, again, then the first 9), as LabelingProof::parents holds them.
std::vector<Node> expand_parents(const std::vector<Node>& p) {
  std::vector<Node> out;
  out.reserve(37);
  while (out.size() < 37) out.push_back(p[out.size() % p.size()]);
  return out;
}

Node label_of(const Node& replica_id, unsigned layer, std::uint64_t node,
              const std::vector<Node>& parents37) {
  hash::Sha256 h;
  const auto prefix = label_prefix(replica_id, layer, node);
  h.update(std::span<const std::uint8_t>(prefix));
  for (const Node& p : parents37) h.update(std::span<const std::uint8_t>(p));
  const hash::Digest32 d = h.finish();
  Node n;
  std::copy(d.begin(), d.end(), n.begin());
  truncate_to_fr254(n);
  return n;
}

}  // namespace

Result<SynthC1> synth_c1(const SealProof& proof, std::uint64_t seed, ThreadPool& pool,
                         std::optional<Node> prover_id) {
  if (proof.scheme != PorepScheme::interactive)
    return Status(Errc::invalid_argument,
                  proof.name +
                      ": synthetic C1 is not yet written for the synthetic and "
                      "non-interactive PoRep schemes (only V1 and V1_1)");
  const std::uint64_t nodes = sector_nodes(proof.size);
  const unsigned layers = sdr_layers(proof.size);
  const TreeShape shape = tree_shape(proof.size);
  const unsigned partitions = porep_partitions(proof.size);
  const unsigned per_partition = porep_challenge_config(proof).per_partition;

  SynthC1 out;
  SealCommitPhase1Output& c1 = out.c1;
  c1.registered_proof = proof.name;
  c1.vanilla_size = proof.size;
  out.prover_id = prover_id ? *prover_id : synth_value("c1 prover_id", seed, 0);
  out.sector_id = u64_of(synth_value("c1 sector_id", seed, 0)) & 0xffffffff;
  c1.ticket = synth_value("c1 ticket", seed, 0);
  c1.seed = synth_value("c1 seed", seed, 0);

  // A committed-capacity sector: all data zero, tree_d the zero tree.
  auto tree_d = SparseTree::sha256(nodes, {});
  if (!tree_d.ok()) return tree_d.status();
  c1.comm_d = tree_d->root();
  c1.replica_id = replica_id(out.prover_id, out.sector_id, c1.ticket, c1.comm_d, proof.porep_id);

  std::vector<std::vector<std::uint64_t>> challenges(partitions);
  std::set<std::uint64_t> challenged;
  for (unsigned k = 0; k < partitions; ++k) {
    challenges[k] = interactive_challenges(nodes, c1.replica_id, c1.seed, per_partition, k);
    challenged.insert(challenges[k].begin(), challenges[k].end());
  }

  // Parents of every challenged node; random columns for the parents not challenged.
  const SdrGraph graph(nodes, proof.porep_id, proof.api);
  std::map<std::uint64_t, std::array<std::uint32_t, SdrGraph::kDegree>> parents;
  for (std::uint64_t c : challenged) graph.parents(c, parents[c]);
  std::map<std::uint64_t, std::vector<Node>> columns;  // node → labels of layers 1..L
  for (const auto& [c, ps] : parents)
    for (std::uint32_t p : ps)
      if (!challenged.count(p) && !columns.count(p)) {
        std::vector<Node> rows(layers);
        for (unsigned l = 0; l < layers; ++l) rows[l] = synth_value("c1 parent label", seed, p, l);
        columns.emplace(p, std::move(rows));
      }
  for (std::uint64_t c : challenged) columns[c].resize(layers);
  // The challenged nodes' labels: layer by layer, nodes in increasing order (base parents precede
  // their node; expander parents are read from the previous layer).
  auto parent_labels = [&](std::uint64_t c, unsigned layer) {
    const auto& ps = parents.at(c);
    std::vector<Node> p;
    for (unsigned i = 0; i < SdrGraph::kBaseDegree; ++i) p.push_back(columns.at(ps[i])[layer - 1]);
    if (layer > 1)
      for (unsigned i = SdrGraph::kBaseDegree; i < SdrGraph::kDegree; ++i)
        p.push_back(columns.at(ps[i])[layer - 2]);
    return expand_parents(p);
  };
  for (unsigned layer = 1; layer <= layers; ++layer)
    for (std::uint64_t c : challenged)
      columns[c][layer - 1] = label_of(c1.replica_id, layer, c, parent_labels(c, layer));

  // tree_c over the column hashes; tree_r_last over the replica nodes 0 + label_L.
  std::vector<std::uint64_t> column_nodes;
  for (const auto& [v, rows] : columns) column_nodes.push_back(v);
  std::vector<Node> hashes(column_nodes.size());
  pool.parallel_for(column_nodes.size(), [&](std::size_t i) {
    const std::vector<Node>& rows = columns.at(column_nodes[i]);
    std::vector<Fr> f;
    for (const Node& r : rows) f.push_back(*fr_from_node(r));
    hashes[i] = node_from_fr(column_hash(f));
  });
  std::map<std::uint64_t, Node> c_leaves, r_leaves;
  for (std::size_t i = 0; i < column_nodes.size(); ++i)
    c_leaves.emplace(column_nodes[i], hashes[i]);
  for (std::uint64_t c : challenged) r_leaves.emplace(c, columns.at(c)[layers - 1]);
  auto tree_c = SparseTree::poseidon(shape, nodes, c_leaves);
  if (!tree_c.ok()) return tree_c.status();
  auto tree_r = SparseTree::poseidon(shape, nodes, r_leaves);
  if (!tree_r.ok()) return tree_r.status();
  out.comm_c = tree_c->root();
  out.comm_r_last = tree_r->root();
  c1.comm_r = node_from_fr(comm_r_of(*fr_from_node(out.comm_c), *fr_from_node(out.comm_r_last)));

  auto column_proof = [&](std::uint64_t v) {
    ColumnProof p;
    p.column.index = static_cast<std::uint32_t>(v);
    p.column.rows = columns.at(v);
    p.inclusion_proof = tree_c->proof(v);
    return p;
  };
  c1.vanilla_proofs.assign(partitions, {});
  for (unsigned k = 0; k < partitions; ++k) {
    auto& part = c1.vanilla_proofs[k];
    part.resize(per_partition);
    pool.parallel_for(per_partition, [&](std::size_t i) {
      const std::uint64_t c = challenges[k][i];
      PorepChallengeProof& p = part[i];
      p.comm_d_proofs = tree_d->proof(c);
      p.comm_r_last_proof = tree_r->proof(c);
      const auto& ps = parents.at(c);
      p.replica_column_proofs.c_x = column_proof(c);
      for (unsigned j = 0; j < SdrGraph::kBaseDegree; ++j)
        p.replica_column_proofs.drg_parents.push_back(column_proof(ps[j]));
      for (unsigned j = SdrGraph::kBaseDegree; j < SdrGraph::kDegree; ++j)
        p.replica_column_proofs.exp_parents.push_back(column_proof(ps[j]));
      for (unsigned layer = 1; layer <= layers; ++layer)
        p.labeling_proofs.push_back({parent_labels(c, layer), layer, c});
      p.encoding_proof = p.labeling_proofs.back();
    });
  }
  return out;
}

Result<SynthSnap> synth_snap(const UpdateProof& proof, std::uint64_t seed, ThreadPool& pool) {
  const SnapParams p = snap_params(proof.size);
  const unsigned h = p.h_default;
  const TreeShape shape = tree_shape(proof.size);
  // One block per rho region: region j = nodes [j·n/2^h, (j+1)·n/2^h), all with rho(j).
  const std::uint64_t regions = std::uint64_t{1} << h;
  SynthSnap out;
  out.proof = proof;
  out.pub.h = h;
  out.comm_c = synth_value("snap comm_c", seed, 0);
  std::vector<Node> key(regions), data(regions), replica(regions);
  for (std::uint64_t j = 0; j < regions; ++j) {
    key[j] = synth_value("snap sector key", seed, j);
    data[j] = synth_value("snap data", seed, j);
  }
  auto tree_r_old = BlockTree::poseidon(shape, p.nodes, key, pool);
  if (!tree_r_old.ok()) return tree_r_old.status();
  auto tree_d = BlockTree::sha256(p.nodes, data, pool);
  if (!tree_d.ok()) return tree_d.status();
  const Fr comm_c = *fr_from_node(out.comm_c);
  out.comm_r_last_old = tree_r_old->root();
  const Fr comm_r_old = comm_r_of(comm_c, *fr_from_node(out.comm_r_last_old));
  out.pub.comm_r_old = node_from_fr(comm_r_old);
  out.pub.comm_d_new = tree_d->root();
  const Fr phi = snap_phi(*fr_from_node(out.pub.comm_d_new), comm_r_old);
  for (std::uint64_t j = 0; j < regions; ++j)
    replica[j] = node_from_fr(*fr_from_node(key[j]) + *fr_from_node(data[j]) * snap_rho(phi, j));
  auto tree_r_new = BlockTree::poseidon(shape, p.nodes, replica, pool);
  if (!tree_r_new.ok()) return tree_r_new.status();
  out.comm_r_last_new = tree_r_new->root();
  const Fr comm_r_new = comm_r_of(comm_c, *fr_from_node(out.comm_r_last_new));
  out.pub.comm_r_new = node_from_fr(comm_r_new);

  out.partitions.resize(p.partitions);
  pool.parallel_for(p.partitions, [&](std::size_t k) {
    SnapPartitionProof& part = out.partitions[k];
    part.comm_c = out.comm_c;
    for (unsigned i = 0; i < p.apex_leaves; ++i)
      part.apex_leafs.push_back(tree_d->node(p.apex_leafs_height(), k * p.apex_leaves + i));
    for (std::uint64_t c : snap_challenges(p, comm_r_new, static_cast<unsigned>(k)))
      part.challenge_proofs.push_back(
          {tree_r_old->proof(c), tree_d->proof(c), tree_r_new->proof(c)});
  });
  return out;
}

}  // namespace cuzk::filecoin
