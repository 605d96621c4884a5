// Fuzz target: a SnapDeals partition proof (filecoin/snap_vanilla_proof.hpp, bincode), as Curio
// sends them in an update request. Property: what reads writes back to the same bytes. Then the
// vanilla verifier (snap_verify.hpp) checks it as partition 0 of the seed's 2 KiB update
// (synth_snap with seed 1, fuzz/make_seeds.cpp: its public data): it must answer, not crash.
#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/filecoin/snap_verify.hpp"
#include "cuzk/filecoin/synth_inputs.hpp"
#include "fuzz/fuzz_check.hpp"

namespace fc = cuzk::filecoin;

namespace {

// The seeds' update (make_seeds.cpp writes its partition 0 as seed-2KiB).
const fc::SynthSnap& seed_snap() {
  static const fc::SynthSnap snap = [] {
    cuzk::ThreadPool pool(1);
    auto proof = fc::update_proof("StackedDrg2KiBV1");
    FUZZ_CHECK(proof.ok());
    auto s = fc::synth_snap(*proof, 1, pool);
    FUZZ_CHECK(s.ok());
    return std::move(*s);
  }();
  return snap;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  seed_snap();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::uint8_t> bytes(data, size);
  auto p = fc::read_snap_partition_proof(bytes);
  if (!p.ok()) return 0;
  const std::vector<std::uint8_t> back = fc::write_snap_partition_proof(*p);
  FUZZ_CHECK(back.size() == size && std::equal(back.begin(), back.end(), bytes.begin()));
  (void)fc::verify_snap_partition(seed_snap().proof, seed_snap().pub, 0, *p);
  return 0;
}
