// FallbackPoSt circuit (post_circuit.hpp) against independent figures:
//   * counts (circuit_info) of every registered proof but the 32/64 GiB Window ones
//     (post_circuit_slow_test): FORMATS.md §4.1;
//   * the six configurations of storage-proofs-post/tests/fallback_circuit.rs (trees 8-0-0,
//     8-4-0, 8-4-2 of 64 leaves per base tree, 5 challenges, API 1.1.0, one or two partitions,
//     short partitions padded) with their expected inputs and constraints, satisfied by proofs of
//     random trees, public inputs equal to the allocated ones; and the ignored BenchCS test's
//     32 GiB 8-0-0 figure (266,665);
//   * WinningPoSt and WindowPoSt (V1, V1_2) of 2 KiB sectors through the data side's vanilla
//     proofs (random trees; with CUZK_FILECOIN_DATA, the two real venus 2 KiB sectors);
//   * tampering with a leaf, a path element, a path index, comm_c, comm_r or a public input leaves
//     the circuit unsatisfied at the named constraint;
//   * witness-only synthesis and the recording system give the same assignment, and the blank
//     circuit records the same matrices as the one with values;
//   * malformed input is refused with a Status naming it.
// Seeded (printed; CUZK_SEED replays).
#include "cuzk/circuits/filecoin/post_circuit.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>

#include "cuzk/base/thread_pool.hpp"
#include "cuzk/circuits/filecoin/circuit_info.hpp"
#include "cuzk/filecoin/merkle_prove.hpp"
#include "cuzk/filecoin/post_challenges.hpp"
#include "cuzk/filecoin/post_prove.hpp"
#include "cuzk/filecoin/post_verify.hpp"
#include "cuzk/filecoin/sector_dir.hpp"
#include "cuzk/hash/poseidon.hpp"
#include "cuzk/r1cs/recording_cs.hpp"
#include "cuzk/r1cs/test_cs.hpp"
#include "cuzk/r1cs/witness_cs.hpp"
#include "tests/support/seed.hpp"

