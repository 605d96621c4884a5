// The four Filecoin proof kinds over gRPC, as Curio's client sends them (REFERENCE-CUZK.md §1):
// a daemon in this process (engine + Groth16Prover over the built-in families + GrpcServer on a
// unix socket, CPU backend) proves 2 KiB requests built from the venus sectors
// (CUZK_FILECOIN_DATA; filecoin_family_test_util.hpp). Keys are seeded setups over the families'
// recorded circuits written as bellperson .params under their v28 names in the daemon's parameter
// directory (a benchmark key: the real 2 KiB parameters are not at hand), so the daemon finds
// them by name. Each proof is checked with the key's VK and the public inputs of the public data
// alone (filecoin_public_data.hpp), and fails with one public value changed.
//
// CI (≈ 1 min on 2 cores, of which ≈ 20 s the two PoSt setups): WindowPoSt and WinningPoSt
// proved; bad inputs refused at submit (INVALID_ARGUMENT / NOT_FOUND naming what is wrong) while a
// job submitted before them completes; a WinningPoSt (CRITICAL by default) finishes while bench
// jobs queued before it still wait. The PoRep and SnapDeals setups take minutes here (2.7 M /
// 1.7 M constraints): those tests are DISABLED_ and run by the slow-labelled CTest entry.
#include <gtest/gtest.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <grpcpp/grpcpp.h>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>

#include "cuzk/circuits/filecoin/filecoin_family_test_util.hpp"
#include "cuzk/circuits/filecoin/filecoin_public_data.hpp"
#include "cuzk/circuits/filecoin/porep_family.hpp"
#include "cuzk/circuits/filecoin/post_family.hpp"
#include "cuzk/circuits/filecoin/update_family.hpp"
#include "cuzk/engine/engine.hpp"
#include "cuzk/engine/groth16_prover.hpp"
#include "cuzk/formats/bellperson.hpp"
#include "cuzk/groth16/rng.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/verify.hpp"
#include "cuzk/r1cs/matrices.hpp"
#include "cuzk/server/grpc_server.hpp"
#include "cuzk/server/prover.grpc.pb.h"

namespace cuzk::server {
namespace {

namespace pb = ::cuzk::v1;
namespace fs = std::filesystem;
namespace fc = cuzk::filecoin;
namespace cf = cuzk::circuits::filecoin;
using cf::testing::kCommR;
using cf::testing::kMiner;
using cf::testing::Venus;
using circuits::JobRequest;
using circuits::ProofKind;

const bool kQuiet = (spdlog::set_level(spdlog::level::warn), true);

// A JobRequest as Curio's Go client puts it on the wire (field for field, REFERENCE-CUZK.md §1).
pb::SubmitProofRequest to_wire(const JobRequest& r, const std::string& id) {
  pb::SubmitProofRequest m;
  m.set_request_id(id);
  m.set_proof_kind(static_cast<pb::ProofKind>(r.kind));
  m.set_sector_size(r.sector_size);
  m.set_registered_proof(r.registered_proof);
  m.set_priority(static_cast<pb::Priority>(r.priority));
  m.set_vanilla_proof(r.vanilla_proof);
  for (const auto& v : r.vanilla_proofs) m.add_vanilla_proofs(v);
  m.set_sector_number(r.sector_number);
  m.set_miner_id(r.miner_id);
  m.set_randomness(r.randomness);
  m.set_partition_index(r.partition_index);
  m.set_comm_r_old(r.comm_r_old);
  m.set_comm_r_new(r.comm_r_new);
  m.set_comm_d_new(r.comm_d_new);
  m.set_update_h(r.update_h);
  return m;
}

fc::Bytes32 bytes32_of(const std::string& s) {
  fc::Bytes32 b{};
  std::copy(s.begin(), s.end(), b.begin());
  return b;
}

// A seeded Groth16 key for |set|'s circuit, recorded through |family|, written as
// <dir>/<v28 name>.params and its verifying key as .vk (what a verifier holds).
void write_seeded_key(const cf::FilecoinFamily& family, const fc::ParameterSet& set,
                      const fs::path& dir) {
  ThreadPool pool(2);
  // Setup needs the plain matrices; the family itself holds only the compact form.
  auto matrices = family.record_matrices(cf::filecoin_key_id(set));
  ASSERT_TRUE(matrices.ok()) << matrices.status().to_string();
  SeededRng rng(0x6772706373657475ULL);
  auto pk = setup(*matrices, rng, {.pool = &pool});
  ASSERT_TRUE(pk.ok()) << pk.status().to_string();
  auto bytes = write_params(*pk, &pool);
  ASSERT_TRUE(bytes.ok()) << bytes.status().to_string();
  std::ofstream(dir / set.params_file(), std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes->data()),
             static_cast<std::streamsize>(bytes->size()));
  const std::vector<std::uint8_t> vk = write_vk(pk->vk);
  std::ofstream(dir / set.vk_file(), std::ios::binary)
      .write(reinterpret_cast<const char*>(vk.data()), static_cast<std::streamsize>(vk.size()));
}

// The daemon under test: parameter directory, engine, server, a client stub.
struct FilecoinDaemon {
  fs::path dir, params, cache;
  std::unique_ptr<engine::Engine> engine;
  std::unique_ptr<GrpcServer> server;
  std::unique_ptr<pb::ProvingEngine::Stub> stub;
  bool compact_witness = true;  // Groth16ProverOptions::compact_witness

