#include "cuzk/filecoin/seal.hpp"

#include <string>

#include "cuzk/filecoin/replica_id.hpp"
#include "cuzk/filecoin/sdr_graph.hpp"
#include "cuzk/filecoin/sdr_labels.hpp"
#include "cuzk/filecoin/tree_d.hpp"

namespace cuzk::filecoin {
namespace {

// A label or a checked node is below r by construction; this reads it without a Result.
Fr fr_of_checked(const Node& n) { return fr_from_node(n).value(); }

Status check_config(const SealConfig& c) {
  if (c.nodes < 64 || (c.nodes & (c.nodes - 1)) != 0)
    return Status(Errc::invalid_argument,
                  "sector of " + std::to_string(c.nodes) + " nodes: a power of two >= 64 needed");
  if (c.layers != 2 && c.layers != 11)
    return Status(Errc::invalid_argument,
                  std::to_string(c.layers) + " SDR layers: only 2 and 11 have column hashes");
  return {};
}

}  // namespace

SealConfig seal_config(const SealProof& proof) {
  return {.nodes = sector_nodes(proof.size),
          .layers = sdr_layers(proof.size),
          .shape = tree_shape(proof.size),
          .porep_id = proof.porep_id,
          .api = proof.api};
}

Status check_sector_data(const SealConfig& config, std::span<const Node> data) {
  if (data.size() != config.nodes)
    return Status(Errc::size_mismatch, "sector data has " + std::to_string(data.size() * 32) +
                                           " bytes, the sector size is " +
                                           std::to_string(config.nodes * 32));
  for (std::size_t v = 0; v < data.size(); ++v)
    if (!fr_from_node(data[v]).ok())
      return Status(Errc::out_of_range,
                    "data node " + std::to_string(v) + " (byte offset " + std::to_string(v * 32) +
                        ") is not below the field modulus r: the data is not Fr32-padded");
  return {};
}

Result<SealResult> seal(const SealConfig& config, const SectorIdentity& id,
                        std::span<const Node> data, ThreadPool& pool) {
  CUZK_RETURN_IF_ERROR(check_config(config));
  CUZK_RETURN_IF_ERROR(check_sector_data(config, data));
  const std::size_t n = data.size();
  SealResult r;
  r.tree_d = build_tree_d(data, pool);
  r.comm_d = r.tree_d.back();
  r.replica_id = replica_id(id.prover_id, id.sector_id, id.ticket, r.comm_d, config.porep_id);

  const SdrGraph graph(config.nodes, config.porep_id, config.api);
  r.labels = sdr_labels(graph, r.replica_id, config.layers, pool);

  std::vector<Fr> columns(n);
  pool.parallel_for(
      n,
      [&](std::size_t b, std::size_t e) {
        std::vector<Fr> rows(config.layers);
        for (std::size_t v = b; v < e; ++v) {
          for (unsigned l = 0; l < config.layers; ++l) rows[l] = fr_of_checked(r.labels[l][v]);
          columns[v] = column_hash(rows);
        }
      },
      256);
  auto tree_c = PoseidonTree::build(std::move(columns), config.shape, pool);
  if (!tree_c.ok()) return tree_c.status().with_context("tree_c");
  r.tree_c = std::move(tree_c).value();

  std::vector<Fr> encoded(n);
  r.replica.resize(n);
  const std::vector<Node>& key = r.labels.back();
  pool.parallel_for(
      n,
      [&](std::size_t v) {
        encoded[v] = fr_of_checked(data[v]) + fr_of_checked(key[v]);
        r.replica[v] = node_from_fr(encoded[v]);
      },
      1024);
  auto tree_r = PoseidonTree::build(std::move(encoded), config.shape, pool);
  if (!tree_r.ok()) return tree_r.status().with_context("tree_r_last");
  r.tree_r_last = std::move(tree_r).value();

  r.comm_c = node_from_fr(r.tree_c.root());
  r.comm_r_last = node_from_fr(r.tree_r_last.root());
  r.comm_r = node_from_fr(comm_r_of(r.tree_c.root(), r.tree_r_last.root()));
  return r;
}

Result<std::vector<Node>> unseal(const SealConfig& config, const Node& replica_id,
                                 std::span<const Node> replica, ThreadPool& pool) {
  CUZK_RETURN_IF_ERROR(check_config(config));
  if (replica.size() != config.nodes)
    return Status(Errc::size_mismatch, "replica has " + std::to_string(replica.size() * 32) +
                                           " bytes, the sector size is " +
                                           std::to_string(config.nodes * 32));
  for (std::size_t v = 0; v < replica.size(); ++v)
    if (!fr_from_node(replica[v]).ok())
      return Status(Errc::out_of_range, "replica node " + std::to_string(v) + " (byte offset " +
                                            std::to_string(v * 32) +
                                            ") is not below the field modulus r");
  const SdrGraph graph(config.nodes, config.porep_id, config.api);
  const auto labels = sdr_labels(graph, replica_id, config.layers, pool);
  const std::vector<Node>& key = labels.back();
  std::vector<Node> data(replica.size());
  pool.parallel_for(
      replica.size(),
      [&](std::size_t v) {
        data[v] = node_from_fr(fr_of_checked(replica[v]) - fr_of_checked(key[v]));
      },
      1024);
  return data;
}

}  // namespace cuzk::filecoin