namespace cuzk::circuits::filecoin {
namespace {

namespace fs = std::filesystem;
using cuzk::filecoin::MerkleProof;
using cuzk::filecoin::PoseidonTree;
using cuzk::filecoin::PostKind;
using cuzk::filecoin::PostSector;
using cuzk::filecoin::SectorSize;
using cuzk::test::fresh_seed;

PostProof registered(const char* name) { return cuzk::filecoin::post_proof(name).value(); }

// ---------------------------------------------------------------------------------------------
// Counts of the registered proofs (FORMATS.md §4.1; 32/64 GiB Window in the slow test).

struct CountCase {
  const char* proof;
  std::uint64_t constraints;
  std::uint64_t inputs_with_one;
};

TEST(PostCircuitCounts, RegisteredProofsMatchFormats) {
  const CountCase cases[] = {
      {"StackedDrgWinning2KiBV1", 90'750, 133},    {"StackedDrgWinning8MiBV1", 230'670, 133},
      {"StackedDrgWinning512MiBV1", 300'630, 133}, {"StackedDrgWinning32GiBV1", 370'590, 133},
      {"StackedDrgWinning64GiBV1", 391'314, 133},  {"StackedDrgWindow2KiBV1", 21'866, 23},
      {"StackedDrgWindow8MiBV1", 64'266, 23},      {"StackedDrgWindow512MiBV1", 85'466, 23},
      {"StackedDrgWindow2KiBV1_2", 21'866, 23},    {"StackedDrgWindow512MiBV1_2", 85'466, 23},
  };
  for (const CountCase& c : cases) {
    SCOPED_TRACE(c.proof);
    auto params = post_circuit_params(registered(c.proof));
    ASSERT_TRUE(params.ok()) << params.status().to_string();
    PostCircuit circuit(*params);
    auto info = circuit_info(circuit);
    ASSERT_TRUE(info.ok()) << info.status().to_string();
    EXPECT_EQ(info->constraints, c.constraints);
    EXPECT_EQ(info->public_inputs + 1, c.inputs_with_one);
  }
}

TEST(PostCircuitCounts, WinningAndWindowParams) {
  auto win = post_circuit_params(registered("StackedDrgWinning32GiBV1")).value();
  EXPECT_EQ(win.sector_count, 66u);  // winning_post_setup_params: 66 / 1
  EXPECT_EQ(win.challenge_count, 1u);
  EXPECT_EQ(win.nodes, 1ull << 30);
  EXPECT_EQ(win.shape.name(), "8-8-0");
  auto win64 = post_circuit_params(registered("StackedDrgWinning64GiBV1")).value();
  EXPECT_EQ(win64.shape.name(), "8-8-2");
  auto win2 = post_circuit_params(registered("StackedDrgWindow64GiBV1_2")).value();
  EXPECT_EQ(win2.sector_count, 2300u);
  EXPECT_EQ(win2.challenge_count, 10u);
  EXPECT_EQ(win2.api, ApiVersion::v1_2_0);
  EXPECT_EQ(post_circuit_params(registered("StackedDrgWindow32GiBV1")).value().sector_count, 2349u);
}

// storage-proofs-post tests/fallback_circuit.rs test_fallback_post_circuit_poseidon_base_8_bench_cs
// (#[ignore]): BenchCS on the blank circuit of 32 GiB, 8-0-0 (DiskTree U8), 10 challenges,
// 5 sectors.
TEST(PostCircuitCounts, UpstreamBenchCs32GiBBase8) {
  PostCircuitParams p{.shape = {8, 0, 0},
                      .nodes = 1ull << 30,
                      .challenge_count = 10,
                      .sector_count = 5,
                      .api = ApiVersion::v1_1_0};
  PostCircuit circuit(p);
  auto info = circuit_info(circuit);
  ASSERT_TRUE(info.ok()) << info.status().to_string();
  EXPECT_EQ(info->constraints, 266'665u);
}

// ---------------------------------------------------------------------------------------------
// A PoSt over random trees, assembled as upstream's prove_all_partitions does.

Fr random_fr(std::mt19937_64& rng) { return cuzk::test::random_fr(rng); }

struct RandomPost {
  PostCircuitParams params;
  PostCircuitPublic pub;
  std::vector<PoseidonTree> trees;
  std::vector<Bytes32> comm_c;

  // Partition j's SectorProofs: sector i at position j·sector_count + i, the last repeated.
  std::vector<PostSectorProof> partition_proofs(std::uint64_t j) const {
    std::vector<PostSectorProof> out;
    for (std::uint64_t i = 0; i < params.sector_count; ++i) {
      const std::uint64_t idx = j * params.sector_count + i;
      if (idx >= trees.size()) break;
      PostSectorProof sp;
      for (unsigned n = 0; n < params.challenge_count; ++n) {
        const std::uint64_t leaf = cuzk::filecoin::post_leaf_challenge(
            pub.randomness, pub.sectors[idx].sector_id,
            cuzk::filecoin::post_challenge_index(params.api, idx, params.challenge_count, n),
            params.nodes);
        sp.inclusion_proofs.push_back(cuzk::filecoin::poseidon_tree_proof(trees[idx], leaf));
      }
      sp.comm_c = comm_c[idx];
      sp.comm_r_last = cuzk::filecoin::bytes32_from_fr(trees[idx].root());
      out.push_back(std::move(sp));
    }
    while (!out.empty() && out.size() < params.sector_count) out.push_back(out.back());
    return out;
  }
};

RandomPost random_post(const PostCircuitParams& params, std::size_t total_sectors,
                       std::mt19937_64& rng, ThreadPool& pool) {
  RandomPost p;
  p.params = params;
  p.pub.randomness = cuzk::filecoin::bytes32_from_fr(random_fr(rng));
  p.pub.prover_id = cuzk::filecoin::bytes32_from_fr(random_fr(rng));
  for (std::size_t i = 0; i < total_sectors; ++i) {
    std::vector<Fr> leaves(params.nodes);
    for (Fr& x : leaves) x = random_fr(rng);
    p.trees.push_back(PoseidonTree::build(std::move(leaves), params.shape, pool).value());
    const Fr comm_c = random_fr(rng);
    p.comm_c.push_back(cuzk::filecoin::bytes32_from_fr(comm_c));
    const std::array<Fr, 2> preimage = {comm_c, p.trees.back().root()};
    const Fr comm_r = hash::poseidon_hash_merkle(*hash::poseidon_constants(2), preimage);
    p.pub.sectors.push_back({i, cuzk::filecoin::bytes32_from_fr(comm_r)});
  }
  return p;
}

// Synthesizes |circuit| into a TestConstraintSystem (input constraints included).
TestConstraintSystem run_test_cs(PostCircuit& circuit, const TestCsOptions& opt = {}) {
  TestConstraintSystem cs(opt);
  Status s = synthesize_circuit(circuit, cs);
  EXPECT_TRUE(s.ok()) << s.to_string();
  return cs;
}

// The allocated inputs (without ONE) against generate_public_inputs; "" when equal, else the
// first difference.
std::string compare_inputs(const TestConstraintSystem& cs, const std::vector<Fr>& generated) {
  const std::vector<Fr>& in = cs.inputs();
  if (in.size() != generated.size() + 1)
    return std::to_string(in.size() - 1) + " inputs allocated, " +
           std::to_string(generated.size()) + " generated";
  for (std::size_t i = 0; i < generated.size(); ++i)
    if (!(in[i + 1] == generated[i])) return "input " + std::to_string(i + 1) + " differs";
  return "";
}

struct UpstreamCase {
  const char* name;
  TreeShape shape;
  std::size_t total_sectors, sector_count, partitions;
  std::size_t expected_inputs;  // ONE included, as bellperson's TestConstraintSystem counts
  std::uint64_t expected_constraints;
};

// storage-proofs-post tests/fallback_circuit.rs: test_fallback_post(total_sector_count,
// sector_count, partitions, expected_num_inputs, expected_constraints) with leaves = 64 · base
// trees, challenge_count 5, ApiVersion::V1_1_0.
TEST(PostCircuitUpstream, FallbackCircuitTests) {
  const UpstreamCase cases[] = {
      {"single_partition_base_8", {8, 0, 0}, 3, 3, 1, 19, 16'869},
      {"single_partition_sub_8_4", {8, 4, 0}, 3, 3, 1, 19, 22'674},
      {"single_partition_top_8_4_2", {8, 4, 2}, 3, 3, 1, 19, 27'384},
      {"two_partitions_base_8", {8, 0, 0}, 4, 2, 2, 13, 11'246},
      {"single_partition_smaller_base_8", {8, 0, 0}, 2, 3, 1, 19, 16'869},
      {"two_partitions_smaller_base_8", {8, 0, 0}, 5, 3, 2, 19, 16'869},
  };
  const std::uint64_t seed = fresh_seed();
  std::mt19937_64 rng(seed);
  ThreadPool pool(2);
  for (const UpstreamCase& c : cases) {
    SCOPED_TRACE(c.name);
    const PostCircuitParams params{.shape = c.shape,
                                   .nodes = 64ull * c.shape.base_trees(),
                                   .challenge_count = 5,
                                   .sector_count = static_cast<unsigned>(c.sector_count),
                                   .api = ApiVersion::v1_1_0};
    RandomPost post = random_post(params, c.total_sectors, rng, pool);
    for (std::size_t j = 0; j < c.partitions; ++j) {
      SCOPED_TRACE("partition " + std::to_string(j));
      post.pub.partition = j;
      const std::vector<PostSectorProof> proofs = post.partition_proofs(j);
      auto circuit = PostCircuit::create(params, post.pub, proofs);
      ASSERT_TRUE(circuit.ok()) << circuit.status().to_string();
      TestConstraintSystem cs = run_test_cs(*circuit);
      EXPECT_TRUE(cs.is_satisfied()) << *cs.which_unsatisfied();
      EXPECT_EQ(cs.num_inputs(), c.expected_inputs);
      // bellperson's TestConstraintSystem counts the circuit's constraints only.
      EXPECT_EQ(cs.num_constraints() - cs.num_inputs(), c.expected_constraints);
      EXPECT_EQ(cs.inputs()[0], Fr::one());
      auto generated = post_public_inputs(params, post.pub);
      ASSERT_TRUE(generated.ok()) << generated.status().to_string();
      EXPECT_EQ(compare_inputs(cs, *generated), "");
      // The blank circuit has the same shape.
      PostCircuit blank(params);
      auto info = circuit_info(blank);
      ASSERT_TRUE(info.ok());
      EXPECT_EQ(info->constraints, c.expected_constraints);
      EXPECT_EQ(info->public_inputs + 1, c.expected_inputs);
    }
    post.pub.partition = c.partitions;
    EXPECT_FALSE(post_public_inputs(params, post.pub).ok());
  }
}

// ---------------------------------------------------------------------------------------------
// Registered 2 KiB proofs through the data side's vanilla proofs.

PostSector post_sector(PoseidonTree tree, std::uint64_t sector_id, const Bytes32& comm_c,
                       const Bytes32& comm_r) {
  PostSector s{.info = {}, .tree_r_last = std::move(tree)};
  s.info.size = SectorSize::s2KiB;
  s.info.id.sector_id = sector_id;
  s.info.comm_c = comm_c;
  s.info.comm_r_last = cuzk::filecoin::bytes32_from_fr(s.tree_r_last.root());
  s.info.comm_r = comm_r;
  return s;
}

std::vector<PostSector> random_2kib_sectors(std::size_t count, std::mt19937_64& rng,
                                            ThreadPool& pool) {
  const PostCircuitParams params =
      post_circuit_params(registered("StackedDrgWindow2KiBV1")).value();
  RandomPost p = random_post(params, count, rng, pool);
  std::vector<PostSector> out;
  for (std::size_t i = 0; i < count; ++i)
    out.push_back(
        post_sector(std::move(p.trees[i]), 1000 + i, p.comm_c[i], p.pub.sectors[i].comm_r));
  return out;
}

std::vector<PostPublicSector> public_sectors(std::span<const PostSector> s) {
  std::vector<PostPublicSector> out;
  for (const PostSector& x : s) out.push_back({x.info.id.sector_id, x.info.comm_r});
  return out;
}

// A partition's circuit with the data side's proofs, and its public inputs.
struct Partition {
  PostCircuitParams params;
  PostCircuitPublic pub;
  std::vector<PostSectorProof> proofs;
};

Partition window_partition(const PostProof& proof, const Bytes32& randomness,
                           std::span<const PostSector> sectors, std::uint64_t k) {
  Partition p;
  p.params = post_circuit_params(proof).value();
  p.pub.randomness = randomness;
  p.pub.sectors = public_sectors(sectors);
  p.pub.partition = k;
  auto vanilla = cuzk::filecoin::window_post_vanilla_proofs(proof, randomness, sectors);
  EXPECT_TRUE(vanilla.ok()) << vanilla.status().to_string();
  EXPECT_TRUE(cuzk::filecoin::verify_post_vanilla(proof, randomness, p.pub.sectors, *vanilla).ok());
  p.proofs = cuzk::filecoin::window_post_partition_proof(proof, *vanilla, k).value();
  return p;
}

Partition winning_partition(const PostProof& proof, const Bytes32& randomness,
                            const Bytes32& prover_id, std::span<const PostSector> sectors) {
  auto vanilla = cuzk::filecoin::winning_post_vanilla_proof(proof, randomness, prover_id, sectors);
  EXPECT_TRUE(vanilla.ok()) << vanilla.status().to_string();
  const PostSector& s = sectors[vanilla->sector_index];
  const PostPublicSector ps{s.info.id.sector_id, s.info.comm_r};
  EXPECT_TRUE(
      cuzk::filecoin::verify_post_vanilla(proof, randomness, {&ps, 1}, {&vanilla->proof, 1}).ok());
  Partition p;
  p.params = post_circuit_params(proof).value();
  p.pub = winning_post_public(p.params, randomness, prover_id, ps);
  p.proofs = winning_post_circuit_proofs(p.params, vanilla->proof).value();
  return p;
}

// Satisfied, the inputs equal generate_public_inputs, and the counts are FORMATS.md's.
void expect_satisfied(const Partition& p, std::uint64_t constraints) {
  auto circuit = PostCircuit::create(p.params, p.pub, p.proofs);
  ASSERT_TRUE(circuit.ok()) << circuit.status().to_string();
  TestConstraintSystem cs = run_test_cs(*circuit);
  EXPECT_TRUE(cs.is_satisfied()) << *cs.which_unsatisfied();
  EXPECT_EQ(cs.num_constraints() - cs.num_inputs(), constraints);
  auto generated = post_public_inputs(p.params, p.pub);
  ASSERT_TRUE(generated.ok()) << generated.status().to_string();
  EXPECT_EQ(compare_inputs(cs, *generated), "");
}

TEST(PostCircuit2KiB, WindowAndWinningFromRandomSectors) {
  std::mt19937_64 rng(fresh_seed());
  ThreadPool pool(2);
  const std::vector<PostSector> sectors = random_2kib_sectors(3, rng, pool);
  const Bytes32 randomness = cuzk::filecoin::bytes32_from_fr(random_fr(rng));
  for (const char* name : {"StackedDrgWindow2KiBV1", "StackedDrgWindow2KiBV1_2"}) {
    SCOPED_TRACE(name);
    const PostProof proof = registered(name);
    // 3 sectors, 2 per partition: partition 1 is [s2, s2].
    expect_satisfied(window_partition(proof, randomness, sectors, 0), 21'866);
    expect_satisfied(window_partition(proof, randomness, sectors, 1), 21'866);
    // One sector alone, padded.
    expect_satisfied(window_partition(proof, randomness, {sectors.data(), 1}, 0), 21'866);
  }
  const PostProof win = registered("StackedDrgWinning2KiBV1");
  const Bytes32 prover_id = cuzk::filecoin::bytes32_from_fr(random_fr(rng));
  const Partition p = winning_partition(win, randomness, prover_id, sectors);
  expect_satisfied(p, 90'750);
  // Circuit sector i is the vanilla proof's challenge i: its leaf-index input is that challenge.
  auto generated = post_public_inputs(p.params, p.pub).value();
  const std::vector<std::uint64_t> challenges =
      cuzk::filecoin::post_sector_challenges(win, randomness, p.pub.sectors[0].sector_id, 0);
  ASSERT_EQ(challenges.size(), 66u);
  for (std::size_t i = 0; i < 66; ++i) {
    EXPECT_EQ(generated[2 * i], *cuzk::filecoin::fr_from_bytes32(p.pub.sectors[0].comm_r, "c"));
    EXPECT_EQ(generated[2 * i + 1], Fr::from_u64(challenges[i])) << "circuit sector " << i;
  }
}

// ---------------------------------------------------------------------------------------------
// Tampering: the first unsatisfied constraint is the one that guards the changed value.

// Forwards to a TestConstraintSystem, adding 1 to the value of input |target|.
class InputCorruptingCs final : public ConstraintSystem {
 public:
  explicit InputCorruptingCs(std::size_t target) : target_(target) {}
  Result<Variable> alloc_aux_fn(NameFn name, ValueFn value) override {
    return inner_.alloc_aux_fn(name, value);
  }
  Result<Variable> alloc_input_fn(NameFn name, ValueFn value) override {
    if (inner_.num_inputs() != target_) return inner_.alloc_input_fn(name, value);
    auto bad = [&]() -> Result<Fr> {
      Result<Fr> v = value();
      if (!v) return v;
      return *v + Fr::one();
    };
    return inner_.alloc_input_fn(name, bad);
  }
  void enforce_lc(NameFn name, const LC& a, const LC& b, const LC& c) override {
    inner_.enforce_lc(name, a, b, c);
  }
  void push_scope(NameFn name) override { inner_.push_scope(name); }
  void pop_scope() override { inner_.pop_scope(); }
  Status finish() override { return inner_.finish(); }
  std::size_t num_inputs() const override { return inner_.num_inputs(); }
  std::size_t num_aux() const override { return inner_.num_aux(); }
  std::size_t num_constraints() const override { return inner_.num_constraints(); }
  const TestConstraintSystem& inner() const { return inner_; }

 private:
  TestConstraintSystem inner_;
  std::size_t target_;
};

std::string first_failure(const Partition& p) {
  auto circuit = PostCircuit::create(p.params, p.pub, p.proofs);
  EXPECT_TRUE(circuit.ok()) << circuit.status().to_string();
  if (!circuit.ok()) return "";
  TestConstraintSystem cs = run_test_cs(*circuit);
  return cs.which_unsatisfied().value_or("");
}

void flip(Bytes32& b) { b[3] ^= 1; }

void expect_tampering_caught(const Partition& good) {
  const std::string sector = "outer namespace/sector_1/";
  const std::string root_check = sector + "challenge_inclusion_0/enforce root is correct";
  const std::string comm_r_check = sector + "enforce_comm_c_comm_r_last_hash_comm_r";
  struct Case {
    const char* what;
    void (*edit)(Partition&);
    std::string failure;
  };
  const Case cases[] = {
      {"leaf", [](Partition& p) { flip(p.proofs[1].inclusion_proofs[0].leaf); }, root_check},
      {"path element",
       [](Partition& p) { flip(p.proofs[1].inclusion_proofs[0].base_path[1].hashes[5]); },
       root_check},
      {"path index",
       [](Partition& p) {
         auto& e = p.proofs[1].inclusion_proofs[0].base_path[0];
         e.index = (e.index + 1) % 8;
       },
       root_check},
      {"comm_c", [](Partition& p) { flip(p.proofs[1].comm_c); }, comm_r_check},
      {"comm_r_last", [](Partition& p) { flip(p.proofs[1].comm_r_last); }, comm_r_check},
      {"public comm_r",
       [](Partition& p) {
         const std::size_t i = p.pub.partition * p.params.sector_count + 1;
         flip(p.pub.sectors[std::min(i, p.pub.sectors.size() - 1)].comm_r);
       },
       comm_r_check},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    Partition bad = good;
    c.edit(bad);
    EXPECT_EQ(first_failure(bad), c.failure);
  }
  // A public input changed where it is allocated: comm_r of circuit sector 1, and the leaf index
  // of its first challenge.
  const std::size_t per_sector = 1 + good.params.challenge_count;
  const std::pair<std::size_t, std::string> inputs[] = {
      {1 + per_sector, sector + "comm_r_input/enforce input is correct"},
      {2 + per_sector, sector + "challenge_inclusion_0/path/packing constraint 0"},
  };
  for (const auto& [target, failure] : inputs) {
    SCOPED_TRACE("input " + std::to_string(target));
    auto circuit = PostCircuit::create(good.params, good.pub, good.proofs);
    ASSERT_TRUE(circuit.ok());
    InputCorruptingCs cs(target);
    ASSERT_TRUE(synthesize_circuit(*circuit, cs).ok());
    EXPECT_EQ(cs.inner().which_unsatisfied().value_or(""), failure);
  }
  // The verifier's side: generate_public_inputs of other public data differ from the inputs.
  auto circuit = PostCircuit::create(good.params, good.pub, good.proofs);
  ASSERT_TRUE(circuit.ok());
  TestConstraintSystem cs = run_test_cs(*circuit);
  PostCircuitPublic other = good.pub;
  other.randomness[0] ^= 1;
  EXPECT_EQ(compare_inputs(cs, post_public_inputs(good.params, good.pub).value()), "");
  EXPECT_NE(compare_inputs(cs, post_public_inputs(good.params, other).value()), "");
}

TEST(PostCircuit2KiB, TamperingIsCaughtAndNamed) {
  std::mt19937_64 rng(fresh_seed());
  ThreadPool pool(2);
  const std::vector<PostSector> sectors = random_2kib_sectors(2, rng, pool);
  const Bytes32 randomness = cuzk::filecoin::bytes32_from_fr(random_fr(rng));
  {
    SCOPED_TRACE("window");
    expect_tampering_caught(
        window_partition(registered("StackedDrgWindow2KiBV1"), randomness, sectors, 0));
  }
  {
    SCOPED_TRACE("winning");
    expect_tampering_caught(
        winning_partition(registered("StackedDrgWinning2KiBV1"), randomness, randomness, sectors));
  }
}

// ---------------------------------------------------------------------------------------------
// The three systems agree.

TEST(PostCircuit2KiB, WitnessOnlyEqualsRecordingWithValues) {
  std::mt19937_64 rng(fresh_seed());
  ThreadPool pool(2);
  const std::vector<PostSector> sectors = random_2kib_sectors(2, rng, pool);
  const Bytes32 randomness = cuzk::filecoin::bytes32_from_fr(random_fr(rng));
  const Partition parts[] = {
      window_partition(registered("StackedDrgWindow2KiBV1"), randomness, sectors, 0),
      winning_partition(registered("StackedDrgWinning2KiBV1"), randomness, randomness, sectors),
  };
  for (const Partition& p : parts) {
    SCOPED_TRACE(p.params.sector_count);
    auto circuit = PostCircuit::create(p.params, p.pub, p.proofs);
    ASSERT_TRUE(circuit.ok());
    RecordingConstraintSystem rec({.with_values = true, .record_matrices = true});
    ASSERT_TRUE(synthesize_circuit(*circuit, rec).ok());
    const Recording r = rec.take();
    WitnessConstraintSystem wit;
    ASSERT_TRUE(synthesize_circuit(*circuit, wit).ok());
    EXPECT_EQ(wit.inputs(), r.inputs);
    ASSERT_EQ(wit.aux().size(), r.aux.size());
    EXPECT_TRUE(std::equal(r.aux.begin(), r.aux.end(), wit.aux().begin()));
    TestConstraintSystem test = run_test_cs(*circuit);
    EXPECT_EQ(test.inputs(), r.inputs);
    EXPECT_EQ(test.aux(), r.aux);
    // Setup (no values) records the same matrices.
    PostCircuit blank(p.params);
    RecordingConstraintSystem setup;
    ASSERT_TRUE(synthesize_circuit(blank, setup).ok());
    const R1csMatrices m = setup.take().matrices;
    EXPECT_EQ(m.num_inputs, r.matrices.num_inputs);
    EXPECT_EQ(m.num_aux, r.matrices.num_aux);
    EXPECT_TRUE(m == r.matrices);
  }
}

// ---------------------------------------------------------------------------------------------
// Malformed input.

TEST(PostCircuit2KiB, MalformedInputIsRefusedByName) {
  std::mt19937_64 rng(fresh_seed());
  ThreadPool pool(2);
  const std::vector<PostSector> sectors = random_2kib_sectors(2, rng, pool);
  const Partition good =
      window_partition(registered("StackedDrgWindow2KiBV1"), Bytes32{}, sectors, 0);
  auto refused = [](const Partition& p, const std::string& needle) {
    auto c = PostCircuit::create(p.params, p.pub, p.proofs);
    ASSERT_FALSE(c.ok());
    EXPECT_NE(c.status().message().find(needle), std::string::npos) << c.status().to_string();
  };
  {
    Partition p = good;
    p.proofs.pop_back();
    refused(p, "partition 0: 1 sector proofs, the circuit takes 2");
  }
  {
    Partition p = good;
    p.proofs[1].inclusion_proofs.pop_back();
    refused(p, "circuit sector 1 (sector 1001): 9 inclusion proofs, 10 challenges");
  }
  {
    Partition p = good;
    p.proofs[0].inclusion_proofs[4].base_path.pop_back();
    refused(p, "inclusion_proofs[4].path: 1 levels, the tree has 2");
  }
  {
    Partition p = good;
    p.proofs[0].inclusion_proofs[2].base_path[0].hashes.pop_back();
    refused(p, "inclusion_proofs[2].path[0].hashes: 6 siblings");
  }
  {
    Partition p = good;
    p.proofs[1].inclusion_proofs[3].leaf.fill(0xff);
    refused(p, "circuit sector 1 (sector 1001): inclusion_proofs[3].leaf");
  }
  {
    Partition p = good;
    p.proofs[1].inclusion_proofs[3].base_path[1].hashes[2].fill(0xff);
    refused(p, "inclusion_proofs[3] level 1 hash 2");
  }
  {
    Partition p = good;
    p.pub.sectors[0].comm_r.fill(0xff);
    refused(p, "circuit sector 0 (sector 1000): comm_r");
    EXPECT_FALSE(post_public_inputs(p.params, p.pub).ok());
  }
  {
    Partition p = good;
    p.pub.partition = 1;
    refused(p, "partition 1: the PoSt has 2 sectors, 2 per partition");
  }
  // WinningPoSt: 66 inclusion proofs in one SectorProof.
  const PostCircuitParams win = post_circuit_params(registered("StackedDrgWinning2KiBV1")).value();
  FallbackPoStSectorProof fp;
  fp.sector_id = 5;
  fp.sectors.push_back(good.proofs[0]);
  auto w = winning_post_circuit_proofs(win, fp);
  ASSERT_FALSE(w.ok());
  EXPECT_NE(w.status().message().find("sector 5: 10 inclusion proofs, the circuit takes 66"),
            std::string::npos)
      << w.status().to_string();
  fp.sectors.push_back(good.proofs[0]);
  EXPECT_FALSE(winning_post_circuit_proofs(win, fp).ok());
  // A shape without a tree: synthesis fails, it does not crash.
  PostCircuit odd(
      PostCircuitParams{.shape = {8, 0, 0}, .nodes = 100, .challenge_count = 1, .sector_count = 1});
  EXPECT_FALSE(circuit_info(odd).ok());
}

// ---------------------------------------------------------------------------------------------
// Real sectors: venus-2kib (CUZK_FILECOIN_DATA).

struct Venus {
  std::uint64_t sector_id;
  const char* comm_r;  // digest of the CommR CID (shared/filecoin/README.md)
};
constexpr Venus kVenus[] = {
    {0, "6500105a4dd7673f82730262d8dcffe9edccd3cbceac7bd3c943696a09071257"},
    {1, "2f889cb216b14800f68048108b46d2261073ae842074eb66656035421e5ead03"},
};

std::vector<PostSector> venus_sectors(const fs::path& dir, ThreadPool& pool) {
  std::vector<PostSector> out;
  for (const Venus& v : kVenus) {
    const std::string name = "s-t0106-" + std::to_string(v.sector_id);
    auto replica = cuzk::filecoin::read_node_file(dir / "sealed" / name, 64);
    EXPECT_TRUE(replica.ok()) << replica.status().to_string();
    if (!replica.ok()) return {};
    std::vector<Fr> leaves;
    for (const auto& n : *replica) leaves.push_back(cuzk::filecoin::fr_from_node(n).value());
    auto tree = PoseidonTree::build(std::move(leaves), {8, 0, 0}, pool);
    EXPECT_TRUE(tree.ok());
    // p_aux = comm_c ‖ comm_r_last.
    auto p_aux = cuzk::filecoin::read_small_file(dir / "cache" / name / "p_aux");
    EXPECT_TRUE(p_aux.ok() && p_aux->size() == 64);
    if (!p_aux.ok() || p_aux->size() != 64) return {};
    Bytes32 comm_c, comm_r_last;
    std::copy_n(p_aux->begin(), 32, comm_c.begin());
    std::copy_n(p_aux->begin() + 32, 32, comm_r_last.begin());
    EXPECT_EQ(cuzk::filecoin::bytes32_from_fr(tree->root()), comm_r_last);
    out.push_back(post_sector(std::move(*tree), v.sector_id, comm_c,
                              cuzk::filecoin::parse_hex32(v.comm_r, "comm_r").value()));
  }
  return out;
}

TEST(PostCircuitVenus, RealSectorsSatisfyWinningAndWindow) {
  const char* data = std::getenv("CUZK_FILECOIN_DATA");
  if (!data) GTEST_SKIP() << "CUZK_FILECOIN_DATA is unset: the venus 2 KiB sectors are needed";
  ThreadPool pool(2);
  const std::vector<PostSector> sectors = venus_sectors(fs::path(data) / "venus-2kib", pool);
  ASSERT_EQ(sectors.size(), 2u);
  std::mt19937_64 rng(fresh_seed());
  // prover_id of t0106: 0x6a, then zeros (shared/filecoin/README.md).
  Bytes32 prover_id{};
  prover_id[0] = 0x6a;
  const Bytes32 randomness = cuzk::filecoin::bytes32_from_fr(random_fr(rng));
  for (const char* name : {"StackedDrgWindow2KiBV1", "StackedDrgWindow2KiBV1_2"}) {
    SCOPED_TRACE(name);
    const Partition p = window_partition(registered(name), randomness, sectors, 0);
    expect_satisfied(p, 21'866);
    expect_tampering_caught(p);
    // Sector 0 alone, padded to two.
    expect_satisfied(window_partition(registered(name), randomness, {sectors.data(), 1}, 0),
                     21'866);
  }
  const Partition w =
      winning_partition(registered("StackedDrgWinning2KiBV1"), randomness, prover_id, sectors);
  expect_satisfied(w, 90'750);
  expect_tampering_caught(w);
}

}  // namespace
}  // namespace cuzk::circuits::filecoin
