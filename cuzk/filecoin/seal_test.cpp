// Sealing against real data and against its slow twin.
//   * The two real 2 KiB sectors of venus (sealed by lotus-seed with rust-fil-proofs,
//     StackedDrg2KiBV1, read from CUZK_FILECOIN_DATA): unseal the replica, check its comm_d, seal
//     the data again and get the recorded comm_d, comm_c, comm_r_last, comm_r, the same replica
//     bytes, p_aux and tree-r-last cache file.
//   * Seeded pseudo-random sectors of 4096 / 512 / 1024 nodes with 2 and 11 layers and every tree shape:
//     seal against the naive twin (seal_naive.hpp), unseal(seal(x)) == x.
//   * The sector directory round trip and the input errors.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>

#include "cuzk/filecoin/aux_files.hpp"
#include "cuzk/filecoin/replica_id.hpp"
#include "cuzk/filecoin/sdr_labels.hpp"
#include "cuzk/filecoin/seal.hpp"
#include "cuzk/filecoin/seal_naive.hpp"
#include "cuzk/filecoin/sector_dir.hpp"
#include "cuzk/filecoin/tree_d.hpp"

namespace cuzk::filecoin {
namespace {

namespace fs = std::filesystem;

Node hex32(std::string_view s) { return parse_hex32(s, "test constant").value(); }

// $CUZK_FILECOIN_DATA/README.md (venus fixtures/genesis-sectors, recorded by Filecoin's code):
// comm_d, comm_r, comm_c, comm_r_last of sectors 0 and 1 of miner t0106.
struct Venus {
  std::uint64_t sector_id;
  const char *comm_d, *comm_r, *comm_c, *comm_r_last;
};
constexpr Venus kVenus[2] = {
    {0, "2d8cd21509618ffea50330291ea4a23523e1e3a5f74ceed0dd66bd327bf51a21",
     "6500105a4dd7673f82730262d8dcffe9edccd3cbceac7bd3c943696a09071257",
     "e9350a1119790bec053bf22023cb64528f1a0663d29c7a30e4f0748fbd0cd82f",
     "dbdb6c12b571ac6dcbf370eaf8e8f762d3ab04d1f680957789aaa98b4b901c21"},
    {1, "cba50b4a44d909277ea22e76654dfa89a4ef9664d02192fc7321bbb9580b093e",
     "2f889cb216b14800f68048108b46d2261073ae842074eb66656035421e5ead03",
     "d1aa02371b18509edcf14b518de185ce247a38b6b250a563b74772385a576c31",
     "fbf666ab4c4608aa4845532b307c5a7beebde478497f1207268291d925d68139"},
};
// prover_id = 0x6a then 31 zeros (actor 106); ticket = BLAKE2b-256("lotus is fire").
SectorIdentity venus_identity(std::uint64_t sector_id) {
  SectorIdentity id;
  id.prover_id[0] = 0x6a;
  id.sector_id = sector_id;
  id.ticket = hex32("79ac3dd7defaad6d40e033a1c89124df3cbefdf072868b1924e562f0d4204189");
  return id;
}

TEST(Seal, VenusSectorsUnsealAndSealBackExactly) {
  const char* data_dir = std::getenv("CUZK_FILECOIN_DATA");
  if (!data_dir) GTEST_SKIP() << "CUZK_FILECOIN_DATA is unset: the venus 2 KiB sectors are needed";
  const fs::path venus = fs::path(data_dir) / "venus-2kib";
  const SealConfig config = seal_config(seal_proof("StackedDrg2KiBV1").value());
  ThreadPool pool(2);
  for (const Venus& v : kVenus) {
    SCOPED_TRACE("sector " + std::to_string(v.sector_id));
    const std::string name = "s-t0106-" + std::to_string(v.sector_id);
    const auto replica = read_node_file(venus / "sealed" / name, 64);
    ASSERT_TRUE(replica.ok()) << replica.status().to_string();
    const SectorIdentity id = venus_identity(v.sector_id);
    const Node rid =
        replica_id(id.prover_id, id.sector_id, id.ticket, hex32(v.comm_d), config.porep_id);

    const auto data = unseal(config, rid, *replica, pool);
    ASSERT_TRUE(data.ok()) << data.status().to_string();
    EXPECT_EQ(to_hex(tree_d_root(*data, pool)), v.comm_d);

    const auto sealed = seal(config, id, *data, pool);
    ASSERT_TRUE(sealed.ok()) << sealed.status().to_string();
    EXPECT_EQ(to_hex(sealed->comm_d), v.comm_d);
    EXPECT_EQ(sealed->replica_id, rid);
    EXPECT_EQ(to_hex(sealed->comm_c), v.comm_c);
    EXPECT_EQ(to_hex(sealed->comm_r_last), v.comm_r_last);
    EXPECT_EQ(to_hex(sealed->comm_r), v.comm_r);
    EXPECT_EQ(sealed->replica, *replica);

    const auto p_aux = read_small_file(venus / "cache" / name / "p_aux");
    ASSERT_TRUE(p_aux.ok());
    EXPECT_EQ(serialize_p_aux({sealed->comm_c, sealed->comm_r_last}), *p_aux);

    // Our directory's files beside upstream's: the same tree-r-last cache bytes, the same t_aux
    // ids and sizes.
    const fs::path dir = fs::path(testing::TempDir()) / ("cuzk_seal_venus_" + name);
    fs::remove_all(dir);
    SectorInfo info{.registered_proof = "StackedDrg2KiBV1",
                    .size = SectorSize::s2KiB,
                    .porep_id = config.porep_id,
                    .api = config.api,
                    .id = id,
                    .comm_d = sealed->comm_d,
                    .comm_c = sealed->comm_c,
                    .comm_r_last = sealed->comm_r_last,
                    .comm_r = sealed->comm_r,
                    .replica_id = sealed->replica_id};
    ASSERT_TRUE(write_sector_dir(dir, info, *sealed).ok());
    for (const char* f : {"sc-02-data-tree-r-last.dat", "p_aux"})
      EXPECT_EQ(read_small_file(dir / f).value(),
                read_small_file(venus / "cache" / name / f).value())
          << f;
    const auto theirs = parse_t_aux(read_small_file(venus / "cache" / name / "t_aux").value());
    const auto ours = parse_t_aux(read_small_file(dir / "t_aux").value());
    ASSERT_TRUE(theirs.ok() && ours.ok());
    EXPECT_EQ(ours->tree_r_last.id, theirs->tree_r_last.id);
    EXPECT_EQ(ours->tree_r_last.size, theirs->tree_r_last.size);
    EXPECT_EQ(ours->tree_r_last.rows_to_discard, theirs->tree_r_last.rows_to_discard);
    fs::remove_all(dir);
  }
}

std::vector<Node> random_sector(std::uint64_t nodes, std::mt19937_64& rng) {
  std::vector<Node> data(nodes);
  for (Node& x : data) {
    for (auto& b : x) b = static_cast<std::uint8_t>(rng());
    x[31] &= 0x3f;  // Fr32 padding: the top two bits of every node are zero
  }
  return data;
}

TEST(Seal, MatchesNaiveTwinAndUnsealsOnEveryShape) {
  const std::uint64_t seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  ThreadPool pool(2);
  struct Case {
    std::uint64_t nodes;
    unsigned layers;
    TreeShape shape;
    ApiVersion api;
    std::uint64_t proof_id;
  };
  for (const Case& c : {Case{4096, 2, {8, 0, 0}, ApiVersion::v1_0_0, 0},
                        Case{512, 11, {8, 8, 0}, ApiVersion::v1_1_0, 8},
                        Case{1024, 11, {8, 8, 2}, ApiVersion::v1_1_0, 9}}) {
    SCOPED_TRACE(std::to_string(c.nodes) + " nodes, " + std::to_string(c.layers) + " layers, " +
                 c.shape.name());
    const SealConfig config{.nodes = c.nodes,
                            .layers = c.layers,
                            .shape = c.shape,
                            .porep_id = porep_id_of(c.proof_id),
                            .api = c.api};
    const std::vector<Node> data = random_sector(c.nodes, rng);
    SectorIdentity id;
    for (auto& b : id.prover_id) b = static_cast<std::uint8_t>(rng());
    for (auto& b : id.ticket) b = static_cast<std::uint8_t>(rng());
    id.sector_id = rng();

    const auto sealed = seal(config, id, data, pool);
    ASSERT_TRUE(sealed.ok()) << sealed.status().to_string();
    const SdrGraph graph(c.nodes, config.porep_id, config.api);
    const auto labels = naive::labels(graph, sealed->replica_id, c.layers);
    ASSERT_EQ(sealed->labels.size(), c.layers);
    for (unsigned l = 0; l < c.layers; ++l)
      EXPECT_EQ(sealed->labels[l], labels[l]) << "layer " << l + 1;
    const auto twin = naive::seal_commitments(labels, data, c.shape);
    EXPECT_EQ(sealed->comm_c, twin.comm_c);
    EXPECT_EQ(sealed->comm_r_last, twin.comm_r_last);
    EXPECT_EQ(sealed->comm_r, twin.comm_r);
    EXPECT_EQ(sealed->replica, twin.replica);
    EXPECT_EQ(sealed->comm_d, tree_d_root(data, pool));
    EXPECT_NE(sealed->replica, data);

    const auto back = unseal(config, sealed->replica_id, sealed->replica, pool);
    ASSERT_TRUE(back.ok()) << back.status().to_string();
    EXPECT_EQ(*back, data);
  }
}

TEST(Seal, SectorDirectoryRoundTrip) {
  const std::uint64_t seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  ThreadPool pool(2);
  const SealProof proof = seal_proof("StackedDrg2KiBV1_1").value();
  const SealConfig config = seal_config(proof);
  const auto data = random_sector(64, rng);
  const SectorIdentity id = venus_identity(7);
  const auto sealed = seal(config, id, data, pool);
  ASSERT_TRUE(sealed.ok());
  SectorInfo info{.registered_proof = proof.name,
                  .size = proof.size,
                  .porep_id = proof.porep_id,
                  .api = proof.api,
                  .id = id,
                  .comm_d = sealed->comm_d,
                  .comm_c = sealed->comm_c,
                  .comm_r_last = sealed->comm_r_last,
                  .comm_r = sealed->comm_r,
                  .replica_id = sealed->replica_id};
  const fs::path dir = fs::path(testing::TempDir()) / "cuzk_seal_dir_test" / "nested";
  fs::remove_all(dir.parent_path());
  ASSERT_TRUE(write_sector_dir(dir, info, *sealed).ok());
  EXPECT_EQ(read_sector_info(dir).value(), info);
  EXPECT_EQ(read_node_file(dir / kReplicaFile, 64).value(), sealed->replica);
  EXPECT_EQ(read_node_file(dir / "sc-02-data-layer-2.dat", 64).value(), sealed->labels[1]);
  EXPECT_EQ(read_node_file(dir / "sc-02-data-tree-d.dat", 127).value(), sealed->tree_d);
  const auto tree_c = read_node_file(dir / "sc-02-data-tree-c.dat", 73);
  ASSERT_TRUE(tree_c.ok());
  EXPECT_EQ(tree_c->back(), sealed->comm_c);
  EXPECT_EQ((*tree_c)[64], node_from_fr(sealed->tree_c.base_row(0, 1)[0]));
  EXPECT_EQ(read_node_file(dir / "sc-02-data-tree-r-last.dat", 1).value()[0], sealed->comm_r_last);
  const auto t = parse_t_aux(read_small_file(dir / "t_aux").value());
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->labels.size(), 2u);
  EXPECT_EQ(fs::path(t->tree_c.path), fs::absolute(dir));
  const auto p = parse_p_aux(read_small_file(dir / "p_aux").value());
  EXPECT_EQ(p.value(), (PersistentAux{sealed->comm_c, sealed->comm_r_last}));
  EXPECT_EQ(read_node_file(dir / kReplicaFile, 65).status().code(), Errc::size_mismatch);
  EXPECT_EQ(read_sector_info(dir / "missing").status().code(), Errc::io_error);
  fs::remove_all(dir.parent_path());
}

TEST(Seal, RejectsBadInput) {
  ThreadPool pool(1);
  const SealConfig config = seal_config(seal_proof("StackedDrg2KiBV1").value());
  std::vector<Node> data(64);
  const auto short_data = seal(config, {}, std::span<const Node>(data).first(63), pool);
  EXPECT_EQ(short_data.status().code(), Errc::size_mismatch);
  data[17][31] = 0x80;  // ≥ r
  const auto high = seal(config, {}, data, pool);
  EXPECT_EQ(high.status().code(), Errc::out_of_range);
  EXPECT_NE(high.status().message().find("data node 17"), std::string::npos)
      << high.status().to_string();
  const auto bad_replica = unseal(config, Node{}, data, pool);
  EXPECT_EQ(bad_replica.status().code(), Errc::out_of_range);
  EXPECT_NE(bad_replica.status().message().find("replica node 17"), std::string::npos);
  SealConfig odd = config;
  odd.nodes = 48;
  EXPECT_EQ(seal(odd, {}, std::vector<Node>(48), pool).status().code(), Errc::invalid_argument);
  odd = config;
  odd.layers = 3;
  EXPECT_EQ(seal(odd, {}, std::vector<Node>(64), pool).status().code(), Errc::invalid_argument);
}

}  // namespace
}  // namespace cuzk::filecoin
