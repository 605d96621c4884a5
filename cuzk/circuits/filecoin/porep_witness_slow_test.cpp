// The 32 GiB PoRep partition's witness (label slow: about a minute and 4.2 GB per witness): from
// a C1 made by the data side's generator, the layout counted from the blank circuit equals the
// figures Curio measured on the real bellperson circuit (issue 19: 130,278,541 constraints, 328
// inputs with ONE, 130,169,893 aux; plus bellperson's 328 input constraints), and the generic
// sequential path, the fast sequential path and the parallel path give the same z (compared by
// digest, so that one witness is held at a time).
#include <gtest/gtest.h>

#include <cstring>

#include "cuzk/circuits/filecoin/porep_circuit_test_util.hpp"
#include "cuzk/circuits/filecoin/porep_witness.hpp"
#include "cuzk/filecoin/synth_inputs.hpp"
#include "cuzk/r1cs/witness_cs.hpp"
#include "tests/support/seed.hpp"

namespace cuzk::circuits::filecoin {
namespace {

namespace fc = cuzk::filecoin;

std::uint64_t digest(const std::vector<Fr>& z) {
  std::uint64_t h = z.size();
  for (const Fr& x : z) {
    std::uint64_t l[4];
    std::memcpy(l, &x, sizeof l);
    h = (h ^ l[0] ^ (l[1] << 1) ^ (l[2] << 2) ^ (l[3] << 3)) * 0xff51afd7ed558ccdull;
    h ^= h >> 29;
  }
  return h;
}

TEST(PorepWitnessSlow, Partition32GiBAllPathsAgree) {
  const std::uint64_t seed = cuzk::test::fresh_seed();
  ThreadPool pool(2);
  const fc::SealProof proof = fc::seal_proof("StackedDrg32GiBV1_1").value();
  auto synth = fc::synth_c1(proof, seed, pool);
  ASSERT_TRUE(synth.ok()) << synth.status().to_string();
  const PorepCircuitShape shape = porep_circuit_shape(proof);
  auto part = porep_partition_from_c1(proof, synth->c1, 3);
  ASSERT_TRUE(part.ok()) << part.status().to_string();
  const PorepCircuitPublic& pub = part->pub;
  const PorepCircuitPrivate& priv = part->priv;

  auto layout = porep_witness_layout(shape);
  ASSERT_TRUE(layout.ok()) << layout.status().to_string();
  EXPECT_EQ(layout->num_constraints, 130'278'541u + 328u);
  EXPECT_EQ(layout->num_inputs, 328u);
  EXPECT_EQ(layout->num_aux, 130'169'893u);

  std::uint64_t want = 0;
  for (bool fast : {false, true}) {
    PorepCircuit circuit(shape, pub, priv);
    WitnessConstraintSystem cs({.reserve_aux = layout->num_aux,
                                .num_inputs_hint = layout->num_inputs,
                                .fast_paths = fast});
    ASSERT_TRUE(synthesize_circuit(circuit, cs).ok());
    EXPECT_EQ(cs.num_constraints(), layout->num_constraints);
    const std::uint64_t d = digest(cs.take_assignment());
    if (!fast) want = d;
    EXPECT_EQ(d, want) << "fast paths";
  }
  auto z = porep_partition_witness(shape, pub, priv, pool);
  ASSERT_TRUE(z.ok()) << z.status().to_string();
  EXPECT_EQ(z->size(), layout->num_inputs + layout->num_aux);
  EXPECT_EQ(digest(*z), want) << "parallel";
}

}  // namespace
}  // namespace cuzk::circuits::filecoin