  explicit FilecoinDaemon(const std::string& tag) {
    dir = fs::temp_directory_path() / ("cuzk_filgrpc_" + tag + "_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    params = dir / "params";
    cache = dir / "cache";
    fs::create_directories(params);
    fs::create_directories(cache);
  }
  // Starts the daemon over the keys now in |params|.
  void start() {
    engine::Groth16ProverOptions o;
    o.cache_dir = cache.string();
    o.filecoin_params_dir = params.string();
    o.threads = 2;
    o.compact_witness = compact_witness;
    auto prover = engine::Groth16Prover::create(o);
    ASSERT_TRUE(prover.ok()) << prover.status().to_string();
    std::shared_ptr<engine::Groth16Prover> shared(std::move(*prover));
    // One device worker: the order of the device stages is the order of the queue.
    auto e = engine::Engine::create(
        engine::EngineOptions{.synthesis_workers = 1, .gpu_workers_per_device = 1}, {shared});
    ASSERT_TRUE(e.ok()) << e.status().to_string();
    engine = std::move(*e);
    const std::string sock = (dir / "cuzk.sock").string();
    auto s = GrpcServer::start(*engine, ServerOptions{.listen = {"unix://" + sock}});
    ASSERT_TRUE(s.ok()) << s.status().to_string();
    server = std::move(*s);
    grpc::ChannelArguments args;
    args.SetMaxSendMessageSize(256 << 20);
    args.SetMaxReceiveMessageSize(256 << 20);
    stub = pb::ProvingEngine::NewStub(
        grpc::CreateCustomChannel("unix:" + sock, grpc::InsecureChannelCredentials(), args));
  }
  // Stops the daemon and starts another over the same keys and cache.
  void restart(bool compact) {
    if (server) server->shutdown(500);
    server.reset();
    if (engine) engine->shutdown(std::chrono::milliseconds(0));
    engine.reset();
    compact_witness = compact;
    start();
  }
  ~FilecoinDaemon() {
    if (server) server->shutdown(500);
    if (engine) engine->shutdown(std::chrono::milliseconds(0));
    fs::remove_all(dir);
  }

  grpc::Status submit(const pb::SubmitProofRequest& req, pb::SubmitProofResponse* resp = nullptr) {
    pb::SubmitProofResponse ignored;
    grpc::ClientContext ctx;
    return stub->SubmitProof(&ctx, req, resp ? resp : &ignored);
  }
  pb::AwaitProofResponse await(const std::string& id, std::uint64_t timeout_ms = 0) {
    grpc::ClientContext ctx;
    pb::AwaitProofRequest ar;
    ar.set_job_id(id);
    ar.set_timeout_ms(timeout_ms);
    pb::AwaitProofResponse resp;
    const grpc::Status st = stub->AwaitProof(&ctx, ar, &resp);
    EXPECT_TRUE(st.ok()) << st.error_message();
    return resp;
  }
  // Submit + await; the proof bytes (empty, with a test failure, when the job did not complete).
  std::string prove(const pb::SubmitProofRequest& req) {
    const grpc::Status st = submit(req);
    EXPECT_TRUE(st.ok()) << st.error_message();
    if (!st.ok()) return {};
    const pb::AwaitProofResponse r = await(req.request_id());
    EXPECT_EQ(r.status(), pb::AwaitProofResponse::COMPLETED) << r.error_message();
    return r.proof();
  }
};

// Whether |proof| (partition proofs in order) verifies against the .vk in |params| of |pub|'s
// circuit with |pub|'s public inputs, partition by partition.
template <class Public>
bool verifies(const fs::path& params, const Public& pub, const std::string& proof) {
  std::ifstream f(params / cf::parameter_set(pub).vk_file(), std::ios::binary);
  const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(f)),
                                        std::istreambuf_iterator<char>());
  auto vk = parse_vk(bytes);
  EXPECT_TRUE(vk.ok()) << vk.status().to_string();
  if (!vk.ok()) return false;
  const PreparedVerifyingKey pvk = prepare_verifying_key(*vk);
  auto proofs =
      parse_proofs(std::span(reinterpret_cast<const std::uint8_t*>(proof.data()), proof.size()));
  EXPECT_TRUE(proofs.ok());
  if (!proofs.ok() || proofs->size() != cf::partition_count(pub)) return false;
  for (unsigned k = 0; k < proofs->size(); ++k) {
    auto inputs = cf::partition_public_inputs(pub, k);
    EXPECT_TRUE(inputs.ok()) << inputs.status().to_string();
    if (!inputs.ok() || !*verify(pvk, *inputs, (*proofs)[k])) return false;
  }
  return true;
}

