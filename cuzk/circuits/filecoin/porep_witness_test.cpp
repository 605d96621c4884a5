// The PoRep partition witness by every path, on whole partitions:
//   reference  the recording system with values (the generic gadget code, bellperson's order)
//   slow       WitnessConstraintSystem with the fast paths off
//   fast       WitnessConstraintSystem with the fast paths on (native SHA-256, Poseidon, bits)
//   parallel   porep_partition_witness on pools of 1, 2 and 3 threads, fast paths on and off
// all giving the same z = (inputs ‖ aux), value for value, and the same counts; the layout
// (counted from the blank circuit) against the recorded counts. On a 2 KiB sector sealed in the
// test (seeded), on the real venus 2 KiB sector 0 (CUZK_FILECOIN_DATA; skipped when unset), and on
// an 8 MiB C1 from the data side's generator (synth_inputs.hpp). Errors: a malformed vanilla proof
// gives PorepCircuit::synthesize's error. The 32 GiB partition: circuits_porep_witness_slow_test.
#include "cuzk/circuits/filecoin/porep_witness.hpp"

#include <gtest/gtest.h>

#include "cuzk/circuits/filecoin/porep_circuit_test_util.hpp"
#include "cuzk/filecoin/synth_inputs.hpp"
#include "cuzk/r1cs/recording_cs.hpp"
#include "cuzk/r1cs/witness_cs.hpp"
#include "tests/support/filecoin_data.hpp"
#include "tests/support/seed.hpp"

