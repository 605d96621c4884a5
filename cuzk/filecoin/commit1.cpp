#include "cuzk/filecoin/commit1.hpp"
#include "cuzk/filecoin/merkle_prove.hpp"

#include <string>

#include "cuzk/filecoin/aux_files.hpp"
#include "cuzk/filecoin/porep_challenges.hpp"
#include "cuzk/filecoin/sdr_graph.hpp"
#include "cuzk/filecoin/sdr_hashes.hpp"
#include "cuzk/filecoin/sdr_labels.hpp"

namespace cuzk::filecoin {
namespace {

constexpr unsigned kTotalParents = 37;

// One level of a path: the |arity| nodes of the group holding position |pos|, without it.
template <typename Get>
PathElement path_element(std::uint64_t group_start, unsigned arity, std::uint64_t pos, Get get) {
  PathElement e;
  e.index = pos - group_start;
  for (unsigned a = 0; a < arity; ++a)
    if (group_start + a != pos) e.hashes.push_back(get(group_start + a));
  return e;
}

ColumnProof column_proof(const SealResult& s, std::uint64_t node) {
  ColumnProof p;
  p.column.index = static_cast<std::uint32_t>(node);
  for (const auto& layer : s.labels) p.column.rows.push_back(layer[node]);
  p.inclusion_proof = poseidon_tree_proof(s.tree_c, node);
  return p;
}

// The 37 parent labels node |c|'s label in |layer| hashes (sdr_labels.hpp), from the columns.
std::vector<Bytes32> labeling_parents(const ReplicaColumnProof& rcp, unsigned layer) {
  std::vector<Bytes32> base;
  for (const ColumnProof& p : rcp.drg_parents) base.push_back(p.column.rows[layer - 1]);
  if (layer > 1)
    for (const ColumnProof& p : rcp.exp_parents) base.push_back(p.column.rows[layer - 2]);
  std::vector<Bytes32> out(kTotalParents);
  for (unsigned i = 0; i < kTotalParents; ++i) out[i] = base[i % base.size()];
  return out;
}

PorepChallengeProof prove_challenge(const SdrGraph& graph, const SealResult& s, std::uint64_t c) {
  PorepChallengeProof p;
  p.comm_d_proofs = tree_d_proof(s.tree_d, (s.tree_d.size() + 1) / 2, c);
  p.comm_r_last_proof = poseidon_tree_proof(s.tree_r_last, c);
  ReplicaColumnProof& rcp = p.replica_column_proofs;
  rcp.c_x = column_proof(s, c);
  std::array<std::uint32_t, SdrGraph::kDegree> parents;
  graph.parents(c, parents);
  for (unsigned i = 0; i < SdrGraph::kBaseDegree; ++i)
    rcp.drg_parents.push_back(column_proof(s, parents[i]));
  for (unsigned i = SdrGraph::kBaseDegree; i < SdrGraph::kDegree; ++i)
    rcp.exp_parents.push_back(column_proof(s, parents[i]));
  const unsigned layers = static_cast<unsigned>(s.labels.size());
  for (unsigned l = 1; l <= layers; ++l)
    p.labeling_proofs.push_back({.parents = labeling_parents(rcp, l), .layer_index = l, .node = c});
  p.encoding_proof = p.labeling_proofs.back();
  return p;
}

}  // namespace

Result<SealProof> sector_seal_proof(const SectorInfo& info) {
  auto proof = seal_proof(info.registered_proof);
  if (!proof.ok()) return proof.status().with_context("sector registered_proof");
  if (proof->size != info.size)
    return Status(Errc::invalid_argument, "sector of " + std::to_string(sector_bytes(info.size)) +
                                              " bytes under " + proof->name);
  proof->porep_id = info.porep_id;
  proof->api = info.api;
  return proof;
}

Result<SealedSector> load_sealed_sector(const std::filesystem::path& dir, ThreadPool& pool) {
  auto info = read_sector_info(dir);
  if (!info.ok()) return info.status();
  SealedSector s{.info = *info, .sealed = {}};
  const SealConfig config = info->config();
  const TemporaryAux t = make_t_aux(config.nodes, config.layers, config.shape, dir.string());
  SealResult& r = s.sealed;
  r.comm_d = info->comm_d, r.comm_c = info->comm_c, r.comm_r_last = info->comm_r_last;
  r.comm_r = info->comm_r, r.replica_id = info->replica_id;
  for (unsigned l = 0; l < config.layers; ++l) {
    auto layer = read_node_file(dir / t.labels[l].data_file_name(), config.nodes);
    if (!layer.ok()) return layer.status();
    r.labels.push_back(std::move(layer).value());
  }
  auto tree_d = read_node_file(dir / t.tree_d.data_file_name(), 2 * config.nodes - 1);
  if (!tree_d.ok()) return tree_d.status();
  r.tree_d = std::move(tree_d).value();
  if (r.tree_d.back() != info->comm_d)
    return Status(Errc::unsatisfied, (dir / t.tree_d.data_file_name()).string() +
                                         ": the root is not sector.json's comm_d");

  std::vector<Fr> columns(config.nodes);
  Status bad;
  for (std::uint64_t v = 0; v < config.nodes && bad.ok(); ++v) {
    std::vector<Fr> rows(config.layers);
    for (unsigned l = 0; l < config.layers; ++l) {
      auto x = fr_from_node(r.labels[l][v]);
      if (!x.ok()) {
        bad = Status(Errc::out_of_range, (dir / t.labels[l].data_file_name()).string() + ": node " +
                                             std::to_string(v) + " is not below r");
        break;
      }
      rows[l] = *x;
    }
    if (bad.ok()) columns[v] = column_hash(rows);
  }
  CUZK_RETURN_IF_ERROR(bad);
  auto tree_c = PoseidonTree::build(std::move(columns), config.shape, pool);
  if (!tree_c.ok()) return tree_c.status().with_context("tree_c");
  r.tree_c = std::move(tree_c).value();
  if (node_from_fr(r.tree_c.root()) != info->comm_c)
    return Status(Errc::unsatisfied,
                  dir.string() + ": tree_c rebuilt from the label layers has root " +
                      to_hex(node_from_fr(r.tree_c.root())) + ", not sector.json's comm_c");

  auto replica = read_node_file(dir / kReplicaFile, config.nodes);
  if (!replica.ok()) return replica.status();
  std::vector<Fr> leaves(config.nodes);
  for (std::uint64_t v = 0; v < config.nodes; ++v) {
    auto x = fr_from_node((*replica)[v]);
    if (!x.ok())
      return Status(Errc::out_of_range, (dir / kReplicaFile).string() + ": node " +
                                            std::to_string(v) + " is not below r");
    leaves[v] = *x;
  }
  auto tree_r = PoseidonTree::build(std::move(leaves), config.shape, pool);
  if (!tree_r.ok()) return tree_r.status().with_context("tree_r_last");
  r.tree_r_last = std::move(tree_r).value();
  if (node_from_fr(r.tree_r_last.root()) != info->comm_r_last)
    return Status(Errc::unsatisfied, dir.string() +
                                         ": tree_r_last rebuilt from the replica has root " +
                                         to_hex(node_from_fr(r.tree_r_last.root())) +
                                         ", not sector.json's comm_r_last");
  return s;
}

Result<SealCommitPhase1Output> build_commit1(const SealedSector& sector, const Node& seed,
                                             ThreadPool& pool, std::optional<unsigned> partitions) {
  auto proof = sector_seal_proof(sector.info);
  if (!proof.ok()) return proof.status();
  const PorepChallengeConfig cc = porep_challenge_config(*proof);
  const unsigned parts = partitions.value_or(cc.partitions);
  if (parts == 0 || parts > cc.partitions)
    return Status(Errc::invalid_argument, "partition count " + std::to_string(parts) + ": " +
                                              proof->name + " has " +
                                              std::to_string(cc.partitions) + " partitions");
  const SealResult& s = sector.sealed;
  const SealConfig config = sector.info.config();
  if (s.labels.size() != config.layers || s.tree_d.size() != 2 * config.nodes - 1 ||
      s.tree_c.leaves() != config.nodes || s.tree_r_last.leaves() != config.nodes)
    return Status(Errc::size_mismatch,
                  "the sealed sector's layers or trees do not have the sizes "
                  "of " +
                      proof->name);
  const SdrGraph graph(config.nodes, config.porep_id, config.api);

  SealCommitPhase1Output out;
  out.registered_proof = sector.info.registered_proof;
  out.vanilla_size = proof->size;
  out.comm_r = sector.info.comm_r;
  out.comm_d = sector.info.comm_d;
  out.replica_id = sector.info.replica_id;
  out.seed = seed;
  out.ticket = sector.info.id.ticket;
  out.vanilla_proofs.resize(parts);
  for (unsigned k = 0; k < parts; ++k) {
    const auto challenges = porep_challenges(cc, out.replica_id, out.comm_r, seed, k);
    auto& proofs = out.vanilla_proofs[k];
    proofs.resize(challenges.size());
    pool.parallel_for(challenges.size(),
                      [&](std::size_t i) { proofs[i] = prove_challenge(graph, s, challenges[i]); });
  }
  return out;
}

}  // namespace cuzk::filecoin
