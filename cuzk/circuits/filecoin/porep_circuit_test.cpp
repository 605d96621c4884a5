// The PoRep circuit (StackedCircuit) of one partition:
//   * counts from circuit_info at 2 KiB / 8 MiB / 512 MiB against FORMATS.md §3.6 (2,687,921 /
//     3,844,929 / 4,423,433 constraints, 39 public inputs + ONE): figures marked [D] there, a
//     count model that reproduces upstream's own test figures (it is not an upstream run);
//   * upstream's stacked circuit tests (storage-proofs-porep/tests/stacked_circuit.rs: 2 layers,
//     1 challenge, 8 · base-tree-count nodes, trees 2-0-0 / 8-0-0 / 8-4-0 / 8-4-2): 1,206,212 /
//     1,199,620 / 1,296,576 / 1,346,982 constraints and 22 inputs (ONE included), exactly;
//   * every registered proof of a size has one circuit shape (API versions and schemes differ
//     only in where the challenges come from);
//   * a 2 KiB sector sealed in the test (seeded) and, with CUZK_FILECOIN_DATA, the real venus
//     2 KiB sectors: C1 for a random seed, the circuit with TestConstraintSystem is satisfied,
//     its counts equal circuit_info's, its inputs equal porep_circuit_public_inputs and the data
//     side's porep_partition_public_inputs; witness-only synthesis and recording with values give
//     the same assignment; a tampered parent label, path element or public input leaves it
//     unsatisfied at the named constraint; malformed vanilla proofs are errors naming the field;
//   * the gadgets' native twins against the data side's labels and column hashes.
#include "cuzk/circuits/filecoin/porep_circuit.hpp"

#include <gtest/gtest.h>

#include <time.h>

#include <chrono>
#include <cstdio>

#include "cuzk/circuits/filecoin/circuit_info.hpp"
#include "cuzk/circuits/filecoin/porep_circuit_test_util.hpp"
#include "cuzk/filecoin/porep_public_inputs.hpp"
#include "cuzk/filecoin/sdr_hashes.hpp"
#include "cuzk/filecoin/sdr_labels.hpp"
#include "cuzk/r1cs/gadgets/column_hash.hpp"
#include "cuzk/r1cs/gadgets/create_label.hpp"
#include "cuzk/r1cs/gadgets/reverse_bit_numbering.hpp"
#include "cuzk/r1cs/recording_cs.hpp"
#include "cuzk/r1cs/test_cs.hpp"
#include "cuzk/r1cs/witness_cs.hpp"
#include "tests/support/filecoin_data.hpp"
#include "tests/support/seed.hpp"

