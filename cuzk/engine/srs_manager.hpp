// SrsManager: proving keys held for the circuits the daemon proves. One entry per key id with its
// bytes charged to the MemoryBudget before loading, a reference count (jobs that hold a lease),
// the last-use time for LRU eviction, and where it lives. Loads run on their own thread; a lease
// holder blocks in wait() only when it needs the key (the device stage), so synthesis of the
// first partitions overlaps the load.
//
// Tiers: the CPU backend keeps keys in host memory ("host"); the CUDA adapter reports "vram" or
// "pinned" through the same entry. Evicting a key in use is refused with a reason.
#pragma once

#include <chrono>
#include <cstdint>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "cuzk/base/status.hpp"
#include "cuzk/engine/memory_budget.hpp"
#include "cuzk/engine/partition_prover.hpp"

namespace cuzk::engine {

struct SrsEntryStatus {
  std::string key_id;
  std::string tier;  ///< "host", "vram", "pinned", "loading", "failed"
  bool loaded = false;
  std::uint64_t size_bytes = 0;
  std::uint32_t ref_count = 0;
  std::uint64_t load_ms = 0;
  double idle_seconds = 0;
};

class SrsManager;

/// A job's hold on a key: keeps it from eviction until destroyed.
class SrsLease {
 public:
  ~SrsLease();
  SrsLease(const SrsLease&) = delete;
  SrsLease& operator=(const SrsLease&) = delete;
  /// Blocks until the key is loaded; |waited_ms| receives the time spent waiting.
  Result<std::shared_ptr<const ProvingKeyData>> wait(std::uint64_t* waited_ms = nullptr) const;

 private:
  friend class SrsManager;
  struct Entry;
  SrsLease(SrsManager* m, std::shared_ptr<Entry> e) : m_(m), e_(std::move(e)) {}
  SrsManager* m_;
  std::shared_ptr<Entry> e_;
};

class SrsManager {
 public:
  explicit SrsManager(MemoryBudget& budget) : budget_(budget) {}
  ~SrsManager();

  /// A lease on |key_id|, starting its load when absent. Errc::out_of_memory means "the budget
  /// has no room now, retry later" (idle keys were evicted first); other errors are final.
  Result<std::shared_ptr<SrsLease>> acquire(const std::string& key_id, PartitionProver& prover, Priority p);

  /// Evicts idle (unleased, loaded) keys, least recently used first, until |bytes| are freed or
  /// none is left; returns the bytes freed. |keep| is never evicted.
  std::uint64_t evict_idle(std::uint64_t bytes, const std::string& keep = "");

  /// Explicit eviction: not_found when absent; invalid_argument (with the reason) when in use
  /// or loading. Returns the bytes freed.
  Result<std::uint64_t> evict(const std::string& key_id);

  bool is_loaded(const std::string& key_id) const;
  std::vector<SrsEntryStatus> status() const;

 private:
  friend class SrsLease;
  void unref(const std::shared_ptr<SrsLease::Entry>& e);

  MemoryBudget& budget_;
  mutable std::mutex mu_;
  std::map<std::string, std::shared_ptr<SrsLease::Entry>> entries_;
  std::vector<std::future<void>> loads_;
};

}  // namespace cuzk::engine
