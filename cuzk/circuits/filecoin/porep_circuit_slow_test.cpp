// The PoRep circuit, slow cases (label slow):
//   * counts at 8 MiB / 512 MiB (FORMATS.md §3.6 [D]: 3,844,929 / 4,423,433 constraints, a count
//     model that reproduces upstream's test circuits), 32 GiB against Curio's measurement of
//     bellperson's circuit (130,278,541 constraints, 327 public inputs, 130,169,893 aux, nnz and
//     densities; the nnz include bellperson's input constraints input_i · 0 = 0, one A term each)
//     and 64 GiB (131,185,849 [D]);
//   * the real venus 2 KiB sectors (CUZK_FILECOIN_DATA): C1 for a random seed, the circuit with
//     TestConstraintSystem satisfied, counts, inputs and assignments as in porep_circuit_test;
//   * tampering (a parent's label, a path element, public inputs) on a sector sealed in the test:
//     unsatisfied at the named constraint;
//   * every registered 2 KiB proof (API versions, schemes; the last partition): satisfied;
//   * an 8 MiB sector sealed in the test: satisfied.
#include <gtest/gtest.h>

#include <time.h>

#include <chrono>
#include <cstdio>
#include <functional>

#include "cuzk/circuits/filecoin/circuit_info.hpp"
#include "cuzk/circuits/filecoin/porep_circuit.hpp"
#include "cuzk/circuits/filecoin/porep_circuit_test_util.hpp"
#include "cuzk/filecoin/porep_public_inputs.hpp"
#include "cuzk/filecoin/porep_verify.hpp"
#include "cuzk/r1cs/recording_cs.hpp"
#include "cuzk/r1cs/test_cs.hpp"
#include "cuzk/r1cs/witness_cs.hpp"
#include "tests/support/filecoin_data.hpp"
#include "tests/support/seed.hpp"

