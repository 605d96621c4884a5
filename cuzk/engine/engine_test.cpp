// Engine scheduling tests on the deterministic FakeProver: round trips, idempotency, priority
// order under contention, critical headroom, cancellation, memory peak against the budget,
// injected faults, await timeouts, pruning, journal resume, limits and a bounded load test.
#include "cuzk/engine/engine.hpp"

#include <gtest/gtest.h>

#include <spdlog/spdlog.h>
#include <unistd.h>
#include <set>

#include <cstdio>
#include <filesystem>
#include <future>
#include <random>
#include <thread>

#include "cuzk/base/priority_section.hpp"
#include "cuzk/engine/fake_prover.hpp"
#include "tests/support/engine_state.hpp"
#include "tests/support/wait_until.hpp"

namespace cuzk::engine {
namespace {

using namespace std::chrono_literals;
using test::key_loaded;
using test::wait_until;

// Job-level info logs would flood the test output.
const bool kQuiet = (spdlog::set_level(spdlog::level::warn), true);

constexpr std::uint64_t kKey10 = 576u << 10;  // FakeProver key bytes of bench-10

JobRequest bench_job(const std::string& id, std::uint64_t seed, std::uint32_t parts,
                     Priority p = Priority::unspecified) {
  return fake_job(id, "bench-10", seed, parts, p);
}

// Synthesized partitions waiting for or in their device stage.
std::uint32_t in_pipeline(const Engine& engine) {
  const auto st = engine.status();
  return st.partitions_awaiting_device + st.partitions_on_device;
}

struct Fixture {
  std::shared_ptr<FakeProver> fake;
  std::unique_ptr<Engine> engine;
  Fixture(FakeProverOptions fo, EngineOptions eo) {
    fake = std::make_shared<FakeProver>(fo);
    auto e = Engine::create(eo, {fake});
    EXPECT_TRUE(e.ok()) << e.status().to_string();
    engine = std::move(*e);
  }
};

TEST(Engine, RoundTripProofIsPartitionsInOrder) {
  Fixture f({.synth_ms = 1, .gpu_ms = 1}, {});
  auto s = f.engine->submit(bench_job("a", 42, 3));
  ASSERT_TRUE(s.ok()) << s.status().to_string();
  EXPECT_EQ(s->job_id, "a");
  auto o = f.engine->await("a");
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o->status, AwaitStatus::completed) << o->error;
  EXPECT_EQ(o->proof, fake_expected_proof("bench-10", 42, 3));
  EXPECT_EQ(o->proof.size(), 3u * 192);
  EXPECT_GE(o->timings.total_ms, o->timings.queue_wait_ms);
  auto st = f.engine->status();
  EXPECT_EQ(st.completed, 1u);
  EXPECT_EQ(st.memory_used, kKey10);  // only the key stays reserved
  ASSERT_EQ(st.keys.size(), 1u);
  EXPECT_EQ(st.keys[0].ref_count, 0u);
}

TEST(Engine, EmptyRequestIdGetsGeneratedId) {
  Fixture f({.synth_ms = 0, .gpu_ms = 0}, {});
  auto a = f.engine->submit(bench_job("", 1, 1));
  auto b = f.engine->submit(bench_job("", 1, 1));
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_NE(a->job_id, b->job_id);
  EXPECT_EQ(f.engine->await(a->job_id)->status, AwaitStatus::completed);
  EXPECT_EQ(f.engine->await(b->job_id)->status, AwaitStatus::completed);
}

// request_id and circuit_id reach logs, metrics labels and errors: a newline, a quote, NUL or an
// overlong id is refused with INVALID_ARGUMENT naming the field, and the error does not echo it.
TEST(Engine, ClientNamesAreBoundedAndPrintable) {
  Fixture f({.synth_ms = 1, .gpu_ms = 1}, {});
  for (std::string id : {std::string("a\nb"), std::string("x\"} 1"), std::string("n\0ul", 4),
                         std::string(129, 'a'), std::string(1 << 20, 'z')}) {
    auto s = f.engine->submit(bench_job(id, 1, 1));
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.status().code(), Errc::invalid_argument);
    EXPECT_NE(s.status().message().find("request_id"), std::string::npos);
    EXPECT_LT(s.status().message().size(), 200u);
    auto a = f.engine->await(id, 1ms);
    EXPECT_EQ(a.status().code(), Errc::not_found);
    EXPECT_LT(a.status().message().size(), 200u);
  }
  JobRequest bad_circuit = bench_job("ok-1", 1, 1);
  bad_circuit.circuit_id = "bench-10\nx";
  EXPECT_NE(f.engine->submit(bad_circuit).status().message().find("circuit_id"), std::string::npos);
  auto ok = f.engine->submit(bench_job(std::string(128, 'k'), 1, 1));
  EXPECT_TRUE(ok.ok()) << ok.status().to_string();
  EXPECT_TRUE(f.engine->submit(bench_job("Curio/sector:42@f01234+x=y-z.a_b", 1, 1)).ok());
}

TEST(Engine, RequestIdIsIdempotent) {
  Fixture f({.synth_ms = 20, .gpu_ms = 5}, {});
  auto a = f.engine->submit(bench_job("same", 7, 2));
  auto b = f.engine->submit(bench_job("same", 7, 2));
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_FALSE(a->existing);
  EXPECT_TRUE(b->existing);
  EXPECT_EQ(a->job_id, b->job_id);
  EXPECT_EQ(f.engine->await("same")->status, AwaitStatus::completed);
  auto c = f.engine->submit(bench_job("same", 7, 2));  // completed: still the same job
  EXPECT_TRUE(c->existing);
  EXPECT_EQ(f.fake->device_order().size(), 2u);  // proved once
  EXPECT_EQ(f.engine->status().completed, 1u);
}