// The public data a verifier holds for each venus request (filecoin_family_test_util.hpp).
cf::WindowPostPublicData window1_public(const Venus& v) {
  // Partition 1 of sectors [0, 1, 1, 0]: sectors 1 and 0.
  return {.proof = fc::post_proof_by_number(10).value(),
          .randomness = bytes32_of(v.window1.randomness),
          .prover_id = fc::prover_id_of_actor(kMiner),
          .sectors = {{1, fc::parse_hex32(kCommR[1], "comm_r").value()},
                      {0, fc::parse_hex32(kCommR[0], "comm_r").value()}},
          .partition_index = 1};
}

cf::WinningPostPublicData winning_public(const Venus& v) {
  const std::uint64_t id = v.winning.sector_number;
  return {.proof = fc::post_proof_by_number(0).value(),
          .randomness = bytes32_of(v.winning.randomness),
          .prover_id = fc::prover_id_of_actor(kMiner),
          .sector = {id, fc::parse_hex32(kCommR[id], "comm_r").value()}};
}

cf::FilecoinFamilyOptions family_options(const FilecoinDaemon& d) {
  return {.params_dir = d.params.string(), .cache_dir = d.cache.string()};
}

// One daemon with the 2 KiB WindowPoSt and WinningPoSt keys for the CI tests (their setups,
// ≈ 4 s and ≈ 16 s here, made once).
class FilecoinGrpc : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!cuzk::test::filecoin_data_dir()) return;
    daemon_ = new FilecoinDaemon("post");
    cf::PostFamily window(fc::PostKind::window, family_options(*daemon_));
    cf::PostFamily winning(fc::PostKind::winning, family_options(*daemon_));
    write_seeded_key(window, fc::post_parameters(fc::PostKind::window, fc::SectorSize::s2KiB),
                     daemon_->params);
    write_seeded_key(winning, fc::post_parameters(fc::PostKind::winning, fc::SectorSize::s2KiB),
                     daemon_->params);
    daemon_->start();
  }
  static void TearDownTestSuite() {
    delete daemon_;
    daemon_ = nullptr;
  }
  void SetUp() override {
    CUZK_REQUIRE_FILECOIN_DATA();
    ASSERT_NE(daemon_, nullptr);
    ASSERT_NE(daemon_->server, nullptr);
    v_ = cf::testing::venus();
    ASSERT_NE(v_, nullptr);
  }
  static FilecoinDaemon* daemon_;
  const Venus* v_ = nullptr;
};
FilecoinDaemon* FilecoinGrpc::daemon_ = nullptr;

