#include "cuzk/engine/journal.hpp"

#include <fcntl.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include <cstring>

namespace cuzk::engine {
namespace {

void put_u64(std::string& out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
void put_bytes(std::string& out, const std::string& b) {
  put_u64(out, b.size());
  out += b;
}

struct Reader {
  const std::string& s;
  std::size_t pos = 0;
  bool u64(std::uint64_t& v) {
    if (s.size() - pos < 8) return false;
    v = 0;
    for (int i = 0; i < 8; ++i)
      v |= std::uint64_t(static_cast<unsigned char>(s[pos + i])) << (8 * i);
    pos += 8;
    return true;
  }
  bool bytes(std::string& b) {
    std::uint64_t n;
    if (!u64(n) || s.size() - pos < n) return false;
    b.assign(s, pos, n);
    pos += n;
    return true;
  }
};

class Stmt {
 public:
  Stmt(sqlite3* db, const char* sql) { rc_ = sqlite3_prepare_v2(db, sql, -1, &st_, nullptr); }
  ~Stmt() { sqlite3_finalize(st_); }
  bool ok() const { return rc_ == SQLITE_OK; }
  sqlite3_stmt* get() { return st_; }
  void text(int i, const std::string& v) {
    sqlite3_bind_text(st_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
  }
  void blob(int i, const std::string& v) {
    sqlite3_bind_blob64(st_, i, v.data(), v.size(), SQLITE_TRANSIENT);
  }
  void i64(int i, std::int64_t v) { sqlite3_bind_int64(st_, i, v); }

 private:
  sqlite3_stmt* st_ = nullptr;
  int rc_;
};

std::string col_bytes(sqlite3_stmt* st, int i) {
  const void* p = sqlite3_column_blob(st, i);
  int n = sqlite3_column_bytes(st, i);
  return p ? std::string(static_cast<const char*>(p), static_cast<std::size_t>(n)) : std::string();
}

}  // namespace

std::uint64_t journal_digest(const std::string& bytes) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : bytes) h = (h ^ c) * 0x100000001b3ULL;
  return h;
}

template <class Fn>
Status Journal::transaction(Fn fn) {
  CUZK_RETURN_IF_ERROR(exec("BEGIN IMMEDIATE"));
  Status st = fn();
  if (!st.ok()) {
    (void)exec("ROLLBACK");
    return st;
  }
  if (auto c = exec("COMMIT"); !c.ok()) {
    (void)exec("ROLLBACK");
    return c;
  }
  return {};
}

std::string encode_request_blob(const JobRequest& r) {
  std::string out = "CZJ1";
  put_bytes(out, r.vanilla_proof);
  put_u64(out, r.vanilla_proofs.size());
  for (const auto& v : r.vanilla_proofs) put_bytes(out, v);
  put_bytes(out, r.randomness);
  put_bytes(out, r.comm_r_old);
  put_bytes(out, r.comm_r_new);
  put_bytes(out, r.comm_d_new);
  put_u64(out, r.sector_size);
  put_u64(out, r.registered_proof);
  put_u64(out, r.sector_number);
  put_u64(out, r.miner_id);
  put_u64(out, r.partition_index);
  // Appended after the first layout: a blob without it (written before) reads as h = 0.
  if (r.update_h != 0) put_u64(out, r.update_h);
  return out;
}

Status decode_request_blob(const std::string& blob, JobRequest& r) {
  if (blob.size() < 4 || blob.compare(0, 4, "CZJ1") != 0)
    return Status(Errc::bad_encoding, "journal blob has no CZJ1 tag");
  Reader rd{blob, 4};
  std::uint64_t n = 0, pi = 0;
  bool ok = rd.bytes(r.vanilla_proof) && rd.u64(n);
  if (ok && n > blob.size()) ok = false;
  if (ok) r.vanilla_proofs.resize(n);
  for (std::uint64_t i = 0; ok && i < n; ++i) ok = rd.bytes(r.vanilla_proofs[i]);
  ok = ok && rd.bytes(r.randomness) && rd.bytes(r.comm_r_old) && rd.bytes(r.comm_r_new) &&
       rd.bytes(r.comm_d_new) && rd.u64(r.sector_size) && rd.u64(r.registered_proof) &&
       rd.u64(r.sector_number) && rd.u64(r.miner_id) && rd.u64(pi);
  std::uint64_t h = 0;
  // A trailing h is never 0 (not written then): one encoding per request.
  if (ok && rd.pos != blob.size()) ok = rd.u64(h) && h != 0 && h <= 0xffffffffu;
  if (!ok || rd.pos != blob.size())
    return Status(Errc::truncated, "journal blob is truncated or has trailing bytes");
  // Written from a u32: anything larger is damage, not a partition to take modulo 2^32.
  if (pi > 0xffffffffu)
    return Status(Errc::bad_encoding,
                  "journal blob: partition index " + std::to_string(pi) + " exceeds 32 bits");
  r.partition_index = static_cast<std::uint32_t>(pi);
  r.update_h = static_cast<std::uint32_t>(h);
  return {};
}

Result<std::unique_ptr<Journal>> Journal::open(const std::string& path) {
  // The journal holds job inputs (witnesses, vanilla proofs): owner-only, like the socket. The
  // file is created 0600 before SQLite opens it (its -wal and -shm files take the same mode), and
  // an existing journal with wider rights is narrowed.
  {
    int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0)
      return Status(Errc::io_error, "opening journal " + path + ": " + std::strerror(errno));
    struct stat st {};
    const bool narrowed =
        ::fstat(fd, &st) == 0 && ((st.st_mode & 0077) == 0 || ::fchmod(fd, 0600) == 0);
    ::close(fd);
    if (!narrowed)
      return Status(Errc::io_error, "journal " + path +
                                        " is readable by others and cannot be made owner-only: " +
                                        std::strerror(errno));
    for (const char* suffix : {"-wal", "-shm"}) ::chmod((path + suffix).c_str(), 0600);
  }
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(path.c_str(), &db,
                      SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                      nullptr) != SQLITE_OK) {
    std::string msg = db ? sqlite3_errmsg(db) : "cannot allocate";
    sqlite3_close(db);
    return Status(Errc::io_error, "opening journal " + path + ": " + msg);
  }
  std::unique_ptr<Journal> j(new Journal(db));
  sqlite3_busy_timeout(db, 5000);
  CUZK_RETURN_IF_ERROR(j->exec("PRAGMA journal_mode=WAL"));
  // NORMAL in WAL mode: a committed row survives a process crash (kill -9); only an OS crash
  // can lose the last transactions.
  CUZK_RETURN_IF_ERROR(j->exec("PRAGMA synchronous=NORMAL"));
  CUZK_RETURN_IF_ERROR(j->exec(
      "CREATE TABLE IF NOT EXISTS jobs ("
      " job_id TEXT PRIMARY KEY, seq INTEGER NOT NULL, client TEXT NOT NULL, request_id TEXT NOT "
      "NULL,"
      " kind INTEGER NOT NULL, circuit_id TEXT NOT NULL, num_partitions INTEGER NOT NULL,"
      " priority INTEGER NOT NULL, inputs BLOB NOT NULL, state INTEGER NOT NULL, proof BLOB,"
      " error TEXT, submitted_ms INTEGER NOT NULL, finished_ms INTEGER NOT NULL)"));
  // owner (the submitter's identity) came later: a journal without the column gets it, and its
  // rows belong to no one.
  {
    Stmt info(db, "SELECT 1 FROM pragma_table_info('jobs') WHERE name='owner'");
    if (!info.ok())
      return Status(Errc::io_error, std::string("journal prepare: ") + sqlite3_errmsg(db));
    if (sqlite3_step(info.get()) != SQLITE_ROW)
      CUZK_RETURN_IF_ERROR(j->exec("ALTER TABLE jobs ADD COLUMN owner TEXT NOT NULL DEFAULT ''"));
  }
  CUZK_RETURN_IF_ERROR(
      j->exec("CREATE TABLE IF NOT EXISTS partitions ("
              " job_id TEXT NOT NULL, partition INTEGER NOT NULL, seq INTEGER NOT NULL, proof BLOB "
              "NOT NULL,"
              " digest INTEGER NOT NULL, PRIMARY KEY (job_id, partition))"));
  return j;
}

