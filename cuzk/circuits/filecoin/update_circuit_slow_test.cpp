// EmptySectorUpdate, the slow cases (label slow):
//   * storage-proofs-update tests/circuit.rs reproduced for every test size: a random update of
//     1 KiB … 32 KiB (tree_r shapes 8-4-0, 8-0-0, 8-2-0, 8-4-0, 8-8-0, 8-8-2), every partition
//     satisfied (TestConstraintSystem), inputs = update_public_inputs, and the pinned counts
//     1,248,389 / 1,705,039 / 2,165,109 / 2,620,359 / 6,300,021 / 6,760,091;
//   * production sizes counted without values (circuit_info): 32 GiB 81,049,499 (upstream
//     test_empty_sector_update_constraints_32gib, BenchCS), and FORMATS.md §4.2's derived model
//     [D] for 8 MiB 10,007,503, 512 MiB 57,450,479 and 64 GiB 85,006,101;
//   * an 8 MiB update made in-test by the data side (snap_encode over a random sector key, then
//     snap_partition_proof): partitions 0 and 3 satisfied, the witness-only and recording
//     systems agreeing on partition 3, partition 1's proof refused as partition 2's, and
//     another h in k_and_h_select refused at the first challenge's tree_r_new PoR.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>

#include "cuzk/circuits/filecoin/circuit_info.hpp"
#include "cuzk/circuits/filecoin/update_circuit.hpp"
#include "cuzk/circuits/filecoin/update_test_util.hpp"
#include "cuzk/filecoin/snap_verify.hpp"
#include "tests/support/seed.hpp"