TEST_F(FilecoinGrpc, WindowPostPartitionProvedAndVerifiedFromPublicData) {
  const std::string proof = daemon_->prove(to_wire(v_->window1, "window-1"));
  ASSERT_EQ(proof.size(), 192u);
  const cf::WindowPostPublicData pub = window1_public(*v_);
  EXPECT_TRUE(verifies(daemon_->params, pub, proof));
  cf::WindowPostPublicData other = pub;
  other.randomness[3] ^= 1;
  EXPECT_FALSE(verifies(daemon_->params, other, proof));
  other = pub;
  std::swap(other.sectors[0], other.sectors[1]);
  EXPECT_FALSE(verifies(daemon_->params, other, proof));
}

TEST_F(FilecoinGrpc, WinningPostProvedAndVerifiedFromPublicData) {
  const std::string proof = daemon_->prove(to_wire(v_->winning, "winning-1"));
  ASSERT_EQ(proof.size(), 192u);
  const cf::WinningPostPublicData pub = winning_public(*v_);
  EXPECT_TRUE(verifies(daemon_->params, pub, proof));
  cf::WinningPostPublicData other = pub;
  other.sector.sector_id = 1 - other.sector.sector_id;
  EXPECT_FALSE(verifies(daemon_->params, other, proof));
}

