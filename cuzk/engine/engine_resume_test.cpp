// Partition-level resume: a process proving a job is killed with SIGKILL mid-job; the next start
// proves only the partitions that have no journaled proof (counted on the FakeProver) and the
// assembled proof equals an uninterrupted run. Corrupt or mismatched journal rows fail their own
// job with a message naming the row; the engine still starts and the other jobs complete.
#include <gtest/gtest.h>
#include <signal.h>
#include <spdlog/spdlog.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <future>
#include <set>
#include <thread>

#include "cuzk/base/priority_section.hpp"
#include "cuzk/engine/engine.hpp"
#include "cuzk/engine/fake_prover.hpp"
#include "cuzk/engine/journal.hpp"
#include "tests/support/wait_until.hpp"

namespace cuzk::engine {
namespace {

using namespace std::chrono_literals;
namespace fs = std::filesystem;

const bool kQuiet = (spdlog::set_level(spdlog::level::warn), true);

JobRequest bench_job(const std::string& id, std::uint64_t seed, std::uint32_t parts) {
  return fake_job(id, "bench-10", seed, parts);
}

fs::path journal_file(const char* name) {
  auto p = fs::temp_directory_path() /
           (std::string("cuzk_") + name + "_" + std::to_string(::getpid()) + ".db");
  for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(p.string() + suffix);
  return p;
}

void remove_journal(const fs::path& p) {
  for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(p.string() + suffix);
}

std::set<std::uint32_t> journaled_partitions(const fs::path& path, const std::string& job_id) {
  std::set<std::uint32_t> out;
  auto j = Journal::open(path.string());
  if (!j) return out;
  auto rows = (*j)->load_partitions();
  if (!rows) return out;
  for (auto& r : *rows)
    if (r.job_id == job_id) out.insert(r.partition);
  return out;
}

// With |section| (the fake's compute section of device 0) held by the caller and one device
// worker: lets device stages in one at a time until |n| have started, and returns holding the
// section again, so the job stops there (at most one more stage gets in, when the worker asks
// for the section before this thread does).
void let_device_stages_through(FakeProver& fake, PrioritySection& section, std::size_t n) {
  for (std::size_t seen = fake.device_stages().size(); seen < n;
       seen = fake.device_stages().size()) {
    section.unlock();
    test::wait_until([&] { return fake.device_stages().size() > seen; });
    section.lock();
  }
}

void sql(const fs::path& path, const std::string& stmt) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.string().c_str(), &db), SQLITE_OK);
  char* err = nullptr;
  EXPECT_EQ(sqlite3_exec(db, stmt.c_str(), nullptr, nullptr, &err), SQLITE_OK) << (err ? err : "");
  sqlite3_free(err);
  sqlite3_close(db);
}

// The journal holds job inputs: it, and its WAL files, are owner-only even under a umask of 0,
// and an existing journal readable by others is narrowed to 0600 when opened.
TEST(EngineResume, JournalFilesAreOwnerOnly) {
  const fs::path path =
      fs::temp_directory_path() / ("cuzk-journal-mode-" + std::to_string(::getpid()));
  remove_journal(path);
  const mode_t old_mask = ::umask(0);
  {
    auto j = Journal::open(path.string());
    ASSERT_TRUE(j.ok()) << j.status().to_string();
    JournalRecord rec;
    rec.job_id = "m";
    rec.req.request_id = "m";
    ASSERT_TRUE((*j)->record_submit(rec).ok());
    for (const char* suffix : {"", "-wal", "-shm"}) {
      struct stat st {};
      if (::stat((path.string() + suffix).c_str(), &st) != 0) continue;
      EXPECT_EQ(st.st_mode & 0777, 0600u) << suffix;
    }
  }
  ::umask(old_mask);
  ASSERT_EQ(::chmod(path.c_str(), 0644), 0);
  ASSERT_TRUE(Journal::open(path.string()).ok());
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  remove_journal(path);
}

