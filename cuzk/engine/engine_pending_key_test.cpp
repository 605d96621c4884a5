// A job whose circuit is still to be made (a Filecoin circuit's first recording, tens of seconds
// at 32 GiB): submit returns at once with the plan's dimensions pending, the SRS manager prepares
// the key on a task of its own, admission completes the plan once it is made, and meanwhile other
// keys' jobs are admitted and proved. Driven with a family whose shape() waits for a latch the
// test opens ("slow-10": bench-10's circuit under another id, its key a seeded setup of its own),
// beside the bench family, through Groth16Prover and the engine (self-verified proofs):
//   * submit returns before the circuit is made; a bench job proves meanwhile; the two jobs of
//     the slow key wait for one preparation, then prove;
//   * a job that can never fit fails at admission with out_of_memory naming the sizes; once the
//     circuit is made, submit refuses such a job at once, as for any job;
//   * a preparation that fails fails the jobs that waited for it, naming why; a later job tries
//     again and proves;
//   * a job cancelled while its key is prepared ends cancelled; the next one proves.
#include <gtest/gtest.h>

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <condition_variable>
#include <filesystem>
#include <future>
#include <mutex>

#include "cuzk/circuits/bench/bench_family.hpp"
#include "cuzk/engine/engine.hpp"
#include "cuzk/engine/fake_prover.hpp"
#include "cuzk/engine/groth16_prover.hpp"
#include "tests/support/temp_dir.hpp"

namespace cuzk::engine {
namespace {

using namespace std::chrono_literals;

const bool kQuiet = (spdlog::set_level(spdlog::level::warn), true);

std::string temp_dir(const std::string& tag) { return test::fresh_temp_dir("pending-" + tag); }

// bench-10's circuit as "slow-10", its shape made only once the test opens the latch (or failing
// then, while |fail| is set). plan() never waits: its dimensions are pending until the shape is
// made, as a Filecoin family's before its first recording.
class LatchedFamily final : public circuits::CircuitFamily {
 public:
  LatchedFamily(std::shared_ptr<circuits::BenchFamily> bench, std::string dir)
      : bench_(std::move(bench)), dir_(std::move(dir)) {}
  std::string name() const override { return "latched"; }
  bool serves_circuit(const std::string& id) const override { return id == kId; }
  Result<circuits::PartitionPlan> plan(const JobRequest& req) override {
    auto p = bench_->plan(as_bench(req));
    if (!p) return p;
    p->key_id = kId;
    if (!ready_shape(kId)) {
      p->columns = p->domain_size = 0;
      p->dimensions_pending = true;
    }
    return p;
  }
  Result<std::shared_ptr<const circuits::CircuitShape>> shape(const std::string&) override {
    std::unique_lock lock(mu_);
    if (made_) return made_;
    ++entered_;
    cv_.notify_all();
    cv_.wait(lock, [&] { return open_; });
    if (made_) return made_;  // made by another caller meanwhile
    if (fail_) return Status(Errc::io_error, "recording slow-10: the test made it fail");
    auto sh = bench_->shape("bench-10");
    if (!sh) return sh;
    made_ = *sh;
    return made_;
  }
  std::shared_ptr<const circuits::CircuitShape> ready_shape(const std::string&) override {
    std::lock_guard lock(mu_);
    return made_;
  }
  Result<circuits::KeySource> key_source(const std::string&) override {
    auto src = bench_->key_source("bench-10");
    if (!src) return src;
    src->path = dir_ + "/slow-10.params";
    src->identity = "slow-10 " + src->identity;
    src->image_name = "slow-10.kimg";
    return src;
  }
  Status witness(const JobRequest& req, const circuits::PartitionPlan& plan, std::uint32_t k,
                 std::vector<Fr>& z, const CancelFlag& cancel) override {
    return bench_->witness(as_bench(req), plan, k, z, cancel);
  }
  Result<std::vector<Fr>> public_inputs(const JobRequest& req, const circuits::PartitionPlan& plan,
                                        std::uint32_t k) override {
    return bench_->public_inputs(as_bench(req), plan, k);
  }

  /// Lets shape() go on (and fail while |fail|); closed again by close().
  void open(bool fail = false) {
    std::lock_guard lock(mu_);
    open_ = true;
    fail_ = fail;
    cv_.notify_all();
  }
  void close() {
    std::lock_guard lock(mu_);
    open_ = false;
  }
  /// Waits until shape()'s slow part has been entered |n| times (a preparation runs).
  void wait_entered(int n) {
    std::unique_lock lock(mu_);
    cv_.wait(lock, [&] { return entered_ >= n; });
  }
  int entered() {
    std::lock_guard lock(mu_);
    return entered_;
  }