TEST(Engine, PriorityOrderUnderContention) {
  // One partition fits at a time; the blocker's first partition is held in synthesis, so it holds
  // the budget while the others queue, and they are all queued when it goes on. (A fixed delay
  // was outrun under ThreadSanitizer: the first jobs ran before the last were submitted.)
  FakeProverOptions fo{.synth_ms = 1, .gpu_ms = 1, .partition_bytes_override = 1000};
  // One device worker (no urgent one): the queue's order is the device's.
  EngineOptions eo{.memory_limit = kKey10 + 1000,
                   .synthesis_workers = 1,
                   .gpu_workers_per_device = 1,
                   .urgent_worker = false};
  Fixture f(fo, eo);
  auto blocker = f.fake->hold(FakeStage::synthesis, "blocker");
  ASSERT_TRUE(f.engine->submit(bench_job("blocker", 1, 3, Priority::normal)).ok());
  ASSERT_TRUE(
      wait_until([&] { return f.fake->held_waiting(FakeStage::synthesis, "blocker") == 1; }));
  const std::vector<std::pair<std::string, Priority>> subs = {
      {"low", Priority::low},        {"normal1", Priority::normal}, {"high", Priority::high},
      {"normal2", Priority::normal}, {"crit", Priority::critical},  {"high2", Priority::high}};
  for (auto& [id, p] : subs) ASSERT_TRUE(f.engine->submit(bench_job(id, 2, 1, p)).ok());
  blocker.release();
  for (auto& [id, p] : subs) EXPECT_EQ(f.engine->await(id)->status, AwaitStatus::completed);
  std::vector<std::string> order;
  for (auto& [id, k] : f.fake->device_order())
    if (id != "blocker") order.push_back(id);
  EXPECT_EQ(order,
            (std::vector<std::string>{"crit", "high", "high2", "normal1", "normal2", "low"}));
  EXPECT_LE(f.engine->budget().peak(), eo.memory_limit);
}

// The ready lane: the device's second worker never waits for a key's load for work below HIGH,
// so a CRITICAL job whose key loads at once is proved while the first worker waits for a bulk
// job's key (a 32 GiB PoRep key takes a minute; here the load is held until the CRITICAL job is
// done); before, both workers took bulk partitions and waited, and the WinningPoSt queued behind
// them.
TEST(Engine, CriticalWorkIsNotHeldBehindAKeyLoad) {
  FakeProverOptions fo{.synth_ms = 1, .gpu_ms = 5};
  // No urgent worker: it would take the CRITICAL partition whatever the ready lane does.
  Fixture f(fo, {.gpu_workers_per_device = 2, .urgent_worker = false});
  auto key_load = f.fake->hold(FakeStage::key_load, "bench-12");
  JobRequest bulk = bench_job("bulk", 1, 4, Priority::normal);
  bulk.circuit_id = "bench-12";
  ASSERT_TRUE(f.engine->submit(bulk).ok());
  // Its partitions are synthesized (synthesis needs no key) and a device worker took one of
  // them (fewer than all four queued) and waits for the key.
  ASSERT_TRUE(wait_until([&] {
    const auto st = f.engine->status();
    return f.fake->held_waiting(FakeStage::key_load, "bench-12") == 1 &&
           st.partitions_synthesized == 4 && st.partitions_awaiting_device < 4;
  }));
  ASSERT_TRUE(f.engine->submit(bench_job("crit", 2, 1, Priority::critical)).ok());
  auto crit = f.engine->await("crit", test::kStateDeadline);
  key_load.release();
  EXPECT_EQ(crit->status, AwaitStatus::completed) << "the bulk key's load held the CRITICAL job";
  EXPECT_EQ(f.engine->await("bulk")->status, AwaitStatus::completed);
  const auto order = f.fake->device_order();
  ASSERT_EQ(order.size(), 5u);
  EXPECT_EQ(order.front().first, "crit");
}

// The urgent worker and the priority-ordered compute section (the GPU backend's, modelled by the
// fake): both bulk workers wait at the device's section with bulk partitions while another
// partition computes (here: the test holds the section); a CRITICAL job's partition is taken by
// the urgent worker and enters the section next, ahead of both. Before, it stayed queued until a
// bulk worker came free and then entered behind the other bulk partition: a WinningPoSt waited for
// up to two 32 GiB PoRep partitions (≈ 3 s) instead of at most the one inside.
TEST(Engine, UrgentWorkEntersTheComputeSectionNext) {
  FakeProverOptions fo{.synth_ms = 1, .gpu_ms = 2, .compute_section = true};
  Fixture f(fo, {.gpu_workers_per_device = 2});
  PrioritySection& section = f.fake->compute_section(0);
  auto wait_for_waiters = [&](std::size_t n) {
    wait_until([&] { return section.waiting() >= n; }, 20s);
    return section.waiting();
  };
  section.lock();  // a partition inside
  ASSERT_TRUE(f.engine->submit(bench_job("bulk", 1, 6, Priority::normal)).ok());
  ASSERT_EQ(wait_for_waiters(2), 2u) << "both bulk workers wait at the section";
  ASSERT_TRUE(f.engine->submit(bench_job("crit", 2, 1, Priority::critical)).ok());
  ASSERT_EQ(wait_for_waiters(3), 3u) << "the urgent worker waits at the section too";
  section.unlock();
  EXPECT_EQ(f.engine->await("crit")->status, AwaitStatus::completed);
  EXPECT_EQ(f.engine->await("bulk")->status, AwaitStatus::completed);
  const auto order = f.fake->device_order();
  ASSERT_EQ(order.size(), 7u);
  EXPECT_EQ(order.front().first, "crit");
  EXPECT_EQ(f.engine->status().devices.at(0).workers, 3u);
}

// Bytes a partition holds in a pool the budget already charged (the pinned partition pool) leave
// its reservation when synthesis returns: with a budget of one partition, a pooled partition waits
// for the device while the next one is admitted and synthesized; without pooling they go one at a
// time. Either way the budget ends at the key alone and never passes its limit. The first
// partition's device stage waits at the compute section, which the test holds until it has seen
// what the budget lets into the pipeline meanwhile; then the rest is watched to the end.
TEST(Engine, PooledPartitionBytesLeaveTheReservation) {
  for (bool pooled : {false, true}) {
    FakeProverOptions fo{.synth_ms = 1,
                         .gpu_ms = 1,
                         .partition_bytes_override = 1000,
                         .pooled_abc_bytes = pooled ? 750u : 0u,
                         .pooled_other_bytes = pooled ? 250u : 0u,
                         .compute_section = true};
    EngineOptions eo{.memory_limit = kKey10 + 1000,
                     .synthesis_workers = 1,
                     .gpu_workers_per_device = 1,
                     .gpu_queue_depth = 2};
    Fixture f(fo, eo);
    PrioritySection& section = f.fake->compute_section(0);
    section.lock();
    ASSERT_TRUE(f.engine->submit(bench_job("p", 3, 4)).ok());
    std::uint32_t most_in_pipeline = 0;
    if (pooled) {
      EXPECT_TRUE(wait_until([&] { return in_pipeline(*f.engine) >= 2; }))
          << "pooled partitions should not hold the budget while they wait";
    } else {  // the first partition at the section and the budget full: nothing more can come
      ASSERT_TRUE(wait_until([&] { return section.waiting() == 1; }));
      EXPECT_EQ(f.engine->budget().used(), eo.memory_limit);
    }
    most_in_pipeline = in_pipeline(*f.engine);
    section.unlock();
    const auto t0 = Clock::now();
    while (f.engine->await("p", 1ms)->status == AwaitStatus::timeout && Clock::now() - t0 < 5s) {
      const auto st = f.engine->status();
      most_in_pipeline =
          std::max(most_in_pipeline, st.partitions_awaiting_device + st.partitions_on_device);
    }
    EXPECT_EQ(f.engine->await("p")->status, AwaitStatus::completed);
    if (pooled) {
      EXPECT_GE(most_in_pipeline, 2u)
          << "pooled partitions should not hold the budget while they wait";
    } else {
      EXPECT_LE(most_in_pipeline, 1u);
    }
    EXPECT_EQ(f.engine->status().memory_used, kKey10) << "pooled=" << pooled;
    EXPECT_LE(f.engine->budget().peak(), eo.memory_limit);
    EXPECT_EQ(f.fake->live_bytes(), kKey10);  // the key alone
    const auto st = f.engine->status();
    EXPECT_EQ(st.partitions_pooled, pooled ? 4u : 0u);
    EXPECT_EQ(st.partitions_plain, pooled ? 0u : 4u);
    const std::string m = f.engine->metrics_text();
    EXPECT_NE(m.find(std::string("cuzk_partition_vectors_total{memory=\"pinned_pool\"} ") +
                     (pooled ? "4" : "0")),
              std::string::npos);
  }
}