// Bad inputs are refused at submit, each naming what is wrong, and nothing of theirs is queued;
// a job submitted before them completes.
TEST_F(FilecoinGrpc, BadInputsRefusedAtSubmitWhileOtherJobsComplete) {
  ASSERT_TRUE(daemon_->submit(to_wire(v_->window0, "bad-inputs-good-job")).ok());
  struct Case {
    std::string name;
    pb::SubmitProofRequest req;
    grpc::StatusCode code;
    std::string says;  // a part of the message
  };
  std::vector<Case> cases;
  {  // a truncated C1
    pb::SubmitProofRequest r = to_wire(v_->porep, "bad-c1");
    r.set_vanilla_proof(r.vanilla_proof().substr(0, r.vanilla_proof().size() / 2));
    cases.push_back(
        {"truncated C1", r, grpc::StatusCode::INVALID_ARGUMENT, "vanilla_proof (C1 envelope)"});
  }
  {  // a C1 of sector 0 submitted as sector 1 (its envelope says 1 too)
    JobRequest other = cf::testing::porep_request(v_->c1, 1);
    cases.push_back({"C1 of another sector", to_wire(other, "bad-c1-sector"),
                     grpc::StatusCode::INVALID_ARGUMENT, "the C1 is not of sector 1"});
  }
  {  // a wrong sector size
    pb::SubmitProofRequest r = to_wire(v_->window1, "bad-size");
    r.set_sector_size(8u << 20);
    cases.push_back(
        {"wrong sector size", r, grpc::StatusCode::INVALID_ARGUMENT, "sector_size 8388608"});
  }
  {  // C1 with a sector size that is not its own
    pb::SubmitProofRequest r = to_wire(v_->porep, "bad-c1-size");
    r.set_sector_size(32ull << 30);
    cases.push_back(
        {"C1, wrong sector size", r, grpc::StatusCode::INVALID_ARGUMENT, "is not the C1's"});
  }
  {  // sector 0's vanilla proof labelled as sector 1 in partition 1 (sectors 1, 0)
    fc::FallbackPoStSectorProof p = v_->window0_vanilla[0];
    ASSERT_EQ(p.sector_id, 0u);
    p.sector_id = 1;
    pb::SubmitProofRequest r = to_wire(v_->window1, "bad-vanilla");
    r.set_vanilla_proofs(0, cf::testing::bytes_of(fc::write_post_sector_proof(p)));
    cases.push_back({"vanilla proof of another sector", r, grpc::StatusCode::INVALID_ARGUMENT,
                     "vanilla_proofs"});
  }
  {  // the WinningPoSt's vanilla proof labelled as the other sector's
    const std::string& bytes = v_->winning.vanilla_proofs[0];
    auto p = fc::read_post_sector_proof(
        std::span(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()));
    ASSERT_TRUE(p.ok()) << p.status().to_string();
    p->sector_id = 1 - p->sector_id;
    pb::SubmitProofRequest r = to_wire(v_->winning, "bad-winning-sector");
    r.set_sector_number(0);  // unset: the proof names the sector
    r.set_vanilla_proofs(0, cf::testing::bytes_of(fc::write_post_sector_proof(*p)));
    cases.push_back({"WinningPoSt proof of another sector", r, grpc::StatusCode::INVALID_ARGUMENT,
                     "vanilla_proofs"});
  }
  {  // sector_number that is not the WinningPoSt proof's sector
    pb::SubmitProofRequest r = to_wire(v_->winning, "bad-winning-number");
    r.set_sector_number(v_->winning.sector_number + 7);
    cases.push_back(
        {"WinningPoSt sector_number", r, grpc::StatusCode::INVALID_ARGUMENT, "sector_number"});
  }
  {  // missing randomness
    pb::SubmitProofRequest r = to_wire(v_->winning, "bad-randomness");
    r.clear_randomness();
    cases.push_back(
        {"missing randomness", r, grpc::StatusCode::INVALID_ARGUMENT, "randomness is missing"});
  }
  {  // a registered proof of another kind
    pb::SubmitProofRequest r = to_wire(v_->window1, "bad-proof-number");
    r.set_registered_proof(0);  // StackedDrgWinning2KiBV1
    cases.push_back(
        {"Winning number for Window", r, grpc::StatusCode::INVALID_ARGUMENT, "registered_proof"});
  }
  {  // a SnapDeals h the sector size does not allow (2 KiB: h = 1 alone), read from field 33
    JobRequest snap = v_->snap;
    snap.update_h = 2;
    cases.push_back({"SnapDeals h not allowed", to_wire(snap, "bad-snap-h"),
                     grpc::StatusCode::INVALID_ARGUMENT, "update_h 2 is not allowed"});
  }
  {  // keys this daemon does not have: refused at submit, naming the file it looked for
    const fc::ParameterSet porep = fc::porep_parameters(fc::SectorSize::s2KiB);
    const fc::ParameterSet update = fc::update_parameters(fc::SectorSize::s2KiB);
    cases.push_back({"PoRep key missing", to_wire(v_->porep, "no-porep-key"),
                     grpc::StatusCode::NOT_FOUND,
                     (daemon_->params / porep.params_file()).string()});
    cases.push_back({"SnapDeals key missing", to_wire(v_->snap, "no-snap-key"),
                     grpc::StatusCode::NOT_FOUND,
                     (daemon_->params / update.params_file()).string()});
  }
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const grpc::Status st = daemon_->submit(c.req);
    EXPECT_EQ(st.error_code(), c.code) << st.error_message();
    EXPECT_NE(st.error_message().find(c.says), std::string::npos) << st.error_message();
    // Nothing was queued under its id.
    grpc::ClientContext ctx;
    pb::AwaitProofRequest ar;
    ar.set_job_id(c.req.request_id());
    pb::AwaitProofResponse resp;
    EXPECT_EQ(daemon_->stub->AwaitProof(&ctx, ar, &resp).error_code(), grpc::StatusCode::NOT_FOUND);
  }
  const pb::AwaitProofResponse good = daemon_->await("bad-inputs-good-job");
  ASSERT_EQ(good.status(), pb::AwaitProofResponse::COMPLETED) << good.error_message();
  cf::WindowPostPublicData pub = window1_public(*v_);
  pub.sectors = {{0, fc::parse_hex32(kCommR[0], "comm_r").value()},
                 {1, fc::parse_hex32(kCommR[1], "comm_r").value()}};
  pub.partition_index = 0;
  EXPECT_TRUE(verifies(daemon_->params, pub, good.proof()));
}