// A job's owner is journaled and holds after a restart. A journal written before owners existed
// gets the column on open, and its rows belong to no one (every caller may await them).
TEST(EngineResume, OwnersSurviveARestartAndOldJournalsOpen) {
  const fs::path path = journal_file("owners");
  const Caller alice{.identity = "uid:1000"}, bob{.identity = "uid:1001"};
  auto fake = std::make_shared<FakeProver>(FakeProverOptions{.synth_ms = 1, .gpu_ms = 1});
  {
    auto e = Engine::create({.journal_path = path.string()}, {fake});
    ASSERT_TRUE(e.ok()) << e.status().to_string();
    ASSERT_TRUE((*e)->submit(bench_job("owned", 5, 2), alice).ok());
    EXPECT_EQ((*e)->await("owned", 0ms, alice)->status, AwaitStatus::completed);
    (*e)->shutdown(0ms);
  }
  {
    auto e = Engine::create({.journal_path = path.string()}, {fake});
    ASSERT_TRUE(e.ok()) << e.status().to_string();
    EXPECT_EQ((*e)->await("owned", 0ms, bob).status().code(), Errc::not_found);
    EXPECT_EQ((*e)->await("owned", 0ms, alice)->status, AwaitStatus::completed);
    (*e)->shutdown(0ms);
  }
  remove_journal(path);
  // The jobs table as it was before the owner column.
  sql(path,
      "CREATE TABLE jobs (job_id TEXT PRIMARY KEY, seq INTEGER NOT NULL, client TEXT NOT NULL,"
      " request_id TEXT NOT NULL, kind INTEGER NOT NULL, circuit_id TEXT NOT NULL,"
      " num_partitions INTEGER NOT NULL, priority INTEGER NOT NULL, inputs BLOB NOT NULL,"
      " state INTEGER NOT NULL, proof BLOB, error TEXT, submitted_ms INTEGER NOT NULL,"
      " finished_ms INTEGER NOT NULL)");
  sql(
      path, "INSERT INTO jobs VALUES ('old', 1, 'unix:', 'old', 0, 'bench-10', 2, 2, X'" + [] {
        std::string hex;
        for (unsigned char c : encode_request_blob(bench_job("old", 6, 2))) {
          char b[3];
          std::snprintf(b, sizeof b, "%02x", c);
          hex += b;
        }
        return hex;
      }() + "', 0, NULL, '', 0, 0)");
  {
    auto e = Engine::create({.journal_path = path.string()}, {fake});
    ASSERT_TRUE(e.ok()) << e.status().to_string();
    auto o = (*e)->await("old", 0ms, bob);
    ASSERT_TRUE(o.ok()) << o.status().to_string();
    EXPECT_EQ(o->status, AwaitStatus::completed);
    EXPECT_EQ(o->proof, fake_expected_proof("bench-10", 6, 2));
    (*e)->shutdown(0ms);
  }
  remove_journal(path);
}