// Compact partitions (SynthesizedPartition::held_bytes): each reserves its synthesis's bytes
// (1000), then keeps only what it holds (50) while it waits for and runs its device stage, so a
// budget with room for one synthesis holds several synthesized partitions; without held bytes one
// partition at a time. The budget ends at the key and never passes its limit. (The compute
// section is held as in PooledPartitionBytesLeaveTheReservation.)
TEST(Engine, HeldBytesAreAllASynthesizedPartitionKeeps) {
  for (bool compact : {false, true}) {
    SCOPED_TRACE(compact ? "held bytes" : "whole reservation");
    FakeProverOptions fo{.synth_ms = 1,
                         .gpu_ms = 1,
                         .partition_bytes_override = 1000,
                         .held_bytes = compact ? 50u : 0u,
                         .compute_section = true};
    EngineOptions eo{.memory_limit = kKey10 + 1100,
                     .synthesis_workers = 1,
                     .gpu_workers_per_device = 1,
                     .gpu_queue_depth = 3};
    Fixture f(fo, eo);
    PrioritySection& section = f.fake->compute_section(0);
    section.lock();
    ASSERT_TRUE(f.engine->submit(bench_job("h", 3, 4)).ok());
    std::uint32_t most_in_pipeline = 0;
    if (compact) {
      EXPECT_TRUE(wait_until([&] { return in_pipeline(*f.engine) >= 2; }))
          << "held bytes should free the rest of the reservation";
    } else {  // the first partition at the section, the second's synthesis cannot fit
      ASSERT_TRUE(wait_until([&] { return section.waiting() == 1; }));
      EXPECT_EQ(f.engine->budget().used(), kKey10 + 1000);
    }
    most_in_pipeline = in_pipeline(*f.engine);
    section.unlock();
    const auto t0 = Clock::now();
    while (f.engine->await("h", 1ms)->status == AwaitStatus::timeout && Clock::now() - t0 < 5s) {
      const auto st = f.engine->status();
      most_in_pipeline =
          std::max(most_in_pipeline, st.partitions_awaiting_device + st.partitions_on_device);
      EXPECT_LE(st.memory_used, eo.memory_limit);
    }
    EXPECT_EQ(f.engine->await("h")->status, AwaitStatus::completed);
    if (compact)
      EXPECT_GE(most_in_pipeline, 2u) << "held bytes should free the rest of the reservation";
    else
      EXPECT_LE(most_in_pipeline, 1u);
    const auto st = f.engine->status();
    EXPECT_EQ(st.memory_used, kKey10);
    EXPECT_LE(f.engine->budget().peak(), eo.memory_limit);
    EXPECT_EQ(f.fake->live_bytes(), kKey10);
    EXPECT_EQ(st.partitions_compact, compact ? 4u : 0u);
    EXPECT_EQ(st.partitions_synthesized, 4u);
  }
}

TEST(Engine, CriticalHeadroomIsNeverTakenByNormalWork) {
  // NORMAL work may hold 2 partitions (the third slot is headroom); the bulk job's partitions
  // are held in synthesis, so none releases its memory. A CRITICAL job is admitted into the
  // headroom and completes meanwhile instead of waiting for a release.
  FakeProverOptions fo{.synth_ms = 1, .gpu_ms = 1, .partition_bytes_override = 1000};
  EngineOptions eo{.memory_limit = kKey10 + 3000,
                   .critical_headroom = 1000,
                   .synthesis_workers = 4,
                   .gpu_workers_per_device = 2};
  Fixture f(fo, eo);
  auto bulk = f.fake->hold(FakeStage::synthesis, "bulk");
  ASSERT_TRUE(f.engine->submit(bench_job("bulk", 1, 8, Priority::normal)).ok());
  ASSERT_TRUE(wait_until([&] { return f.fake->held_waiting(FakeStage::synthesis, "bulk") == 2; }));
  EXPECT_EQ(f.engine->budget().used(), kKey10 + 2000);  // NORMAL stops at the headroom
  ASSERT_TRUE(f.engine->submit(bench_job("winning", 2, 1, Priority::critical)).ok());
  auto o = f.engine->await("winning", test::kStateDeadline);
  EXPECT_EQ(o->status, AwaitStatus::completed) << "the CRITICAL job waited for NORMAL memory";
  EXPECT_EQ(f.fake->held_waiting(FakeStage::synthesis, "bulk"), 2u);  // still two, no third
  EXPECT_EQ(f.engine->await("bulk", 1ms)->status, AwaitStatus::timeout);
  bulk.release();
  EXPECT_EQ(f.engine->await("bulk")->status, AwaitStatus::completed);
  EXPECT_EQ(f.engine->budget().peak(), eo.memory_limit);
}

