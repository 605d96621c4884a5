// FallbackPoSt at production size (label slow; minutes each on the 2-core dev VM):
//   * the 32 GiB and 64 GiB WindowPoSt circuits' counts (FORMATS.md §4.1: 125,279,217 constraints
//     with 25,840 inputs incl. ONE — rust-fil-proofs circuitinfo; 129,887,900 / 25,301 —
//     filecoin-proofs constants.rs comment);
//   * Curio's real 32 GiB WindowPoSt vanilla proof (CUZK_FILECOIN_DATA/curio-32gib-post: sector 1
//     of f01000, StackedDrgWindow32GiBV1, randomness 32 zero bytes), padded to 2,349 sectors as
//     filecoin-proofs pads a short partition, satisfies the circuit (TestConstraintSystem without
//     per-constraint names), and its inputs are generate_public_inputs'; with one leaf changed the
//     circuit fails at that challenge's root check;
//   * witness-only synthesis of that partition: time and assignment size printed (docs/perf).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>

#include "cuzk/circuits/filecoin/circuit_info.hpp"
#include "cuzk/circuits/filecoin/post_circuit.hpp"
#include "cuzk/filecoin/post_prove.hpp"
#include "cuzk/filecoin/post_verify.hpp"
#include "cuzk/r1cs/test_cs.hpp"
#include "cuzk/r1cs/witness_cs.hpp"