  static constexpr const char* kId = "slow-10";

 private:
  static JobRequest as_bench(JobRequest req) {
    req.circuit_id = "bench-10";
    return req;
  }
  std::shared_ptr<circuits::BenchFamily> bench_;
  std::string dir_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool open_ = false, fail_ = false;
  int entered_ = 0;
  std::shared_ptr<const circuits::CircuitShape> made_;
};

struct Daemon {
  std::string dir;
  std::shared_ptr<LatchedFamily> slow;
  std::shared_ptr<Groth16Prover> prover;
  std::unique_ptr<Engine> engine;

  Daemon(const std::string& tag, EngineOptions eo = {}) : dir(temp_dir(tag)) {
    auto bench =
        std::make_shared<circuits::BenchFamily>(circuits::BenchFamilyOptions{.cache_dir = dir});
    slow = std::make_shared<LatchedFamily>(bench, dir);
    auto reg = std::make_shared<circuits::Registry>();
    EXPECT_TRUE(reg->add(bench).ok());
    EXPECT_TRUE(reg->add(slow).ok());
    Groth16ProverOptions o;
    o.cache_dir = dir;
    o.threads = 2;
    o.families = reg;
    auto p = Groth16Prover::create(o);
    EXPECT_TRUE(p.ok()) << p.status().to_string();
    prover = std::shared_ptr<Groth16Prover>(std::move(*p));
    auto e = Engine::create(eo, {prover});
    EXPECT_TRUE(e.ok()) << e.status().to_string();
    engine = std::move(*e);
  }
  ~Daemon() {
    slow->open();  // a preparation still waiting ends (the engine waits for it)
    engine->shutdown(5s);
    engine.reset();
    std::filesystem::remove_all(dir);
  }

  // submit() on another thread: a call that waited for the latch would never return, so the
  // test fails (instead of hanging) when it has not returned within a minute.
  Result<SubmitResult> submit_unblocked(const JobRequest& r) {
    auto f = std::async(std::launch::async, [&] { return engine->submit(r); });
    if (f.wait_for(60s) != std::future_status::ready) {
      ADD_FAILURE() << "submit of " << r.request_id << " waited for the circuit to be made";
      slow->open();
    }
    return f.get();
  }
  AwaitStatus state_now(const std::string& id) {
    auto o = engine->await(id, 1ms);
    return o.ok() ? o->status : AwaitStatus::unknown;
  }
  std::string tier_of(const std::string& key_id) {
    for (const auto& k : engine->status().keys)
      if (k.key_id == key_id) return k.tier;
    return "";
  }
};

TEST(EnginePendingKey, SubmitReturnsBeforeTheCircuitIsMadeAndOtherKeysProveMeanwhile) {
  Daemon s("meanwhile");
  auto s1 = s.submit_unblocked(fake_job("s1", "slow-10", 5, 2));
  ASSERT_TRUE(s1.ok()) << s1.status().to_string();
  s.slow->wait_entered(1);  // the key's preparation runs (off the admission thread)
  auto s2 = s.submit_unblocked(fake_job("s2", "slow-10", 6, 1));
  ASSERT_TRUE(s2.ok()) << s2.status().to_string();
  EXPECT_EQ(s.tier_of("slow-10"), "loading");

  // Another key's job is admitted and proved while the circuit is being made.
  ASSERT_TRUE(s.engine->submit(fake_job("b", "bench-10", 7, 2)).ok());
  auto b = s.engine->await("b");
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->status, AwaitStatus::completed) << b->error;
  EXPECT_EQ(s.state_now("s1"), AwaitStatus::timeout);  // still waiting for the circuit
  EXPECT_EQ(s.state_now("s2"), AwaitStatus::timeout);

