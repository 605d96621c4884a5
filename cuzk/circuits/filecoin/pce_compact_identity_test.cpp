// The 2 KiB Filecoin circuits as recorded (CompactRecorder, r1cs/pce_compact_recorder.hpp), pinned
// by digest, so that a change in how a circuit or gadget builds its constraints — or in how the
// recorder lays them out — cannot pass unnoticed. Bellperson compatibility requires the same
// variables, constraints, linear combinations and order as rust-fil-proofs: the parameter files
// were generated from exactly those matrices.
//
// Per circuit (PoRep StackedDrg2KiBV1_1, WinningPoSt StackedDrgWinning2KiBV1, WindowPoSt
// StackedDrgWindow2KiBV1, SnapDeals 64 nodes partition 0), two digests:
//   circuit  checksum64 of (inputs, aux, rows) and every term (row, column, coefficient in
//            canonical form) of A, B, C in order, from the compact form expanded to plain matrices
//            (compact_to_matrices, the slow twin) — the circuit itself: must never change;
//   form     checksum64 of the compact cache file's bytes (pce_compact_cache.hpp, key 0) — the
//            compact form: blocks, segments, slots, densities. Changes only with a deliberate
//            change of the form (then kCompactIdentity in filecoin_family_common.cpp and the
//            pinned value change together), never as a side effect of speeding up the recording.
// Source of the pins: recorded from the implementation on main at 0338177, before the recording
// was made faster (docs/perf/filecoin.md "compact recording"). That implementation's circuits are
// checked against independent figures by circuits_post_test (PostCircuitUpstream: upstream's
// fallback_circuit.rs constraint and input counts), circuits_porep_test (upstream's stacked
// circuit counts), circuits_update_test (the SnapDeals counts) and r1cs_gadgets_test
// (GadgetStructure, per-gadget digests pinned 2026-12-02); no independent source gives the
// matrices themselves (the real 2 KiB keys are not in CUZK_FILECOIN_DATA).
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "cuzk/circuits/filecoin/porep_circuit.hpp"
#include "cuzk/circuits/filecoin/post_circuit.hpp"
#include "cuzk/circuits/filecoin/update_circuit.hpp"
#include "cuzk/filecoin/snap_params.hpp"
#include "cuzk/r1cs/checksum.hpp"
#include "cuzk/r1cs/pce_compact_cache.hpp"
#include "cuzk/r1cs/pce_compact_recorder.hpp"

namespace cuzk::circuits::filecoin {
namespace {

namespace fc = cuzk::filecoin;
namespace fs = std::filesystem;

std::uint64_t circuit_digest(const R1csMatrices& m) {
  std::vector<std::uint64_t> words = {m.num_inputs, m.num_aux, m.num_constraints};
  for (const SparseMatrix* x : {&m.a, &m.b, &m.c}) {
    for (std::size_t row = 0; row < m.num_constraints; ++row) {
      x->for_each_term(row, [&](std::uint64_t col, const Fr& coeff) {
        words.push_back(row);
        words.push_back(col);
        for (std::uint64_t w : coeff.to_canonical()) words.push_back(w);
      });
    }
  }
  return checksum64(words.data(), words.size() * sizeof(std::uint64_t));
}

std::uint64_t form_digest(const CompactR1cs& c, const std::string& name) {
  const fs::path path = fs::temp_directory_path() /
                        ("cuzk_identity_" + name + "_" + std::to_string(::getpid()) + ".pcec");
  const Status s = save_compact_cache(path.string(), c, 0);
  EXPECT_TRUE(s.ok()) << s.to_string();
  std::ifstream in(path, std::ios::binary);
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)),
                                std::istreambuf_iterator<char>());
  fs::remove(path);
  return checksum64(bytes.data(), bytes.size());
}

void expect_pinned(const char* name, Circuit& circuit, std::uint64_t want_circuit,
                   std::uint64_t want_form) {
  SCOPED_TRACE(name);
  auto c = record_compact(circuit);
  ASSERT_TRUE(c.ok()) << c.status().to_string();
  const std::uint64_t got_circuit = circuit_digest(compact_to_matrices(*c));
  const std::uint64_t got_form = form_digest(*c, name);
  std::printf("%s: %llu rows, circuit digest 0x%016llx, form digest 0x%016llx\n", name,
              static_cast<unsigned long long>(c->num_constraints),
              static_cast<unsigned long long>(got_circuit),
              static_cast<unsigned long long>(got_form));
  EXPECT_EQ(got_circuit, want_circuit) << "the circuit's constraints changed";
  EXPECT_EQ(got_form, want_form) << "the compact form changed";
}

TEST(PceCompactIdentity, Porep2KiB) {
  PorepCircuit circuit(porep_circuit_shape(fc::seal_proof("StackedDrg2KiBV1_1").value()));
  expect_pinned("porep", circuit, 0x507df4226cfa7f7aULL, 0xdbef59f188c5141eULL);
}

TEST(PceCompactIdentity, WinningPost2KiB) {
  PostCircuit circuit(
      post_circuit_params(fc::post_proof("StackedDrgWinning2KiBV1").value()).value());
  expect_pinned("winning", circuit, 0xa21c173e71e0fd83ULL, 0xe6f660517ee0894dULL);
}

TEST(PceCompactIdentity, WindowPost2KiB) {
  PostCircuit circuit(
      post_circuit_params(fc::post_proof("StackedDrgWindow2KiBV1").value()).value());
  expect_pinned("window", circuit, 0x59a55b6e9cae2e06ULL, 0x50d603b16cb68f8aULL);
}

TEST(PceCompactIdentity, SnapDeals2KiB) {
  const std::uint64_t nodes = 1u << 6;
  const fc::SnapParams p = fc::snap_params(nodes).value();
  UpdateCircuit circuit(UpdatePublic{.nodes = nodes, .k = 0, .h = p.h_default});
  expect_pinned("snap", circuit, 0xb7a28c9059d251d7ULL, 0x74556cbcf09457e2ULL);
}

}  // namespace
}  // namespace cuzk::circuits::filecoin
