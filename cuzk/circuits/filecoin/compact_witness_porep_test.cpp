// The compact witness (r1cs/compact_witness.hpp) of real PoRep partition witnesses: converter →
// host expansion gives z back value for value, the form's counts add up, and the form made
// straight from the synthesis (porep_partition_compact_witness, z never held) is the same, with
// the same error for a malformed proof. On a generated 2 KiB
// and 8 MiB C1 (synth_inputs.hpp, seeded) and, where CUZK_FILECOIN_DATA is set, the real venus
// 2 KiB sector 0. The 32 GiB partition's size: bench/compact_witness_bench.cpp.
// And the device's path on the CPU, for the generated 2 KiB C1: the circuit's compact R1CS
// (recorded blank) in its flat layout (r1cs/pce_compact_flat.hpp), walked as the GPU kernel walks
// it over the z expanded from the compact witness, equals the host compact SpMV of the full z and
// satisfies every row (a·b = c).
#include <gtest/gtest.h>

#include "cuzk/circuits/filecoin/porep_circuit_test_util.hpp"
#include "cuzk/circuits/filecoin/porep_witness.hpp"
#include "cuzk/filecoin/synth_inputs.hpp"
#include "cuzk/r1cs/compact_witness.hpp"
#include "cuzk/r1cs/pce_compact_flat.hpp"
#include "cuzk/r1cs/pce_compact_recorder.hpp"
#include "tests/support/filecoin_data.hpp"
#include "tests/support/seed.hpp"

