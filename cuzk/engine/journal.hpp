// Journal: accepted jobs and their inputs in SQLite (WAL mode), so that after a crash or restart
// unfinished jobs run again and AwaitProof by job_id still answers. A row is written before a
// submit is acknowledged, updated when the job ends, and deleted when the job is pruned.
#pragma once

#include <cstdint>
#include <memory>
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
  JobRequest req;
  JobState state = JobState::queued;
  std::string proof;
  std::string error;
  std::int64_t submitted_unix_ms = 0;
  std::int64_t finished_unix_ms = 0;
};

class Journal {
 public:
  /// Opens (creating if needed) the journal at |path|.
  static Result<std::unique_ptr<Journal>> open(const std::string& path);
  ~Journal();
  Journal(const Journal&) = delete;
  Journal& operator=(const Journal&) = delete;

  /// Inserts or replaces the row of a newly accepted job (state queued).
  Status record_submit(const JournalRecord& r);
  /// Records the end of a job.
  Status record_finish(const std::string& job_id, JobState state, const std::string& proof,
                       const std::string& error, std::int64_t finished_unix_ms);
  Status erase(const std::string& job_id);
  /// Every row, in submission order.
  Result<std::vector<JournalRecord>> load();

 private:
  explicit Journal(sqlite3* db) : db_(db) {}
  Status exec(const char* sql);
  sqlite3* db_;
};

/// Encodes the list-valued and raw fields of a request into one blob (length-prefixed), and back.
std::string encode_request_blob(const JobRequest& r);
Status decode_request_blob(const std::string& blob, JobRequest& r);

}  // namespace cuzk::engine