TEST(Engine, CancelQueuedAndRunningFreesMemory) {
  FakeProverOptions fo{.synth_ms = 1, .gpu_ms = 1, .partition_bytes_override = 1000};
  EngineOptions eo{
      .memory_limit = kKey10 + 2000, .synthesis_workers = 2, .gpu_workers_per_device = 1};
  Fixture f(fo, eo);
  // "run"'s synthesis never ends by itself: only the cancel flag can end it.
  auto run = f.fake->hold(FakeStage::synthesis, "run");
  ASSERT_TRUE(f.engine->submit(bench_job("run", 1, 4)).ok());
  ASSERT_TRUE(f.engine->submit(bench_job("wait", 2, 1)).ok());
  ASSERT_TRUE(wait_until([&] {
    return f.fake->held_waiting(FakeStage::synthesis, "run") == 2 &&
           key_loaded(*f.engine, "bench-10");
  }));
  EXPECT_EQ(f.engine->budget().used(), kKey10 + 2000);
  auto w = f.engine->cancel("wait");
  ASSERT_TRUE(w.ok());
  EXPECT_FALSE(*w);
  auto r = f.engine->cancel("run");
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(*r);
  EXPECT_EQ(f.engine->await("run")->status, AwaitStatus::cancelled);
  EXPECT_EQ(f.engine->await("wait")->status, AwaitStatus::cancelled);
  // The running syntheses notice the flag and their reservations are returned.
  EXPECT_TRUE(wait_until([&] { return f.engine->budget().used() == kKey10; }))
      << "used " << f.engine->budget().used();
  EXPECT_EQ(f.fake->held_waiting(FakeStage::synthesis, "run"), 0u);
  EXPECT_EQ(f.fake->live_bytes(), kKey10);
  EXPECT_FALSE(*f.engine->cancel("run"));  // already finished
  EXPECT_EQ(f.engine->cancel("nope").status().code(), Errc::not_found);
  EXPECT_EQ(f.engine->status().cancelled, 2u);
}

// Cancels land during key loads, synthesis and device stages of many jobs at once (the device
// stage and the finalizer used to read a job's key lease while a cancel reset it: SIGSEGV). Every
// job ends completed with its proof or cancelled, and only the keys stay reserved afterwards.
TEST(Engine, CancelStormDuringKeyLoadSynthesisAndDeviceStage) {
  const std::uint64_t seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  FakeProverOptions fo{.synth_ms = 2, .gpu_ms = 2, .key_load_ms = 8};
  EngineOptions eo{.synthesis_workers = 3,
                   .gpu_workers_per_device = 2,
                   .max_batch_size = 2,
                   .batch_wait = std::chrono::milliseconds(1)};
  Fixture f(fo, eo);
  const char* circuits[] = {"bench-10", "bench-11"};
  int cancelled = 0, completed = 0;
  for (int round = 0; round < 30; ++round) {
    for (const char* c : circuits) (void)f.engine->evict(c);  // the next jobs wait for a load
    std::vector<std::string> ids;
    std::vector<std::uint64_t> seeds;
    std::vector<std::uint32_t> parts;
    for (int j = 0; j < 6; ++j) {
      seeds.push_back(rng());
      parts.push_back(1 + static_cast<std::uint32_t>(rng() % 3));
      JobRequest r = bench_job("s" + std::to_string(round) + "-" + std::to_string(j), seeds.back(),
                               parts.back());
      r.circuit_id = circuits[j % 2];
      ids.push_back(r.request_id);
      ASSERT_TRUE(f.engine->submit(std::move(r)).ok());
    }
    std::vector<std::thread> cancellers;
    for (std::size_t j = 0; j < ids.size(); ++j) {
      if (j % 3 == 2) continue;  // some jobs run to the end
      auto delay = std::chrono::microseconds(rng() % 20000);
      cancellers.emplace_back([&, j, delay] {
        std::this_thread::sleep_for(delay);
        auto c = f.engine->cancel(ids[j]);
        EXPECT_TRUE(c.ok()) << c.status().to_string();
      });
    }
    for (auto& t : cancellers) t.join();
    for (std::size_t j = 0; j < ids.size(); ++j) {
      auto o = f.engine->await(ids[j]);
      ASSERT_TRUE(o.ok()) << o.status().to_string();
      if (o->status == AwaitStatus::completed) {
        ++completed;
        EXPECT_EQ(o->proof, fake_expected_proof(circuits[j % 2], seeds[j], parts[j])) << ids[j];
      } else {
        ++cancelled;
        EXPECT_EQ(o->status, AwaitStatus::cancelled) << ids[j] << ": " << o->error;
      }
    }
  }
  EXPECT_GT(cancelled, 0);
  EXPECT_GT(completed, 0);
  // A cancelled partition's stage returns its reservation when it notices the flag (within
  // milliseconds of the await answering): wait for that, then only the two keys may stay.
  const std::uint64_t keys = kKey10 + (kKey10 << 1);
  wait_until([&] { return f.engine->budget().used() <= keys; });
  EXPECT_LE(f.engine->budget().used(), keys);
  EXPECT_EQ(f.engine->budget().used(), f.fake->live_bytes());
}

TEST(Engine, MemoryPeakStaysWithinBudgetRandomized) {
  std::uint64_t seed = std::random_device{}();
  std::printf("seed=%llu\n", static_cast<unsigned long long>(seed));
  std::mt19937_64 rng(seed);
  std::uint64_t part = 1000 + rng() % 3000;
  std::uint64_t limit = kKey10 + part * (1 + rng() % 5) + rng() % part;
  FakeProverOptions fo{.synth_ms = 1 + static_cast<std::uint32_t>(rng() % 4),
                       .gpu_ms = 1 + static_cast<std::uint32_t>(rng() % 4),
                       .partition_bytes_override = part};
  EngineOptions eo{.memory_limit = limit,
                   .synthesis_workers = 1 + static_cast<std::uint32_t>(rng() % 4),
                   .gpu_workers_per_device = 1 + static_cast<std::uint32_t>(rng() % 3)};
  Fixture f(fo, eo);
  int jobs = 5 + static_cast<int>(rng() % 11);
  for (int i = 0; i < jobs; ++i)
    ASSERT_TRUE(f.engine
                    ->submit(bench_job("m" + std::to_string(i), i, 1 + rng() % 7,
                                       static_cast<Priority>(1 + rng() % 4)))
                    .ok());
  for (int i = 0; i < jobs; ++i)
    EXPECT_EQ(f.engine->await("m" + std::to_string(i))->status, AwaitStatus::completed)
        << "seed=" << seed;
  EXPECT_LE(f.engine->budget().peak(), limit) << "seed=" << seed;
  EXPECT_LE(f.fake->peak_live_bytes(), limit) << "seed=" << seed;
  EXPECT_GE(f.engine->budget().peak(), kKey10 + part);
  // gw workers, and the urgent one for HIGH and CRITICAL jobs.
  EXPECT_LE(f.fake->max_concurrent_device_stages(), eo.gpu_workers_per_device + 1);
}