TEST(EngineResume, KillNineMidJobProvesOnlyTheMissingPartitions) {
  constexpr std::uint32_t kParts = 12;
  constexpr std::uint64_t kSeed = 77;
  auto path = journal_file("resume_kill9");
  // The child says on this pipe when its engine is up: the journal is created and set up (WAL,
  // tables) before the test opens it too. Opening it while the child was still setting it up
  // made the child's Engine::create fail once (under AddressSanitizer, in CI's loaded run).
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    ::close(ready[0]);
    // The child proves a third of the job's partitions (its device section lets that many in)
    // and then holds the device until it is killed; it never returns into the test.
    auto fake = std::make_shared<FakeProver>(
        FakeProverOptions{.synth_ms = 1, .gpu_ms = 1, .compute_section = true});
    auto e = Engine::create(
        {.synthesis_workers = 1, .gpu_workers_per_device = 1, .journal_path = path.string()},
        {fake});
    if (!e.ok()) {
      std::fprintf(stderr, "child: %s\n", e.status().to_string().c_str());
      ::_exit(3);
    }
    PrioritySection& section = fake->compute_section(0);
    section.lock();
    if (!(*e)->submit(bench_job("r", kSeed, kParts)).ok()) ::_exit(4);
    if (::write(ready[1], "r", 1) != 1) ::_exit(5);
    let_device_stages_through(*fake, section, kParts / 3);
    for (;;) std::this_thread::sleep_for(1s);  // (paces nothing: waits for the SIGKILL)
  }
  ::close(ready[1]);
  char byte = 0;
  const bool up = ::read(ready[0], &byte, 1) == 1;  // 0: the child ended first
  ::close(ready[0]);
  if (!up) {
    int st = 0;
    ::waitpid(pid, &st, 0);
    FAIL() << "the child ended before its engine was up, status " << st;
  }
  // Kill it once a third of the partitions are journaled (a SIGKILL: no shutdown, no flush).
  std::set<std::uint32_t> before;
  auto t0 = Clock::now();
  while (Clock::now() - t0 < test::kStateDeadline) {
    before = journaled_partitions(path, "r");
    if (before.size() >= kParts / 3) break;
    int st = 0;
    ASSERT_EQ(::waitpid(pid, &st, WNOHANG), 0) << "the child ended early, status " << st;
    std::this_thread::sleep_for(2ms);
  }
  ::kill(pid, SIGKILL);
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status));
  std::set<std::uint32_t> journaled =
      journaled_partitions(path, "r");  // what is on disk after the kill
  ASSERT_GE(journaled.size(), kParts / 3);
  ASSERT_LT(journaled.size(), kParts) << "the job finished before the kill; nothing to resume";

  auto fake = std::make_shared<FakeProver>(FakeProverOptions{.synth_ms = 1, .gpu_ms = 1});
  auto e = Engine::create({.journal_path = path.string()}, {fake});
  ASSERT_TRUE(e.ok()) << e.status().to_string();
  auto o = (*e)->await("r", 20s);
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o->status, AwaitStatus::completed) << o->error;
  EXPECT_EQ(o->proof,
            fake_expected_proof("bench-10", kSeed, kParts));  // identical to an uninterrupted run
  std::set<std::uint32_t> proved;
  for (auto& s : fake->device_stages()) {
    EXPECT_EQ(journaled.count(s.partition), 0u)
        << "partition " << s.partition << " was journaled but proved again";
    EXPECT_TRUE(proved.insert(s.partition).second)
        << "partition " << s.partition << " proved twice";
  }
  EXPECT_EQ(proved.size(), kParts - journaled.size());
  EXPECT_EQ((*e)->status().partitions_resumed, journaled.size());
  std::printf("kill -9 after %zu of %u partitions journaled; the restart proved %zu\n",
              journaled.size(), kParts, proved.size());
  // Finished: the job row holds the proof and its partition rows are gone.
  EXPECT_TRUE(journaled_partitions(path, "r").empty());
  e->reset();
  remove_journal(path);
}

TEST(EngineResume, ResumedJobWithEveryPartitionJournaledOnlyFinalizes) {
  auto path = journal_file("resume_all");
  {
    auto j = Journal::open(path.string());
    ASSERT_TRUE(j.ok());
    JournalRecord rec;
    rec.job_id = "all";
    rec.seq = 5;
    rec.req = bench_job("all", 9, 3);
    ASSERT_TRUE((*j)->record_submit(rec).ok());
    std::string want = fake_expected_proof("bench-10", 9, 3);
    for (std::uint32_t k = 0; k < 3; ++k)
      ASSERT_TRUE((*j)->record_partition("all", 5, k, want.substr(192 * k, 192)).ok());
  }
  auto fake = std::make_shared<FakeProver>(FakeProverOptions{.synth_ms = 1, .gpu_ms = 1});
  auto e = Engine::create({.journal_path = path.string()}, {fake});
  ASSERT_TRUE(e.ok()) << e.status().to_string();
  auto o = (*e)->await("all", 10s);
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o->status, AwaitStatus::completed) << o->error;
  EXPECT_EQ(o->proof, fake_expected_proof("bench-10", 9, 3));
  EXPECT_TRUE(fake->device_stages().empty());
  e->reset();
  remove_journal(path);
}