  s.slow->open();
  for (const char* id : {"s1", "s2"}) {
    auto o = s.engine->await(id);
    ASSERT_TRUE(o.ok());
    EXPECT_EQ(o->status, AwaitStatus::completed) << id << ": " << o->error;  // self-verified
  }
  EXPECT_EQ(s.slow->entered(), 1) << "the two jobs of one key waited for one preparation";
  auto st = s.engine->status();
  EXPECT_EQ(st.completed, 3u);
  EXPECT_EQ(st.failed, 0u);
}

TEST(EnginePendingKey, NeverFittingJobFailsAtAdmissionNamingTheSizes) {
  EngineOptions eo;
  eo.memory_limit = 64 << 10;  // below one bench-10 partition (3 · 32 · 1024 B of a, b, c alone)
  Daemon s("nofit", eo);
  ASSERT_TRUE(s.submit_unblocked(fake_job("big", "slow-10", 5, 1)).ok());
  s.slow->open();
  auto o = s.engine->await("big");
  ASSERT_TRUE(o.ok());
  ASSERT_EQ(o->status, AwaitStatus::failed);
  // The sizes of the completed plan and of the key, as submit names them for a known circuit.
  auto plan = s.prover->plan(fake_job("probe", "slow-10", 5, 1));
  ASSERT_TRUE(plan.ok()) << plan.status().to_string();
  ASSERT_FALSE(plan->dimensions_pending);
  auto key = s.prover->key_bytes("slow-10");
  ASSERT_TRUE(key.ok());
  const std::string sizes = "one partition (" + std::to_string(plan->partition_bytes) +
                            " bytes) plus its key (" + std::to_string(*key) +
                            " bytes) exceed the memory budget (65536 bytes)";
  EXPECT_EQ(o->error, "out_of_memory: " + sizes);
  // a, b, c over bench-10's domain of 2^10 (h over a) and z.
  EXPECT_EQ(plan->partition_bytes,
            3 * 32 * 1024 + 32 * (*s.prover->matrices("slow-10"))->num_columns());
  // The circuit is known now: the same job is refused by submit itself, as any such job.
  auto again = s.engine->submit(fake_job("big2", "slow-10", 5, 1));
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.status().code(), Errc::out_of_memory);
  EXPECT_EQ(again.status().message(), sizes);
  EXPECT_EQ(s.slow->entered(), 1);
}

TEST(EnginePendingKey, FailedPreparationFailsTheJobsThatWaitedForIt) {
  Daemon s("fails");
  ASSERT_TRUE(s.submit_unblocked(fake_job("f1", "slow-10", 5, 1)).ok());
  ASSERT_TRUE(s.submit_unblocked(fake_job("f2", "slow-10", 6, 2)).ok());
  s.slow->wait_entered(1);
  s.slow->open(/*fail=*/true);
  for (const char* id : {"f1", "f2"}) {
    auto o = s.engine->await(id);
    ASSERT_TRUE(o.ok());
    EXPECT_EQ(o->status, AwaitStatus::failed) << id;
    EXPECT_NE(o->error.find("preparing key slow-10"), std::string::npos) << o->error;
    EXPECT_NE(o->error.find("the test made it fail"), std::string::npos) << o->error;
  }
  EXPECT_EQ(s.slow->entered(), 1) << "both jobs waited for the one attempt";
  EXPECT_EQ(s.tier_of("slow-10"), "failed");
  // The daemon goes on: another key's job proves, and a later job of the key tries again.
  ASSERT_TRUE(s.engine->submit(fake_job("b", "bench-10", 7, 1)).ok());
  EXPECT_EQ(s.engine->await("b")->status, AwaitStatus::completed);
  s.slow->open(/*fail=*/false);
  ASSERT_TRUE(s.submit_unblocked(fake_job("f3", "slow-10", 8, 1)).ok());
  auto o = s.engine->await("f3");
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o->status, AwaitStatus::completed) << o->error;
  EXPECT_EQ(s.slow->entered(), 2);
}

TEST(EnginePendingKey, CancelWhileTheKeyIsPrepared) {
  Daemon s("cancel");
  ASSERT_TRUE(s.submit_unblocked(fake_job("c1", "slow-10", 5, 2)).ok());
  s.slow->wait_entered(1);
  auto c = s.engine->cancel("c1");
  ASSERT_TRUE(c.ok()) << c.status().to_string();
  EXPECT_FALSE(*c);  // it was queued, not running
  auto o = s.engine->await("c1");
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o->status, AwaitStatus::cancelled);
  ASSERT_TRUE(s.submit_unblocked(fake_job("c2", "slow-10", 6, 1)).ok());
  s.slow->open();
  auto o2 = s.engine->await("c2");
  ASSERT_TRUE(o2.ok());
  EXPECT_EQ(o2->status, AwaitStatus::completed) << o2->error;
  EXPECT_EQ(s.slow->entered(), 1) << "the next job took the preparation already running";
  EXPECT_EQ(s.engine->status().cancelled, 1u);
}

}  // namespace
}  // namespace cuzk::engine