TEST(Engine, MalformedAndFailingJobsDoNotStopOthers) {
  Fixture f({.synth_ms = 2, .gpu_ms = 2}, {});
  ASSERT_TRUE(f.engine->submit(bench_job("good1", 1, 3)).ok());
  JobRequest garbage = bench_job("garbage", 0, 2);
  garbage.vanilla_proof = "not a witness at all";
  EXPECT_EQ(f.engine->submit(garbage).status().code(), Errc::bad_encoding);
  JobRequest unknown = bench_job("unknown", 0, 2);
  unknown.circuit_id = "bench-99";
  EXPECT_FALSE(f.engine->submit(unknown).ok());
  unknown.circuit_id = "nonsense";
  EXPECT_EQ(f.engine->submit(unknown).status().code(), Errc::not_found);
  JobRequest porep = bench_job("porep", 0, 2);
  porep.kind = ProofKind::porep_seal_commit;
  EXPECT_EQ(f.engine->submit(porep).status().code(), Errc::unimplemented);
  JobRequest badkind = bench_job("bad", 0, 2);
  badkind.kind = static_cast<ProofKind>(77);
  EXPECT_EQ(f.engine->submit(badkind).status().code(), Errc::invalid_argument);
  JobRequest toomany = bench_job("many", 0, 1000);
  EXPECT_EQ(f.engine->submit(toomany).status().code(), Errc::out_of_range);
  for (std::uint8_t stage = 1; stage <= 3; ++stage) {
    JobRequest r = bench_job("fault" + std::to_string(stage), 5, 4);
    r.vanilla_proof = fake_input(5, stage, 2);
    ASSERT_TRUE(f.engine->submit(r).ok());
  }
  ASSERT_TRUE(f.engine->submit(bench_job("good2", 2, 3)).ok());
  for (int s = 1; s <= 3; ++s) {
    auto o = f.engine->await("fault" + std::to_string(s));
    EXPECT_EQ(o->status, AwaitStatus::failed);
    EXPECT_FALSE(o->error.empty());
    EXPECT_TRUE(o->proof.empty());
  }
  EXPECT_NE(f.engine->await("fault1")->error.find("synthesis"), std::string::npos);
  EXPECT_NE(f.engine->await("fault2")->error.find("device"), std::string::npos);
  EXPECT_NE(f.engine->await("fault3")->error.find("verif"), std::string::npos);
  EXPECT_EQ(f.engine->await("good1")->proof, fake_expected_proof("bench-10", 1, 3));
  EXPECT_EQ(f.engine->await("good2")->proof, fake_expected_proof("bench-10", 2, 3));
  // A failed request_id may be submitted again (a retry) and then runs anew.
  auto again = f.engine->submit(bench_job("fault1", 5, 4));
  ASSERT_TRUE(again.ok());
  EXPECT_FALSE(again->existing);
  EXPECT_EQ(f.engine->await("fault1")->status, AwaitStatus::completed);
  // The failed jobs' other partitions give their reservations back when their stages return.
  EXPECT_TRUE(wait_until([&] { return f.engine->budget().used() == kKey10; }));
  EXPECT_EQ(f.engine->budget().used(), kKey10);
}

TEST(Engine, AwaitTimeoutAndPruning) {
  Fixture f({.synth_ms = 1, .gpu_ms = 1}, {.retention = 50ms});
  // The job cannot end while held: an await that returns did so at its timeout.
  auto slow = f.fake->hold(FakeStage::synthesis, "slow");
  ASSERT_TRUE(f.engine->submit(bench_job("slow", 1, 1)).ok());
  auto timed = std::async(std::launch::async, [&] { return f.engine->await("slow", 10ms); });
  const bool returned = timed.wait_for(test::kStateDeadline) == std::future_status::ready;
  slow.release();  // (lets a hanging await return too)
  ASSERT_TRUE(returned) << "await with a 10 ms timeout did not return";
  EXPECT_EQ(timed.get()->status, AwaitStatus::timeout);
  EXPECT_EQ(f.engine->await("slow")->status, AwaitStatus::completed);
  // Pruned once the retention has passed (the prune loop runs every retention / 4).
  EXPECT_TRUE(wait_until([&] { return f.engine->status().jobs_known == 0; }));
  EXPECT_EQ(f.engine->await("slow").status().code(), Errc::not_found);
  EXPECT_EQ(f.engine->status().jobs_known, 0u);
}

TEST(Engine, PendingLimitPerClient) {
  Fixture f({.synth_ms = 1, .gpu_ms = 1}, {.max_pending_per_client = 2});
  // alice's two jobs stay unfinished until the limit has been checked.
  auto c1 = f.fake->hold(FakeStage::synthesis, "c1");
  auto c2 = f.fake->hold(FakeStage::synthesis, "c2");
  EXPECT_TRUE(f.engine->submit(bench_job("c1", 1, 1), Caller{.identity = "alice"}).ok());
  EXPECT_TRUE(f.engine->submit(bench_job("c2", 1, 1), Caller{.identity = "alice"}).ok());
  EXPECT_EQ(f.engine->submit(bench_job("c3", 1, 1), Caller{.identity = "alice"}).status().code(),
            Errc::out_of_memory);
  // A tag (cuzk-client) is a label within the identity: it does not escape the identity's limit.
  EXPECT_EQ(f.engine->submit(bench_job("c5", 1, 1), Caller{.identity = "alice", .tag = "x"})
                .status()
                .code(),
            Errc::out_of_memory);
  EXPECT_TRUE(f.engine->submit(bench_job("c4", 1, 1), Caller{.identity = "bob"}).ok());
  EXPECT_TRUE(f.engine->submit(bench_job("c1", 1, 1), Caller{.identity = "alice"})
                  .ok());  // idempotent repeat is not new work
  c1.release();
  c2.release();
  (void)f.engine->await("c1");
  (void)f.engine->await("c2");
  EXPECT_TRUE(f.engine->submit(bench_job("c3", 1, 1), Caller{.identity = "alice"}).ok());
  EXPECT_EQ(f.engine->await("c3")->status, AwaitStatus::completed);
}

