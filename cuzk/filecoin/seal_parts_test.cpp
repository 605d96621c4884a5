// The pieces of sealing that do not need the SDR graph, against independent values:
//   * replica_id and tree_d roots computed by Python's hashlib in a few lines (independent of this
//     code; the scripts are quoted beside each value);
//   * comm_r = Poseidon_2(comm_c, comm_r_last) for the two real venus 2 KiB sectors
//     ($CUZK_FILECOIN_DATA/README.md: commitments recorded by Filecoin's own code);
//   * the venus p_aux / t_aux / sc-02-data-tree-r-last.dat files (read from CUZK_FILECOIN_DATA);
//   * every Poseidon tree shape against a naive recursive twin over the reference permutation,
//     and tree_d's row builder against a recursive root, on seeded random leaves.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>

#include "cuzk/filecoin/aux_files.hpp"
#include "cuzk/filecoin/node.hpp"
#include "cuzk/filecoin/poseidon_tree.hpp"
#include "cuzk/filecoin/replica_id.hpp"
#include "cuzk/filecoin/sdr_hashes.hpp"
#include "cuzk/filecoin/seal_naive.hpp"
#include "cuzk/filecoin/sector_dir.hpp"
#include "cuzk/filecoin/tree_d.hpp"
#include "cuzk/hash/poseidon.hpp"