namespace cuzk::circuits::filecoin {
namespace {

namespace fc = cuzk::filecoin;

std::vector<Fr> sequential(const PorepCircuitShape& shape, const PorepCircuitPublic& pub,
                           const PorepCircuitPrivate& priv, bool fast, std::size_t* constraints) {
  PorepCircuit circuit(shape, pub, priv);
  WitnessConstraintSystem cs({.fast_paths = fast});
  const Status st = synthesize_circuit(circuit, cs);
  EXPECT_TRUE(st.ok()) << st.to_string();
  *constraints = cs.num_constraints();
  return cs.take_assignment();
}

// Every path on partition |k| of |c1| against the recording system.
void expect_all_paths_agree(const fc::SealProof& proof, const fc::SealCommitPhase1Output& c1,
                            unsigned k) {
  const PorepCircuitShape shape = porep_circuit_shape(proof);
  auto part = porep_partition_from_c1(proof, c1, k);
  ASSERT_TRUE(part.ok()) << part.status().to_string();
  const PorepCircuitPublic& pub = part->pub;
  const PorepCircuitPrivate& priv = part->priv;

  PorepCircuit circuit(shape, pub, priv);
  RecordingConstraintSystem rcs({.with_values = true, .record_matrices = false});
  ASSERT_TRUE(synthesize_circuit(circuit, rcs).ok());
  std::vector<Fr> want = rcs.recording().inputs;
  want.insert(want.end(), rcs.recording().aux.begin(), rcs.recording().aux.end());

  auto layout = porep_witness_layout(shape);
  ASSERT_TRUE(layout.ok()) << layout.status().to_string();
  EXPECT_EQ(layout->num_inputs, rcs.num_inputs());
  EXPECT_EQ(layout->num_aux, rcs.num_aux());
  EXPECT_EQ(layout->num_constraints, rcs.num_constraints());

  for (bool fast : {false, true}) {
    SCOPED_TRACE(fast ? "fast paths" : "generic paths");
    std::size_t constraints = 0;
    EXPECT_EQ(sequential(shape, pub, priv, fast, &constraints), want);
    EXPECT_EQ(constraints, rcs.num_constraints());
    for (std::size_t threads : {1, 2, 3}) {
      ThreadPool pool(threads);
      auto z = porep_partition_witness(shape, pub, priv, pool, {.fast_paths = fast});
      ASSERT_TRUE(z.ok()) << z.status().to_string();
      EXPECT_EQ(*z, want) << threads << " threads";
      // Reusing the previous result's buffer (dirty) gives the same z.
      auto again =
          porep_partition_witness(shape, pub, priv, pool, {.fast_paths = fast}, std::move(*z));
      ASSERT_TRUE(again.ok());
      EXPECT_EQ(*again, want) << threads << " threads, reused buffer";
    }
  }
}

TEST(PorepWitness, SealedSectorAllPathsAgree) {
  const std::uint64_t seed = cuzk::test::fresh_seed();
  std::mt19937_64 rng(seed);
  ThreadPool pool(2);
  const fc::SealProof proof = fc::seal_proof("StackedDrg2KiBV1_1").value();
  auto sector = testing::seal_random_sector(proof, rng, pool);
  ASSERT_TRUE(sector.ok()) << sector.status().to_string();
  auto c1 = fc::build_commit1(*sector, testing::random_node(rng), pool);
  ASSERT_TRUE(c1.ok()) << c1.status().to_string();
  expect_all_paths_agree(proof, *c1, 0);
}

TEST(PorepWitness, VenusSectorAllPathsAgree) {
  CUZK_REQUIRE_FILECOIN_DATA();
  const std::uint64_t seed = cuzk::test::fresh_seed();
  std::mt19937_64 rng(seed);
  ThreadPool pool(2);
  // $CUZK_FILECOIN_DATA/README.md: venus genesis sector 0 (Fr little-endian hex).
  const fc::Node comm_d =
      fc::parse_hex32("2d8cd21509618ffea50330291ea4a23523e1e3a5f74ceed0dd66bd327bf51a21", "comm_d")
          .value();
  auto sector =
      testing::venus_sector(*cuzk::test::filecoin_data_dir() / "venus-2kib", 0, comm_d, pool);
  ASSERT_TRUE(sector.ok()) << sector.status().to_string();
  EXPECT_EQ(fc::to_hex(sector->info.comm_r),
            "6500105a4dd7673f82730262d8dcffe9edccd3cbceac7bd3c943696a09071257");
  auto c1 = fc::build_commit1(*sector, testing::random_node(rng), pool);
  ASSERT_TRUE(c1.ok()) << c1.status().to_string();
  expect_all_paths_agree(fc::seal_proof("StackedDrg2KiBV1").value(), *c1, 0);
}

TEST(PorepWitness, GeneratedC1AllPathsAgree) {
  const std::uint64_t seed = cuzk::test::fresh_seed();
  ThreadPool pool(2);
  const fc::SealProof proof = fc::seal_proof("StackedDrg8MiBV1_1").value();
  auto synth = fc::synth_c1(proof, seed, pool);
  ASSERT_TRUE(synth.ok()) << synth.status().to_string();
  expect_all_paths_agree(proof, synth->c1, 0);
}

TEST(PorepWitness, MalformedProofGivesTheCircuitsError) {
  const std::uint64_t seed = cuzk::test::fresh_seed();
  ThreadPool pool(2);
  const fc::SealProof proof = fc::seal_proof("StackedDrg2KiBV1_1").value();
  auto synth = fc::synth_c1(proof, seed, pool);
  ASSERT_TRUE(synth.ok()) << synth.status().to_string();
  fc::SealCommitPhase1Output c1 = synth->c1;
  c1.vanilla_proofs[0][1].replica_column_proofs.drg_parents[2].column.rows.pop_back();
  const PorepCircuitShape shape = porep_circuit_shape(proof);
  auto part = porep_partition_from_c1(proof, c1, 0);
  ASSERT_TRUE(part.ok()) << part.status().to_string();
  const PorepCircuitPublic& pub = part->pub;
  const PorepCircuitPrivate& priv = part->priv;
  PorepCircuit circuit(shape, pub, priv);
  WitnessConstraintSystem cs;
  const Status want = synthesize_circuit(circuit, cs);
  ASSERT_FALSE(want.ok());
  auto z = porep_partition_witness(shape, pub, priv, pool);
  ASSERT_FALSE(z.ok());
  EXPECT_EQ(z.status().to_string(), want.to_string());
  EXPECT_NE(want.to_string().find("drg_parents[2].column.rows"), std::string::npos)
      << want.to_string();
}

}  // namespace
}  // namespace cuzk::circuits::filecoin
