// `cuzk filecoin snap-vanilla`: the SnapDeals vanilla proofs of an updated sector directory
// (`cuzk filecoin update`), as filecoin-proofs-api's generate_partition_proofs returns them: one
// bincode PartitionProof per partition, written back to back (or partition K's alone). The trees
// are rebuilt from the two replicas and checked against update.json's roots.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "cuzk/base/thread_pool.hpp"
#include "cuzk/cli/filecoin_cli.hpp"
#include "cuzk/filecoin/aux_files.hpp"
#include "cuzk/filecoin/sector_dir.hpp"
#include "cuzk/filecoin/snap_prove.hpp"
#include "cuzk/filecoin/update_dir.hpp"

namespace cuzk::cli {
namespace {

using namespace cuzk::filecoin;
namespace fs = std::filesystem;

struct SnapVanillaOptions {
  std::string sector, out;
  std::optional<unsigned> partition_index;
  unsigned threads = 0;
};

int usage_error(const Status& s) {
  std::fprintf(stderr, "cuzk filecoin snap-vanilla: %s\n", s.to_string().c_str());
  return 2;
}

int check_failed(const std::string& what) {
  std::fprintf(stderr, "cuzk filecoin snap-vanilla: %s\n", what.c_str());
  return 1;
}

// The Poseidon tree of |shape| over a replica file.
Result<PoseidonTree> tree_of(const fs::path& file, std::uint64_t nodes, const TreeShape& shape,
                             ThreadPool& pool) {
  auto replica = read_node_file(file, nodes);
  if (!replica.ok()) return replica.status();
  std::vector<Fr> leaves(nodes);
  for (std::uint64_t i = 0; i < nodes; ++i) {
    auto f = fr_from_node((*replica)[i]);
    if (!f.ok())
      return Status(Errc::out_of_range,
                    file.string() + ": node " + std::to_string(i) + " is not below r");
    leaves[i] = *f;
  }
  return PoseidonTree::build(std::move(leaves), shape, pool);
}

int run(const SnapVanillaOptions& o) {
  auto u = read_update_info(o.sector);
  if (!u.ok()) return usage_error(u.status().with_context("--sector"));
  const SnapParams p = snap_params(u->size);
  if (o.partition_index && *o.partition_index >= p.partitions)
    return usage_error(
        Status(Errc::invalid_argument, "--partition-index " + std::to_string(*o.partition_index) +
                                           ": " + u->registered_proof + " has " +
                                           std::to_string(p.partitions) + " partitions"));
  const std::uint64_t nodes = p.nodes;
  const TreeShape shape = tree_shape(u->size);
  ThreadPool pool(o.threads);
  const auto t0 = std::chrono::steady_clock::now();
  auto tree_r_old = tree_of(fs::path(u->sector_key_dir) / kReplicaFile, nodes, shape, pool);
  if (!tree_r_old.ok()) return usage_error(tree_r_old.status().with_context("sector key"));
  if (node_from_fr(tree_r_old->root()) != u->comm_r_last_old)
    return check_failed("the sector key's tree_r_last root is not update.json's comm_r_last_old");
  auto tree_r_new = tree_of(fs::path(o.sector) / kReplicaFile, nodes, shape, pool);
  if (!tree_r_new.ok()) return usage_error(tree_r_new.status().with_context("--sector"));
  if (node_from_fr(tree_r_new->root()) != u->comm_r_last_new)
    return check_failed("the new replica's tree_r root is not update.json's comm_r_last_new");
  const TemporaryAux t = make_t_aux(nodes, sdr_layers(u->size), shape, o.sector);
  auto tree_d = read_node_file(fs::path(o.sector) / t.tree_d.data_file_name(), 2 * nodes - 1);
  if (!tree_d.ok()) return usage_error(tree_d.status().with_context("--sector"));
  if (tree_d->back() != u->comm_d_new)
    return check_failed("tree_d's root is not update.json's comm_d_new");

  const SnapTrees trees{&*tree_r_old, *tree_d, &*tree_r_new, u->comm_c};
  BincodeWriter w;
  const unsigned first = o.partition_index.value_or(0);
  const unsigned last = o.partition_index ? first + 1 : p.partitions;
  for (unsigned k = first; k < last; ++k) {
    auto proof = snap_partition_proof(p, trees, k);
    if (!proof.ok()) return check_failed(proof.status().to_string());
    write_snap_partition_proof(w, *proof);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const std::vector<std::uint8_t>& bytes = w.bytes();
  std::ofstream f(o.out, std::ios::binary);
  if (!f.write(reinterpret_cast<const char*>(bytes.data()),
               static_cast<std::streamsize>(bytes.size())))
    return check_failed("cannot write " + o.out);
  nlohmann::json j = {{"registered_proof", u->registered_proof},
                      {"comm_r_old", to_hex(u->comm_r_old)},
                      {"comm_d_new", to_hex(u->comm_d_new)},
                      {"comm_r_new", to_hex(u->comm_r_new)},
                      {"h", u->h},
                      {"partitions", last - first},
                      {"bytes", bytes.size()},
                      {"out", o.out},
                      {"seconds", seconds}};
  if (o.partition_index) j["partition_index"] = *o.partition_index;
  std::printf("%s\n", j.dump().c_str());
  return 0;
}

}  // namespace

FilecoinRun add_filecoin_snap_vanilla(CLI::App& sub) {
  auto o = std::make_shared<SnapVanillaOptions>();
  sub.add_option("--sector", o->sector, "Updated sector directory (`cuzk filecoin update`)")
      ->required();
  sub.add_option("--out", o->out, "File for the bincode PartitionProofs")->required();
  sub.add_option("--partition-index", o->partition_index, "Only partition K's proof");
  sub.add_option("--threads", o->threads, "Worker threads (default: all cores)");
  return [o] { return run(*o); };
}

}  // namespace cuzk::cli