// A job belongs to the identity that submitted it: another identity's await, cancel and
// resubmit of its id are refused (not_found: nothing is revealed), an admin and the engine's own
// callers may do all three, and in-process jobs (no identity) are no one's.
TEST(Engine, JobsBelongToTheirSubmitter) {
  Fixture f({.synth_ms = 1, .gpu_ms = 1}, {});
  auto held = f.fake->hold(FakeStage::synthesis, "a");  // "a" runs until its owner cancels it
  const Caller alice{.identity = "uid:1000"}, bob{.identity = "uid:1001"};
  const Caller admin{.identity = "uid:0", .admin = true};
  ASSERT_TRUE(f.engine->submit(bench_job("a", 1, 1), alice).ok());
  auto st = f.engine->await("a", 1ms, bob).status();
  EXPECT_EQ(st.code(), Errc::not_found);
  EXPECT_EQ(st.message(), "no job 'a' (unknown, or finished and pruned)");  // as for an unknown id
  EXPECT_EQ(f.engine->cancel("a", bob).status().code(), Errc::not_found);
  auto taken = f.engine->submit(bench_job("a", 1, 1), bob);
  EXPECT_EQ(taken.status().code(), Errc::invalid_argument);
  EXPECT_NE(taken.status().message().find("in use by another client"), std::string::npos);
  EXPECT_TRUE(f.engine->await("a", 1ms, admin).ok());
  EXPECT_TRUE(f.engine->await("a", 1ms).ok());                 // Caller::local()
  auto again = f.engine->submit(bench_job("a", 1, 1), alice);  // the owner's idempotent repeat
  ASSERT_TRUE(again.ok());
  EXPECT_TRUE(again->existing);
  EXPECT_TRUE(f.engine->cancel("a", alice).ok());
  EXPECT_EQ(f.engine->await("a", 0ms, alice)->status, AwaitStatus::cancelled);
  // A cancelled job may be retried by its owner, not by another identity.
  EXPECT_EQ(f.engine->submit(bench_job("a", 1, 1), bob).status().code(), Errc::invalid_argument);
  ASSERT_TRUE(f.engine->submit(bench_job("b", 2, 1), bob).ok());
  EXPECT_TRUE(f.engine->cancel("b", admin).ok());
  // No identity: anyone's.
  ASSERT_TRUE(f.engine->submit(bench_job("n", 3, 1)).ok());
  EXPECT_EQ(f.engine->await("n", 0ms, bob)->status, AwaitStatus::completed);
}

TEST(Engine, PreloadAndEvict) {
  FakeProverOptions fo{.synth_ms = 1, .gpu_ms = 1, .key_load_ms = 20};
  Fixture f(fo, {});
  auto p = f.engine->preload("bench-11");
  ASSERT_TRUE(p.ok()) << p.status().to_string();
  EXPECT_FALSE(p->already_loaded);
  EXPECT_TRUE(f.engine->preload("bench-11")->already_loaded);
  EXPECT_EQ(f.engine->budget().used(), 576u << 11);
  auto held = f.fake->hold(FakeStage::synthesis, "busy");
  ASSERT_TRUE(f.engine->submit(bench_job("busy", 1, 1)).ok());
  // "busy" runs (held in synthesis, its key leased) and its key has loaded.
  ASSERT_TRUE(wait_until([&] {
    return f.fake->held_waiting(FakeStage::synthesis, "busy") == 1 &&
           key_loaded(*f.engine, "bench-10");
  }));
  auto busy = f.engine->evict("bench-10");
  EXPECT_EQ(busy.status().code(), Errc::invalid_argument);
  EXPECT_NE(busy.status().message().find("in use"), std::string::npos);
  auto freed = f.engine->evict("bench-11");
  ASSERT_TRUE(freed.ok());
  EXPECT_EQ(*freed, 576u << 11);
  EXPECT_EQ(f.engine->evict("bench-11").status().code(), Errc::not_found);
  EXPECT_EQ(f.engine->evict("nonsense").status().code(), Errc::not_found);
  held.release();
  EXPECT_EQ(f.engine->await("busy")->status, AwaitStatus::completed);
  EXPECT_EQ(*f.engine->evict("bench-10"), kKey10);
  EXPECT_EQ(f.engine->budget().used(), 0u);
  EXPECT_EQ(f.fake->live_bytes(), 0u);
}

TEST(Engine, IdleKeysAreEvictedUnderPressure) {
  // Budget holds one key of bench-12 or bench-11 plus a partition, not both keys.
  FakeProverOptions fo{.synth_ms = 1, .gpu_ms = 1, .partition_bytes_override = 1000};
  EngineOptions eo{.memory_limit = (576u << 12) + 1000};
  Fixture f(fo, eo);
  JobRequest a = bench_job("k12", 1, 2);
  a.circuit_id = "bench-12";
  JobRequest b = bench_job("k11", 1, 2);
  b.circuit_id = "bench-11";
  ASSERT_TRUE(f.engine->submit(a).ok());
  EXPECT_EQ(f.engine->await("k12")->status, AwaitStatus::completed);
  ASSERT_TRUE(f.engine->submit(b).ok());
  EXPECT_EQ(f.engine->await("k11")->status, AwaitStatus::completed);
  auto keys = f.engine->status().keys;
  ASSERT_EQ(keys.size(), 1u);
  EXPECT_EQ(keys[0].key_id, "bench-11");
  EXPECT_LE(f.fake->peak_live_bytes(), eo.memory_limit);
}

TEST(Engine, JournalResumesUnfinishedJobs) {
  auto path = std::filesystem::temp_directory_path() /
              ("cuzk_journal_test_" + std::to_string(::getpid()) + ".db");
  std::filesystem::remove(path);
  {
    Fixture f({.synth_ms = 1, .gpu_ms = 1}, {.journal_path = path.string()});
    ASSERT_TRUE(f.engine->submit(bench_job("done", 3, 2)).ok());
    EXPECT_EQ(f.engine->await("done")->status, AwaitStatus::completed);
  }
  {
    Fixture f({.synth_ms = 1, .gpu_ms = 1}, {.journal_path = path.string()});
    EXPECT_EQ(f.engine->await("done")->proof, fake_expected_proof("bench-10", 3, 2));
    // "resume" runs (its partitions held in synthesis) when the engine stops.
    auto held = f.fake->hold(FakeStage::synthesis, "resume");
    ASSERT_TRUE(f.engine->submit(bench_job("resume", 4, 2, Priority::high)).ok());
    ASSERT_TRUE(
        wait_until([&] { return f.fake->held_waiting(FakeStage::synthesis, "resume") > 0; }));
    f.engine->shutdown(0ms);  // abort: the job stays unfinished in the journal
    EXPECT_EQ(f.engine->await("resume")->status, AwaitStatus::unknown);
  }
  {
    Fixture f({.synth_ms = 1, .gpu_ms = 1}, {.journal_path = path.string()});
    auto o = f.engine->await("resume");
    ASSERT_TRUE(o.ok());
    EXPECT_EQ(o->status, AwaitStatus::completed);
    EXPECT_EQ(o->proof, fake_expected_proof("bench-10", 4, 2));
    auto n = f.engine->submit(bench_job("", 5, 1));  // sequence numbers continue
    ASSERT_TRUE(n.ok());
    EXPECT_EQ(f.engine->await(n->job_id)->status, AwaitStatus::completed);
  }
  std::filesystem::remove(path);
  std::filesystem::remove(path.string() + "-wal");
  std::filesystem::remove(path.string() + "-shm");
}

