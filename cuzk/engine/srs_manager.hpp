// SrsManager: proving keys held for the circuits the daemon proves, in tiers (DESIGN.md §3):
//
//   vram  — the key's bases resident on device N (a CUDA arena); per-device bytes and pins.
//   host  — the key's tables in owned host memory (the CPU backend proves from them in place),
//           charged to the one MemoryBudget before it is loaded.
//   mmap  — the tables are views of the key's image (PartitionProver::key_mapping), charged only
//           what stays owned; the page cache holds the rest and the kernel may drop it.
//   params — the same over the key's .params file itself (KeyMapping::params: the direct path of
//           a daemon without host backends; the devices decode the queries, nothing else does).
//   disk  — a key file (cached bench key, registered zkey) that nothing has loaded; listed only.
//
// One entry per key id with a reference count (jobs that hold a lease), its last-use time for
// LRU, and per device its resident bytes, pins (device stages running with it) and last use.
// Loads run on their own thread; a lease holder blocks in wait() only when it needs the key (the
// device stage), so synthesis of the first partitions overlaps the load. A device stage pins the
// key on its device (on_device): the copy is made on first use there, after demoting idle keys'
// copies on that device, least recently used first, until the arena has room for it and the
// working reserve (device_reserve); a copy is never released while pinned. Under host-budget
// pressure idle keys (no lease) first move host → mmap (LRU, those with an image), then leave
// memory altogether with their device copies (LRU). A key whose device copy is made and whose
// tables no host backend proves from moves host → mmap at once. A mapped key is promoted back
// (mmap → host, on the loader thread; leases wait for it) when a job takes it, nobody else holds
// it, a host backend proves from its tables and the budget has room; otherwise it proves from
// the mapping. Evicting a key in use is refused with a reason.
//
// VRAM figures come from the prover's view of the backend's arena (DeviceArena), never from a
// device-global query.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "cuzk/base/status.hpp"
#include "cuzk/engine/memory_budget.hpp"
#include "cuzk/engine/partition_prover.hpp"

namespace cuzk::engine {

struct SrsDeviceCopy {
  int device = 0;
  std::uint64_t bytes = 0;
  std::uint32_t pins = 0;  ///< device stages using the copy now
  double idle_seconds = 0;
  /// The small-card path: streamed tables in plain host memory (charged to the budget) and in
  /// the device's pinned pool.
  std::uint64_t host_bytes = 0, pinned_bytes = 0;
};

struct SrsEntryStatus {
  std::string key_id;
  std::string tier;  ///< top tier: "vram", "host", "mmap", "params", "disk", "loading", "failed"
  /// Where the tables are read from below "vram" (a device copy is made again from there):
  /// "host", "mmap" (the key image) or "params" (the .params file, mapped; the direct path);
  /// empty unless loaded.
  std::string backing;
  bool loaded = false;
  std::uint64_t size_bytes = 0;  ///< host bytes charged to the budget (the file's bytes for "disk")
  std::uint64_t host_bytes = 0;  ///< host bytes charged to the budget now; 0 unless loaded
  std::uint64_t mapped_bytes =
      0;  ///< the mapped file the tables are served from: the key image ("mmap") or the .params
          ///< file ("params"), also under "vram"
  std::uint64_t vram_bytes = 0;  ///< sum over devices
  std::vector<SrsDeviceCopy> devices;
  std::uint32_t ref_count = 0;
  std::uint64_t load_ms = 0;
  double idle_seconds = 0;
  std::string path;  ///< "disk" entries: the file
};

/// Per-device VRAM: the arena's figures and the bytes of resident keys in it.
struct SrsDeviceStatus {
  int device = 0;
  bool has_arena = false;
  std::uint64_t arena_total = 0, arena_used = 0;
  std::uint64_t keys_bytes = 0;
  std::uint32_t keys = 0;
  /// The small-card path: pinned host pool and host bytes of streamed base tables.
  std::uint64_t pinned_total = 0, pinned_used = 0, streamed_bytes = 0;
};

class SrsManager;

/// A device stage's hold on a key's copy on one device; released on destruction.
class SrsDevicePin {
 public:
  ~SrsDevicePin();
  SrsDevicePin(const SrsDevicePin&) = delete;
  SrsDevicePin& operator=(const SrsDevicePin&) = delete;

 private:
  friend class SrsManager;
  SrsDevicePin(SrsManager* m, std::shared_ptr<void> e, int device)
      : m_(m), e_(std::move(e)), device_(device) {}
  SrsManager* m_;
  std::shared_ptr<void> e_;  // the entry (null: nothing was placed on the device)
  int device_;
};

/// A job's hold on a key: keeps it from eviction until destroyed.
class SrsLease {
 public:
  ~SrsLease();
  SrsLease(const SrsLease&) = delete;
  SrsLease& operator=(const SrsLease&) = delete;
  /// Blocks until the key is loaded; |waited_ms| receives the time spent waiting.
  Result<std::shared_ptr<const ProvingKeyData>> wait(std::uint64_t* waited_ms = nullptr) const;
  /// Blocks until the key is loaded and resident on |device| (demoting idle keys' copies there
  /// when the arena is short), then pins it there until the pin is destroyed. Errors: the load's,
  /// out_of_range when the key can never fit the device's arena, out_of_memory when it does not
  /// fit with every idle copy demoted and nothing else pinned.
  Result<std::unique_ptr<SrsDevicePin>> on_device(int device,
                                                  std::uint64_t* waited_ms = nullptr) const;
  /// Whether on_device(|device|) would start the stage now: the key's load has ended (loaded,
  /// or failed: the stage then reports it at once) and no tier transition runs, and its copy
  /// there is placed, or it needs none (a host backend). Never blocks on a load or an upload.
  bool ready_on(int device) const;