namespace cuzk::circuits::filecoin {
namespace {

namespace fs = std::filesystem;
namespace fc = cuzk::filecoin;
using Clock = std::chrono::steady_clock;

double since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// CPU seconds of the calling thread (synthesis is single-threaded; the dev VM is shared, so wall
// time overstates it).
double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

CircuitInfo info_of(const PorepCircuitShape& shape) {
  PorepCircuit circuit(shape);
  auto info = circuit_info(circuit);
  EXPECT_TRUE(info.ok()) << info.status().to_string();
  return info.ok() ? *info : CircuitInfo{};
}

TEST(PorepCircuit, TestSizeCounts) {
  struct Want {
    const char* proof;
    std::uint64_t constraints;
  };
  // FORMATS.md §3.6 [D]: the count model that reproduces upstream's test circuits and the 32 GiB
  // circuitinfo total.
  // 8 MiB and 512 MiB: porep_circuit_slow_test.
  for (const Want& w : {Want{"StackedDrg2KiBV1_1", 2'687'921}}) {
    SCOPED_TRACE(w.proof);
    const auto t = Clock::now();
    const CircuitInfo info = info_of(porep_circuit_shape(fc::seal_proof(w.proof).value()));
    EXPECT_EQ(info.constraints, w.constraints);
    EXPECT_EQ(info.public_inputs, 39u);  // 40 with ONE
    std::printf("%s: %llu constraints, %llu aux, counted in %.2f s\n", w.proof,
                static_cast<unsigned long long>(info.constraints),
                static_cast<unsigned long long>(info.aux), since(t));
  }
}

TEST(PorepCircuit, UpstreamStackedCircuitTests) {
  // storage-proofs-porep/tests/stacked_circuit.rs: nodes = 8 · base trees, 2 layers, one
  // challenge; MetricCS / TestConstraintSystem counts (ONE included in the inputs).
  struct Case {
    fc::TreeShape tree;
    std::uint64_t nodes;
    std::uint64_t constraints;
  };
  for (const Case& c : {Case{{2, 0, 0}, 8, 1'206'212}, Case{{8, 0, 0}, 8, 1'199'620},
                        Case{{8, 4, 0}, 32, 1'296'576}, Case{{8, 4, 2}, 64, 1'346'982}}) {
    SCOPED_TRACE(c.tree.name());
    const CircuitInfo info =
        info_of({.nodes = c.nodes, .layers = 2, .tree = c.tree, .challenges = 1});
    EXPECT_EQ(info.constraints, c.constraints);
    EXPECT_EQ(info.public_inputs + 1, 22u);
  }
}

TEST(PorepCircuit, OneShapePerSectorSize) {
  for (const fc::SectorSize size : fc::kSectorSizes) {
    std::optional<PorepCircuitShape> first;
    for (const fc::SealProof& p : fc::seal_proofs()) {
      if (p.size != size) continue;
      const PorepCircuitShape s = porep_circuit_shape(p);
      if (!first) {
        first = s;
        continue;
      }
      EXPECT_EQ(s.nodes, first->nodes) << p.name;
      EXPECT_EQ(s.layers, first->layers) << p.name;
      EXPECT_EQ(s.tree.name(), first->tree.name()) << p.name;
      EXPECT_EQ(s.challenges, first->challenges) << p.name;
    }
    ASSERT_TRUE(first.has_value());
    const bool big = size == fc::SectorSize::s32GiB || size == fc::SectorSize::s64GiB;
    EXPECT_EQ(first->challenges, big ? 18u : 2u);
    EXPECT_EQ(first->layers, big ? 11u : 2u);
  }
}

// The gadgets' native twins against the data side: create_label_native against every label of
// seeded random SDR layers (sdr_labels.hpp, 11 layers over a 64-node graph), the create_label
// gadget on a few nodes, and the column hash (native twin and gadget) against
// filecoin::column_hash (sdr_hashes.hpp).
TEST(PorepGadgets, NativeTwinsMatchTheDataSide) {
  const std::uint64_t seed = cuzk::test::fresh_seed();
  std::mt19937_64 rng(seed);
  ThreadPool pool(2);
  const fc::SdrGraph graph(64, fc::porep_id_of(5), fc::ApiVersion::v1_1_0);
  const fc::Node replica_id = [&] {
    fc::Node n = testing::random_node(rng);
    fc::truncate_to_fr254(n);
    return n;
  }();
  const auto layers = fc::sdr_labels(graph, replica_id, 11, pool);
  std::array<std::uint32_t, fc::SdrGraph::kDegree> p;
  std::size_t gadget_checks = 0;
  for (unsigned layer = 1; layer <= 11; ++layer) {
    for (std::uint64_t v = 1; v < graph.nodes(); ++v) {
      graph.parents(v, p);
      std::vector<fc::Node> distinct;
      for (unsigned j = 0; j < fc::SdrGraph::kBaseDegree; ++j)
        distinct.push_back(layers[layer - 1][p[j]]);
      if (layer > 1)
        for (unsigned j = fc::SdrGraph::kBaseDegree; j < fc::SdrGraph::kDegree; ++j)
          distinct.push_back(layers[layer - 2][p[j]]);
      std::vector<std::array<std::uint8_t, 32>> parents;
      while (parents.size() < kLabelParents)
        parents.push_back(distinct[parents.size() % distinct.size()]);
      const auto native = create_label_native(replica_id, layer, v, parents);
      ASSERT_EQ(native, layers[layer - 1][v])
          << "layer " << layer << " node " << v << " seed=" << seed;
      if ((v == 5 && layer == 1) || (v == 63 && layer == 7)) {
        // The gadget on the same inputs (parents and replica id as field elements' bits).
        TestConstraintSystem cs;
        std::vector<std::vector<Boolean>> bits;
        auto to_bits = [&](const fc::Node& n) {
          const AllocatedNum x = *AllocatedNum::alloc(cs, *fc::fr_from_node(n));
          return reverse_bit_numbering(*x.to_bits_le(cs));
        };
        for (const auto& q : parents) bits.push_back(to_bits(q));
        const std::vector<Boolean> id = to_bits(replica_id);
        const UInt64 node = *UInt64::alloc(cs, v);
        auto label = create_label_circuit(cs, id, bits, UInt32::constant(layer), node);
        ASSERT_TRUE(label.ok());
        EXPECT_TRUE(cs.is_satisfied());
        EXPECT_EQ(fc::node_from_fr(*label->value()), layers[layer - 1][v]) << "seed=" << seed;
        ++gadget_checks;
      }
    }
  }
  EXPECT_EQ(gadget_checks, 2u);

  for (const unsigned rows : {2u, 11u}) {
    for (int iter = 0; iter < 10; ++iter) {
      std::vector<Fr> vals;
      for (unsigned r = 0; r < rows; ++r) vals.push_back(cuzk::test::random_fr(rng));
      const Fr want = fc::column_hash(vals);
      EXPECT_EQ(*hash_single_column_native(vals), want) << "seed=" << seed;
      if (iter == 0) {
        TestConstraintSystem cs;
        std::vector<AllocatedNum> nums;
        for (const Fr& x : vals) nums.push_back(*AllocatedNum::alloc(cs, x));
        auto h = hash_single_column(cs, nums);
        ASSERT_TRUE(h.ok());
        EXPECT_EQ(*h->value(), want) << "seed=" << seed;
        EXPECT_TRUE(cs.is_satisfied());
      }
    }
  }
  // comm_r = H(comm_c, comm_r_last) is the L = 2 column hash (the circuit's hash2).
  const Fr a = cuzk::test::random_fr(rng), b = cuzk::test::random_fr(rng);
  const Fr ab[2] = {a, b};
  EXPECT_EQ(fc::comm_r_of(a, b), *hash_single_column_native(ab));
}

// A 2 KiB sector sealed in the test (seeded) and its C1 for a random seed, shared by the tests.
class PorepCircuitSealed : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    seed_ = cuzk::test::fresh_seed();
    std::mt19937_64 rng(seed_);
    ThreadPool pool(2);
    proof_ = fc::seal_proof("StackedDrg2KiBV1_1").value();
    auto sector = testing::seal_random_sector(proof_, rng, pool);
    ASSERT_TRUE(sector.ok()) << sector.status().to_string();
    auto c1 = fc::build_commit1(*sector, testing::random_node(rng), pool);
    ASSERT_TRUE(c1.ok()) << c1.status().to_string();
    c1_ = std::move(*c1);
  }
  void SetUp() override { RecordProperty("seed", std::to_string(seed_)); }