// A WinningPoSt (CRITICAL by default) submitted behind a queue of bench partitions (NORMAL)
// overtakes them at every stage: it completes while the last bench job still waits.
TEST_F(FilecoinGrpc, WinningPostOvertakesQueuedPartitions) {
  {  // the keys loaded first, so that only the queue decides the order
    for (const std::string& id :
         {std::string("bench-16"),
          cf::filecoin_key_id(fc::post_parameters(fc::PostKind::winning, fc::SectorSize::s2KiB))}) {
      grpc::ClientContext ctx;
      pb::PreloadSrsRequest req;
      req.set_circuit_id(id);
      pb::PreloadSrsResponse resp;
      const grpc::Status st = daemon_->stub->PreloadSRS(&ctx, req, &resp);
      ASSERT_TRUE(st.ok()) << id << ": " << st.error_message();
    }
  }
  constexpr int kBenchJobs = 2;
  for (int i = 0; i < kBenchJobs; ++i) {
    pb::SubmitProofRequest r;
    r.set_request_id("queue-bench-" + std::to_string(i));
    r.set_circuit_id("bench-16");
    r.set_num_partitions(10);
    ASSERT_TRUE(daemon_->submit(r).ok());
  }
  pb::SubmitProofResponse sr;
  ASSERT_TRUE(daemon_->submit(to_wire(v_->winning, "queue-winning"), &sr).ok());
  EXPECT_EQ(sr.queue_position(), 0u);  // ahead of every bench job in the admission order
  const pb::AwaitProofResponse win = daemon_->await("queue-winning");
  ASSERT_EQ(win.status(), pb::AwaitProofResponse::COMPLETED) << win.error_message();
  std::printf(
      "WinningPoSt behind %d bench-16 partitions: queue %llu ms, synthesis %llu ms, "
      "device %llu ms, total %llu ms\n",
      kBenchJobs * 10, static_cast<unsigned long long>(win.queue_wait_ms()),
      static_cast<unsigned long long>(win.synthesis_ms()),
      static_cast<unsigned long long>(win.gpu_compute_ms()),
      static_cast<unsigned long long>(win.total_ms()));
  EXPECT_TRUE(verifies(daemon_->params, winning_public(*v_), win.proof()));
  // The last bench job's 10 partitions were all queued behind the WinningPoSt's one: it still
  // waits. Then the bench jobs are cancelled (their queued partitions dropped).
  const std::string last = "queue-bench-" + std::to_string(kBenchJobs - 1);
  EXPECT_EQ(daemon_->await(last, 1).status(), pb::AwaitProofResponse::TIMEOUT);
  for (int i = 0; i < kBenchJobs; ++i) {
    const std::string id = "queue-bench-" + std::to_string(i);
    grpc::ClientContext ctx;
    pb::CancelProofRequest req;
    req.set_job_id(id);
    pb::CancelProofResponse resp;
    ASSERT_TRUE(daemon_->stub->CancelProof(&ctx, req, &resp).ok());
    const pb::AwaitProofResponse r = daemon_->await(id);
    EXPECT_TRUE(r.status() == pb::AwaitProofResponse::CANCELLED ||
                r.status() == pb::AwaitProofResponse::COMPLETED)
        << r.error_message();
  }
  EXPECT_EQ(daemon_->await(last).status(), pb::AwaitProofResponse::CANCELLED);
}

// The parsed job is charged to the input budget beside the request's bytes: an engine whose
// input budget holds the request but not its parse refuses it at submit; one that holds both
// accepts it, and gives every byte back when the job ends.
TEST_F(FilecoinGrpc, ParsedInputIsChargedToTheInputBudget) {
  engine::Groth16ProverOptions o;
  o.cache_dir = daemon_->cache.string();
  o.filecoin_params_dir = daemon_->params.string();
  o.threads = 2;
  auto made = engine::Groth16Prover::create(o);
  ASSERT_TRUE(made.ok()) << made.status().to_string();
  std::shared_ptr<engine::Groth16Prover> prover(std::move(*made));
  JobRequest req = v_->window1;
  auto plan = prover->plan(req);
  ASSERT_TRUE(plan.ok()) << plan.status().to_string();
  ASSERT_NE(plan->parsed, nullptr);
  const std::uint64_t request = req.payload_bytes();
  const std::uint64_t parsed = plan->parsed->bytes();
  // The parse holds every 32-byte hash of the bincode proofs (and vectors' headers besides).
  EXPECT_GE(parsed, request * 9 / 10) << "request " << request << " B";
  for (bool room : {false, true}) {
    SCOPED_TRACE(room ? "room for both" : "room for the request only");
    auto e = engine::Engine::create(
        engine::EngineOptions{.input_budget = request + (room ? parsed : parsed / 2)}, {prover});
    ASSERT_TRUE(e.ok()) << e.status().to_string();
    req.request_id = room ? "charged" : "refused";
    auto s = (*e)->submit(req);
    if (!room) {
      EXPECT_EQ(s.status().code(), Errc::out_of_memory) << s.status().to_string();
      (*e)->shutdown(std::chrono::milliseconds(0));
      continue;
    }
    ASSERT_TRUE(s.ok()) << s.status().to_string();
    auto out = (*e)->await(req.request_id);
    ASSERT_TRUE(out.ok());
    EXPECT_EQ(out->status, engine::AwaitStatus::completed) << out->error;
    (*e)->shutdown(std::chrono::seconds(5));
    EXPECT_NE((*e)->metrics_text().find("cuzk_memory_budget_bytes{kind=\"inputs\"} 0"),
              std::string::npos);
  }
}