Journal::~Journal() { sqlite3_close(db_); }

Status Journal::exec(const char* sql) {
  char* err = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &err) != SQLITE_OK) {
    std::string msg = err ? err : "unknown";
    sqlite3_free(err);
    return Status(Errc::io_error, std::string("journal: ") + msg);
  }
  return {};
}

Status Journal::record_submit(const JournalRecord& r, const JobRequest& req) {
  std::lock_guard lock(mu_);
  return transaction([&]() -> Status {
    // A job id used again (a failed job resubmitted with its request_id) starts with no partitions.
    Stmt del(db_, "DELETE FROM partitions WHERE job_id=?");
    if (!del.ok())
      return Status(Errc::io_error, std::string("journal prepare: ") + sqlite3_errmsg(db_));
    del.text(1, r.job_id);
    if (sqlite3_step(del.get()) != SQLITE_DONE)
      return Status(Errc::io_error, std::string("journal delete: ") + sqlite3_errmsg(db_));
    Stmt st(db_,
            "INSERT OR REPLACE INTO jobs (job_id, seq, client, request_id, kind, circuit_id, "
            "num_partitions, priority,"
            " inputs, state, proof, error, submitted_ms, finished_ms, owner) VALUES "
            "(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
    if (!st.ok())
      return Status(Errc::io_error, std::string("journal prepare: ") + sqlite3_errmsg(db_));
    st.text(1, r.job_id);
    st.i64(2, static_cast<std::int64_t>(r.seq));
    st.text(3, r.client);
    st.text(4, req.request_id);
    st.i64(5, static_cast<std::int64_t>(req.kind));
    st.text(6, req.circuit_id);
    st.i64(7, req.num_partitions);
    st.i64(8, static_cast<std::int64_t>(req.priority));
    st.blob(9, encode_request_blob(req));
    st.i64(10, static_cast<std::int64_t>(r.state));
    st.blob(11, r.proof);
    st.text(12, r.error);
    st.i64(13, r.submitted_unix_ms);
    st.i64(14, r.finished_unix_ms);
    st.text(15, r.owner);
    if (sqlite3_step(st.get()) != SQLITE_DONE)
      return Status(Errc::io_error, std::string("journal insert: ") + sqlite3_errmsg(db_));
    return {};
  });
}

Status Journal::record_finish(const std::string& job_id, JobState state, const std::string& proof,
                              const std::string& error, std::int64_t finished_unix_ms) {
  std::lock_guard lock(mu_);
  return transaction([&]() -> Status {
    // The job row holds the whole proof from here on; its partition rows are no longer needed.
    Stmt del(db_, "DELETE FROM partitions WHERE job_id=?");
    if (!del.ok())
      return Status(Errc::io_error, std::string("journal prepare: ") + sqlite3_errmsg(db_));
    del.text(1, job_id);
    if (sqlite3_step(del.get()) != SQLITE_DONE)
      return Status(Errc::io_error, std::string("journal delete: ") + sqlite3_errmsg(db_));
    Stmt st(db_, "UPDATE jobs SET state=?, proof=?, error=?, finished_ms=? WHERE job_id=?");
    if (!st.ok())
      return Status(Errc::io_error, std::string("journal prepare: ") + sqlite3_errmsg(db_));
    st.i64(1, static_cast<std::int64_t>(state));
    st.blob(2, proof);
    st.text(3, error);
    st.i64(4, finished_unix_ms);
    st.text(5, job_id);
    if (sqlite3_step(st.get()) != SQLITE_DONE)
      return Status(Errc::io_error, std::string("journal update: ") + sqlite3_errmsg(db_));
    return {};
  });
}

Status Journal::erase(const std::string& job_id) {
  std::lock_guard lock(mu_);
  return transaction([&]() -> Status {
    for (const char* sql :
         {"DELETE FROM partitions WHERE job_id=?", "DELETE FROM jobs WHERE job_id=?"}) {
      Stmt st(db_, sql);
      if (!st.ok())
        return Status(Errc::io_error, std::string("journal prepare: ") + sqlite3_errmsg(db_));
      st.text(1, job_id);
      if (sqlite3_step(st.get()) != SQLITE_DONE)
        return Status(Errc::io_error, std::string("journal delete: ") + sqlite3_errmsg(db_));
    }
    return {};
  });
}

Status Journal::record_partition(const std::string& job_id, std::uint64_t seq,
                                 std::uint32_t partition, const std::string& proof) {
  std::lock_guard lock(mu_);
  // One statement, one (autocommit) transaction: the row is either wholly there or absent.
  Stmt st(db_,
          "INSERT OR REPLACE INTO partitions (job_id, partition, seq, proof, digest) VALUES "
          "(?,?,?,?,?)");
  if (!st.ok())
    return Status(Errc::io_error, std::string("journal prepare: ") + sqlite3_errmsg(db_));
  st.text(1, job_id);
  st.i64(2, partition);
  st.i64(3, static_cast<std::int64_t>(seq));
  st.blob(4, proof);
  st.i64(5, static_cast<std::int64_t>(journal_digest(proof)));
  if (sqlite3_step(st.get()) != SQLITE_DONE)
    return Status(Errc::io_error, std::string("journal insert: ") + sqlite3_errmsg(db_));
  return {};
}

Result<std::vector<JournalPartition>> Journal::load_partitions() {
  std::lock_guard lock(mu_);
  Stmt st(
      db_,
      "SELECT job_id, partition, seq, proof, digest FROM partitions ORDER BY job_id, partition");
  if (!st.ok())
    return Status(Errc::io_error, std::string("journal prepare: ") + sqlite3_errmsg(db_));
  std::vector<JournalPartition> out;
  int rc;
  while ((rc = sqlite3_step(st.get())) == SQLITE_ROW) {
    sqlite3_stmt* s = st.get();
    JournalPartition p;
    p.job_id = col_bytes(s, 0);
    auto k = sqlite3_column_int64(s, 1);
    p.partition = k < 0 || k > 0xffffffffLL ? 0xffffffffu : static_cast<std::uint32_t>(k);
    p.seq = static_cast<std::uint64_t>(sqlite3_column_int64(s, 2));
    p.proof = col_bytes(s, 3);
    p.digest_ok = static_cast<std::uint64_t>(sqlite3_column_int64(s, 4)) == journal_digest(p.proof);
    out.push_back(std::move(p));
  }
  if (rc != SQLITE_DONE)
    return Status(Errc::io_error, std::string("journal read: ") + sqlite3_errmsg(db_));
  return out;
}

Result<std::vector<JournalRecord>> Journal::load() {
  std::lock_guard lock(mu_);
  Stmt st(db_,
          "SELECT job_id, seq, client, request_id, kind, circuit_id, num_partitions, priority, "
          "inputs, state, proof,"
          " error, submitted_ms, finished_ms, owner FROM jobs ORDER BY seq");
  if (!st.ok())
    return Status(Errc::io_error, std::string("journal prepare: ") + sqlite3_errmsg(db_));
  std::vector<JournalRecord> out;
  int rc;
  while ((rc = sqlite3_step(st.get())) == SQLITE_ROW) {
    JournalRecord r;
    sqlite3_stmt* s = st.get();
    r.job_id = col_bytes(s, 0);
    r.seq = static_cast<std::uint64_t>(sqlite3_column_int64(s, 1));
    r.client = col_bytes(s, 2);
    r.req.request_id = col_bytes(s, 3);
    r.req.kind = static_cast<ProofKind>(sqlite3_column_int64(s, 4));
    r.req.circuit_id = col_bytes(s, 5);
    r.req.num_partitions = static_cast<std::uint32_t>(sqlite3_column_int64(s, 6));
    r.req.priority = static_cast<Priority>(sqlite3_column_int64(s, 7));
    if (auto st2 = decode_request_blob(col_bytes(s, 8), r.req); !st2.ok())
      r.load_error = "journal row of job " + r.job_id + " is corrupt: " + st2.to_string();
    auto state = sqlite3_column_int64(s, 9);
    if (state < 0 || state > 4) {
      if (r.load_error.empty())
        r.load_error =
            "journal row of job " + r.job_id + " has a bad state " + std::to_string(state);
      state = 0;
    }
    r.state = static_cast<JobState>(state);
    r.proof = col_bytes(s, 10);
    r.error = col_bytes(s, 11);
    r.submitted_unix_ms = sqlite3_column_int64(s, 12);
    r.finished_unix_ms = sqlite3_column_int64(s, 13);
    r.owner = col_bytes(s, 14);
    out.push_back(std::move(r));
  }
  if (rc != SQLITE_DONE)
    return Status(Errc::io_error, std::string("journal read: ") + sqlite3_errmsg(db_));
  return out;
}

}  // namespace cuzk::engine