namespace cuzk::circuits::filecoin {
namespace {

namespace fc = cuzk::filecoin;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

TEST(UpdateCircuitSlow, UpstreamTestSizesSatisfiedWithPinnedCounts) {
  const std::uint64_t seed = cuzk::test::fresh_seed();
  std::mt19937_64 rng(seed);
  ThreadPool pool(2);
  struct Case {
    unsigned log_nodes;
    std::size_t constraints;  // tests/circuit.rs test_empty_sector_update_circuit_*
  };
  for (const Case& c : {Case{5, 1'248'389}, Case{6, 1'705'039}, Case{7, 2'165'109},
                        Case{8, 2'620'359}, Case{9, 6'300'021}, Case{10, 6'760'091}}) {
    const std::uint64_t nodes = std::uint64_t{1} << c.log_nodes;
    SCOPED_TRACE(std::to_string(nodes) + " nodes, seed " + std::to_string(seed));
    const testing::Update u = testing::random_update(nodes, rng, pool);
    UpdateCircuit blank(UpdatePublic{.nodes = nodes, .k = 0, .h = u.h});
    const CircuitInfo info = circuit_info(blank).value();
    EXPECT_EQ(info.constraints, c.constraints);
    EXPECT_EQ(info.public_inputs, 4u);
    for (unsigned k = 0; k < u.params.partitions; ++k) {
      const auto t0 = Clock::now();
      const UpdatePublic pub = u.pub(k);
      UpdateCircuit circuit(pub, &u.proofs[k]);
      TestConstraintSystem cs;
      const Status s = circuit.synthesize(cs);
      ASSERT_TRUE(s.ok()) << s.to_string();
      EXPECT_TRUE(cs.is_satisfied()) << "k " << k << ": " << *cs.which_unsatisfied();
      EXPECT_EQ(cs.num_constraints(), c.constraints);
      const std::vector<Fr> inputs = update_public_inputs(pub).value();
      ASSERT_EQ(cs.inputs().size(), 5u);
      for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(cs.inputs()[i + 1], inputs[i]);
      std::printf("2^%u nodes partition %u: satisfied, %zu constraints, %.1f s\n", c.log_nodes, k,
                  cs.num_constraints(), seconds_since(t0));
    }
  }
}

TEST(UpdateCircuitSlow, ProductionSizeCounts) {
  struct Case {
    SectorSize size;
    std::uint64_t constraints;
    const char* source;
  };
  for (const Case& c : {Case{SectorSize::s8MiB, 10'007'503, "FORMATS.md §4.2 model [D]"},
                        Case{SectorSize::s512MiB, 57'450'479, "FORMATS.md §4.2 model [D]"},
                        Case{SectorSize::s32GiB, 81'049'499, "upstream BenchCS"},
                        Case{SectorSize::s64GiB, 85'006'101, "FORMATS.md §4.2 model [D]"}}) {
    SCOPED_TRACE(std::string(fc::sector_size_name(c.size)) + ": " + c.source);
    const auto t0 = Clock::now();
    const fc::SnapParams p = fc::snap_params(c.size);
    UpdateCircuit blank(UpdatePublic{.nodes = p.nodes, .k = 0, .h = p.h_default});
    const CircuitInfo info = circuit_info(blank).value();
    EXPECT_EQ(info.constraints, c.constraints);
    EXPECT_EQ(info.public_inputs, 4u);
    std::printf("%s: %llu constraints, %llu aux, nnz A/B/C %llu/%llu/%llu, counted in %.1f s\n",
                std::string(fc::sector_size_name(c.size)).c_str(),
                static_cast<unsigned long long>(info.constraints),
                static_cast<unsigned long long>(info.aux),
                static_cast<unsigned long long>(info.nnz_a),
                static_cast<unsigned long long>(info.nnz_b),
                static_cast<unsigned long long>(info.nnz_c), seconds_since(t0));
  }
}

TEST(UpdateCircuitSlow, EightMiBUpdateMadeInTest) {
  const std::uint64_t seed = cuzk::test::fresh_seed();
  std::mt19937_64 rng(seed);
  ThreadPool pool(2);
  const auto t0 = Clock::now();
  const fc::SnapParams p = fc::snap_params(SectorSize::s8MiB);
  // A random sector key (the circuit sees only its tree_r_last and comm_c) and random data.
  std::vector<fc::Node> key(p.nodes), data(p.nodes);
  std::vector<Fr> key_fr(p.nodes);
  for (std::uint64_t i = 0; i < p.nodes; ++i) {
    key[i] = testing::random_fr32(rng);
    key_fr[i] = fc::fr_from_node(key[i]).value();
    data[i] = testing::random_fr32(rng);
  }
  const fc::Node comm_c = testing::random_fr32(rng);
  const auto tree_r_old =
      fc::PoseidonTree::build(key_fr, fc::tree_shape(SectorSize::s8MiB), pool).value();
  const fc::SnapSectorKey sector_key{SectorSize::s8MiB, comm_c, fc::node_from_fr(tree_r_old.root()),
                                     key};
  const fc::SnapEncoded enc = fc::snap_encode(sector_key, data, p.h_default, pool).value();
  const fc::SnapTrees trees{&tree_r_old, enc.tree_d, &enc.tree_r, comm_c};
  const testing::Update u =
      testing::prove_all(p, p.h_default, trees, enc.comm_r_old, enc.comm_d_new);
  ASSERT_EQ(u.comm_r_new, enc.comm_r_new);
  const fc::UpdateProof proof = fc::update_proof("StackedDrg8MiBV1").value();
  const fc::SnapPublic spub{u.comm_r_old, u.comm_d_new, u.comm_r_new, u.h};
  ASSERT_TRUE(fc::verify_snap_vanilla(proof, spub, u.proofs).ok());
  std::printf("8 MiB: update and 4 partition proofs in %.1f s (seed %llu)\n", seconds_since(t0),
              static_cast<unsigned long long>(seed));
  for (unsigned k : {0u, 3u}) {
    const auto t1 = Clock::now();
    const UpdatePublic pub = u.pub(k);
    UpdateCircuit circuit(pub, &u.proofs[k]);
    TestConstraintSystem cs;
    const Status s = circuit.synthesize(cs);
    ASSERT_TRUE(s.ok()) << s.to_string();
    EXPECT_TRUE(cs.is_satisfied()) << "k " << k << ": " << *cs.which_unsatisfied();
    EXPECT_EQ(cs.num_constraints(), 10'007'503u);
    const std::vector<Fr> inputs = update_public_inputs(pub).value();
    for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(cs.inputs()[i + 1], inputs[i]);
    // h = 10 = hs[3]: h_select = 8 above the 2 partition bits.
    EXPECT_EQ(inputs[0], Fr::from_u64(k | (8u << 2)));
    std::printf("8 MiB partition %u: satisfied in %.1f s\n", k, seconds_since(t1));
  }
  {
    const auto t2 = Clock::now();
    UpdateCircuit circuit(u.pub(3), &u.proofs[3]);
    testing::expect_same_assignment(circuit, update_public_inputs(u.pub(3)).value());
    std::printf("8 MiB partition 3: witness-only vs recording in %.1f s\n", seconds_since(t2));
  }
  const auto wrong = testing::first_failure(u.pub(2), u.proofs[1]);
  ASSERT_TRUE(wrong.has_value());
  std::printf("partition 1's proof as partition 2's: %s\n", wrong->c_str());
  // Another h in k_and_h_select (h = 11, not the encoding's 10): rho changes, so the new label
  // of the first challenge fails tree_r_new's PoR.
  UpdatePublic other_h = u.pub(3);
  other_h.h = 11;
  EXPECT_EQ(update_public_inputs(other_h).value()[0], Fr::from_u64(3 | (16u << 2)));
  EXPECT_EQ(testing::first_failure(other_h, u.proofs[3]).value_or("(satisfied)"),
            "por tree_r_new (c_index=0)/calculated root == provided root");
}

}  // namespace
}  // namespace cuzk::circuits::filecoin