namespace cuzk::circuits::filecoin {
namespace {

namespace fc = cuzk::filecoin;

// Returns z expanded from the compact witness (empty on failure).
std::vector<Fr> expect_round_trip(const fc::SealProof& proof, const fc::SealCommitPhase1Output& c1,
                                  unsigned k) {
  const PorepCircuitShape shape = porep_circuit_shape(proof);
  auto part = porep_partition_from_c1(proof, c1, k);
  EXPECT_TRUE(part.ok()) << part.status().to_string();
  if (!part.ok()) return {};
  const PorepCircuitPublic& pub = part->pub;
  const PorepCircuitPrivate& priv = part->priv;
  ThreadPool pool(2);
  auto z = porep_partition_witness(shape, pub, priv, pool);
  EXPECT_TRUE(z.ok()) << z.status().to_string();
  auto layout = porep_witness_layout(shape);
  EXPECT_TRUE(layout.ok());
  if (!z.ok() || !layout.ok()) return {};
  auto w = compact_witness_from_z(pool, *z, layout->num_inputs);
  EXPECT_TRUE(w.ok()) << w.status().to_string();
  if (!w.ok()) return {};
  EXPECT_TRUE(w->validate().ok()) << w->validate().to_string();
  // Straight from the synthesis (z never held), on 1 and 3 threads: the same form.
  for (std::size_t threads : {1, 3}) {
    ThreadPool p(threads);
    auto direct = porep_partition_compact_witness(shape, pub, priv, p);
    EXPECT_TRUE(direct.ok()) << direct.status().to_string();
    if (direct.ok()) {
      EXPECT_TRUE(*direct == *w) << threads << " threads";
    }
  }
  std::vector<Fr> back(z->size());
  EXPECT_TRUE(compact_witness_expand(pool, *w, back).ok());
  EXPECT_TRUE(back == *z);
  std::uint64_t others = 0, ones = 0;
  for (const Fr& x : *z) others += !x.is_zero() && !x.is_one(), ones += x.is_one();
  const CompactWitnessStats s = compact_witness_stats(*w);
  EXPECT_EQ(s.others, others);
  EXPECT_EQ(s.ones, ones);
  // Mostly bits (SHA-256): most values are 0 or 1.
  EXPECT_LT(others * 2, z->size());
  std::printf("[ form     ] %zu variables: %llu others in %llu runs, %zu bytes (z %zu)\n",
              z->size(), static_cast<unsigned long long>(s.others),
              static_cast<unsigned long long>(s.runs), w->bytes(), z->size() * sizeof(Fr));
  return back;
}

TEST(CompactWitnessPorep, Generated2KiBAndEightMiB) {
  const std::uint64_t seed = cuzk::test::fresh_seed();
  ThreadPool pool(2);
  for (const char* name : {"StackedDrg2KiBV1_1", "StackedDrg8MiBV1_1"}) {
    SCOPED_TRACE(name);
    const fc::SealProof proof = fc::seal_proof(name).value();
    auto synth = fc::synth_c1(proof, seed, pool);
    ASSERT_TRUE(synth.ok()) << synth.status().to_string();
    expect_round_trip(proof, synth->c1, 0);
  }
}

TEST(CompactWitnessPorep, DevicePathOnTheCpu2KiB) {
  const std::uint64_t seed = cuzk::test::fresh_seed();
  ThreadPool pool(2);
  const fc::SealProof proof = fc::seal_proof("StackedDrg2KiBV1_1").value();
  auto synth = fc::synth_c1(proof, seed, pool);
  ASSERT_TRUE(synth.ok()) << synth.status().to_string();
  const std::vector<Fr> z = expect_round_trip(proof, synth->c1, 0);
  ASSERT_FALSE(z.empty());
  PorepCircuit blank(porep_circuit_shape(proof));
  auto form = record_compact(blank);
  ASSERT_TRUE(form.ok()) << form.status().to_string();
  auto flat = compact_flatten(*form);
  ASSERT_TRUE(flat.ok()) << flat.status().to_string();
  EXPECT_GT(flat->num_long_rows(), 0u);  // the packings: the warps' path is taken
  const std::size_t n = form->num_constraints;
  std::vector<Fr> a(n), b(n), c(n), fa(n), fb(n), fc(n);
  ASSERT_TRUE(pce_compact_evaluate_into(pool, *form, z, a, b, c).ok());
  ASSERT_TRUE(compact_flat_evaluate(*flat, z, fa, fb, fc).ok());
  EXPECT_TRUE(fa == a && fb == b && fc == c);
  for (std::size_t k = 0; k < n; ++k) ASSERT_TRUE(fa[k] * fb[k] == fc[k]) << "row " << k;
}

TEST(CompactWitnessPorep, MalformedProofGivesTheCircuitsError) {
  ThreadPool pool(2);
  const fc::SealProof proof = fc::seal_proof("StackedDrg2KiBV1_1").value();
  auto synth = fc::synth_c1(proof, cuzk::test::fresh_seed(), pool);
  ASSERT_TRUE(synth.ok()) << synth.status().to_string();
  fc::SealCommitPhase1Output c1 = synth->c1;
  c1.vanilla_proofs[0][1].replica_column_proofs.drg_parents[2].column.rows.pop_back();
  const PorepCircuitShape shape = porep_circuit_shape(proof);
  auto part = porep_partition_from_c1(proof, c1, 0);
  ASSERT_TRUE(part.ok()) << part.status().to_string();
  const PorepCircuitPublic& pub = part->pub;
  const PorepCircuitPrivate& priv = part->priv;
  auto z = porep_partition_witness(shape, pub, priv, pool);
  auto w = porep_partition_compact_witness(shape, pub, priv, pool);
  ASSERT_FALSE(z.ok());
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.status().to_string(), z.status().to_string());
}

TEST(CompactWitnessPorep, VenusSector) {
  CUZK_REQUIRE_FILECOIN_DATA();
  std::mt19937_64 rng(cuzk::test::fresh_seed());
  ThreadPool pool(2);
  // $CUZK_FILECOIN_DATA/README.md: venus genesis sector 0 (Fr little-endian hex).
  const fc::Node comm_d =
      fc::parse_hex32("2d8cd21509618ffea50330291ea4a23523e1e3a5f74ceed0dd66bd327bf51a21", "comm_d")
          .value();
  auto sector =
      testing::venus_sector(*cuzk::test::filecoin_data_dir() / "venus-2kib", 0, comm_d, pool);
  ASSERT_TRUE(sector.ok()) << sector.status().to_string();
  auto c1 = fc::build_commit1(*sector, testing::random_node(rng), pool);
  ASSERT_TRUE(c1.ok()) << c1.status().to_string();
  expect_round_trip(fc::seal_proof("StackedDrg2KiBV1").value(), *c1, 0);
}

}  // namespace
}  // namespace cuzk::circuits::filecoin
