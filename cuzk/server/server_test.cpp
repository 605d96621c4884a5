// gRPC tests on the FakeProver: a round trip of every RPC, malformed requests (bad protobuf bytes,
// oversize messages, garbage witness, unknown kinds) answered with errors while other jobs
// complete, per-client limits, TLS and mutual TLS, /metrics over HTTP, a bounded load test, and
// journal recovery of a daemon process killed with SIGKILL.
#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <spdlog/spdlog.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/grpcpp.h>
#include <grpcpp/impl/codegen/client_unary_call.h>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>
#include <regex>
#include <sstream>
#include <thread>

#include "cuzk/engine/fake_prover.hpp"
#include "cuzk/server/grpc_server.hpp"
#include "cuzk/server/http_metrics.hpp"
#include "cuzk/server/prover.grpc.pb.h"
#include "tests/support/engine_state.hpp"
#include "tests/support/wait_until.hpp"

namespace cuzk::server {
namespace {

namespace pb = ::cuzk::v1;
namespace fs = std::filesystem;
using namespace std::chrono_literals;
using engine::FakeStage;
using test::wait_until;

// Whether this build (and so the cuzkd beside it) runs under a sanitizer: their allocators keep
// freed memory in quarantine and their shadow memory counts in RSS, so RSS bounds do not hold.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif

// Job-level info logs would flood the test output.
const bool kQuiet = (spdlog::set_level(spdlog::level::warn), true);

fs::path temp_dir(const std::string& tag) {
  auto d = fs::temp_directory_path() / ("cuzk_" + tag + "_" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

pb::SubmitProofRequest job(const std::string& id, std::uint64_t seed, std::uint32_t parts,
                           pb::Priority p = pb::PRIORITY_UNSPECIFIED) {
  pb::SubmitProofRequest r;
  r.set_request_id(id);
  r.set_circuit_id("bench-10");
  r.set_num_partitions(parts);
  r.set_priority(p);
  r.set_vanilla_proof(engine::fake_input(seed));
  return r;
}

std::shared_ptr<grpc::Channel> channel(const std::string& target,
                                       std::shared_ptr<grpc::ChannelCredentials> creds = nullptr) {
  grpc::ChannelArguments args;
  args.SetMaxSendMessageSize(512 << 20);
  args.SetMaxReceiveMessageSize(512 << 20);
  return grpc::CreateCustomChannel(target, creds ? creds : grpc::InsecureChannelCredentials(),
                                   args);
}

struct Daemon {
  fs::path dir;
  std::shared_ptr<engine::FakeProver> fake;
  std::unique_ptr<engine::Engine> engine;
  std::unique_ptr<GrpcServer> server;
  std::unique_ptr<pb::ProvingEngine::Stub> stub;
  std::string sock;

  explicit Daemon(const std::string& tag,
                  engine::FakeProverOptions fo = {.synth_ms = 2, .gpu_ms = 2},
                  engine::EngineOptions eo = {}, std::uint64_t max_msg = 256u << 20) {
    dir = temp_dir(tag);
    fake = std::make_shared<engine::FakeProver>(fo);
    auto e = engine::Engine::create(eo, {fake});
    EXPECT_TRUE(e.ok()) << e.status().to_string();
    engine = std::move(*e);
    sock = (dir / "cuzk.sock").string();
    ServerOptions so{.listen = {"unix://" + sock, "127.0.0.1:0"}, .max_message_bytes = max_msg};
    auto s = GrpcServer::start(*engine, so);
    EXPECT_TRUE(s.ok()) << s.status().to_string();
    server = std::move(*s);
    stub = pb::ProvingEngine::NewStub(channel("unix:" + sock));
  }
  ~Daemon() {
    server->shutdown(500);
    engine->shutdown(0ms);
    fs::remove_all(dir);
  }
};

TEST(Server, EveryRpcRoundTrip) {
  Daemon d("rpc", {.synth_ms = 2, .gpu_ms = 2, .key_load_ms = 10});
  struct stat st {};
  ASSERT_EQ(::stat(d.sock.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);

  {  // PreloadSRS
    grpc::ClientContext ctx;
    pb::PreloadSrsRequest req;
    req.set_circuit_id("bench-10");
    pb::PreloadSrsResponse resp;
    ASSERT_TRUE(d.stub->PreloadSRS(&ctx, req, &resp).ok());
    EXPECT_FALSE(resp.already_loaded());
  }
  {  // SubmitProof + AwaitProof
    grpc::ClientContext ctx;
    pb::SubmitProofResponse sr;
    ASSERT_TRUE(d.stub->SubmitProof(&ctx, job("j1", 11, 3), &sr).ok());
    EXPECT_EQ(sr.job_id(), "j1");
    grpc::ClientContext ctx2;
    pb::AwaitProofRequest ar;
    ar.set_job_id("j1");
    pb::AwaitProofResponse resp;
    ASSERT_TRUE(d.stub->AwaitProof(&ctx2, ar, &resp).ok());
    EXPECT_EQ(resp.status(), pb::AwaitProofResponse::COMPLETED) << resp.error_message();
    EXPECT_EQ(resp.proof(), engine::fake_expected_proof("bench-10", 11, 3));
    EXPECT_GE(resp.total_ms(), resp.queue_wait_ms());
  }
  {  // idempotent repeat
    grpc::ClientContext ctx;
    pb::SubmitProofResponse sr;
    ASSERT_TRUE(d.stub->SubmitProof(&ctx, job("j1", 11, 3), &sr).ok());
    EXPECT_TRUE(sr.existing());
  }
  {  // Prove over TCP too
    auto tcp = pb::ProvingEngine::NewStub(
        channel("127.0.0.1:" + std::to_string(d.server->tcp_ports().at(0))));
    grpc::ClientContext ctx;
    pb::ProveRequest req;
    *req.mutable_submit() = job("", 12, 2);
    pb::ProveResponse resp;
    ASSERT_TRUE(tcp->Prove(&ctx, req, &resp).ok());
    EXPECT_EQ(resp.result().status(), pb::AwaitProofResponse::COMPLETED);
    EXPECT_EQ(resp.result().proof(), engine::fake_expected_proof("bench-10", 12, 2));
    EXPECT_FALSE(resp.result().job_id().empty());
  }
  {  // AwaitProof timeout, CancelProof of a running job
    Daemon slow("rpcslow", {.synth_ms = 1, .gpu_ms = 1});
    // "s" runs (held in synthesis) and cannot end until it is cancelled.
    auto held = slow.fake->hold(FakeStage::synthesis, "s");
    grpc::ClientContext ctx;
    pb::SubmitProofResponse sr;
    ASSERT_TRUE(slow.stub->SubmitProof(&ctx, job("s", 1, 1), &sr).ok());
    ASSERT_TRUE(
        wait_until([&] { return slow.fake->held_waiting(FakeStage::synthesis, "s") == 1; }));
    grpc::ClientContext ctx2;
    // An await that ignored its timeout would wait for ever: the call's deadline ends it.
    ctx2.set_deadline(std::chrono::system_clock::now() + test::kStateDeadline);
    pb::AwaitProofRequest ar;
    ar.set_job_id("s");
    ar.set_timeout_ms(30);
    pb::AwaitProofResponse resp;
    ASSERT_TRUE(slow.stub->AwaitProof(&ctx2, ar, &resp).ok());
    EXPECT_EQ(resp.status(), pb::AwaitProofResponse::TIMEOUT);
    // A timeout of 2^63 ms or more waits (it used to overflow into an immediate TIMEOUT).
    for (std::uint64_t huge : {std::uint64_t{1} << 63, ~std::uint64_t{0}}) {
      grpc::ClientContext c;
      c.set_deadline(std::chrono::system_clock::now() + 300ms);
      ar.set_timeout_ms(huge);
      auto st = slow.stub->AwaitProof(&c, ar, &resp);
      EXPECT_EQ(st.error_code(), grpc::StatusCode::DEADLINE_EXCEEDED)
          << "timeout_ms " << huge << ": " << resp.status();
    }
    grpc::ClientContext ctx3;
    pb::CancelProofRequest cr;
    cr.set_job_id("s");
    pb::CancelProofResponse cresp;
    ASSERT_TRUE(slow.stub->CancelProof(&ctx3, cr, &cresp).ok());
    EXPECT_TRUE(cresp.was_running());
    grpc::ClientContext ctx4;
    ar.set_timeout_ms(0);
    ASSERT_TRUE(slow.stub->AwaitProof(&ctx4, ar, &resp).ok());
    EXPECT_EQ(resp.status(), pb::AwaitProofResponse::CANCELLED);
  }
  {  // GetStatus
    grpc::ClientContext ctx;
    pb::GetStatusResponse s;
    ASSERT_TRUE(d.stub->GetStatus(&ctx, pb::GetStatusRequest(), &s).ok());
    EXPECT_EQ(s.total_proofs_completed(), 2u);
    ASSERT_EQ(s.gpus_size(), 1);
    EXPECT_EQ(s.gpus(0).partitions_proved(), 5u);
    EXPECT_EQ(s.gpus(0).workers(), 3u);  // gw = 2 and the urgent worker
    EXPECT_GT(s.gpus(0).busy_any_seconds(), 0.0);
    EXPECT_EQ(s.gpus(0).partitions_assigned(),
              0u);  // every partition went through the device stage
    EXPECT_GE(s.gpus(0).partitions_depth(), 1u);
    EXPECT_EQ(s.gpus(0).partitions_taken(), 0u);         // one device: nothing to take over
    EXPECT_EQ(s.gpus(0).pinned_host_total_bytes(), 0u);  // the fake prover has no device memory
    EXPECT_EQ(s.gpus(0).streamed_bases_bytes(), 0u);
    ASSERT_EQ(s.loaded_srs_size(), 1);
    EXPECT_EQ(s.loaded_srs(0).circuit_id(), "bench-10");
    EXPECT_EQ(s.loaded_srs(0).tier(), pb::SRSStatus::HOT);
    EXPECT_EQ(s.loaded_srs(0).tier_name(), "host");
    EXPECT_EQ(s.loaded_srs(0).backing_tier(), "host");  // what a device copy would be made from
    EXPECT_EQ(s.loaded_srs(0).size_bytes(), 576u << 10);
    EXPECT_EQ(s.pinned_memory_bytes(), 576u << 10);
    EXPECT_GT(s.pinned_memory_limit_bytes(), 0u);
    EXPECT_GE(s.memory_peak_bytes(), s.pinned_memory_bytes());
    EXPECT_GT(s.process_rss_bytes(), 0u);
    EXPECT_GE(s.process_peak_rss_bytes(), s.process_rss_bytes());
  }
  {  // GetMetrics
    grpc::ClientContext ctx;
    pb::GetMetricsResponse m;
    ASSERT_TRUE(d.stub->GetMetrics(&ctx, pb::GetMetricsRequest(), &m).ok());
    EXPECT_NE(m.prometheus_text().find("cuzk_proofs_completed_total 2"), std::string::npos)
        << m.prometheus_text();
    EXPECT_NE(m.prometheus_text().find("cuzk_memory_budget_bytes{kind=\"peak\"}"),
              std::string::npos);
    EXPECT_NE(m.prometheus_text().find("process_resident_memory_bytes "), std::string::npos);
    EXPECT_NE(m.prometheus_text().find("cuzk_process_peak_resident_memory_bytes "),
              std::string::npos);
  }
  {  // EvictSRS: frees the key; a second evict finds nothing; unknown circuit NOT_FOUND
    grpc::ClientContext ctx;
    pb::EvictSrsRequest req;
    req.set_circuit_id("bench-10");
    pb::EvictSrsResponse resp;
    ASSERT_TRUE(d.stub->EvictSRS(&ctx, req, &resp).ok());
    EXPECT_TRUE(resp.was_loaded());
    EXPECT_EQ(resp.freed_bytes(), 576u << 10);
    grpc::ClientContext ctx2;
    ASSERT_TRUE(d.stub->EvictSRS(&ctx2, req, &resp).ok());
    EXPECT_FALSE(resp.was_loaded());
    grpc::ClientContext ctx3;
    req.set_circuit_id("porep-32g");
    EXPECT_EQ(d.stub->EvictSRS(&ctx3, req, &resp).error_code(), grpc::StatusCode::NOT_FOUND);
  }
}

TEST(Server, EvictRefusedWhileInUse) {
  Daemon d("evict", {.synth_ms = 1, .gpu_ms = 1});
  auto held = d.fake->hold(FakeStage::synthesis, "busy");
  grpc::ClientContext ctx;
  pb::SubmitProofResponse sr;
  ASSERT_TRUE(d.stub->SubmitProof(&ctx, job("busy", 1, 1), &sr).ok());
  // "busy" runs (held in synthesis, its key leased) and its key has loaded.
  ASSERT_TRUE(wait_until([&] {
    return d.fake->held_waiting(FakeStage::synthesis, "busy") == 1 &&
           test::key_loaded(*d.engine, "bench-10");
  }));
  grpc::ClientContext ctx2;
  pb::EvictSrsRequest req;
  req.set_circuit_id("bench-10");
  pb::EvictSrsResponse resp;
  auto st = d.stub->EvictSRS(&ctx2, req, &resp);
  EXPECT_EQ(st.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_NE(st.error_message().find("in use"), std::string::npos) << st.error_message();
}

grpc::Status raw_call(grpc::GenericStub& stub, const std::string& method,
                      const std::string& bytes) {
  grpc::Slice slice(bytes);
  grpc::ByteBuffer req(&slice, 1), resp;
  grpc::ClientContext ctx;
  std::promise<grpc::Status> done;
  stub.UnaryCall(&ctx, method, grpc::StubOptions(), &req, &resp,
                 [&](grpc::Status s) { done.set_value(s); });
  return done.get_future().get();
}

TEST(Server, MalformedRequestsFailAloneWhileOthersComplete) {
  Daemon d("malformed", {.synth_ms = 5, .gpu_ms = 5}, {}, 128u << 20);
  grpc::ClientContext c0;
  pb::SubmitProofResponse sr;
  ASSERT_TRUE(d.stub->SubmitProof(&c0, job("good", 5, 6), &sr).ok());

  auto submit = [&](const pb::SubmitProofRequest& r) {
    grpc::ClientContext ctx;
    pb::SubmitProofResponse resp;
    return d.stub->SubmitProof(&ctx, r, &resp);
  };
  auto garbage = job("g", 1, 2);
  garbage.set_vanilla_proof("\x01\x02 definitely not a witness");
  EXPECT_EQ(submit(garbage).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  auto porep = job("p", 1, 2);
  porep.set_proof_kind(pb::POREP_SEAL_COMMIT);
  auto st = submit(porep);
  EXPECT_EQ(st.error_code(), grpc::StatusCode::UNIMPLEMENTED);
  EXPECT_NE(st.error_message().find("porep"), std::string::npos);
  auto badprio = job("b", 1, 2);
  badprio.set_priority(static_cast<pb::Priority>(9));
  EXPECT_EQ(submit(badprio).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  auto nocircuit = job("n", 1, 2);
  nocircuit.clear_circuit_id();
  EXPECT_EQ(submit(nocircuit).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  auto unknown = job("u", 1, 2);
  unknown.set_circuit_id("porep-32g");
  EXPECT_EQ(submit(unknown).error_code(), grpc::StatusCode::NOT_FOUND);
  {
    grpc::ClientContext ctx;
    pb::ProveResponse resp;
    EXPECT_EQ(d.stub->Prove(&ctx, pb::ProveRequest(), &resp).error_code(),
              grpc::StatusCode::INVALID_ARGUMENT);
  }
  // Bytes that are not a SubmitProofRequest (a field 1 string whose length runs past the end):
  // INVALID_ARGUMENT with a reason, not INTERNAL with an empty message.
  for (const std::string& raw : {std::string("\x0a\xff\x01xyz", 6), std::string("\xff\xff\xff")}) {
    grpc::Slice slice(raw);
    grpc::ByteBuffer req(&slice, 1), resp;
    grpc::ClientContext ctx;
    auto channel_ = channel("unix:" + d.sock);
    auto st = grpc::internal::BlockingUnaryCall<grpc::ByteBuffer, grpc::ByteBuffer>(
        channel_.get(),
        grpc::internal::RpcMethod("/cuzk.v1.ProvingEngine/SubmitProof",
                                  grpc::internal::RpcMethod::NORMAL_RPC),
        &ctx, req, &resp);
    EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << st.error_message();
    EXPECT_NE(st.error_message().find("SubmitProof"), std::string::npos) << st.error_message();
  }
  {
    grpc::ClientContext ctx;
    pb::AwaitProofRequest ar;
    ar.set_job_id("never-submitted");
    pb::AwaitProofResponse resp;
    EXPECT_EQ(d.stub->AwaitProof(&ctx, ar, &resp).error_code(), grpc::StatusCode::NOT_FOUND);
  }
  {  // bytes that are not a protobuf message
    grpc::GenericStub raw(channel("unix:" + d.sock));
    auto s = raw_call(raw, "/cuzk.v1.ProvingEngine/SubmitProof",
                      std::string("\xff\xff\xff\xff\x0f garbage", 14));
    EXPECT_FALSE(s.ok());
    auto s2 = raw_call(raw, "/cuzk.v1.ProvingEngine/NoSuchMethod", "");
    EXPECT_EQ(s2.error_code(), grpc::StatusCode::UNIMPLEMENTED);
  }
  {  // larger than the server's message limit
    auto big = job("big", 1, 1);
    big.set_vanilla_proof(std::string((128u << 20) + 16, 'x'));
    EXPECT_EQ(submit(big).error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  }
  {  // a large but allowed input is accepted and judged on content (here: garbage)
    auto large = job("large", 1, 1);
    large.set_vanilla_proof(std::string(100u << 20, 'y'));
    EXPECT_EQ(submit(large).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  }
  grpc::ClientContext ctx;
  pb::AwaitProofRequest ar;
  ar.set_job_id("good");
  pb::AwaitProofResponse resp;
  ASSERT_TRUE(d.stub->AwaitProof(&ctx, ar, &resp).ok());
  EXPECT_EQ(resp.status(), pb::AwaitProofResponse::COMPLETED);
  EXPECT_EQ(resp.proof(), engine::fake_expected_proof("bench-10", 5, 6));
}

TEST(Server, PendingLimitPerClientIsResourceExhausted) {
  Daemon d("limit", {.synth_ms = 1, .gpu_ms = 1}, {.max_pending_per_client = 2});
  // a1 and a2 stay unfinished while the limit is checked.
  auto a1 = d.fake->hold(FakeStage::synthesis, "a1");
  auto a2 = d.fake->hold(FakeStage::synthesis, "a2");
  auto submit = [&](const std::string& id, const std::string& client) {
    grpc::ClientContext ctx;
    ctx.AddMetadata("cuzk-client", client);
    pb::SubmitProofResponse resp;
    return d.stub->SubmitProof(&ctx, job(id, 1, 1), &resp);
  };
  EXPECT_TRUE(submit("a1", "a").ok());
  EXPECT_TRUE(submit("a2", "a").ok());
  auto st = submit("a3", "a");
  EXPECT_EQ(st.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_NE(st.error_message().find("limit 2"), std::string::npos);
  // The limit is the connection's identity's (this process's uid): another cuzk-client label
  // does not escape it (it used to be a new client).
  st = submit("b1", "b");
  EXPECT_EQ(st.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_NE(st.error_message().find("'uid:" + std::to_string(::geteuid()) + "'"), std::string::npos)
      << st.error_message();
}

// A request's bytes are charged to the input budget as soon as they have arrived: one larger
// than the budget is RESOURCE_EXHAUSTED naming both sizes, through SubmitProof and Prove, and
// leaves nothing charged; a small one is accepted and proved.
TEST(Server, RequestBeyondTheInputBudgetIsRefusedWithItsSize) {
  Daemon d("inputs", {.synth_ms = 1, .gpu_ms = 1}, {.input_budget = 1 << 20});
  auto big = job("big", 1, 1);
  big.set_vanilla_proof(std::string(2 << 20, 'x'));
  const std::string size = std::to_string(big.ByteSizeLong());
  {
    grpc::ClientContext ctx;
    pb::SubmitProofResponse resp;
    auto st = d.stub->SubmitProof(&ctx, big, &resp);
    EXPECT_EQ(st.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
    EXPECT_NE(st.error_message().find("request of " + size + " bytes"), std::string::npos)
        << st.error_message();
    EXPECT_NE(st.error_message().find("input budget (1048576 bytes"), std::string::npos)
        << st.error_message();
  }
  {
    grpc::ClientContext ctx;
    pb::ProveRequest req;
    *req.mutable_submit() = big;
    pb::ProveResponse resp;
    EXPECT_EQ(d.stub->Prove(&ctx, req, &resp).error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  }
  EXPECT_EQ(d.engine->status().input_bytes, 0u);
  grpc::ClientContext ctx;
  pb::ProveRequest req;
  *req.mutable_submit() = job("small", 3, 2);
  pb::ProveResponse resp;
  ASSERT_TRUE(d.stub->Prove(&ctx, req, &resp).ok());
  EXPECT_EQ(resp.result().proof(), engine::fake_expected_proof("bench-10", 3, 2));
}

TEST(Server, LoadTestManyClientsNothingLost) {
  Daemon d("load", {.synth_ms = 0, .gpu_ms = 0, .key_load_ms = 1},
           {.synthesis_workers = 2, .gpu_workers_per_device = 2});
  constexpr int kThreads = 5, kJobs = 40;
  std::atomic<int> ok{0};
  std::vector<std::thread> ts;
  for (int t = 0; t < kThreads; ++t) {
    ts.emplace_back([&, t] {
      auto stub = pb::ProvingEngine::NewStub(channel("unix:" + d.sock));
      for (int i = 0; i < kJobs; ++i) {
        std::uint64_t seed = static_cast<std::uint64_t>(t * 100 + i);
        std::uint32_t parts = 1 + static_cast<std::uint32_t>(i % 3);
        grpc::ClientContext ctx;
        pb::ProveRequest req;
        *req.mutable_submit() = job("L" + std::to_string(t) + "_" + std::to_string(i), seed, parts,
                                    static_cast<pb::Priority>(1 + i % 4));
        pb::ProveResponse resp;
        if (stub->Prove(&ctx, req, &resp).ok() &&
            resp.result().status() == pb::AwaitProofResponse::COMPLETED &&
            resp.result().proof() == engine::fake_expected_proof("bench-10", seed, parts))
          ++ok;
      }
    });
  }
  for (auto& t : ts) t.join();
  EXPECT_EQ(ok.load(), kThreads * kJobs);
}

TEST(Server, HttpMetricsEndpoint) {
  Daemon d("http");
  auto m = HttpMetrics::start("127.0.0.1:0", [&] { return d.engine->metrics_text(); });
  ASSERT_TRUE(m.ok()) << m.status().to_string();
  auto get = [&](const std::string& path) {
    int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in sa{};
    sa.sin_family = AF_INET;
    sa.sin_port = htons(static_cast<std::uint16_t>((*m)->port()));
    ::inet_pton(AF_INET, "127.0.0.1", &sa.sin_addr);
    EXPECT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&sa), sizeof sa), 0);
    std::string req = "GET " + path + " HTTP/1.0\r\n\r\n";
    ::send(fd, req.data(), req.size(), 0);
    std::string out;
    char buf[4096];
    ssize_t n;
    while ((n = ::recv(fd, buf, sizeof buf, 0)) > 0) out.append(buf, static_cast<std::size_t>(n));
    ::close(fd);
    return out;
  };
  auto ok = get("/metrics");
  EXPECT_EQ(ok.rfind("HTTP/1.0 200", 0), 0u);
  EXPECT_NE(ok.find("cuzk_uptime_seconds"), std::string::npos);
  EXPECT_EQ(get("/other").rfind("HTTP/1.0 404", 0), 0u);
}

int connect_loopback(int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in sa{};
  sa.sin_family = AF_INET;
  sa.sin_port = htons(static_cast<std::uint16_t>(port));
  ::inet_pton(AF_INET, "127.0.0.1", &sa.sin_addr);
  EXPECT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&sa), sizeof sa), 0);
  return fd;
}

// Issue 17: ten idle connections and a client that sent half a request used to hold the
// one-connection server for 2 s each (its timeout; the old server took 20 s). Now they occupy
// worker threads of their own and a scrape made while they are open is answered. Here the
// server's timeouts are far beyond the test, so the stalled connections stay open until the
// test closes them: a server that served them first would never answer the scrape (the client's
// 30 s receive timeout then fails it), and the scrape is answered with all of them still open.
// (Before, the check was the scrape's time, under the issue's 1 s.) The content type is
// Prometheus's; another method on /metrics is 405.
TEST(Server, HttpMetricsServesScrapesWhileOthersStall) {
  auto m = HttpMetrics::start(":0", [] { return std::string("cuzk_up 1\n"); },
                              {.request_timeout_ms = 600'000, .keep_alive_timeout_ms = 600'000});
  ASSERT_TRUE(m.ok()) << m.status().to_string();
  const int port = (*m)->port();
  ASSERT_GT(port, 0);
  std::vector<int> idle;
  for (int i = 0; i < 10; ++i) idle.push_back(connect_loopback(port));
  const int slow = connect_loopback(port);
  const std::string half = "GET /metrics HTTP/1.1\r\nHost: x\r\n";
  ASSERT_EQ(::send(slow, half.data(), half.size(), 0), static_cast<ssize_t>(half.size()));
  auto request = [&](const std::string& line) {
    const int fd = connect_loopback(port);
    timeval tv{test::kStateDeadline.count(), 0};  // a hang becomes an empty answer
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    const std::string req = line + "\r\nConnection: close\r\n\r\n";
    ::send(fd, req.data(), req.size(), 0);
    std::string out;
    char buf[4096];
    ssize_t n;
    while ((n = ::recv(fd, buf, sizeof buf, 0)) > 0) out.append(buf, static_cast<std::size_t>(n));
    ::close(fd);
    return out;
  };
  const std::string ok = request("GET /metrics HTTP/1.1\r\nHost: x");
  EXPECT_EQ(ok.rfind("HTTP/1.1 200", 0), 0u) << ok;
  // Every stalled connection is still open: nothing to read, no end of stream.
  idle.push_back(slow);
  for (int fd : idle) {
    char byte = 0;
    errno = 0;
    EXPECT_EQ(::recv(fd, &byte, 1, MSG_DONTWAIT), -1) << "the server closed a stalled connection";
    EXPECT_TRUE(errno == EAGAIN || errno == EWOULDBLOCK) << std::strerror(errno);
  }
  idle.pop_back();
  EXPECT_NE(ok.find("Content-Type: text/plain; version=0.0.4"), std::string::npos) << ok;
  EXPECT_NE(ok.find("\r\n\r\ncuzk_up 1\n"), std::string::npos) << ok;
  EXPECT_EQ(
      request("POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 0").rfind("HTTP/1.1 405", 0),
      0u);
  for (int fd : idle) ::close(fd);
  ::close(slow);
  // A port in use is an error naming the address.
  auto clash = HttpMetrics::start("127.0.0.1:" + std::to_string(port), [] { return ""; });
  ASSERT_FALSE(clash.ok());
  EXPECT_NE(clash.status().to_string().find("127.0.0.1:" + std::to_string(port)), std::string::npos)
      << clash.status().to_string();
}

// --- TLS ---------------------------------------------------------------------------------

bool sh(const std::string& cmd) { return std::system((cmd + " >/dev/null 2>&1").c_str()) == 0; }

std::string slurp(const fs::path& p) {
  std::ifstream f(p);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// A CA, a server certificate for localhost/127.0.0.1, a client certificate from the CA, and a
// client certificate from an unrelated CA.
bool make_certs(const fs::path& d) {
  std::string D = d.string();
  auto ca = [&](const std::string& name) {
    return sh(
        "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -subj "
        "/CN=" +
        name + " -keyout " + D + "/" + name + ".key -out " + D + "/" + name + ".pem");
  };
  auto leaf = [&](const std::string& name, const std::string& ca_name, const std::string& ext) {
    std::ofstream(d / (name + ".ext")) << ext;
    return sh("openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj /CN=" +
              name + " -keyout " + D + "/" + name + ".key -out " + D + "/" + name + ".csr") &&
           sh("openssl x509 -req -in " + D + "/" + name + ".csr -CA " + D + "/" + ca_name +
              ".pem -CAkey " + D + "/" + ca_name + ".key -CAcreateserial -days 2 -extfile " + D +
              "/" + name + ".ext -out " + D + "/" + name + ".pem");
  };
  return ca("ca") && ca("otherca") &&
         leaf("server", "ca",
              "subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n") &&
         leaf("client", "ca", "extendedKeyUsage=clientAuth\n") &&
         leaf("bob", "ca", "extendedKeyUsage=clientAuth\n") &&
         leaf("ops", "ca", "extendedKeyUsage=clientAuth\n") &&
         leaf("intruder", "otherca", "extendedKeyUsage=clientAuth\n");
}

TEST(Server, MutualTls) {
  if (!sh("openssl version")) GTEST_SKIP() << "openssl CLI not found";
  auto dir = temp_dir("tls");
  ASSERT_TRUE(make_certs(dir));
  auto fake =
      std::make_shared<engine::FakeProver>(engine::FakeProverOptions{.synth_ms = 1, .gpu_ms = 1});
  auto e = engine::Engine::create({}, {fake});
  ASSERT_TRUE(e.ok());
  ServerOptions so{.listen = {"127.0.0.1:0"}};
  so.tls = {slurp(dir / "server.pem"), slurp(dir / "server.key"), slurp(dir / "ca.pem"), true};
  auto s = GrpcServer::start(**e, so);
  ASSERT_TRUE(s.ok()) << s.status().to_string();
  std::string target = "localhost:" + std::to_string((*s)->tcp_ports().at(0));
  auto call = [&](const std::string& cert, const std::string& key) {
    grpc::SslCredentialsOptions o;
    o.pem_root_certs = slurp(dir / "ca.pem");
    if (!cert.empty()) {
      o.pem_cert_chain = slurp(dir / cert);
      o.pem_private_key = slurp(dir / key);
    }
    auto stub = pb::ProvingEngine::NewStub(channel(target, grpc::SslCredentials(o)));
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + 5s);
    pb::GetStatusResponse resp;
    return stub->GetStatus(&ctx, pb::GetStatusRequest(), &resp);
  };
  EXPECT_TRUE(call("client.pem", "client.key").ok());
  EXPECT_FALSE(call("", "").ok());                          // no client certificate
  EXPECT_FALSE(call("intruder.pem", "intruder.key").ok());  // signed by the wrong CA
  {                                                         // plaintext to a TLS port fails too
    auto stub = pb::ProvingEngine::NewStub(channel(target));
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + 3s);
    pb::GetStatusResponse resp;
    EXPECT_FALSE(stub->GetStatus(&ctx, pb::GetStatusRequest(), &resp).ok());
  }
  (*s)->shutdown(100);
  (*e)->shutdown(0ms);
  fs::remove_all(dir);
}

// Issue 17: limits and ownership followed the client's own "cuzk-client" metadata (and every
// unix-socket caller was one client). Now they follow the connection's identity: here the
// subject of each mutual-TLS client certificate. Another identity's job answers NOT_FOUND to
// AwaitProof and CancelProof and its request_id cannot be taken; an admin subject and the
// daemon's own uid (this process, on the unix socket) may act on every job.
TEST(Server, LimitsAndOwnershipFollowTheClientCertificate) {
  if (!sh("openssl version")) GTEST_SKIP() << "openssl CLI not found";
  auto dir = temp_dir("ident");
  ASSERT_TRUE(make_certs(dir));
  auto fake =
      std::make_shared<engine::FakeProver>(engine::FakeProverOptions{.synth_ms = 1, .gpu_ms = 1});
  auto e = engine::Engine::create({.max_pending_per_client = 2}, {fake});
  ASSERT_TRUE(e.ok());
  // Every job stays unfinished until it is cancelled or the engine stops.
  std::vector<engine::FakeProver::Hold> held;
  for (const char* id : {"a1", "a2", "b1"}) held.push_back(fake->hold(FakeStage::synthesis, id));
  const std::string sock = (dir / "s.sock").string();
  ServerOptions so{.listen = {"unix://" + sock, "127.0.0.1:0"}};
  so.tls = {slurp(dir / "server.pem"), slurp(dir / "server.key"), slurp(dir / "ca.pem"), true};
  so.admin_subjects = {"CN=ops"};
  auto s = GrpcServer::start(**e, so);
  ASSERT_TRUE(s.ok()) << s.status().to_string();
  const std::string target = "localhost:" + std::to_string((*s)->tcp_ports().at(0));
  auto stub_of = [&](const std::string& name) {
    grpc::SslCredentialsOptions o;
    o.pem_root_certs = slurp(dir / "ca.pem");
    o.pem_cert_chain = slurp(dir / (name + ".pem"));
    o.pem_private_key = slurp(dir / (name + ".key"));
    return pb::ProvingEngine::NewStub(channel(target, grpc::SslCredentials(o)));
  };
  auto alice = stub_of("client"), bob = stub_of("bob"), ops = stub_of("ops");
  auto local = pb::ProvingEngine::NewStub(channel("unix:" + sock));
  auto submit = [&](pb::ProvingEngine::Stub& st, const std::string& id, const std::string& tag) {
    grpc::ClientContext ctx;
    if (!tag.empty()) ctx.AddMetadata("cuzk-client", tag);
    pb::SubmitProofResponse resp;
    return st.SubmitProof(&ctx, job(id, 1, 1), &resp);
  };
  auto await = [&](pb::ProvingEngine::Stub& st, const std::string& id, pb::AwaitProofResponse* r) {
    grpc::ClientContext ctx;
    pb::AwaitProofRequest ar;
    ar.set_job_id(id);
    ar.set_timeout_ms(1);
    return st.AwaitProof(&ctx, ar, r);
  };
  auto cancel = [&](pb::ProvingEngine::Stub& st, const std::string& id) {
    grpc::ClientContext ctx;
    pb::CancelProofRequest cr;
    cr.set_job_id(id);
    pb::CancelProofResponse resp;
    return st.CancelProof(&ctx, cr, &resp);
  };
  pb::AwaitProofResponse out;
  ASSERT_TRUE(submit(*alice, "a1", "").ok());
  ASSERT_TRUE(submit(*alice, "a2", "batch").ok());
  // A tag does not escape the identity's limit.
  auto full = submit(*alice, "a3", "another-tag");
  EXPECT_EQ(full.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_NE(full.error_message().find("'x509:CN=client' already has 2 unfinished jobs (limit 2)"),
            std::string::npos)
      << full.error_message();
  ASSERT_TRUE(submit(*bob, "b1", "").ok());  // another identity, its own limit
  auto seen = await(*bob, "a1", &out);
  EXPECT_EQ(seen.error_code(), grpc::StatusCode::NOT_FOUND) << seen.error_message();
  EXPECT_EQ(await(*bob, "never", &out).error_message(),
            std::regex_replace(seen.error_message(), std::regex("'a1'"), "'never'"));
  EXPECT_EQ(cancel(*bob, "a1").error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(submit(*bob, "a1", "").error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_TRUE(await(*alice, "a1", &out).ok());
  EXPECT_EQ(out.status(), pb::AwaitProofResponse::TIMEOUT);
  // The admin subject and the daemon's own uid see every job.
  EXPECT_TRUE(cancel(*ops, "a2").ok());
  EXPECT_TRUE(await(*alice, "a2", &out).ok());
  EXPECT_EQ(out.status(), pb::AwaitProofResponse::CANCELLED);
  EXPECT_TRUE(await(*local, "b1", &out).ok());
  EXPECT_TRUE(cancel(*local, "b1").ok());
  EXPECT_TRUE(cancel(*alice, "a1").ok());
  (*s)->shutdown(100);
  (*e)->shutdown(0ms);
  fs::remove_all(dir);
}

TEST(Server, IdentityOfAPeer) {
  EXPECT_EQ(unix_identity(1000), "uid:1000");
  EXPECT_EQ(peer_host("ipv4:10.0.0.5:4711"), "10.0.0.5");
  EXPECT_EQ(peer_host("ipv6:[::1]:4711"), "[::1]");
  EXPECT_EQ(peer_host("ipv6:[fe80::1%eth0]:80"), "[fe80::1%eth0]");
  EXPECT_EQ(peer_host("unix:/run/cuzk.sock"), "unix:/run/cuzk.sock");
  EXPECT_EQ(certificate_subject(nullptr), "");
}

// Runs only in the child that Server.UnixCallersAreKnownByTheirUid starts: as uid 65534, it may
// neither see nor cancel the parent's jobs, and has a pending-job limit of its own.
TEST(ServerChild, ActsAsAnotherUid) {
  const char* sock = std::getenv("CUZK_TEST_CHILD_SOCK");
  if (!sock) GTEST_SKIP() << "runs as the child of Server.UnixCallersAreKnownByTheirUid";
  ASSERT_EQ(::setgid(65534), 0);
  ASSERT_EQ(::setuid(65534), 0);
  auto stub = pb::ProvingEngine::NewStub(channel(std::string("unix:") + sock));
  {
    grpc::ClientContext ctx;
    pb::AwaitProofRequest ar;
    ar.set_job_id("root-1");
    ar.set_timeout_ms(1);
    pb::AwaitProofResponse resp;
    EXPECT_EQ(stub->AwaitProof(&ctx, ar, &resp).error_code(), grpc::StatusCode::NOT_FOUND);
  }
  {
    grpc::ClientContext ctx;
    pb::CancelProofRequest cr;
    cr.set_job_id("root-1");
    pb::CancelProofResponse resp;
    EXPECT_EQ(stub->CancelProof(&ctx, cr, &resp).error_code(), grpc::StatusCode::NOT_FOUND);
  }
  for (const char* id : {"nobody-1", "nobody-2", "nobody-3"}) {
    grpc::ClientContext ctx;
    ctx.AddMetadata("cuzk-client", id);  // a label per call: still one identity
    pb::SubmitProofResponse resp;
    auto st = stub->SubmitProof(&ctx, job(id, 2, 1), &resp);
    if (std::string(id) == "nobody-3")
      EXPECT_EQ(st.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << st.error_message();
    else
      EXPECT_TRUE(st.ok()) << id << ": " << st.error_message();
  }
}

// Unix-socket callers are known by their uid (SO_PEERCRED), not as one client: a process of
// another uid has its own limit and cannot reach this one's jobs; the daemon's uid (this
// process) may reach every job. Needs root, to run the other client as uid 65534.
TEST(Server, UnixCallersAreKnownByTheirUid) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to run a client as another uid";
  Daemon d("uid", {.synth_ms = 1, .gpu_ms = 1}, {.max_pending_per_client = 2});
  // Every job (the child's too) stays unfinished until it is cancelled or the engine stops.
  std::vector<engine::FakeProver::Hold> held;
  for (const char* id : {"root-1", "root-2", "nobody-1", "nobody-2"})
    held.push_back(d.fake->hold(FakeStage::synthesis, id));
  ASSERT_EQ(::chmod(d.sock.c_str(), 0666), 0);  // the other uid must be able to connect
  ASSERT_EQ(::chmod(d.dir.c_str(), 0755), 0);
  for (const char* id : {"root-1", "root-2"}) {
    grpc::ClientContext ctx;
    pb::SubmitProofResponse resp;
    ASSERT_TRUE(d.stub->SubmitProof(&ctx, job(id, 1, 1), &resp).ok());
  }
  pid_t pid = ::fork();
  if (pid == 0) {
    ::setenv("CUZK_TEST_CHILD_SOCK", d.sock.c_str(), 1);
    ::execl("/proc/self/exe", "server_test", "--gtest_filter=ServerChild.ActsAsAnotherUid",
            static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ASSERT_GT(pid, 0);
  int status = 0;
  ::waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "child status " << status;
  for (const char* id : {"root-1", "nobody-1", "nobody-2"}) {  // all still there, all visible
    grpc::ClientContext ctx;
    pb::CancelProofRequest cr;
    cr.set_job_id(id);
    pb::CancelProofResponse resp;
    EXPECT_TRUE(d.stub->CancelProof(&ctx, cr, &resp).ok()) << id;
  }
  grpc::ClientContext ctx;
  pb::AwaitProofRequest ar;
  ar.set_job_id("root-2");
  ar.set_timeout_ms(1);
  pb::AwaitProofResponse resp;
  ASSERT_TRUE(d.stub->AwaitProof(&ctx, ar, &resp).ok());
  EXPECT_EQ(resp.status(), pb::AwaitProofResponse::TIMEOUT);  // the child did not cancel it
}

// --- the daemon process: journal recovery after SIGKILL, graceful SIGTERM ------------------

#ifdef CUZKD_BINARY
pid_t spawn_daemon(const fs::path& dir) {
  pid_t pid = ::fork();
  if (pid == 0) {
    std::string cfg = (dir / "cuzk.toml").string();
    std::string log = (dir / "daemon.log").string();
    int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
    ::dup2(fd, 2);
    ::execl(CUZKD_BINARY, CUZKD_BINARY, "--config", cfg.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  return pid;
}

// Whether |sig| is pending for process |pid| (sent, not yet taken): /proc/<pid>/status ShdPnd.
bool signal_pending(pid_t pid, int sig) {
  std::ifstream f("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(f, line);)
    if (line.rfind("ShdPnd:", 0) == 0)
      return (std::stoull(line.substr(7), nullptr, 16) >> (sig - 1)) & 1;
  return false;
}

// A fresh channel per attempt: a channel that failed once waits out gRPC's reconnect backoff.
bool wait_ready(const std::string& target) {
  for (int i = 0; i < 200; ++i) {
    auto stub = pb::ProvingEngine::NewStub(channel(target));
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + 200ms);
    pb::GetStatusResponse resp;
    if (stub->GetStatus(&ctx, pb::GetStatusRequest(), &resp).ok()) return true;
    std::this_thread::sleep_for(25ms);
  }
  return false;
}

TEST(Server, DaemonJournalSurvivesKillDashNine) {
  auto dir = temp_dir("kill9");
  std::string sock = (dir / "d.sock").string();
  std::ofstream(dir / "cuzk.toml")
      << "[daemon]\nlisten = \"unix://" << sock << "\"\njournal = \"" << (dir / "j.db").string()
      << "\"\nshutdown_grace_s = 5\n[engine]\nprover = \"fake\"\nsynthesis_workers = 1\n"
      << "gpu_workers_per_device = 1\n[memory]\nbudget = \"64MiB\"\n"
      << "[fake]\nsynth_ms = 150\ngpu_ms = 5\n[logging]\nlevel = \"warn\"\n";
  pid_t pid = spawn_daemon(dir);
  ASSERT_GT(pid, 0);
  ASSERT_TRUE(wait_ready("unix:" + sock)) << slurp(dir / "daemon.log");
  auto stub = pb::ProvingEngine::NewStub(channel("unix:" + sock));
  for (int i = 0; i < 3; ++i) {
    grpc::ClientContext ctx;
    pb::SubmitProofResponse sr;
    ASSERT_TRUE(stub->SubmitProof(&ctx, job("k" + std::to_string(i), 100 + i, 4), &sr).ok());
  }
  // Killed mid-flight: once a partition has been synthesized (the jobs take about 2 s in all).
  EXPECT_TRUE(wait_until([&] {
    grpc::ClientContext ctx;
    pb::GetStatusResponse st;
    return stub->GetStatus(&ctx, pb::GetStatusRequest(), &st).ok() &&
           st.partitions_synthesized() > 0;
  }));
  ::kill(pid, SIGKILL);
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status));

  pid = spawn_daemon(dir);  // the stale socket is replaced; the journal resumes the jobs
  ASSERT_TRUE(wait_ready("unix:" + sock)) << slurp(dir / "daemon.log");
  stub = pb::ProvingEngine::NewStub(channel("unix:" + sock));
  for (int i = 0; i < 3; ++i) {
    grpc::ClientContext ctx;
    pb::AwaitProofRequest ar;
    ar.set_job_id("k" + std::to_string(i));
    ar.set_timeout_ms(20000);
    pb::AwaitProofResponse resp;
    ASSERT_TRUE(stub->AwaitProof(&ctx, ar, &resp).ok());
    EXPECT_EQ(resp.status(), pb::AwaitProofResponse::COMPLETED) << resp.error_message();
    EXPECT_EQ(resp.proof(), engine::fake_expected_proof("bench-10", 100 + i, 4));
  }
  // SIGHUP is ignored (the daemon still answers); SIGTERM and SIGQUIT stop it gracefully: exit
  // code 0, socket removed.
  ::kill(pid, SIGHUP);
  // The daemon has taken the signal (sigwait) once it is no longer pending.
  EXPECT_TRUE(wait_until([&] { return !signal_pending(pid, SIGHUP); }));
  {
    grpc::ClientContext ctx;
    pb::GetStatusResponse st;
    EXPECT_TRUE(stub->GetStatus(&ctx, pb::GetStatusRequest(), &st).ok()) << "after SIGHUP";
  }
  ::kill(pid, SIGTERM);
  ::waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << slurp(dir / "daemon.log");
  EXPECT_FALSE(fs::exists(sock));
  pid = spawn_daemon(dir);
  ASSERT_TRUE(wait_ready("unix:" + sock)) << slurp(dir / "daemon.log");
  ::kill(pid, SIGQUIT);
  ::waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFEXITED(status)) << "SIGQUIT";
  EXPECT_EQ(WEXITSTATUS(status), 0) << slurp(dir / "daemon.log");
  EXPECT_FALSE(fs::exists(sock));
  fs::remove_all(dir);
}

// The daemon's resident memory (VmRSS, VmHWM) as GetStatus reports it.
struct Rss {
  std::uint64_t now = 0, peak = 0;
};
Rss daemon_rss(pb::ProvingEngine::Stub& stub) {
  grpc::ClientContext ctx;
  pb::GetStatusResponse s;
  EXPECT_TRUE(stub.GetStatus(&ctx, pb::GetStatusRequest(), &s).ok());
  return {s.process_rss_bytes(), s.process_peak_rss_bytes()};
}

// Issue 17: gRPC had received a request's bytes before the handler ran, and nothing counted
// them: one rejected 200 MB request peaked the daemon at 528 MiB (idle 17), eight at once at
// 3444 MiB with 773 MiB still resident afterwards. Now gRPC's receive buffers are bounded
// (daemon.receive_buffer_bytes, here auto = 512 MiB), each message is charged to the input
// budget (512 MiB) as it arrives and refused before parsing when it does not fit, and the parse
// makes one copy. The eight share one serialized buffer on the client side.
TEST(Server, DaemonRejectedLargeRequestsStayBoundedAndAreReleased) {
  if (kSanitized)
    GTEST_SKIP() << "RSS bounds: a sanitizer's allocator and shadow memory are not glibc's (under "
                    "TSan: 2662 MiB peak above idle for eight rejected 200 MB requests)";
  auto dir = temp_dir("bigreq");
  std::string sock = (dir / "d.sock").string();
  std::ofstream(dir / "cuzk.toml") << "[daemon]\nlisten = \"unix://" << sock
                                   << "\"\njournal = \"\"\n[engine]\nprover = \"fake\"\n"
                                   << "[memory]\nbudget = \"4GiB\"\ninput_budget = \"512MiB\"\n"
                                   << "[logging]\nlevel = \"warn\"\n";
  pid_t pid = spawn_daemon(dir);
  ASSERT_GT(pid, 0);
  ASSERT_TRUE(wait_ready("unix:" + sock)) << slurp(dir / "daemon.log");
  auto stub = pb::ProvingEngine::NewStub(channel("unix:" + sock));
  constexpr std::uint64_t kMiB = 1 << 20, kInput = 200'000'000;
  auto req = job("big", 1, 1);
  req.set_vanilla_proof(std::string(kInput, 'y'));  // not a fake-prover input: INVALID_ARGUMENT
  std::string wire = req.SerializeAsString();
  req.Clear();
  grpc::Slice slice(wire);
  wire = std::string();
  const grpc::ByteBuffer bytes(&slice, 1);
  auto send = [&] {
    grpc::GenericStub raw(channel("unix:" + sock));
    grpc::ByteBuffer in(bytes), out;
    grpc::ClientContext ctx;
    std::promise<grpc::Status> done;
    raw.UnaryCall(&ctx, "/cuzk.v1.ProvingEngine/SubmitProof", grpc::StubOptions(), &in, &out,
                  [&](grpc::Status s) { done.set_value(s); });
    return done.get_future().get();
  };
  auto eight = [&] {
    std::vector<std::future<grpc::Status>> calls;
    for (int i = 0; i < 8; ++i) calls.push_back(std::async(std::launch::async, send));
    for (auto& f : calls) {
      auto st = f.get();
      EXPECT_TRUE(st.error_code() == grpc::StatusCode::INVALID_ARGUMENT ||
                  st.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED)
          << st.error_code() << " " << st.error_message();
    }
  };
  const Rss idle = daemon_rss(*stub);
  EXPECT_EQ(send().error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  const Rss one = daemon_rss(*stub);
  eight();
  const Rss after = daemon_rss(*stub);
  eight();  // a second round reuses what the first left to the allocator
  const Rss again = daemon_rss(*stub);
  auto mib = [&](std::uint64_t b) { return static_cast<unsigned long long>(b / kMiB); };
  std::printf(
      "rejected 200 MB requests: idle RSS %llu MiB; one: peak %llu MiB, after %llu MiB; eight "
      "concurrent: peak %llu MiB, after %llu MiB; eight more: peak %llu MiB, after %llu MiB\n",
      mib(idle.now), mib(one.peak), mib(one.now), mib(after.peak), mib(after.now), mib(again.peak),
      mib(again.now));
  {  // nothing of the requests is charged any more
    grpc::ClientContext ctx;
    pb::GetMetricsResponse m;
    ASSERT_TRUE(stub->GetMetrics(&ctx, pb::GetMetricsRequest(), &m).ok());
    EXPECT_NE(m.prometheus_text().find("cuzk_memory_budget_bytes{kind=\"inputs\"} 0\n"),
              std::string::npos);
  }
  // One request: the received bytes and the parsed input, once each (was 2.6 × the input).
  EXPECT_LT(one.peak - idle.now, 2 * kInput + 64 * kMiB);
  // Eight at once, twice: the receive buffers (512 MiB) plus the inputs charged (512 MiB), and
  // the allocator's slack (was 3427 MiB above idle).
  EXPECT_LT(after.peak - idle.now, 1024 * kMiB + 256 * kMiB);
  EXPECT_LT(again.peak - idle.now, 1024 * kMiB + 256 * kMiB);
  // What stays resident is freed transport buffers that the allocator keeps for reuse (the
  // daemon holds none of the bytes: the inputs gauge is 0): within the receive buffers' bound
  // plus the allocator's arena slack, and not growing with a second round. (Before: 756 MiB
  // above idle after one round, with no bound on a second.)
  EXPECT_LT(after.now - idle.now, 512 * kMiB + 256 * kMiB);
  EXPECT_LT(again.now - idle.now, 512 * kMiB + 256 * kMiB);
  ::kill(pid, SIGTERM);
  int status = 0;
  ::waitpid(pid, &status, 0);
  fs::remove_all(dir);
}

// Waits up to |seconds| for |pid| to exit; kills it (and fails) when it does not.
int wait_exit(pid_t pid, int seconds) {
  int status = 0;
  for (int i = 0; i < seconds * 20; ++i) {
    if (::waitpid(pid, &status, WNOHANG) == pid)
      return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    std::this_thread::sleep_for(50ms);
  }
  ::kill(pid, SIGKILL);
  ::waitpid(pid, &status, 0);
  ADD_FAILURE() << "the daemon did not exit within " << seconds << " s";
  return -1;
}

// [filecoin] verify_parameters = "on-start": a parameter file whose BLAKE2b digest differs from
// the manifest stops the daemon at start, naming the file; matching files let it start.
TEST(Server, DaemonRefusesMismatchingParameterFiles) {
  auto dir = temp_dir("params");
  fs::create_directories(dir / "params");
  std::ofstream(dir / "params" / "a.vk") << "abc";
  std::ofstream(dir / "params" / "b.vk") << "abd";
  // First 32 hex digits of BLAKE2b-512("abc") (RFC 7693 Appendix A; b2sum -l 512).
  const std::string abc = "ba80a53f981c4d0d6a2797b69f12f6e9";
  std::ofstream(dir / "parameters.json")
      << R"({"a.vk": {"cid": "Q1", "digest": ")" << abc << R"(", "sector_size": 2048},)"
      << R"( "b.vk": {"cid": "Q2", "digest": ")" << abc << R"(", "sector_size": 2048},)"
      << R"( "c.vk": {"cid": "Q3", "digest": ")" << abc << R"(", "sector_size": 2048}})";
  const std::string sock = (dir / "d.sock").string();
  std::ofstream(dir / "cuzk.toml")
      << "[daemon]\nlisten = \"unix://" << sock
      << "\"\njournal = \"\"\n[engine]\nprover = \"fake\"\n"
      << "[filecoin]\nparameter_cache = \"" << (dir / "params").string()
      << "\"\nparameter_manifest = \"" << (dir / "parameters.json").string()
      << "\"\nverify_parameters = \"on-start\"\n";
  pid_t pid = spawn_daemon(dir);
  ASSERT_GT(pid, 0);
  EXPECT_EQ(wait_exit(pid, 30), 3);
  const std::string log = slurp(dir / "daemon.log");
  EXPECT_NE(log.find((dir / "params" / "b.vk").string() + " has digest"), std::string::npos) << log;
  EXPECT_EQ(log.find("a.vk has digest"), std::string::npos) << log;

  std::ofstream(dir / "params" / "b.vk") << "abc";  // repaired; c.vk stays missing
  fs::remove(dir / "daemon.log");
  pid = spawn_daemon(dir);
  ASSERT_TRUE(wait_ready("unix:" + sock)) << slurp(dir / "daemon.log");
  ::kill(pid, SIGTERM);
  EXPECT_EQ(wait_exit(pid, 30), 0);
  EXPECT_NE(slurp(dir / "daemon.log").find("2 parameter file(s) match the manifest"),
            std::string::npos)
      << slurp(dir / "daemon.log");
  fs::remove_all(dir);
}
#endif

}  // namespace
}  // namespace cuzk::server