TEST(Engine, ShutdownDrainsRunningJobsAndStartsNoNewOne) {
  FakeProverOptions fo{.synth_ms = 30, .gpu_ms = 5, .partition_bytes_override = 1000};
  EngineOptions eo{
      .memory_limit = kKey10 + 1000, .synthesis_workers = 1, .gpu_workers_per_device = 1};
  Fixture f(fo, eo);
  // "started" runs (its first partition held in synthesis, holding the budget) until the
  // shutdown has begun; "waiting" cannot have started by then.
  auto held = f.fake->hold(FakeStage::synthesis, "started");
  ASSERT_TRUE(f.engine->submit(bench_job("started", 1, 3)).ok());
  ASSERT_TRUE(f.engine->submit(bench_job("waiting", 2, 1)).ok());
  ASSERT_TRUE(
      wait_until([&] { return f.fake->held_waiting(FakeStage::synthesis, "started") == 1; }));
  auto shutdown = std::async(std::launch::async, [&] { f.engine->shutdown(test::kStateDeadline); });
  // Begun once a repeated submit (no side effect) is refused.
  EXPECT_TRUE(wait_until([&] {
    return f.engine->submit(bench_job("waiting", 2, 1)).status().code() == Errc::cancelled;
  }));
  held.release();
  shutdown.get();
  EXPECT_EQ(f.engine->await("started")->status, AwaitStatus::completed);
  EXPECT_EQ(f.engine->await("waiting")->status, AwaitStatus::unknown);
  EXPECT_EQ(f.engine->submit(bench_job("late", 3, 1)).status().code(), Errc::cancelled);
}

TEST(Engine, JobInputsAreChargedUntilTheLastStageLetsGo) {
  FakeProverOptions fo{.synth_ms = 1, .gpu_ms = 1, .partition_bytes_override = 1000};
  EngineOptions eo{.memory_limit = kKey10 + 1000 + 64, .input_budget = 64};
  Fixture f(fo, eo);
  auto job = [](const std::string& id, std::uint64_t seed) {
    JobRequest r = bench_job(id, seed, 2);
    r.vanilla_proofs = {std::string(10, 'v')};  // 16 + 10 input bytes
    return r;
  };
  auto held = f.fake->hold(FakeStage::synthesis, "i1");  // i1 (and i2 behind it) stay unfinished
  ASSERT_TRUE(f.engine->submit(job("i1", 1)).ok());
  ASSERT_TRUE(f.engine->submit(job("i2", 2)).ok());
  EXPECT_EQ(f.engine->status().input_bytes, 52u);
  auto full = f.engine->submit(job("i3", 3));  // 78 > 64
  EXPECT_EQ(full.status().code(), Errc::out_of_memory);
  held.release();
  EXPECT_EQ(f.engine->await("i1")->status, AwaitStatus::completed);
  EXPECT_EQ(f.engine->await("i2")->status, AwaitStatus::completed);
  EXPECT_TRUE(wait_until([&] { return f.engine->status().input_bytes == 0; }));
  EXPECT_EQ(f.engine->status().input_bytes, 0u);
  EXPECT_EQ(f.engine->budget().used(), kKey10);
  ASSERT_TRUE(f.engine->submit(job("i3", 3)).ok());
  EXPECT_EQ(f.engine->await("i3")->proof, fake_expected_proof("bench-10", 3, 2));
  EXPECT_LE(f.engine->budget().peak(), eo.memory_limit);
}

// A received request's bytes are charged before it is parsed (the server's charge_input): a
// charge the input budget cannot hold is refused naming the sizes, submit() keeps only what the
// input needs from it (no second charge), a dropped charge gives everything back, and a
// non-CRITICAL job may not keep a charge that reached into the CRITICAL headroom.
TEST(Engine, ChargedRequestBytesPayForTheInput) {
  FakeProverOptions fo{.synth_ms = 1, .gpu_ms = 1, .partition_bytes_override = 1000};
  EngineOptions eo{
      .memory_limit = kKey10 + 1000 + 300, .critical_headroom = 150, .input_budget = 100};
  Fixture f(fo, eo);
  auto c80 = f.engine->charge_input(80);
  ASSERT_TRUE(c80.ok()) << c80.status().to_string();
  EXPECT_EQ(f.engine->status().input_bytes, 80u);
  auto c30 = f.engine->charge_input(30);
  ASSERT_FALSE(c30.ok());
  EXPECT_EQ(c30.status().code(), Errc::out_of_memory);
  EXPECT_NE(c30.status().message().find("request of 30 bytes"), std::string::npos)
      << c30.status().message();
  EXPECT_NE(c30.status().message().find("80 bytes of inputs held, input budget 100"),
            std::string::npos)
      << c30.status().message();
  auto huge = f.engine->charge_input(101);
  ASSERT_FALSE(huge.ok());
  EXPECT_NE(huge.status().message().find("larger than the input budget (100 bytes"),
            std::string::npos)
      << huge.status().message();
  {  // dropped: all 80 bytes come back
    InputCharge dropped = std::move(*c80);
  }
  EXPECT_EQ(f.engine->status().input_bytes, 0u);
  EXPECT_EQ(f.engine->budget().used(), 0u);

  // A job of 26 input bytes paid by a 60-byte charge: 26 stay charged, not 60 and not 86.
  auto c60 = f.engine->charge_input(60);
  ASSERT_TRUE(c60.ok());
  JobRequest r = bench_job("paid", 4, 1, Priority::critical);
  r.vanilla_proofs = {std::string(10, 'v')};               // 16 + 10 input bytes
  auto held = f.fake->hold(FakeStage::synthesis, "paid");  // unfinished while its charge is read
  ASSERT_TRUE(f.engine->submit(std::move(r), {}, std::move(*c60)).ok());
  EXPECT_EQ(f.engine->status().input_bytes, 26u);
  held.release();
  EXPECT_EQ(f.engine->await("paid")->status, AwaitStatus::completed);
  EXPECT_TRUE(wait_until([&] { return f.engine->status().input_bytes == 0; }));
  EXPECT_EQ(f.engine->status().input_bytes, 0u);

  // The key (kKey10) is loaded now; with 1100 more bytes taken, 200 are left, the last 150
  // CRITICAL-only. A job of 90 input bytes paid by its charge reaches into the headroom: a NORMAL
  // job may not keep it, a CRITICAL one may.
  ASSERT_TRUE(f.engine->budget().try_reserve(1100, Priority::normal));
  auto job90 = [](const std::string& id, Priority p) {
    JobRequest r = bench_job(id, 5, 1, p);
    r.vanilla_proofs = {std::string(74, 'v')};  // 16 + 74 input bytes
    return r;
  };
  auto c90 = f.engine->charge_input(90);
  ASSERT_TRUE(c90.ok()) << c90.status().to_string();
  auto refused = f.engine->submit(job90("normal", Priority::normal), {}, std::move(*c90));
  EXPECT_EQ(refused.status().code(), Errc::out_of_memory) << refused.status().to_string();
  EXPECT_EQ(f.engine->status().input_bytes, 0u);
  auto again = f.engine->charge_input(90);
  ASSERT_TRUE(again.ok());
  ASSERT_TRUE(f.engine->submit(job90("critical", Priority::critical), {}, std::move(*again)).ok());
  EXPECT_EQ(f.engine->status().input_bytes, 90u);
  f.engine->budget().release(1100);
  EXPECT_EQ(f.engine->await("critical")->status, AwaitStatus::completed);
}