  // The status of synthesizing partition 0 of |c1| with values (for malformed inputs).
  static Status synthesize_status(const fc::SealCommitPhase1Output& c1) {
    auto part = porep_partition_from_c1(proof_, c1, 0);
    if (!part) return part.status();
    const PorepCircuitPublic& pub = part->pub;
    const PorepCircuitPrivate& priv = part->priv;
    PorepCircuit circuit(porep_circuit_shape(proof_), pub, priv);
    WitnessConstraintSystem cs;
    return synthesize_circuit(circuit, cs);
  }

  static inline std::uint64_t seed_ = 0;
  static inline fc::SealProof proof_;
  static inline fc::SealCommitPhase1Output c1_;
};

// Satisfied without names (the named checks are in porep_circuit_slow_test): a = A·z, b = B·z,
// c = C·z from recording with values, a·b = c on every row; the same assignment from witness-only
// synthesis; counts equal circuit_info's; inputs equal those from public data and the data side's.
TEST_F(PorepCircuitSealed, SatisfiedWithMatchingInputsAndAssignments) {
  const PorepCircuitShape shape = porep_circuit_shape(proof_);
  auto part = porep_partition_from_c1(proof_, c1_, 0);
  ASSERT_TRUE(part.ok()) << part.status().to_string();
  const PorepCircuitPublic& pub = part->pub;
  const PorepCircuitPrivate& priv = part->priv;
  PorepCircuit circuit(shape, pub, priv);

  RecordingConstraintSystem rcs(
      {.with_values = true, .record_matrices = false, .evaluate_abc = true});
  ASSERT_TRUE(synthesize_circuit(circuit, rcs).ok());
  const Recording& rec = rcs.recording();
  std::size_t bad = 0;
  for (; bad < rec.a.size(); ++bad)
    if (rec.a[bad] * rec.b[bad] != rec.c[bad]) break;
  EXPECT_EQ(bad, rec.a.size()) << "row " << bad << " unsatisfied; seed=" << seed_;

  const CircuitInfo info = info_of(shape);
  EXPECT_EQ(rec.a.size(), info.constraints + info.public_inputs + 1);  // + input constraints
  EXPECT_EQ(rec.inputs.size(), info.public_inputs + 1);
  EXPECT_EQ(rec.aux.size(), info.aux);

  auto want = porep_circuit_public_inputs(proof_, pub);
  ASSERT_TRUE(want.ok()) << want.status().to_string();
  EXPECT_EQ(std::vector<Fr>(rec.inputs.begin() + 1, rec.inputs.end()), *want);
  auto data_side = fc::porep_partition_public_inputs(proof_, c1_.replica_id, c1_.comm_d, c1_.comm_r,
                                                     c1_.seed, 0);
  ASSERT_TRUE(data_side.ok());
  EXPECT_EQ(*data_side, *want);

  const auto t = Clock::now();
  const double cpu = thread_cpu_seconds();
  WitnessConstraintSystem wcs;
  ASSERT_TRUE(synthesize_circuit(circuit, wcs).ok());
  std::printf("2 KiB partition: witness-only synthesis %.3f s (%.3f s CPU)\n", since(t),
              thread_cpu_seconds() - cpu);
  EXPECT_EQ(wcs.inputs(), rec.inputs);
  EXPECT_TRUE(std::equal(wcs.aux().begin(), wcs.aux().end(), rec.aux.begin(), rec.aux.end()));
  EXPECT_EQ(wcs.num_constraints(), rec.a.size());
}

