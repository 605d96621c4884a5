// A Filecoin family end to end: WindowPoSt and WinningPoSt 2 KiB jobs built from the venus sectors
// (CUZK_FILECOIN_DATA) proved by the engine through Groth16Prover, on the CPU backend, with a
// registry of their own. The engine proves from the family's compact form (a/b/c by
// pce_compact_evaluate_into, the key checked against its counts and densities); the key is a
// seeded setup over the plain recording of the same circuit (record_matrices) written as
// a bellperson .params under the v28 name (a benchmark key: the real 2 KiB parameters are not at
// hand), so the key store finds it by name, checks it against the circuit and the finalizer
// self-verifies every partition with the family's public inputs (WinningPoSt's larger setup is a
// disabled test that the slow-labelled CTest entry runs). The 192-byte proof then
// verifies against the key's VK with partition_public_inputs of the public data alone, and not
// with another randomness. PoRep (2.7 M rows) and SnapDeals (1.7 M) are left out: a setup of
// that size takes minutes on this VM.
#include <gtest/gtest.h>

#include <chrono>

#include "cuzk/circuits/filecoin/filecoin_family_test_util.hpp"
#include "cuzk/circuits/filecoin/filecoin_public_data.hpp"
#include "cuzk/circuits/filecoin/post_family.hpp"
#include "cuzk/engine/engine.hpp"
#include "cuzk/engine/groth16_prover.hpp"
#include "cuzk/formats/bellperson.hpp"
#include "cuzk/groth16/rng.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/verify.hpp"
#include "cuzk/r1cs/matrices.hpp"