TEST(EngineResume, CorruptOrMismatchedRowsFailOnlyTheirJob) {
  auto path = journal_file("resume_corrupt");
  {
    // Two device stages of "bad" run (its device section lets them in), then the device is
    // held: every job is unfinished when the engine stops.
    auto fake = std::make_shared<FakeProver>(
        FakeProverOptions{.synth_ms = 1, .gpu_ms = 1, .compute_section = true});
    auto e = Engine::create(
        {.synthesis_workers = 1, .gpu_workers_per_device = 1, .journal_path = path.string()},
        {fake});
    ASSERT_TRUE(e.ok()) << e.status().to_string();
    PrioritySection& section = fake->compute_section(0);
    section.lock();
    ASSERT_TRUE((*e)->submit(bench_job("bad", 1, 6)).ok());
    ASSERT_TRUE((*e)->submit(bench_job("stale", 2, 4)).ok());
    ASSERT_TRUE((*e)->submit(bench_job("blob", 3, 4)).ok());
    ASSERT_TRUE((*e)->submit(bench_job("good", 4, 4)).ok());
    let_device_stages_through(*fake, section, 2);
    EXPECT_TRUE(test::wait_until([&] { return journaled_partitions(path, "bad").size() >= 2; }));
    // Abort (every job stays unfinished in the journal); the device worker waiting at the held
    // section is let go once the engine has stopped accepting, to find its job stopped.
    auto stop = std::async(std::launch::async, [&] { (*e)->shutdown(0ms); });
    EXPECT_TRUE(test::wait_until(
        [&] { return (*e)->submit(bench_job("good", 4, 4)).status().code() == Errc::cancelled; }));
    section.unlock();
    stop.get();
  }
  ASSERT_GE(journaled_partitions(path, "bad").size(), 2u);
  // bad: a proof byte flipped (the digest no longer matches); stale: a row written by an earlier
  // job with the same id; blob: the job's own request blob truncated.
  sql(path,
      "UPDATE partitions SET proof = X'00' || substr(proof, 2) WHERE job_id = 'bad' AND partition "
      "= 0");
  {
    auto j = Journal::open(path.string());
    ASSERT_TRUE(j.ok());
    ASSERT_TRUE((*j)->record_partition("stale", 999, 1, std::string(192, 'x')).ok());
  }
  sql(path, "UPDATE jobs SET inputs = X'435A4A3101' WHERE job_id = 'blob'");

  auto fake = std::make_shared<FakeProver>(FakeProverOptions{.synth_ms = 1, .gpu_ms = 1});
  auto e = Engine::create({.journal_path = path.string()}, {fake});
  ASSERT_TRUE(e.ok()) << "a bad row must not stop the engine: " << e.status().to_string();
  auto bad = (*e)->await("bad", 10s);
  ASSERT_TRUE(bad.ok());
  EXPECT_EQ(bad->status, AwaitStatus::failed);
  EXPECT_NE(bad->error.find("partition 0"), std::string::npos) << bad->error;
  EXPECT_NE(bad->error.find("corrupt"), std::string::npos) << bad->error;
  auto stale = (*e)->await("stale", 10s);
  EXPECT_EQ(stale->status, AwaitStatus::failed);
  EXPECT_NE(stale->error.find("earlier job"), std::string::npos) << stale->error;
  auto blob = (*e)->await("blob", 10s);
  EXPECT_EQ(blob->status, AwaitStatus::failed);
  EXPECT_NE(blob->error.find("corrupt"), std::string::npos) << blob->error;
  auto good = (*e)->await("good", 10s);
  EXPECT_EQ(good->status, AwaitStatus::completed) << good->error;
  EXPECT_EQ(good->proof, fake_expected_proof("bench-10", 4, 4));
  std::printf("bad: %s\nstale: %s\nblob: %s\n", bad->error.c_str(), stale->error.c_str(),
              blob->error.c_str());
  e->reset();
  remove_journal(path);
}

}  // namespace
}  // namespace cuzk::engine