namespace cuzk::circuits::filecoin {
namespace {

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

CircuitInfo info_of(const char* proof_name) {
  const auto t = Clock::now();
  PorepCircuit circuit(porep_circuit_shape(fc::seal_proof(proof_name).value()));
  auto info = circuit_info(circuit);
  EXPECT_TRUE(info.ok()) << info.status().to_string();
  std::printf("%s: counted in %.1f s\n", proof_name, since(t));
  return info.ok() ? *info : CircuitInfo{};
}

TEST(PorepCircuitSlow, TestSizeCounts) {
  const CircuitInfo m8 = info_of("StackedDrg8MiBV1_1");
  EXPECT_EQ(m8.constraints, 3'844'929u);
  EXPECT_EQ(m8.public_inputs, 39u);
  const CircuitInfo m512 = info_of("StackedDrg512MiBV1_1");
  EXPECT_EQ(m512.constraints, 4'423'433u);
  EXPECT_EQ(m512.public_inputs, 39u);
}

TEST(PorepCircuitSlow, ThirtyTwoGiBCountsAsCurioMeasured) {
  // Curio extern/cuzk/cuzk-project.md (bellperson's circuit; FORMATS.md §3.6); the constraint
  // count is also rust-fil-proofs PR #1325's circuitinfo figure.
  const CircuitInfo i = info_of("StackedDrg32GiBV1_1");
  EXPECT_EQ(i.constraints, 130'278'541u);
  EXPECT_EQ(i.public_inputs, 327u);
  EXPECT_EQ(i.aux, 130'169'893u);
  EXPECT_EQ(i.nnz_a, 309'405'051u);
  EXPECT_EQ(i.nnz_b, 130'327'340u);
  EXPECT_EQ(i.nnz_c, 282'656'500u);
  EXPECT_EQ(i.a_aux_density, 129'753'292u);
  EXPECT_EQ(i.b_input_density, 1u);
  EXPECT_EQ(i.b_aux_density, 33'112'281u);
}

TEST(PorepCircuitSlow, SixtyFourGiBCounts) {
  const CircuitInfo i = info_of("StackedDrg64GiBV1_1");
  EXPECT_EQ(i.constraints, 131'185'849u);  // FORMATS.md §3.6 [D]
  EXPECT_EQ(i.public_inputs, 327u);
}

// Synthesizes |circuit| with TestConstraintSystem into |cs|; returns the first unsatisfied
// constraint's name ("" when every constraint holds).
std::string unsatisfied(Circuit& circuit, TestConstraintSystem& cs) {
  const Status s = synthesize_circuit(circuit, cs);
  EXPECT_TRUE(s.ok()) << s.to_string();
  return cs.which_unsatisfied().value_or("");
}

std::string unsatisfied(Circuit& circuit) {
  TestConstraintSystem cs;
  return unsatisfied(circuit, cs);
}

// Partition |k| of |c1| (a C1 of |proof|): satisfied under TestConstraintSystem; its counts equal
// circuit_info's; its inputs equal porep_circuit_public_inputs and the data side's; witness-only
// synthesis and recording with values give its assignment.
void check_partition(const fc::SealProof& proof, const fc::SealCommitPhase1Output& c1, unsigned k) {
  const PorepCircuitShape shape = porep_circuit_shape(proof);
  auto part = porep_partition_from_c1(proof, c1, k);
  ASSERT_TRUE(part.ok()) << part.status().to_string();
  const PorepCircuitPublic& pub = part->pub;
  const PorepCircuitPrivate& priv = part->priv;
  PorepCircuit circuit(shape, pub, priv);

  TestConstraintSystem cs;
  auto t = Clock::now();
  EXPECT_EQ(unsatisfied(circuit, cs), "");
  std::printf("%s partition %u: TestConstraintSystem %.2f s\n", proof.name.c_str(), k, since(t));

  PorepCircuit blank(shape);
  auto info = circuit_info(blank);
  ASSERT_TRUE(info.ok());
  EXPECT_EQ(cs.num_constraints(), info->constraints + info->public_inputs + 1);  // + input rows
  EXPECT_EQ(cs.num_inputs(), info->public_inputs + 1);
  EXPECT_EQ(cs.num_aux(), info->aux);

  auto want = porep_circuit_public_inputs(proof, pub);
  ASSERT_TRUE(want.ok()) << want.status().to_string();
  EXPECT_EQ(std::vector<Fr>(cs.inputs().begin() + 1, cs.inputs().end()), *want);
  auto data_side =
      fc::porep_partition_public_inputs(proof, c1.replica_id, c1.comm_d, c1.comm_r, c1.seed, k);
  ASSERT_TRUE(data_side.ok());
  EXPECT_EQ(*data_side, *want);

  t = Clock::now();
  const double cpu = thread_cpu_seconds();
  WitnessConstraintSystem wcs;
  ASSERT_TRUE(synthesize_circuit(circuit, wcs).ok());
  std::printf("%s partition %u: witness-only synthesis %.3f s (%.3f s CPU)\n", proof.name.c_str(),
              k, since(t), thread_cpu_seconds() - cpu);
  EXPECT_EQ(wcs.inputs(), cs.inputs());
  EXPECT_TRUE(std::equal(wcs.aux().begin(), wcs.aux().end(), cs.aux().begin(), cs.aux().end()));
  RecordingConstraintSystem rcs({.with_values = true, .record_matrices = false});
  ASSERT_TRUE(synthesize_circuit(circuit, rcs).ok());
  EXPECT_EQ(rcs.recording().inputs, cs.inputs());
  EXPECT_EQ(rcs.recording().aux, cs.aux());
}

// $CUZK_FILECOIN_DATA/README.md: the venus genesis sectors' commitments as Filecoin recorded
// them (Fr little-endian hex).
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

TEST(PorepCircuitSlow, VenusSectorsSatisfy) {
  CUZK_REQUIRE_FILECOIN_DATA();
  const std::filesystem::path dir = *cuzk::test::filecoin_data_dir() / "venus-2kib";
  const std::uint64_t seed = cuzk::test::fresh_seed();
  std::mt19937_64 rng(seed);
  ThreadPool pool(2);
  const fc::SealProof proof = fc::seal_proof("StackedDrg2KiBV1").value();
  for (const Venus& v : kVenus) {
    SCOPED_TRACE("venus sector " + std::to_string(v.sector_id) + ", seed " + std::to_string(seed));
    const fc::Node comm_d = fc::parse_hex32(v.comm_d, "comm_d").value();
    auto sector = testing::venus_sector(dir, v.sector_id, comm_d, pool);
    ASSERT_TRUE(sector.ok()) << sector.status().to_string();
    // The sector is the one Filecoin sealed: its recorded commitments.
    EXPECT_EQ(fc::to_hex(sector->info.comm_d), v.comm_d);
    EXPECT_EQ(fc::to_hex(sector->info.comm_r), v.comm_r);
    EXPECT_EQ(fc::to_hex(sector->info.comm_c), v.comm_c);
    EXPECT_EQ(fc::to_hex(sector->info.comm_r_last), v.comm_r_last);
    auto c1 = fc::build_commit1(*sector, testing::random_node(rng), pool);
    ASSERT_TRUE(c1.ok()) << c1.status().to_string();
    ASSERT_TRUE(fc::verify_porep_vanilla(proof, fc::porep_public_inputs(*c1), *c1).ok());
    check_partition(proof, *c1, 0);
  }
}

// Tampering on a 2 KiB sector sealed in the test: the first unsatisfied constraint is named.
TEST(PorepCircuitSlow, TamperedInputsAreUnsatisfiedWhereExpected) {
  const std::uint64_t seed = cuzk::test::fresh_seed();
  std::mt19937_64 rng(seed);
  ThreadPool pool(2);
  const fc::SealProof proof = fc::seal_proof("StackedDrg2KiBV1_1").value();
  auto sector = testing::seal_random_sector(proof, rng, pool);
  ASSERT_TRUE(sector.ok()) << sector.status().to_string();
  auto c1 = fc::build_commit1(*sector, testing::random_node(rng), pool);
  ASSERT_TRUE(c1.ok()) << c1.status().to_string();
  const PorepCircuitShape shape = porep_circuit_shape(proof);
  const PorepCircuitPublic pub = porep_partition_from_c1(proof, *c1, 0).value().pub;

  // |c| with |p|: the name of the first unsatisfied constraint.
  auto first_failure = [&](const fc::SealCommitPhase1Output& c, const PorepCircuitPublic& p) {
    auto priv = porep_circuit_private(c, 0);
    EXPECT_TRUE(priv.ok()) << priv.status().to_string();
    if (!priv.ok()) return std::string("(no private part)");
    PorepCircuit circuit(shape, p, *priv);
    return unsatisfied(circuit);
  };
  ASSERT_EQ(first_failure(*c1, pub), "") << "seed " << seed;

  struct Case {
    const char* what;
    std::function<void(fc::SealCommitPhase1Output&, PorepCircuitPublic&)> tamper;
    const char* failing;
  };
  const Case cases[] = {
      {"a DRG parent's label (layer 1, read by labeling_1)",
       [](auto& c, auto&) {
         c.vanilla_proofs[0][0].replica_column_proofs.drg_parents[2].column.rows[0][0] ^= 1;
       },
       "challenge_0/drg_parent_2_inclusion/enforce root is correct"},
      {"an expander parent's label (layer 1, read by labeling_2)",
       [](auto& c, auto&) {
         c.vanilla_proofs[0][1].replica_column_proofs.exp_parents[5].column.rows[0][3] ^= 4;
       },
       "challenge_1/exp_parent_5_inclusion/enforce root is correct"},
      {"a tree_r_last path element",
       [](auto& c, auto&) {
         c.vanilla_proofs[0][1].comm_r_last_proof.base_path[0].hashes[3][0] ^= 1;
       },
       "challenge_1/comm_r_last_data_inclusion/enforce root is correct"},
      {"a tree_d path element",
       [](auto& c, auto&) { c.vanilla_proofs[0][0].comm_d_proofs.base_path[2].hashes[0][1] ^= 1; },
       "challenge_0/comm_d_inclusion/enforce root is correct"},
      {"public input comm_r", [](auto&, auto& p) { p.comm_r += Fr::one(); },
       "enforce comm_r = H(comm_c || comm_r_last)"},
      {"public input comm_d", [](auto&, auto& p) { p.comm_d += Fr::one(); },
       "challenge_0/comm_d_inclusion/enforce root is correct"},
      {"public input replica_id (every label changes; the encoded node is checked first)",
       [](auto&, auto& p) { p.replica_id += Fr::one(); },
       "challenge_0/comm_r_last_data_inclusion/enforce root is correct"},
  };
  for (const Case& k : cases) {
    SCOPED_TRACE(std::string(k.what) + ", seed " + std::to_string(seed));
    fc::SealCommitPhase1Output c = *c1;
    PorepCircuitPublic p = pub;
    k.tamper(c, p);
    EXPECT_EQ(first_failure(c, p), k.failing);
  }
}

// Every registered 2 KiB seal proof (API 1.0 and 1.1, synthetic, non-interactive) on a sector
// sealed in the test: the last partition's circuit is satisfied (a·b = c on every row, from
// recording with values) and its inputs are the data side's.
TEST(PorepCircuitSlow, EveryTwoKiBProofSatisfies) {
  const std::uint64_t seed = cuzk::test::fresh_seed();
  std::mt19937_64 rng(seed);
  ThreadPool pool(2);
  for (const fc::SealProof& proof : fc::seal_proofs()) {
    if (proof.size != fc::SectorSize::s2KiB) continue;
    SCOPED_TRACE(proof.name + ", seed " + std::to_string(seed));
    auto sector = testing::seal_random_sector(proof, rng, pool);
    ASSERT_TRUE(sector.ok()) << sector.status().to_string();
    auto c1 = fc::build_commit1(*sector, testing::random_node(rng), pool);
    ASSERT_TRUE(c1.ok()) << c1.status().to_string();
    const unsigned k = static_cast<unsigned>(c1->vanilla_proofs.size()) - 1;
    auto part = porep_partition_from_c1(proof, *c1, k);
    ASSERT_TRUE(part.ok()) << part.status().to_string();
    const PorepCircuitPublic& pub = part->pub;
    const PorepCircuitPrivate& priv = part->priv;
    PorepCircuit circuit(porep_circuit_shape(proof), pub, priv);
    RecordingConstraintSystem rcs(
        {.with_values = true, .record_matrices = false, .evaluate_abc = true});
    ASSERT_TRUE(synthesize_circuit(circuit, rcs).ok());
    const Recording& rec = rcs.recording();
    std::size_t bad = 0;
    while (bad < rec.a.size() && rec.a[bad] * rec.b[bad] == rec.c[bad]) ++bad;
    EXPECT_EQ(bad, rec.a.size()) << "partition " << k << ": row " << bad << " unsatisfied";
    auto want = fc::porep_partition_public_inputs(proof, c1->replica_id, c1->comm_d, c1->comm_r,
                                                  c1->seed, k);
    ASSERT_TRUE(want.ok());
    EXPECT_EQ(std::vector<Fr>(rec.inputs.begin() + 1, rec.inputs.end()), *want);
  }
}

TEST(PorepCircuitSlow, SealedEightMiBSectorSatisfies) {
  const std::uint64_t seed = cuzk::test::fresh_seed();
  std::mt19937_64 rng(seed);
  ThreadPool pool(0);
  const fc::SealProof proof = fc::seal_proof("StackedDrg8MiBV1_1").value();
  auto t = Clock::now();
  auto sector = testing::seal_random_sector(proof, rng, pool);
  ASSERT_TRUE(sector.ok()) << sector.status().to_string();
  std::printf("seal 8 MiB: %.1f s\n", since(t));
  auto c1 = fc::build_commit1(*sector, testing::random_node(rng), pool);
  ASSERT_TRUE(c1.ok()) << c1.status().to_string();
  check_partition(proof, *c1, 0);
}

}  // namespace
}  // namespace cuzk::circuits::filecoin