namespace cuzk::circuits::filecoin {
namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

TEST(PostCircuitSlow, Window32GiBAnd64GiBCounts) {
  const struct {
    const char* proof;
    std::uint64_t constraints, inputs_with_one;
  } cases[] = {
      {"StackedDrgWindow32GiBV1", 125'279'217, 25'840},
      {"StackedDrgWindow64GiBV1_2", 129'887'900, 25'301},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.proof);
    const auto t0 = std::chrono::steady_clock::now();
    PostCircuit circuit(post_circuit_params(cuzk::filecoin::post_proof(c.proof).value()).value());
    auto info = circuit_info(circuit);
    ASSERT_TRUE(info.ok()) << info.status().to_string();
    EXPECT_EQ(info->constraints, c.constraints);
    EXPECT_EQ(info->public_inputs + 1, c.inputs_with_one);
    std::printf("%s: %llu constraints, %llu aux, counted in %.1f s\n", c.proof,
                static_cast<unsigned long long>(info->constraints),
                static_cast<unsigned long long>(info->aux), seconds_since(t0));
  }
}

// Public info of curio-32gib-post (postpub.json): proof type 8 = StackedDrgWindow32GiBV1,
// sector 1, randomness 32 zero bytes; comm_r = the digest of SealedCID
// bagboea4b5abcbx3jccdohrttzfneleehcpkmle4oltwuh4q3rcf5tpdodaoj6mtl (fil-commitment-sealed,
// poseidon-bls12_381-a2-fc1), as the data side's post_verify_test decodes it.
constexpr const char* kCurioCommR =
    "df691086e3c673c95a45908713d4c5938e5ced43f21b888bd9bc6e181c9f326b";
constexpr std::uint64_t kCurioSectorId = 1;

struct CurioPartition {
  PostCircuitParams params;
  PostCircuitPublic pub;
  std::vector<PostSectorProof> proofs;
};

// Returns false (with a failure recorded) when the file cannot be read.
bool curio_partition(const char* dir, CurioPartition& out) {
  std::ifstream f(std::string(dir) + "/curio-32gib-post/post.vproof", std::ios::binary);
  const std::vector<std::uint8_t> bytes{std::istreambuf_iterator<char>(f), {}};
  auto vanilla = cuzk::filecoin::read_post_sector_proof(bytes);
  EXPECT_TRUE(vanilla.ok()) << vanilla.status().to_string();
  if (!vanilla.ok()) return false;
  const PostProof proof = cuzk::filecoin::post_proof("StackedDrgWindow32GiBV1").value();
  const PostPublicSector sector{kCurioSectorId,
                                cuzk::filecoin::parse_hex32(kCurioCommR, "comm_r").value()};
  // The data side accepts it first.
  Status ok = cuzk::filecoin::verify_post_vanilla(proof, Bytes32{}, {&sector, 1}, {&*vanilla, 1});
  EXPECT_TRUE(ok.ok()) << ok.to_string();
  out.params = post_circuit_params(proof).value();
  out.pub.randomness = Bytes32{};
  out.pub.sectors = {sector};
  out.pub.partition = 0;
  auto proofs = cuzk::filecoin::window_post_partition_proof(proof, {&*vanilla, 1}, 0);
  EXPECT_TRUE(proofs.ok()) << proofs.status().to_string();
  if (!proofs.ok()) return false;
  out.proofs = std::move(*proofs);
  EXPECT_EQ(out.proofs.size(), 2349u);
  return true;
}

TEST(PostCircuitSlow, CurioRealProofSatisfies32GiBWindow) {
  const char* dir = std::getenv("CUZK_FILECOIN_DATA");
  if (!dir) GTEST_SKIP() << "CUZK_FILECOIN_DATA is unset: the real Curio PoSt proof is not read";
  CurioPartition p;
  ASSERT_TRUE(curio_partition(dir, p));
  auto circuit = PostCircuit::create(p.params, p.pub, p.proofs);
  ASSERT_TRUE(circuit.ok()) << circuit.status().to_string();
  const auto t0 = std::chrono::steady_clock::now();
  {
    TestConstraintSystem cs({.keep_names = false});
    ASSERT_TRUE(synthesize_circuit(*circuit, cs).ok());
    std::printf("TestConstraintSystem: %.1f s, %zu constraints, %zu aux\n", seconds_since(t0),
                cs.num_constraints(), cs.num_aux());
    EXPECT_TRUE(cs.is_satisfied()) << *cs.which_unsatisfied();
    EXPECT_EQ(cs.num_constraints() - cs.num_inputs(), 125'279'217u);
    EXPECT_EQ(cs.num_inputs(), 25'840u);
    auto generated = post_public_inputs(p.params, p.pub);
    ASSERT_TRUE(generated.ok()) << generated.status().to_string();
    ASSERT_EQ(generated->size() + 1, cs.inputs().size());
    EXPECT_TRUE(std::equal(generated->begin(), generated->end(), cs.inputs().begin() + 1));
  }
  // A changed leaf of challenge 7 in circuit sector 0 (a padded copy of the same sector).
  p.proofs[0].inclusion_proofs[7].leaf[5] ^= 1;
  auto bad = PostCircuit::create(p.params, p.pub, p.proofs);
  ASSERT_TRUE(bad.ok());
  TestConstraintSystem cs({.keep_names = false});
  ASSERT_TRUE(synthesize_circuit(*bad, cs).ok());
  EXPECT_EQ(cs.which_unsatisfied().value_or(""),
            "outer namespace/sector_0/challenge_inclusion_7/enforce root is correct");
}

TEST(PostCircuitSlow, CurioWitnessSynthesisTime) {
  const char* dir = std::getenv("CUZK_FILECOIN_DATA");
  if (!dir) GTEST_SKIP() << "CUZK_FILECOIN_DATA is unset: the real Curio PoSt proof is not read";
  CurioPartition p;
  ASSERT_TRUE(curio_partition(dir, p));
  auto t0 = std::chrono::steady_clock::now();
  auto circuit = PostCircuit::create(p.params, p.pub, p.proofs);
  ASSERT_TRUE(circuit.ok()) << circuit.status().to_string();
  const double create_s = seconds_since(t0);
  t0 = std::chrono::steady_clock::now();
  WitnessConstraintSystem cs({.reserve_aux = 126'902'376, .num_inputs_hint = 25'840});
  ASSERT_TRUE(synthesize_circuit(*circuit, cs).ok());
  const double synth_s = seconds_since(t0);
  std::printf(
      "32 GiB WindowPoSt partition: create %.2f s, witness synthesis %.1f s, %zu inputs, "
      "%zu aux\n",
      create_s, synth_s, cs.num_inputs(), cs.num_aux());
  auto generated = post_public_inputs(p.params, p.pub);
  ASSERT_TRUE(generated.ok());
  ASSERT_EQ(generated->size() + 1, cs.inputs().size());
  EXPECT_TRUE(std::equal(generated->begin(), generated->end(), cs.inputs().begin() + 1));
}

}  // namespace
}  // namespace cuzk::circuits::filecoin