namespace cuzk::circuits::filecoin {
namespace {

namespace fc = cuzk::filecoin;
namespace fs = std::filesystem;
using namespace testing;

// Proves |req| with |fam| (of |kind|) in an engine of its own; returns the proof and checks it
// against the key's VK with |pub|'s inputs, and not with |other|'s.
template <class Public>
void expect_engine_proves(fc::PostKind kind, const JobRequest& req, const Public& pub,
                          const Public& other, const std::string& name) {
  SCOPED_TRACE(name);
  const fs::path params = params_dir_with(name + "_params", {});
  const fs::path cache = params_dir_with(name + "_cache", {});
  const FilecoinFamilyOptions opt{.params_dir = params.string(), .cache_dir = cache.string()};
  auto fam = std::make_shared<PostFamily>(kind, opt);
  const fc::ParameterSet set = parameter_set(pub);
  const std::string key_id = filecoin_key_id(set);
  // Without its key the job is refused at plan, naming the file.
  const Status missing = fam->plan(req).status();
  EXPECT_EQ(missing.code(), Errc::not_found);
  EXPECT_NE(missing.message().find(set.params_file()), std::string::npos) << missing.to_string();
  ThreadPool pool(2);
  {
    auto matrices = fam->record_matrices(key_id);
    ASSERT_TRUE(matrices.ok()) << matrices.status().to_string();
    SeededRng rng(0x66616d696c79ULL);
    auto pk = setup(*matrices, rng, {.pool = &pool});
    ASSERT_TRUE(pk.ok()) << pk.status().to_string();
    auto bytes = write_params(*pk, &pool);
    ASSERT_TRUE(bytes.ok());
    std::ofstream(params / set.params_file(), std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes->data()),
               static_cast<std::streamsize>(bytes->size()));
  }
  auto reg = std::make_shared<Registry>();
  ASSERT_TRUE(reg->add(fam).ok());
  auto pk = read_params((params / set.params_file()).string());
  ASSERT_TRUE(pk.ok()) << pk.status().to_string();
  const PreparedVerifyingKey pvk = prepare_verifying_key(pk->vk);
  // With compact witnesses (the default: the CPU backend expands them on the host in its device
  // stage) and without (z, a, b, c synthesized on the host): both proofs self-verify and verify.
  for (const bool compact : {true, false}) {
    SCOPED_TRACE(compact ? "compact witness" : "vectors");
    engine::Groth16ProverOptions o;
    o.cache_dir = cache.string();
    o.threads = 2;
    o.families = reg;
    o.compact_witness = compact;
    auto prover = engine::Groth16Prover::create(o);
    ASSERT_TRUE(prover.ok()) << prover.status().to_string();
    std::shared_ptr<engine::Groth16Prover> shared(std::move(*prover));
    auto e = engine::Engine::create(engine::EngineOptions{}, {shared});
    ASSERT_TRUE(e.ok()) << e.status().to_string();
    auto s = (*e)->submit(req);
    ASSERT_TRUE(s.ok()) << s.status().to_string();
    auto out = (*e)->await(req.request_id);
    ASSERT_TRUE(out.ok()) << out.status().to_string();
    ASSERT_EQ(out->status, engine::AwaitStatus::completed) << out->error;
    const engine::EngineStatus st = (*e)->status();
    // The same job again: its partition's z, a, b, c are the first one's buffers, kept by the
    // prover (on the compact path the CPU backend takes them for its host expansion).
    const std::uint64_t reused = shared->kept_buffers().reused();
    JobRequest again = req;
    again.request_id += "-again";
    ASSERT_TRUE((*e)->submit(again).ok());
    auto out2 = (*e)->await(again.request_id);
    ASSERT_TRUE(out2.ok()) << out2.status().to_string();
    ASSERT_EQ(out2->status, engine::AwaitStatus::completed) << out2->error;
    EXPECT_GE(shared->kept_buffers().reused() - reused, compact ? 4u : 3u);
    (*e)->shutdown(std::chrono::seconds(5));
    ASSERT_EQ(out->proof.size(), 192u);
    EXPECT_EQ(st.partitions_compact, compact ? 1u : 0u);
    EXPECT_EQ(st.partitions_synthesized, 1u);
    EXPECT_EQ(st.partition_upload_bytes, 0u);  // the CPU backend reads host memory in place
    EXPECT_GT(st.synthesis_cpu_seconds, 0.0);

    auto proofs = parse_proofs(
        std::span(reinterpret_cast<const std::uint8_t*>(out->proof.data()), out->proof.size()));
    ASSERT_TRUE(proofs.ok() && proofs->size() == 1);
    auto inputs = partition_public_inputs(pub, 0);
    ASSERT_TRUE(inputs.ok()) << inputs.status().to_string();
    EXPECT_TRUE(*verify(pvk, *inputs, (*proofs)[0]));
    auto wrong = partition_public_inputs(other, 0);
    ASSERT_TRUE(wrong.ok());
    EXPECT_FALSE(*verify(pvk, *wrong, (*proofs)[0]));
  }
  fs::remove_all(params);
  fs::remove_all(cache);
}

fc::Bytes32 bytes32_of(const std::string& s) {
  fc::Bytes32 b{};
  std::copy(s.begin(), s.end(), b.begin());
  return b;
}

TEST(FilecoinFamilyProve, WindowPostPartitionThroughTheEngine) {
  CUZK_REQUIRE_FILECOIN_DATA();
  const Venus* v = venus();
  ASSERT_NE(v, nullptr);
  // Partition 1 of sectors [0, 1, 1, 0]: sectors 1 and 0 (their ids and comm_r).
  WindowPostPublicData pub{.proof = fc::post_proof_by_number(10).value(),
                           .randomness = bytes32_of(v->window1.randomness),
                           .prover_id = fc::prover_id_of_actor(kMiner),
                           .sectors = {{1, fc::parse_hex32(kCommR[1], "comm_r").value()},
                                       {0, fc::parse_hex32(kCommR[0], "comm_r").value()}},
                           .partition_index = 1};
  WindowPostPublicData other = pub;
  other.randomness[2] ^= 1;
  expect_engine_proves(fc::PostKind::window, v->window1, pub, other, "window");
}

// About a minute of CPU here (the 131,072-row setup): run by circuits_filecoin_family_prove_slow_test.
TEST(FilecoinFamilyProve, DISABLED_WinningPostThroughTheEngine) {
  CUZK_REQUIRE_FILECOIN_DATA();
  const Venus* v = venus();
  ASSERT_NE(v, nullptr);
  const std::uint64_t id = v->winning.sector_number;
  WinningPostPublicData pub{.proof = fc::post_proof_by_number(0).value(),
                            .randomness = bytes32_of(v->winning.randomness),
                            .prover_id = fc::prover_id_of_actor(kMiner),
                            .sector = {id, fc::parse_hex32(kCommR[id], "comm_r").value()}};
  WinningPostPublicData other = pub;
  other.sector.sector_id = 1 - id;
  expect_engine_proves(fc::PostKind::winning, v->winning, pub, other, "winning");
}

}  // namespace
}  // namespace cuzk::circuits::filecoin
