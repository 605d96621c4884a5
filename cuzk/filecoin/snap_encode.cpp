#include "cuzk/filecoin/snap_encode.hpp"

#include <atomic>

#include "cuzk/filecoin/sdr_hashes.hpp"
#include "cuzk/filecoin/tree_d.hpp"

namespace cuzk::filecoin {
namespace {

constexpr std::size_t kChunk = 4096;

Status check_inputs(const SnapSectorKey& key, const SnapParams& p, unsigned h,
                    std::span<const Node> other, const char* other_name) {
  if (!p.h_allowed(h))
    return Status(Errc::invalid_argument, "h = " + std::to_string(h) + " is not allowed for " +
                                              std::string(sector_size_name(key.size)) +
                                              " (allowed: " + std::to_string(p.hs[0]) + "…" +
                                              std::to_string(p.hs[5]) + ")");
  if (key.replica.size() != p.nodes)
    return Status(Errc::size_mismatch, "sector key: " + std::to_string(key.replica.size()) +
                                           " nodes, the sector has " + std::to_string(p.nodes));
  if (other.size() != p.nodes)
    return Status(Errc::size_mismatch, std::string(other_name) + ": " +
                                           std::to_string(other.size()) +
                                           " nodes, the sector has " + std::to_string(p.nodes));
  return {};
}

// Reads |nodes| as Fr in parallel; out_of_range naming |what| and the first bad node.
Result<std::vector<Fr>> to_fr(std::span<const Node> nodes, const char* what, ThreadPool& pool) {
  std::vector<Fr> out(nodes.size());
  std::atomic<std::uint64_t> bad{~std::uint64_t{0}};
  pool.parallel_for(
      nodes.size(),
      [&](std::size_t b, std::size_t e) {
        for (std::size_t i = b; i < e; ++i) {
          auto f = fr_from_node(nodes[i]);
          if (!f.ok()) {
            std::uint64_t cur = bad.load();
            while (i < cur && !bad.compare_exchange_weak(cur, i)) {
            }
            return;
          }
          out[i] = *f;
        }
      },
      kChunk);
  if (bad.load() != ~std::uint64_t{0})
    return Status(Errc::out_of_range, std::string(what) + ": node " + std::to_string(bad.load()) +
                                          " (byte offset " + std::to_string(bad.load() * 32) +
                                          ") is not below r");
  return out;
}

Fr comm_r_old_of(const SnapSectorKey& key, Fr* comm_c_out) {
  const Fr comm_c = *fr_from_node(key.comm_c);
  if (comm_c_out) *comm_c_out = comm_c;
  return comm_r_of(comm_c, *fr_from_node(key.comm_r_last));
}

Status check_comms(const SnapSectorKey& key) {
  if (!fr_from_node(key.comm_c).ok()) return Status(Errc::out_of_range, "comm_c is not below r");
  if (!fr_from_node(key.comm_r_last).ok())
    return Status(Errc::out_of_range, "comm_r_last is not below r");
  return {};
}

}  // namespace

std::vector<Fr> snap_rhos(const SnapParams& p, unsigned h, const Fr& phi) {
  std::vector<Fr> rhos(std::size_t{1} << h);
  for (std::size_t high = 0; high < rhos.size(); ++high) rhos[high] = snap_rho(phi, high);
  return rhos;
}

Result<SnapEncoded> snap_encode(const SnapSectorKey& key, std::span<const Node> data, unsigned h,
                                ThreadPool& pool) {
  const SnapParams p = snap_params(key.size);
  CUZK_RETURN_IF_ERROR(check_inputs(key, p, h, data, "data"));
  CUZK_RETURN_IF_ERROR(check_comms(key));
  auto key_fr = to_fr(key.replica, "sector key", pool);
  if (!key_fr.ok()) return key_fr.status();
  auto data_fr = to_fr(data, "data", pool);
  if (!data_fr.ok()) return data_fr.status();

  SnapEncoded out;
  out.h = h;
  out.tree_d = build_tree_d(data, pool);
  out.comm_d_new = out.tree_d.back();
  Fr comm_c;
  const Fr comm_r_old = comm_r_old_of(key, &comm_c);
  out.comm_r_old = node_from_fr(comm_r_old);
  const Fr phi = snap_phi(*fr_from_node(out.comm_d_new), comm_r_old);
  out.phi = node_from_fr(phi);
  const std::vector<Fr> rhos = snap_rhos(p, h, phi);
  const unsigned shift = snap_high_shift(p, h);

  std::vector<Fr> replica(p.nodes);
  out.replica.resize(p.nodes);
  pool.parallel_for(
      p.nodes,
      [&](std::size_t b, std::size_t e) {
        for (std::size_t i = b; i < e; ++i) {
          replica[i] = (*key_fr)[i] + (*data_fr)[i] * rhos[i >> shift];
          out.replica[i] = node_from_fr(replica[i]);
        }
      },
      kChunk);
  auto tree = PoseidonTree::build(std::move(replica), tree_shape(key.size), pool);
  if (!tree.ok()) return tree.status().with_context("tree_r_new");
  out.tree_r = std::move(*tree);
  out.comm_r_last_new = node_from_fr(out.tree_r.root());
  out.comm_r_new = node_from_fr(comm_r_of(comm_c, out.tree_r.root()));
  return out;
}

Result<std::vector<Node>> snap_decode(const SnapSectorKey& key, std::span<const Node> replica_new,
                                      const Node& comm_d_new, unsigned h, ThreadPool& pool) {
  const SnapParams p = snap_params(key.size);
  CUZK_RETURN_IF_ERROR(check_inputs(key, p, h, replica_new, "new replica"));
  CUZK_RETURN_IF_ERROR(check_comms(key));
  auto d = fr_from_node(comm_d_new);
  if (!d.ok()) return Status(Errc::out_of_range, "comm_d_new is not below r");
  auto key_fr = to_fr(key.replica, "sector key", pool);
  if (!key_fr.ok()) return key_fr.status();
  auto new_fr = to_fr(replica_new, "new replica", pool);
  if (!new_fr.ok()) return new_fr.status();
  const Fr phi = snap_phi(*d, comm_r_old_of(key, nullptr));
  std::vector<Fr> inv = snap_rhos(p, h, phi);
  for (Fr& r : inv) r = r.inverse();
  const unsigned shift = snap_high_shift(p, h);
  std::vector<Node> out(p.nodes);
  pool.parallel_for(
      p.nodes,
      [&](std::size_t b, std::size_t e) {
        for (std::size_t i = b; i < e; ++i)
          out[i] = node_from_fr(((*new_fr)[i] - (*key_fr)[i]) * inv[i >> shift]);
      },
      kChunk);
  return out;
}

}  // namespace cuzk::filecoin
