// Journal: accepted jobs and their inputs in SQLite (WAL mode), so that after a crash or restart
// unfinished jobs run again and AwaitProof by job_id still answers. A row is written before a
// submit is acknowledged, updated when the job ends, and deleted when the job is pruned.
// Each finished partition proof of an unfinished job is a row of its own (job, partition, job
// sequence, proof, digest), so a resumed job proves only its missing partitions; the partition
// rows of a job go away, in the same transaction, when the job is (re)submitted, ends or is pruned.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "cuzk/base/status.hpp"
#include "cuzk/engine/job_types.hpp"

struct sqlite3;

namespace cuzk::engine {

struct JournalRecord {
  std::string job_id;
  std::uint64_t seq = 0;
  std::string client;
  std::string
      owner;  ///< Caller::identity of the submitter; empty = no one's (and rows from before)
  JobRequest req;
  JobState state = JobState::queued;
  std::string proof;
  std::string error;
  std::int64_t submitted_unix_ms = 0;
  std::int64_t finished_unix_ms = 0;
  /// Set when the row could not be read back (bad blob, bad state): the engine fails the job
  /// with this message instead of refusing to start.
  std::string load_error;
};

/// One journaled partition proof of an unfinished job.
struct JournalPartition {
  std::string job_id;
  std::uint32_t partition = 0;
  std::uint64_t seq = 0;  ///< the job's sequence number when the proof was written
  std::string proof;
  /// Whether the stored digest matches the proof bytes (false: the row is corrupt).
  bool digest_ok = true;
};

class Journal {
 public:
  /// Opens (creating if needed) the journal at |path|.
  static Result<std::unique_ptr<Journal>> open(const std::string& path);
  ~Journal();
  Journal(const Journal&) = delete;
  Journal& operator=(const Journal&) = delete;

  /// Inserts or replaces the row of a newly accepted job (state queued).
  Status record_submit(const JournalRecord& r) { return record_submit(r, r.req); }
  /// The same with the request given apart (r.req unused), so a large input is not copied.
  Status record_submit(const JournalRecord& r, const JobRequest& req);
  /// Records the end of a job.
  Status record_finish(const std::string& job_id, JobState state, const std::string& proof,
                       const std::string& error, std::int64_t finished_unix_ms);
  Status erase(const std::string& job_id);
  /// Records a finished partition proof of job |job_id| (sequence |seq|).
  Status record_partition(const std::string& job_id, std::uint64_t seq, std::uint32_t partition,
                          const std::string& proof);
  /// Every row, in submission order.
  Result<std::vector<JournalRecord>> load();
  /// Every partition row, by job then partition.
  Result<std::vector<JournalPartition>> load_partitions();

 private:
  explicit Journal(sqlite3* db) : db_(db) {}
  Status exec(const char* sql);
  /// Runs |fn| inside BEGIN IMMEDIATE … COMMIT (ROLLBACK when it fails).
  template <class Fn>
  Status transaction(Fn fn);
  sqlite3* db_;
  std::mutex mu_;  // one connection: multi-statement transactions must not interleave
};

/// Digest stored beside a journaled partition proof (64-bit FNV-1a).
std::uint64_t journal_digest(const std::string& bytes);

/// Encodes the list-valued and raw fields of a request into one blob (length-prefixed), and back.
std::string encode_request_blob(const JobRequest& r);
Status decode_request_blob(const std::string& blob, JobRequest& r);

}  // namespace cuzk::engine
