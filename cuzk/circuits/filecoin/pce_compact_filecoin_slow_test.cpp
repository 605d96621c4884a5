// The compact PCE form of the PoRep partition at production sizes (label slow):
//   * 512 MiB (4,423,433 constraints, FORMATS.md §3.6): expanded equal to the plain recording,
//     SpMV equal to the plain PCE (pce_compact_test_util.hpp);
//   * 32 GiB, compact only (its plain matrices take 7 GB): the counts recorded by the compact
//     system equal Curio's measurement of bellperson's circuit (130,278,541 constraints + 328
//     input constraints, 130,169,893 aux, nnz A/B/C, a/b densities; FORMATS.md §3.6), the form is
//     far below Curio's 25.7 GiB PCE (under 1 % of it), and it survives a cache round trip.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "cuzk/circuits/filecoin/pce_compact_test_util.hpp"
#include "cuzk/circuits/filecoin/porep_circuit.hpp"
#include "cuzk/r1cs/pce_compact_cache.hpp"

namespace cuzk::circuits::filecoin {
namespace {

namespace fc = cuzk::filecoin;

TEST(PceCompactFilecoinSlow, Porep512MiB) {
  PorepCircuit circuit(porep_circuit_shape(fc::seal_proof("StackedDrg512MiBV1_1").value()));
  testing::check_circuit("PoRep 512 MiB", circuit, 8);
}

TEST(PceCompactFilecoinSlow, Porep32GiBAsCurioMeasured) {
  PorepCircuit circuit(porep_circuit_shape(fc::seal_proof("StackedDrg32GiBV1_1").value()));
  const auto t0 = testing::Clock::now();
  auto c = record_compact(circuit);
  ASSERT_TRUE(c.ok()) << c.status().to_string();
  std::printf("PoRep 32 GiB: compact %.1f MB, recorded in %.1f s\n", c->memory_bytes() / 1e6,
              testing::since(t0));
  EXPECT_EQ(c->num_constraints, 130'278'541u + 328u);
  EXPECT_EQ(c->num_inputs, 328u);
  EXPECT_EQ(c->num_aux, 130'169'893u);
  EXPECT_EQ(c->nnz_a, 309'405'051u);
  EXPECT_EQ(c->nnz_b, 130'327'340u);
  EXPECT_EQ(c->nnz_c, 282'656'500u);
  EXPECT_EQ(c->a_aux_density.count(), 129'753'292u);
  EXPECT_EQ(c->b_input_density.count(), 1u);
  EXPECT_EQ(c->b_aux_density.count(), 33'112'281u);
  // Curio's PCE of this circuit: 25.7 GiB (REFERENCE-CUZK.md §4).
  EXPECT_LT(static_cast<double>(c->memory_bytes()), 0.01 * 25.7 * (1u << 30));

  const std::string path = ::testing::TempDir() + "pce_compact_porep32.pcec";
  const std::uint64_t key = compact_circuit_key("porep StackedDrg32GiBV1_1");
  ASSERT_TRUE(save_compact_cache(path, *c, key).ok());
  auto back = load_compact_cache(path, key);
  std::remove(path.c_str());
  ASSERT_TRUE(back.ok()) << back.status().to_string();
  EXPECT_EQ(back->segments, c->segments);
  EXPECT_EQ(back->slots, c->slots);
  EXPECT_EQ(back->blocks.size(), c->blocks.size());
  EXPECT_EQ(back->b_aux_density, c->b_aux_density);
}

}  // namespace
}  // namespace cuzk::circuits::filecoin
