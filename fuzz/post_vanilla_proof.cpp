// Fuzz target: a PoSt vanilla proof of one sector (filecoin/post_vanilla_proof.hpp, bincode), as
// Curio sends them in a PoSt request. Property: what reads writes back to the same bytes (bincode
// has one encoding per value). Then the vanilla verifier (post_verify.hpp) checks it as a
// WindowPoSt and as a WinningPoSt proof of a 2 KiB sector, against the public data of the seed
// (synth_post with seed 1, fuzz/make_seeds.cpp: its randomness; sector id and comm_r the proof's
// own): it must answer, not crash.
#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/filecoin/post_verify.hpp"
#include "cuzk/filecoin/synth_inputs.hpp"
#include "fuzz/fuzz_check.hpp"

namespace fc = cuzk::filecoin;

namespace {

// The seeds' PoSt (make_seeds.cpp writes its proof as seed-window-2KiB).
const fc::SynthPost& seed_post() {
  static const fc::SynthPost post = [] {
    cuzk::ThreadPool pool(1);
    auto proof = fc::post_proof("StackedDrgWindow2KiBV1_2");
    FUZZ_CHECK(proof.ok());
    auto p = fc::synth_post(*proof, 1, 1, pool);
    FUZZ_CHECK(p.ok());
    return std::move(*p);
  }();
  return post;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  seed_post();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::uint8_t> bytes(data, size);
  auto p = fc::read_post_sector_proof(bytes);
  if (!p.ok()) return 0;
  const std::vector<std::uint8_t> back = fc::write_post_sector_proof(*p);
  FUZZ_CHECK(back.size() == size && std::equal(back.begin(), back.end(), bytes.begin()));

  const fc::PostPublicSector sector{.sector_id = p->sector_id, .comm_r = p->comm_r};
  for (const char* name : {"StackedDrgWindow2KiBV1_2", "StackedDrgWinning2KiBV1"}) {
    auto proof = fc::post_proof(name);
    FUZZ_CHECK(proof.ok());
    (void)fc::verify_post_sector(*proof, seed_post().randomness, sector, 0, *p);
  }
  return 0;
}