TEST(Engine, JournalBlobRoundTrip) {
  JobRequest r = bench_job("x", 9, 3);
  r.vanilla_proofs = {"a", "", std::string(1000, 'z')};
  r.randomness = std::string(32, '\x07');
  r.sector_number = 12345;
  r.partition_index = 7;
  JobRequest back;
  ASSERT_TRUE(decode_request_blob(encode_request_blob(r), back).ok());
  EXPECT_EQ(back.vanilla_proof, r.vanilla_proof);
  EXPECT_EQ(back.vanilla_proofs, r.vanilla_proofs);
  EXPECT_EQ(back.randomness, r.randomness);
  EXPECT_EQ(back.sector_number, 12345u);
  EXPECT_EQ(back.partition_index, 7u);
  std::string blob = encode_request_blob(r);
  EXPECT_FALSE(decode_request_blob(blob.substr(0, blob.size() - 1), back).ok());
  EXPECT_FALSE(decode_request_blob("garbage", back).ok());
  // The partition index is stored as u64 from a u32: a larger one is refused, not truncated
  // (found by a libFuzzer run of the blob decoder, whose round trip it broke).
  blob[blob.size() - 4] = 1;
  auto bad = decode_request_blob(blob, back);
  EXPECT_EQ(bad.code(), Errc::bad_encoding) << bad.to_string();
  // SnapDeals h: appended when not 0, so a blob of the first layout (above: h unset) still reads,
  // as h = 0; a trailing 0 is not an encoding the writer makes.
  EXPECT_EQ(encode_request_blob(r).size() + 8, [&] {
    JobRequest h8 = r;
    h8.update_h = 8;
    return encode_request_blob(h8).size();
  }());
  r.update_h = 8;
  ASSERT_TRUE(decode_request_blob(encode_request_blob(r), back).ok());
  EXPECT_EQ(back.update_h, 8u);
  r.update_h = 0;
  ASSERT_TRUE(decode_request_blob(encode_request_blob(r), back).ok());
  EXPECT_EQ(back.update_h, 0u);
  EXPECT_FALSE(decode_request_blob(encode_request_blob(r) + std::string(8, '\0'), back).ok());
}

TEST(Engine, BatchCollectorGroupsSameCircuit) {
  // The device is held (its compute section) until every partition is synthesized, so they pile
  // up in the device queue; a worker takes up to 4 of one circuit per call, never mixing
  // circuits, and proofs stay correct. (The first call may hold one partition; at least 4 of
  // "ba" wait behind it.)
  FakeProverOptions fo{
      .synth_ms = 1, .gpu_ms = 1, .partition_bytes_override = 1000, .compute_section = true};
  EngineOptions eo{.memory_limit = (576u << 11) + (576u << 10) + 40000,
                   .synthesis_workers = 4,
                   .gpu_workers_per_device = 1,
                   .gpu_queue_depth = 16,
                   .max_batch_size = 4,
                   .batch_wait = 5ms};
  Fixture f(fo, eo);
  JobRequest a = bench_job("ba", 1, 8);
  JobRequest b = bench_job("bb", 2, 5);
  b.circuit_id = "bench-11";
  PrioritySection& section = f.fake->compute_section(0);
  section.lock();
  ASSERT_TRUE(f.engine->submit(a).ok());
  ASSERT_TRUE(f.engine->submit(b).ok());
  EXPECT_TRUE(wait_until([&] { return f.engine->status().partitions_synthesized == 13; }));
  section.unlock();
  EXPECT_EQ(f.engine->await("ba")->proof, fake_expected_proof("bench-10", 1, 8));
  EXPECT_EQ(f.engine->await("bb")->proof, fake_expected_proof("bench-11", 2, 5));
  EXPECT_GT(f.fake->max_batch_seen(), 1u);
  EXPECT_LE(f.fake->max_batch_seen(), 4u);
  EXPECT_EQ(f.fake->mixed_batches(), 0u);
  EXPECT_LE(f.engine->budget().peak(), eo.memory_limit);
}

TEST(Engine, LoadTestNothingLost) {
  FakeProverOptions fo{.synth_ms = 0, .gpu_ms = 0, .key_load_ms = 1};
  EngineOptions eo{.memory_limit = kKey10 + 8 * (4u * 32 << 10),
                   .synthesis_workers = 3,
                   .gpu_workers_per_device = 2};
  Fixture f(fo, eo);
  constexpr int kThreads = 6, kPerThread = 50;
  std::atomic<int> ok{0};
  std::vector<std::thread> ts;
  for (int t = 0; t < kThreads; ++t) {
    ts.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        std::string id = "l" + std::to_string(t) + "-" + std::to_string(i);
        std::uint64_t seed = static_cast<std::uint64_t>(t * 1000 + i);
        auto s =
            f.engine->submit(bench_job(id, seed, 1 + (i % 3), static_cast<Priority>(1 + (i % 4))),
                             Caller{.identity = "client" + std::to_string(t)});
        if (!s.ok()) continue;
        if (i % 2 == 0) {
          auto o = f.engine->await(id);
          if (o.ok() && o->status == AwaitStatus::completed &&
              o->proof == fake_expected_proof("bench-10", seed, 1 + (i % 3)))
            ++ok;
        }
      }
      for (int i = 1; i < kPerThread; i += 2) {
        std::string id = "l" + std::to_string(t) + "-" + std::to_string(i);
        std::uint64_t seed = static_cast<std::uint64_t>(t * 1000 + i);
        auto o = f.engine->await(id);
        if (o.ok() && o->status == AwaitStatus::completed &&
            o->proof == fake_expected_proof("bench-10", seed, 1 + (i % 3)))
          ++ok;
      }
    });
  }
  for (auto& t : ts) t.join();
  EXPECT_EQ(ok.load(), kThreads * kPerThread);
  EXPECT_EQ(f.engine->status().completed, static_cast<std::uint64_t>(kThreads * kPerThread));
  EXPECT_LE(f.engine->budget().peak(), eo.memory_limit);
}

}  // namespace
}  // namespace cuzk::engine
