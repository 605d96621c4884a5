// The compact PCE form (r1cs/pce_compact.hpp) of the 2 KiB Filecoin circuits — PoRep
// (StackedDrg2KiBV1_1), WinningPoSt and WindowPoSt (StackedDrgWinning2KiBV1, StackedDrgWindow2KiBV1),
// SnapDeals (64 nodes, partition 0) — recorded blank, against the plain recording of the same
// circuit (RecordingConstraintSystem, the slow twin):
//   * the compact form expands to exactly the recorded matrices (rows, coefficients, densities);
//   * its SpMV equals the plain PCE on a random z (seeded, printed; CUZK_SEED replays);
//   * it is much smaller than the plain matrices (the repeated gadgets are kept once): 11× for
//     the PoRep, 20× for SnapDeals and 34× for WinningPoSt when first measured.
#include <gtest/gtest.h>

#include "cuzk/circuits/filecoin/pce_compact_test_util.hpp"
#include "cuzk/circuits/filecoin/porep_circuit.hpp"
#include "cuzk/circuits/filecoin/post_circuit.hpp"
#include "cuzk/circuits/filecoin/update_circuit.hpp"
#include "cuzk/filecoin/snap_params.hpp"

namespace cuzk::circuits::filecoin {
namespace {

namespace fc = cuzk::filecoin;
using testing::check_circuit;

TEST(PceCompactFilecoin, Porep2KiB) {
  PorepCircuit circuit(porep_circuit_shape(fc::seal_proof("StackedDrg2KiBV1_1").value()));
  check_circuit("PoRep 2 KiB", circuit, 8);
}

TEST(PceCompactFilecoin, WinningAndWindowPost2KiB) {
  PostCircuit winning(
      post_circuit_params(fc::post_proof("StackedDrgWinning2KiBV1").value()).value());
  check_circuit("WinningPoSt 2 KiB", winning, 8);
  PostCircuit window(post_circuit_params(fc::post_proof("StackedDrgWindow2KiBV1").value()).value());
  check_circuit("WindowPoSt 2 KiB", window, 0);
}

TEST(PceCompactFilecoin, SnapDeals2KiB) {
  const std::uint64_t nodes = 1u << 6;
  const fc::SnapParams p = fc::snap_params(nodes).value();
  UpdateCircuit circuit(UpdatePublic{.nodes = nodes, .k = 0, .h = p.h_default});
  check_circuit("SnapDeals 2 KiB", circuit, 8);
}

}  // namespace
}  // namespace cuzk::circuits::filecoin
