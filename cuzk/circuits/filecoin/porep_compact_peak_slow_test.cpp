// The 32 GiB PoRep partition's synthesis reservation (label slow: the compact form is recorded in
// about 50 s, a C1 made by the data side's generator in about a minute): the bound the engine
// reserves for a partition's compact-witness synthesis (porep_compact_witness_peak_bytes over
// compact_witness_bound of the recorded compact form, computed from the layout and the bound
// alone) meets issue 22's goal of at most 256 MB of host memory per in-flight 2^27 partition,
// and the heap bytes the synthesis really holds at its peak on one thread (as the engine runs
// it) — every live allocation counted by this binary's operator new — stay below it.
#include <gtest/gtest.h>

#include <cstdio>

#include "cuzk/circuits/filecoin/porep_circuit_test_util.hpp"
#include "cuzk/circuits/filecoin/porep_witness.hpp"
#include "cuzk/filecoin/synth_inputs.hpp"
#include "cuzk/r1cs/compact_witness_bound.hpp"
#include "cuzk/r1cs/pce_compact_recorder.hpp"
#include "tests/support/heap_peak.hpp"
#include "tests/support/seed.hpp"

namespace cuzk::circuits::filecoin {
namespace {

namespace fc = cuzk::filecoin;

// Issue 22 item 4: host memory per in-flight 2^27 partition ≤ 256 MB.
constexpr std::uint64_t kGoalBytes = 256'000'000;

TEST(PorepCompactPeakSlow, Partition32GiBWithinTheGoalAndTheBound) {
  const fc::SealProof proof = fc::seal_proof("StackedDrg32GiBV1_1").value();
  const PorepCircuitShape shape = porep_circuit_shape(proof);
  CompactWitnessBound bound;
  {
    PorepCircuit blank(shape);
    auto compact = record_compact(blank);
    ASSERT_TRUE(compact.ok()) << compact.status().to_string();
    bound = compact_witness_bound(*compact);
  }
  auto layout = porep_witness_layout(shape);
  ASSERT_TRUE(layout.ok()) << layout.status().to_string();
  ASSERT_EQ(bound.variables, layout->num_inputs + layout->num_aux);
  const std::uint64_t reserved = porep_compact_witness_peak_bytes(*layout, bound, 1);
  std::printf(
      "PoRep 32 GiB: %llu variables, %llu not proved boolean; witness bound %.1f MB, scratch "
      "%.1f MB, fragments %.1f MB (%llu), reserved %.1f MB\n",
      static_cast<unsigned long long>(bound.variables),
      static_cast<unsigned long long>(bound.others()), bound.witness_bytes() / 1e6,
      porep_compact_witness_scratch_bytes(*layout, 1) / 1e6,
      bound.fragment_bytes(porep_compact_witness_fragments(*layout)) / 1e6,
      static_cast<unsigned long long>(porep_compact_witness_fragments(*layout)), reserved / 1e6);
  EXPECT_LE(reserved, kGoalBytes) << "the synthesis reservation is above issue 22's 256 MB";

  const std::uint64_t seed = cuzk::test::fresh_seed();
  ThreadPool pool(2);
  auto synth = fc::synth_c1(proof, seed, pool);
  ASSERT_TRUE(synth.ok()) << synth.status().to_string();
  auto part = porep_partition_from_c1(proof, synth->c1, 3);
  ASSERT_TRUE(part.ok()) << part.status().to_string();
  const PorepCircuitPublic& pub = part->pub;
  const PorepCircuitPrivate& priv = part->priv;
  ThreadPool one(1);  // as PorepFamily::compact_witness runs it
  const std::int64_t base = cuzk::test::heap_peak_reset();
  auto w = porep_partition_compact_witness(shape, pub, priv, one);
  const std::int64_t held = cuzk::test::heap_peak() - base;
  ASSERT_TRUE(w.ok()) << w.status().to_string();
  std::printf("PoRep 32 GiB partition 3: %llu values, compact %.1f MB, synthesis peak %.1f MB\n",
              static_cast<unsigned long long>(w->values.size()), w->bytes() / 1e6, held / 1e6);
  EXPECT_TRUE(compact_witness_within(*w, bound).ok());
  EXPECT_LE(compact_witness_capacity_bytes(*w), bound.witness_bytes());
  EXPECT_LE(static_cast<std::uint64_t>(held), reserved)
      << "the synthesis held more than the reservation";
}

}  // namespace
}  // namespace cuzk::circuits::filecoin