// PoRep C2 and SnapDeals over gRPC: minutes of setup each on 2 cores, run by the slow entry
// (filecoin_grpc_slow_test).
TEST(FilecoinGrpcSlow, DISABLED_PorepProvedAndVerifiedFromPublicData) {
  CUZK_REQUIRE_FILECOIN_DATA();
  const Venus* v = cf::testing::venus();
  ASSERT_NE(v, nullptr);
  FilecoinDaemon d("porep");
  cf::PorepFamily family(family_options(d));
  write_seeded_key(family, fc::porep_parameters(fc::SectorSize::s2KiB), d.params);
  cf::PorepPublicData pub{.proof = fc::seal_proof_by_number(0).value(),
                          .prover_id = fc::prover_id_of_actor(kMiner),
                          .sector_id = 0,
                          .ticket = v->c1.ticket,
                          .seed = v->c1.seed,
                          .comm_d = fc::parse_hex32(cf::testing::kCommD[0], "comm_d").value(),
                          .comm_r = fc::parse_hex32(kCommR[0], "comm_r").value()};
  // With compact witnesses (the default) and without: both proofs verify.
  for (const bool compact : {true, false}) {
    SCOPED_TRACE(compact ? "compact witness" : "vectors");
    if (compact)
      d.start();
    else
      d.restart(false);
    const std::string proof = d.prove(to_wire(v->porep, compact ? "porep-1" : "porep-2"));
    ASSERT_EQ(proof.size(), 192u);  // 2 KiB: one partition (32 GiB: 10, 1920 bytes)
    EXPECT_EQ(d.engine->status().partitions_compact, compact ? 1u : 0u);
    EXPECT_TRUE(verifies(d.params, pub, proof));
    cf::PorepPublicData other = pub;
    other.seed[0] ^= 1;
    EXPECT_FALSE(verifies(d.params, other, proof));
    other = pub;
    other.sector_id = 1;
    EXPECT_FALSE(verifies(d.params, other, proof));
  }
}

TEST(FilecoinGrpcSlow, DISABLED_SnapDealsProvedAndVerifiedFromPublicData) {
  CUZK_REQUIRE_FILECOIN_DATA();
  const Venus* v = cf::testing::venus();
  ASSERT_NE(v, nullptr);
  FilecoinDaemon d("snap");
  cf::UpdateFamily family(family_options(d));
  write_seeded_key(family, fc::update_parameters(fc::SectorSize::s2KiB), d.params);
  d.start();
  const std::string proof = d.prove(to_wire(v->snap, "snap-1"));
  ASSERT_EQ(proof.size(), 192u * v->snap.vanilla_proofs.size());
  cf::SnapPublicData pub{.proof = fc::update_proof_by_number(0).value(),
                         .comm_r_old = bytes32_of(v->snap.comm_r_old),
                         .comm_d_new = bytes32_of(v->snap.comm_d_new),
                         .comm_r_new = bytes32_of(v->snap.comm_r_new)};
  EXPECT_TRUE(verifies(d.params, pub, proof));
  cf::SnapPublicData other = pub;
  other.comm_d_new[1] ^= 1;
  EXPECT_FALSE(verifies(d.params, other, proof));
}

}  // namespace
}  // namespace cuzk::server