#define EXPECT_ERROR_NAMING(status, needle)                                                     \
  do {                                                                                          \
    const Status s_ = (status);                                                                 \
    EXPECT_FALSE(s_.ok()) << "accepted";                                                        \
    EXPECT_NE(s_.to_string().find(needle), std::string::npos) << "message: " << s_.to_string(); \
  } while (0)

TEST_F(PorepCircuitSealed, MalformedVanillaProofsAreErrors) {
  auto c = c1_;
  c.vanilla_proofs[0].pop_back();
  EXPECT_ERROR_NAMING(synthesize_status(c), "1 vanilla proofs, the circuit has 2");

  c = c1_;
  c.vanilla_proofs[0][1].comm_r_last_proof.base_path.pop_back();
  EXPECT_ERROR_NAMING(synthesize_status(c), "partition 0, challenge 1");
  EXPECT_ERROR_NAMING(synthesize_status(c), "comm_r_last_proof.path: 1 levels, the tree has 2");

  c = c1_;
  c.vanilla_proofs[0][0].comm_d_proofs.base_path[2].hashes.push_back({});
  EXPECT_ERROR_NAMING(synthesize_status(c), "comm_d_proofs.path[2].hashes");

  c = c1_;
  c.vanilla_proofs[0][0].replica_column_proofs.exp_parents.pop_back();
  EXPECT_ERROR_NAMING(synthesize_status(c), "7 exp_parents");

  c = c1_;
  c.vanilla_proofs[0][1].replica_column_proofs.drg_parents[3].column.rows.pop_back();
  EXPECT_ERROR_NAMING(synthesize_status(c), "drg_parents[3].column.rows: 1 rows");

  c = c1_;
  c.vanilla_proofs[0][1].replica_column_proofs.drg_parents[4].column.rows[1].fill(0xff);
  EXPECT_ERROR_NAMING(synthesize_status(c), "drg_parents[4].column.rows[1]");

  c = c1_;
  c.vanilla_proofs[0][0].comm_r_last_proof.base_path[0].hashes[5].fill(0xff);
  EXPECT_ERROR_NAMING(synthesize_status(c), "comm_r_last_proof.path[0].hashes[5]");

  c = c1_;
  c.vanilla_proofs[0][0].labeling_proofs[0].node ^= 1;
  EXPECT_ERROR_NAMING(synthesize_status(c), "labeling_proofs[0].node");

  c = c1_;
  c.vanilla_proofs[0][1].replica_column_proofs.c_x.inclusion_proof.root[0] ^= 1;
  EXPECT_ERROR_NAMING(synthesize_status(c), "inconsistent comm_c");
  c = c1_;
  c.vanilla_proofs[0][1].comm_r_last_proof.root[0] ^= 1;
  EXPECT_ERROR_NAMING(synthesize_status(c), "inconsistent comm_r_last");

  EXPECT_ERROR_NAMING(porep_circuit_private(c1_, 1).status(), "partition 1: the C1 output has 1");
  EXPECT_ERROR_NAMING(porep_partition_from_c1(proof_, c1_, 1).status(), "partition 1");

  // Public data that cannot be: a challenge outside the sector, replica_id not below r.
  auto part = porep_partition_from_c1(proof_, c1_, 0);
  ASSERT_TRUE(part.ok());
  part->pub.challenges[1] = 64;
  EXPECT_ERROR_NAMING(porep_circuit_public_inputs(proof_, part->pub).status(),
                      "challenge 1: node 64 is outside 1..63");
  c = c1_;
  c.replica_id.fill(0xff);
  EXPECT_ERROR_NAMING(porep_partition_from_c1(proof_, c, 0).status(), "replica_id");

  // Shapes the circuit cannot have.
  for (const PorepCircuitShape& bad :
       {PorepCircuitShape{.nodes = 48, .layers = 2, .tree = {8, 0, 0}, .challenges = 1},
        PorepCircuitShape{.nodes = 64, .layers = 3, .tree = {8, 0, 0}, .challenges = 1},
        PorepCircuitShape{.nodes = 64, .layers = 2, .tree = {8, 0, 0}, .challenges = 0},
        PorepCircuitShape{.nodes = 128, .layers = 2, .tree = {8, 0, 0}, .challenges = 1}}) {
    PorepCircuit circuit(bad);
    EXPECT_FALSE(circuit_info(circuit).ok()) << bad.nodes << " nodes, " << bad.layers << " layers";
  }
}

}  // namespace
}  // namespace cuzk::circuits::filecoin