namespace cuzk::filecoin {
namespace {

Node hex32(std::string_view s) { return parse_hex32(s, "test constant").value(); }

// The two real 2 KiB sectors of venus fixtures/genesis-sectors (miner t0106), values from
// $CUZK_FILECOIN_DATA/README.md (recorded by lotus-seed / rust-fil-proofs).
struct Venus {
  std::uint64_t sector_id;
  const char* comm_d;
  const char* comm_r;
  const char* comm_c;
  const char* comm_r_last;
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
// prover_id = 0x6a (actor 106 as LEB128) then 31 zeros; ticket = BLAKE2b-256("lotus is fire").
const Node kVenusProver = [] {
  Node p{};
  p[0] = 0x6a;
  return p;
}();
constexpr const char* kVenusTicket =
    "79ac3dd7defaad6d40e033a1c89124df3cbefdf072868b1924e562f0d4204189";

const char* data_dir() { return std::getenv("CUZK_FILECOIN_DATA"); }

TEST(Node, HexParsing) {
  EXPECT_EQ(to_hex(hex32("0x" + std::string(kVenusTicket))), kVenusTicket);
  auto short_hex = parse_hex32("abcd", "--ticket");
  EXPECT_EQ(short_hex.status().code(), Errc::size_mismatch);
  EXPECT_NE(short_hex.status().message().find("--ticket"), std::string::npos);
  std::string bad(64, '0');
  bad[17] = 'g';
  auto bad_digit = parse_hex32(bad, "--prover-id");
  EXPECT_EQ(bad_digit.status().code(), Errc::bad_encoding);
  EXPECT_NE(bad_digit.status().message().find("at 17"), std::string::npos);
  // r itself (little-endian) is not a field element; r − 1 is.
  Node r = hex32("01000000fffffffffe5bfeff02a4bd5305d8a10908d83933487d9d2953a7ed73");
  EXPECT_EQ(fr_from_node(r).status().code(), Errc::out_of_range);
  r[0] = 0;
  EXPECT_TRUE(fr_from_node(r).ok());
  EXPECT_EQ(node_from_fr(fr_from_node(r).value()), r);
}

TEST(ReplicaId, VenusSectorsMatchHashlib) {
  // python3: d = bytearray(hashlib.sha256(prover + sid.to_bytes(8,'big') + ticket + comm_d +
  //          bytes(32)).digest()); d[31] &= 0x3f   (porep_id of StackedDrg2KiBV1 = 32 zeros)
  const char* want[2] = {"61f89482291a9dd662e9232342fbe197fb999de622060bbe5284bf4e020fe012",
                         "f8de114c92ff643fc6e66fde244f4d4102a2a3acfa4c8d464e0d6de66b413a1a"};
  for (int s = 0; s < 2; ++s) {
    const Node id = replica_id(kVenusProver, kVenus[s].sector_id, hex32(kVenusTicket),
                               hex32(kVenus[s].comm_d), porep_id_of(0));
    EXPECT_EQ(to_hex(id), want[s]) << "sector " << s;
  }
}

// Recursive root of the binary SHA-256 tree (the slow twin of build_tree_d's row loop).
Node naive_tree_d_root(std::span<const Node> leaves) {
  if (leaves.size() == 1) return leaves[0];
  const std::size_t half = leaves.size() / 2;
  return tree_d_hash(naive_tree_d_root(leaves.first(half)),
                     naive_tree_d_root(leaves.subspan(half)));
}

TEST(TreeD, ZeroAndPatternedSectorsMatchHashlib) {
  ThreadPool pool(2);
  // python3: row = [bytes(32)] * n; while len(row) > 1: row = [h(row[i], row[i+1]) for i in
  //          range(0, len(row), 2)] with h(a, b) = sha256(a + b) and byte 31 &= 0x3f.
  std::vector<Node> zeros(64);
  EXPECT_EQ(to_hex(tree_d_root(zeros, pool)),
            "fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833");  // 2 KiB
  zeros.resize(1 << 18);
  EXPECT_EQ(to_hex(tree_d_root(zeros, pool)),
            "65f29e5d98d246c38b388cfc06db1f6b021303c5a289000bdce832a9c3ec421c");  // 8 MiB
  // The same with node i = i as a 32-byte little-endian integer, 64 nodes.
  std::vector<Node> pattern(64);
  for (std::size_t i = 0; i < pattern.size(); ++i) pattern[i][0] = static_cast<std::uint8_t>(i);
  const std::vector<Node> tree = build_tree_d(pattern, pool);
  ASSERT_EQ(tree.size(), 127u);
  EXPECT_EQ(to_hex(tree.back()),
            "57a86a2459b4e38dd4ab3b492a4cc406f636f33d62cd180ca36e1ea6547e5d37");
  EXPECT_TRUE(std::equal(pattern.begin(), pattern.end(), tree.begin()));
  EXPECT_EQ(tree[64], tree_d_hash(pattern[0], pattern[1]));
}

TEST(TreeD, RowsMatchRecursiveTwin) {
  const std::uint64_t seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  ThreadPool pool(2);
  for (std::size_t n : {1u, 2u, 8u, 1024u, 4096u}) {
    std::vector<Node> leaves(n);
    for (Node& x : leaves)
      for (auto& b : x) b = static_cast<std::uint8_t>(rng());
    const auto tree = build_tree_d(leaves, pool);
    ASSERT_EQ(tree.size(), 2 * n - 1);
    EXPECT_EQ(tree.back(), naive_tree_d_root(leaves)) << n << " leaves";
    EXPECT_EQ(tree_d_root(leaves, pool), tree.back()) << n << " leaves";
  }
}

using naive::poseidon_root;

TEST(PoseidonTree, EveryShapeMatchesNaiveTwin) {
  const std::uint64_t seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  ThreadPool pool(2);
  struct Case {
    TreeShape shape;
    std::uint64_t base_leaves;
  };
  for (const Case& c :
       {Case{{8, 0, 0}, 8}, Case{{8, 0, 0}, 512}, Case{{8, 8, 0}, 64}, Case{{8, 8, 2}, 8},
        Case{{8, 8, 2}, 64}, Case{{2, 0, 0}, 16}, Case{{4, 2, 0}, 16}}) {
    const std::uint64_t n = c.base_leaves * c.shape.base_trees();
    std::vector<Fr> leaves(n);
    for (Fr& x : leaves) x = Fr::from_u64(rng()) * Fr::from_u64(rng()) + Fr::from_u64(rng());
    const std::vector<unsigned> arities = naive::shape_arities(c.shape, n);
    auto tree = PoseidonTree::build(leaves, c.shape, pool);
    ASSERT_TRUE(tree.ok()) << tree.status().to_string();
    EXPECT_EQ(tree->root(), poseidon_root(leaves, arities)) << c.shape.name() << " " << n;
    EXPECT_EQ(tree->base_tree_count(), c.shape.base_trees());
    EXPECT_EQ(tree->base_tree(0).size(), merkle_tree_len(c.base_leaves, c.shape.base));
    for (unsigned i = 0; i < tree->base_tree_count(); ++i) {
      const auto row0 = tree->base_row(i, 0);
      EXPECT_TRUE(std::equal(row0.begin(), row0.end(), leaves.begin() + i * c.base_leaves));
      EXPECT_EQ(tree->base_root(i),
                poseidon_root(std::span<const Fr>(leaves).subspan(i * c.base_leaves, c.base_leaves),
                              std::span<const unsigned>(arities).last(
                                  merkle_tree_rows(c.base_leaves, c.shape.base) - 1)));
    }
  }
}

TEST(PoseidonTree, RejectsBadSizesAndShapes) {
  ThreadPool pool(1);
  EXPECT_EQ(PoseidonTree::build(std::vector<Fr>(48), {8, 0, 0}, pool).status().code(),
            Errc::invalid_argument);
  EXPECT_EQ(PoseidonTree::build(std::vector<Fr>(4), {8, 0, 0}, pool).status().code(),
            Errc::invalid_argument);
  EXPECT_EQ(PoseidonTree::build(std::vector<Fr>(32), {8, 8, 0}, pool).status().code(),
            Errc::invalid_argument);  // 8 base trees of 4 leaves
  EXPECT_TRUE(PoseidonTree::build(std::vector<Fr>(64), {8, 8, 0}, pool).ok());
  EXPECT_EQ(PoseidonTree::build(std::vector<Fr>(64), {3, 0, 0}, pool).status().code(),
            Errc::invalid_argument);
  EXPECT_EQ(PoseidonTree::build(std::vector<Fr>(128), {8, 0, 2}, pool).status().code(),
            Errc::invalid_argument);
  EXPECT_EQ(merkle_tree_len(64, 8), 73u);
  EXPECT_EQ(merkle_tree_rows(64, 8), 3u);
  EXPECT_EQ(merkle_tree_len(1 << 6, 2), 127u);
}

TEST(CommR, VenusCommitmentsAgree) {
  for (const Venus& v : kVenus) {
    const Fr c = fr_from_node(hex32(v.comm_c)).value();
    const Fr r_last = fr_from_node(hex32(v.comm_r_last)).value();
    EXPECT_EQ(to_hex(node_from_fr(comm_r_of(c, r_last))), v.comm_r) << "sector " << v.sector_id;
  }
}

TEST(AuxFiles, PAuxRoundTripAndErrors) {
  const PersistentAux p{hex32(kVenus[0].comm_c), hex32(kVenus[0].comm_r_last)};
  const auto bytes = serialize_p_aux(p);
  ASSERT_EQ(bytes.size(), 64u);
  EXPECT_EQ(parse_p_aux(bytes).value(), p);
  EXPECT_EQ(parse_p_aux(std::span(bytes).first(63)).status().code(), Errc::size_mismatch);
  auto high = bytes;
  high[63] = 0xff;
  EXPECT_EQ(parse_p_aux(high).status().code(), Errc::out_of_range);
}

TEST(AuxFiles, TAuxRoundTripAndErrors) {
  const TemporaryAux t = make_t_aux(64, 2, {8, 0, 0}, "/tmp/sector");
  ASSERT_EQ(t.labels.size(), 2u);
  EXPECT_EQ(t.labels[1].data_file_name(), "sc-02-data-layer-2.dat");
  EXPECT_EQ(t.tree_d.size, 127u);
  EXPECT_EQ(t.tree_r_last.size, 73u);
  EXPECT_EQ(t.tree_r_last.rows_to_discard, 1u);
  EXPECT_EQ(t.tree_c.rows_to_discard, 0u);
  const auto bytes = serialize_t_aux(t);
  EXPECT_EQ(parse_t_aux(bytes).value(), t);
  for (std::size_t cut : {std::size_t{0}, std::size_t{7}, std::size_t{30}, bytes.size() - 1}) {
    const auto r = parse_t_aux(std::span(bytes).first(cut));
    EXPECT_EQ(r.status().code(), Errc::truncated) << cut << ": " << r.status().to_string();
  }
  auto extra = bytes;
  extra.push_back(0);
  EXPECT_EQ(parse_t_aux(extra).status().code(), Errc::size_mismatch);
  auto bad_tag = bytes;
  // labels[0]: count (8) + path (8 + 11) + id (8 + 7), then the Option tag.
  bad_tag[8 + 19 + 15] = 2;
  const auto r = parse_t_aux(bad_tag);
  EXPECT_EQ(r.status().code(), Errc::bad_encoding);
  EXPECT_NE(r.status().message().find("labels[0].size"), std::string::npos)
      << r.status().to_string();
  // Splits (8-8-0): ids get "-<i>" suffixes; a single tree keeps its id.
  EXPECT_EQ(split_store_config(t.tree_c, 3, 8).data_file_name(), "sc-02-data-tree-c-3.dat");
  EXPECT_EQ(split_store_config(t.tree_c, 0, 1).data_file_name(), "sc-02-data-tree-c.dat");
  // util.rs default_rows_to_discard: 8 MiB (2^18 leaves, 7 rows) keeps 2, 32 GiB base trees
  // (2^27 leaves) 2, 2 KiB 1, a binary tree of 2^18 leaves min(17, 7).
  EXPECT_EQ(default_rows_to_discard(1 << 18, 8), 2u);
  EXPECT_EQ(default_rows_to_discard(1 << 27, 8), 2u);
  EXPECT_EQ(default_rows_to_discard(64, 8), 1u);
  EXPECT_EQ(default_rows_to_discard(8, 8), 0u);
  EXPECT_EQ(default_rows_to_discard(1 << 18, 2), 7u);
}

TEST(AuxFiles, ReadsVenusCacheFiles) {
  if (!data_dir()) GTEST_SKIP() << "CUZK_FILECOIN_DATA is unset: the venus cache files are needed";
  for (const Venus& v : kVenus) {
    const auto dir = std::filesystem::path(data_dir()) / "venus-2kib" / "cache" /
                     ("s-t0106-" + std::to_string(v.sector_id));
    const auto p_bytes = read_small_file(dir / "p_aux");
    ASSERT_TRUE(p_bytes.ok()) << p_bytes.status().to_string();
    const auto p = parse_p_aux(*p_bytes);
    ASSERT_TRUE(p.ok()) << p.status().to_string();
    EXPECT_EQ(to_hex(p->comm_c), v.comm_c);
    EXPECT_EQ(to_hex(p->comm_r_last), v.comm_r_last);
    EXPECT_EQ(serialize_p_aux(*p), *p_bytes);

    const auto t_bytes = read_small_file(dir / "t_aux");
    ASSERT_TRUE(t_bytes.ok()) << t_bytes.status().to_string();
    ASSERT_EQ(t_bytes->size(), 455u);  // SOURCES.md
    const auto t = parse_t_aux(*t_bytes);
    ASSERT_TRUE(t.ok()) << t.status().to_string();
    EXPECT_EQ(serialize_t_aux(*t), *t_bytes);  // byte-for-byte round trip
    // What lotus-seed (rust-fil-proofs of 2020) wrote: our make_t_aux agrees on every id and
    // size; the 2020 code gave the labels and tree_d rows_to_discard 5 (today's code: 0).
    const TemporaryAux ours = make_t_aux(64, 2, {8, 0, 0}, t->tree_d.path);
    ASSERT_EQ(t->labels.size(), 2u);
    for (int l = 0; l < 2; ++l) {
      EXPECT_EQ(t->labels[l].id, ours.labels[l].id);
      EXPECT_EQ(t->labels[l].size, ours.labels[l].size);
      EXPECT_EQ(t->labels[l].rows_to_discard, 5u);
    }
    EXPECT_EQ(t->tree_d.id, "tree-d");
    EXPECT_EQ(t->tree_d.size, ours.tree_d.size);
    EXPECT_EQ(t->tree_r_last, ours.tree_r_last);
    EXPECT_EQ(t->tree_c.id, ours.tree_c.id);
    EXPECT_EQ(t->tree_c.size, ours.tree_c.size);
    EXPECT_EQ(t->tree_d.path,
              "/Users/lijunlong/.genesis-sectors/cache/s-t0106-" + std::to_string(v.sector_id));

    // The LevelCacheStore of tree_r_last with rows_to_discard 1 over 64 leaves keeps the root.
    const auto lc = read_node_file(dir / ours.tree_r_last.data_file_name(), 1);
    ASSERT_TRUE(lc.ok()) << lc.status().to_string();
    EXPECT_EQ(to_hex((*lc)[0]), v.comm_r_last);
  }
}

TEST(SectorInfo, JsonRoundTripAndErrors) {
  SectorInfo info;
  info.registered_proof = "StackedDrg2KiBV1";
  info.size = SectorSize::s2KiB;
  info.porep_id = porep_id_of(0);
  info.api = ApiVersion::v1_0_0;
  info.id = {kVenusProver, 1, hex32(kVenusTicket)};
  info.comm_d = hex32(kVenus[1].comm_d);
  info.comm_c = hex32(kVenus[1].comm_c);
  info.comm_r_last = hex32(kVenus[1].comm_r_last);
  info.comm_r = hex32(kVenus[1].comm_r);
  info.replica_id = hex32("f8de114c92ff643fc6e66fde244f4d4102a2a3acfa4c8d464e0d6de66b413a1a");
  const std::string text = sector_info_json(info);
  const auto back = parse_sector_info_json(text);
  ASSERT_TRUE(back.ok()) << back.status().to_string();
  EXPECT_EQ(*back, info);
  EXPECT_EQ(back->config().nodes, 64u);
  EXPECT_EQ(back->config().layers, 2u);

  auto broken = text;
  broken.replace(broken.find("\"comm_c\""), 8, "\"comm_x\"");
  const auto missing = parse_sector_info_json(broken);
  EXPECT_EQ(missing.status().code(), Errc::bad_encoding);
  EXPECT_NE(missing.status().message().find("comm_c"), std::string::npos);
  EXPECT_EQ(parse_sector_info_json("[1, 2").status().code(), Errc::bad_encoding);
  auto wrong_nodes = text;
  wrong_nodes.replace(wrong_nodes.find("\"nodes\": 64"), 11, "\"nodes\": 65");
  EXPECT_EQ(parse_sector_info_json(wrong_nodes).status().code(), Errc::bad_encoding);
}

}  // namespace
}  // namespace cuzk::filecoin