  struct Entry;  ///< the manager's record of the key (opaque)

 private:
  friend class SrsManager;
  SrsLease(SrsManager* m, std::shared_ptr<Entry> e) : m_(m), e_(std::move(e)) {}
  SrsManager* m_;
  std::shared_ptr<Entry> e_;
};

class SrsManager {
 public:
  /// |device_reserve|: bytes of each device arena that placing a key leaves free for working
  /// buffers; idle copies are demoted to keep it (a key is still placed when only the reserve is
  /// short and nothing more can be demoted).
  explicit SrsManager(MemoryBudget& budget, std::uint64_t device_reserve = 0)
      : budget_(budget), device_reserve_(device_reserve) {}
  ~SrsManager();

  /// Whether |key_id| can be leased without slow work on the caller's thread: true when the
  /// prover's key_ready() says so; otherwise false, after starting (once
  /// per key, however many callers ask) a task running the prover's prepare_key() (a circuit's
  /// first recording: tens of seconds), which calls the on_prepared hook when it ends. An error:
  /// that task failed, and ended at or after |since| (the asker's submission: it waited for this
  /// attempt); an asker from after a failure starts a new attempt.
  Result<bool> prepare(const std::string& key_id, PartitionProver& prover, Clock::time_point since);
  /// Called (from the preparing task, under the manager's lock: it must not call the manager)
  /// when a preparation ends, ok or not; none once cleared (set to null).
  void set_on_prepared(std::function<void()> fn) {
    std::lock_guard lock(mu_);
    on_prepared_ = std::move(fn);
  }

  /// A lease on |key_id|, starting its load when absent. Errc::out_of_memory means "the budget
  /// has no room now, retry later" (idle keys were evicted first); other errors are final.
  /// Sizes the key with the prover's key_bytes() on the caller's thread: prepare() it first.
  Result<std::shared_ptr<SrsLease>> acquire(const std::string& key_id, PartitionProver& prover,
                                            Priority p);

  /// Evicts idle (unleased, loaded) keys, least recently used first, until |bytes| are freed or
  /// none is left; returns the bytes freed. |keep| is never evicted.
  std::uint64_t evict_idle(std::uint64_t bytes, const std::string& keep = "");

  /// Explicit eviction (host copy and every device copy): not_found when absent;
  /// invalid_argument (with the reason) when in use or loading. Returns the host bytes freed.
  Result<std::uint64_t> evict(const std::string& key_id);

  bool is_loaded(const std::string& key_id) const;
  /// Every entry; with |provers|, also their key files that nothing has loaded (tier "disk").
  std::vector<SrsEntryStatus> status(std::span<PartitionProver* const> provers = {}) const;
  /// VRAM of |device| as |prover| reports it, with the bytes of keys resident there.
  SrsDeviceStatus device_status(int device, const PartitionProver* prover) const;

 private:
  friend class SrsLease;
  friend class SrsDevicePin;
  void unref(const std::shared_ptr<SrsLease::Entry>& e);
  Result<std::unique_ptr<SrsDevicePin>> pin(const std::shared_ptr<SrsLease::Entry>& e, int device);
  void unpin(const std::shared_ptr<void>& e, int device);
  /// Frees a dropped entry (no longer in the map, no lease): its device copies, its host copy,
  /// then its budget bytes. Called without mu_.
  static void free_entry(const std::shared_ptr<SrsLease::Entry>& e);
  /// Waits for a tier transition of |e| to finish.
  void wait_ready(const std::shared_ptr<SrsLease::Entry>& e) const;
  /// Marks |e| busy with a transition (false when one runs); under mu_.
  static bool begin_transition(SrsLease::Entry& e, std::shared_ptr<std::promise<void>>& done);
  static void end_transition(SrsLease::Entry& e, const std::shared_ptr<std::promise<void>>& done);
  /// host → mmap for a loaded key with an image (with |idle_only|, only while no lease holds it,
  /// checked as the transition starts); returns the budget bytes freed. Without mu_.
  std::uint64_t map_entry(const std::shared_ptr<SrsLease::Entry>& e, bool idle_only);

  MemoryBudget& budget_;
  const std::uint64_t device_reserve_;
  mutable std::mutex mu_;
  std::condition_variable device_cv_;  // a pin released or a device copy finished loading
  std::map<std::string, std::shared_ptr<SrsLease::Entry>> entries_;
  // Keys being prepared (prepare()), and failed preparations kept for the askers that waited.
  struct Preparation {
    bool done = false;
    Status status;
    Clock::time_point ended{};
    std::uint64_t load_ms = 0;
  };
  std::map<std::string, std::shared_ptr<Preparation>> preparing_;
  std::function<void()> on_prepared_;
  std::vector<std::future<void>> loads_;  // loads, tier transitions and preparations
};

}  // namespace cuzk::engine
