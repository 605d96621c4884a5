#include "cuzk/engine/srs_manager.hpp"

#include <algorithm>
#include <set>

namespace cuzk::engine {

struct SrsLease::Entry {
  std::string key_id;
  PartitionProver* prover = nullptr;
  std::uint64_t size = 0;
  Reservation res;      // host bytes charged (the mapped figure once mapped)
  Reservation promo;    // bytes charged back by a promotion mmap → host
  bool mapped = false;  // tables served from the key's image (tier "mmap")
  bool params = false;  // ... which is its .params file itself (the direct path, tier "params")
  bool busy = false;    // a tier transition (map / unmap) is running
  std::uint64_t image_bytes = 0;
  std::shared_future<void> ready;  // not ready while a transition runs (leases wait for it)
  std::shared_future<Result<std::shared_ptr<const ProvingKeyData>>> key;
  std::uint32_t refs = 0;
  Clock::time_point last_used = Clock::now();
  std::uint64_t load_ms = 0;
  bool done = false;  // load finished (ok or failed)
  bool failed = false;
  struct Copy {
    std::uint64_t bytes = 0;
    std::uint32_t pins = 0;
    bool loading = false;  // make_resident or release_resident running: pins wait for it
    Clock::time_point last_used = Clock::now();
    Reservation host;          // streamed tables in plain host memory (the budget's share)
    std::uint64_t pinned = 0;  // streamed tables in the device's pinned pool
  };
  std::map<int, Copy> copies;  // by device ordinal
};

namespace {

using Entry = SrsLease::Entry;

double seconds_since(Clock::time_point t, Clock::time_point now) {
  return std::chrono::duration<double>(now - t).count();
}

std::shared_ptr<const ProvingKeyData> loaded_key(const Entry& e) {
  if (!e.done || e.failed || !e.key.valid()) return nullptr;
  auto r = e.key.get();
  return r.ok() ? *r : nullptr;
}

std::uint64_t charged(const Entry& e) { return e.res.bytes() + e.promo.bytes(); }
// With the streamed tables of its device copies in plain host memory.
std::uint64_t charged_all(const Entry& e) {
  std::uint64_t b = charged(e);
  for (auto& [d, c] : e.copies) b += c.host.bytes();
  return b;
}

}  // namespace

SrsLease::~SrsLease() { m_->unref(e_); }

void SrsManager::wait_ready(const std::shared_ptr<Entry>& e) const {
  std::shared_future<void> f;
  {
    std::lock_guard lock(mu_);
    f = e->ready;
  }
  if (f.valid()) f.wait();
}

Result<std::shared_ptr<const ProvingKeyData>> SrsLease::wait(std::uint64_t* waited_ms) const {
  auto t0 = Clock::now();
  auto r = e_->key.get();
  m_->wait_ready(e_);
  if (waited_ms)
    *waited_ms = static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count());
  return r;
}

Result<std::unique_ptr<SrsDevicePin>> SrsLease::on_device(int device,
                                                          std::uint64_t* waited_ms) const {
  auto t0 = Clock::now();
  auto r = e_->key.get();
  if (!r) return r.status();
  m_->wait_ready(e_);
  auto pin = m_->pin(e_, device);
  if (waited_ms)
    *waited_ms = static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count());
  return pin;
}

bool SrsLease::ready_on(int device) const {
  std::shared_ptr<const ProvingKeyData> key;
  {
    std::lock_guard lock(m_->mu_);
    if (!e_->done || e_->failed) return e_->done;
    if (e_->busy) return false;
    if (auto c = e_->copies.find(device); c != e_->copies.end()) return !c->second.loading;
    key = loaded_key(*e_);
  }
  if (!key) return true;
  // Not placed on |device|: ready only when there is nothing to place (as pin() decides).
  const PartitionProver& p = *e_->prover;
  return p.device_key_bytes(*key, device) == 0 && p.device_host_bytes_bound(*key, device) == 0;
}

SrsDevicePin::~SrsDevicePin() {
  if (e_) m_->unpin(e_, device_);
}

SrsManager::~SrsManager() {
  for (auto& f : loads_) f.wait();
}

void SrsManager::unref(const std::shared_ptr<Entry>& e) {
  std::lock_guard lock(mu_);
  if (e->refs) --e->refs;
  e->last_used = Clock::now();
}

void SrsManager::free_entry(const std::shared_ptr<Entry>& e) {
  if (auto key = loaded_key(*e)) {
    for (auto& [device, copy] : e->copies) e->prover->release_resident(*key, device);
  }
  e->copies.clear();
  e->key = {};
  e->res.reset();
  e->promo.reset();
}

bool SrsManager::begin_transition(Entry& e, std::shared_ptr<std::promise<void>>& done) {
  if (e.busy) return false;
  e.busy = true;
  done = std::make_shared<std::promise<void>>();
  e.ready = done->get_future().share();
  return true;
}

void SrsManager::end_transition(Entry& e, const std::shared_ptr<std::promise<void>>& done) {
  e.busy = false;
  done->set_value();
}

std::uint64_t SrsManager::map_entry(const std::shared_ptr<Entry>& e, bool idle_only) {
  std::shared_ptr<std::promise<void>> done;
  std::shared_ptr<const ProvingKeyData> key;
  std::optional<PartitionProver::KeyMapping> km;
  {
    std::lock_guard lock(mu_);
    key = loaded_key(*e);
    if (!key || e->mapped || (idle_only && e->refs != 0)) return 0;  // leased meanwhile: stays
    km = e->prover->key_mapping(*key);
    if (!km || !begin_transition(*e, done)) return 0;
  }
  Status st = e->prover->map_key(*key);
  std::uint64_t freed = 0;
  {
    std::lock_guard lock(mu_);
    if (st.ok()) {
      e->mapped = true;
      e->params = km->params;
      e->image_bytes = km->image_bytes;
      freed = e->promo.bytes();
      e->promo.reset();
      if (e->res.bytes() > km->charged_bytes) {
        freed += e->res.bytes() - km->charged_bytes;
        e->res.release(e->res.bytes() - km->charged_bytes);
      }
    }
    end_transition(*e, done);
  }
  device_cv_.notify_all();
  return freed;
}

Result<bool> SrsManager::prepare(const std::string& key_id, PartitionProver& prover,
                                 Clock::time_point since) {
  {
    std::lock_guard lock(mu_);
    if (auto it = preparing_.find(key_id); it != preparing_.end()) {
      const Preparation& prep = *it->second;
      if (!prep.done) return false;
      if (!prep.status.ok() && prep.ended >= since) return prep.status;
      preparing_.erase(it);  // done; a failure older than the asker is tried again
    }
  }
  if (prover.key_ready(key_id)) return true;  // outside the lock: it may look at the circuit
  std::lock_guard lock(mu_);
  if (preparing_.count(key_id)) return false;  // another asker started it meanwhile
  auto prep = std::make_shared<Preparation>();
  preparing_[key_id] = prep;
  loads_.push_back(std::async(std::launch::async, [this, prep, key_id, &prover] {
    const auto t0 = Clock::now();
    Status st = prover.prepare_key(key_id);
    if (!st.ok()) st = st.with_context("preparing key " + key_id);
    {
      std::lock_guard lock(mu_);
      prep->status = std::move(st);
      prep->done = true;
      prep->ended = Clock::now();
      prep->load_ms = static_cast<std::uint64_t>(
          std::chrono::duration_cast<std::chrono::milliseconds>(prep->ended - t0).count());
      if (on_prepared_) on_prepared_();  // under the lock: never after it was cleared
    }
  }));
  return false;
}

Result<std::shared_ptr<SrsLease>> SrsManager::acquire(const std::string& key_id,
                                                      PartitionProver& prover, Priority p) {
  for (int round = 0;; ++round) {
    std::uint64_t shortfall = 0;
    {
      std::lock_guard lock(mu_);
      // Reap finished load tasks.
      loads_.erase(std::remove_if(loads_.begin(), loads_.end(),
                                  [](std::future<void>& f) {
                                    return f.wait_for(std::chrono::seconds(0)) ==
                                           std::future_status::ready;
                                  }),
                   loads_.end());
      auto it = entries_.find(key_id);
      if (it != entries_.end() && it->second->failed) {
        // A failed load is retried by the next job that needs the key.
        entries_.erase(it);
        it = entries_.end();
      }
      if (it != entries_.end()) {
        auto e = it->second;
        ++e->refs;
        e->last_used = Clock::now();
        // mmap → host on use: a host backend proves from the tables, nobody else holds the key
        // and the budget has room now (otherwise the job proves from the mapping).
        if (e->refs == 1 && e->mapped && !e->busy)
          if (auto key = loaded_key(*e); key && e->prover->host_tables_used(*key)) {
            const std::uint64_t extra = e->size > charged(*e) ? e->size - charged(*e) : 0;
            std::shared_ptr<std::promise<void>> done;
            if (budget_.try_reserve(extra, p) && begin_transition(*e, done)) {
              e->promo = Reservation(&budget_, extra);
              loads_.push_back(std::async(std::launch::async, [this, e, key, done]() mutable {
                Status st = e->prover->unmap_key(*key);
                {
                  std::lock_guard lock(mu_);
                  if (st.ok())
                    e->mapped = false;
                  else
                    e->promo.reset();  // stays mapped
                  end_transition(*e, done);
                }
                device_cv_.notify_all();
              }));
            }
          }
        return std::shared_ptr<SrsLease>(new SrsLease(this, e));
      }
      auto bytes = prover.key_bytes(key_id);
      if (!bytes) return bytes.status();
      // No room for the host copy (ever, or after idle keys made what room they could): a key
      // with an image loads straight into the mmap tier, charged what stays owned.
      const bool fits_ever = budget_.can_ever_fit(*bytes, p);
      bool reserved = fits_ever && budget_.try_reserve(*bytes, p);
      bool mapped_only = false;
      std::uint64_t reserve = *bytes;
      std::optional<std::uint64_t> mb;
      if (!reserved && (round > 0 || !fits_ever)) {
        mb = prover.mapped_load_bytes(key_id);
        if (mb && budget_.try_reserve(*mb, p)) {
          reserved = mapped_only = true;
          reserve = *mb;
        }
      }
      if (!reserved && !fits_ever) {
        if (mb && budget_.can_ever_fit(*mb, p))
          return Status(Errc::out_of_memory, "no room for proving key " + key_id + " yet");
        return Status(Errc::invalid_argument, "proving key " + key_id + " needs " +
                                                  std::to_string(*bytes) +
                                                  " bytes, more than the memory budget");
      }
      if (reserved) {
        auto e = std::make_shared<Entry>();
        e->key_id = key_id;
        e->prover = &prover;
        e->size = *bytes;
        e->res = Reservation(&budget_, reserve);
        e->refs = 1;
        auto promise =
            std::make_shared<std::promise<Result<std::shared_ptr<const ProvingKeyData>>>>();
        e->key = promise->get_future().share();
        entries_[key_id] = e;
        std::weak_ptr<Entry> weak = e;
        loads_.push_back(std::async(
            std::launch::async, [this, weak, promise, key_id, &prover, mapped_only]() mutable {
              auto t0 = Clock::now();
              auto r = mapped_only ? prover.load_key_mapped(key_id) : prover.load_key(key_id);
              auto ms = static_cast<std::uint64_t>(
                  std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count());
              if (!r.ok()) r = r.status().with_context("loading key " + key_id);
              {
                std::lock_guard lock(mu_);
                if (auto e = weak.lock()) {
                  e->load_ms = ms;
                  if (r.ok() && (*r)->size_bytes() < e->res.bytes())
                    e->res.release(e->res.bytes() - (*r)->size_bytes());  // trust the real size
                  if (r.ok() && prover.key_is_mapped(**r)) {  // loaded straight into the mmap tier
                    if (auto km = prover.key_mapping(**r)) {
                      e->mapped = true;
                      e->params = km->params;
                      e->image_bytes = km->image_bytes;
                      if (e->res.bytes() > km->charged_bytes)
                        e->res.release(e->res.bytes() - km->charged_bytes);
                    }
                  }
                  if (!r.ok()) e->res.reset();
                  // The result is visible before done is set, so status never reports a loaded key
                  // whose future is still empty.
                  promise->set_value(r);
                  e->done = true;
                  e->failed = !r.ok();
                } else {
                  promise->set_value(r);
                }
              }
              // The async state keeps this callable until reaped; do not let it pin the key.
              r = Status(Errc::cancelled, "released");
              promise.reset();
            }));
        return std::shared_ptr<SrsLease>(new SrsLease(this, e));
      }
      if (round > 0)
        return Status(Errc::out_of_memory, "no room for proving key " + key_id + " yet");
      const std::uint64_t cap =
          p == Priority::critical ? budget_.limit() : budget_.limit() - budget_.headroom();
      const std::uint64_t used = budget_.used();
      shortfall = used + *bytes > cap ? used + *bytes - cap : 1;
    }
    // Demote idle keys out of host memory (least recently used first), then try once more (with
    // the mmap tier as the fallback).
    evict_idle(shortfall, key_id);
  }
}

std::uint64_t SrsManager::evict_idle(std::uint64_t bytes, const std::string& keep) {
  // First host → mmap: idle keys with an image keep serving from it, their tables uncharged.
  std::uint64_t freed = 0;
  {
    std::vector<std::shared_ptr<Entry>> idle;
    {
      std::lock_guard lock(mu_);
      for (auto& [id, e] : entries_)
        if (e->refs == 0 && e->done && !e->failed && !e->mapped && !e->busy && id != keep)
          idle.push_back(e);
    }
    std::sort(idle.begin(), idle.end(),
              [](auto& a, auto& b) { return a->last_used < b->last_used; });
    for (auto& e : idle) {
      if (freed >= bytes) break;
      freed += map_entry(e, /*idle_only=*/true);
    }
  }
  if (freed >= bytes) return freed;
  // Then out of memory altogether (with the device copies), least recently used first; keys that
  // are charged nothing (mapped) stay.
  std::vector<std::shared_ptr<Entry>> victims;
  {
    std::lock_guard lock(mu_);
    std::vector<std::shared_ptr<Entry>> idle;
    for (auto& [id, e] : entries_)
      if (e->refs == 0 && e->done && !e->busy && id != keep && (charged_all(*e) > 0 || e->failed))
        idle.push_back(e);
    std::sort(idle.begin(), idle.end(),
              [](auto& a, auto& b) { return a->last_used < b->last_used; });
    std::uint64_t more = 0;
    for (auto& e : idle) {
      if (freed + more >= bytes) break;
      more += charged_all(*e);
      entries_.erase(e->key_id);
      victims.push_back(e);
    }
  }
  for (auto& e : victims) {
    freed += charged_all(*e);
    free_entry(e);
  }
  if (!victims.empty()) device_cv_.notify_all();
  return freed;
}

Result<std::uint64_t> SrsManager::evict(const std::string& key_id) {
  std::shared_ptr<Entry> victim;
  {
    std::lock_guard lock(mu_);
    auto it = entries_.find(key_id);
    if (it == entries_.end())
      return Status(Errc::not_found, "proving key " + key_id + " is not loaded");
    if (it->second->refs)
      return Status(Errc::invalid_argument, "proving key " + key_id + " is in use by " +
                                                std::to_string(it->second->refs) + " job(s)");
    if (!it->second->done)
      return Status(Errc::invalid_argument, "proving key " + key_id + " is still loading");
    if (it->second->busy)
      return Status(Errc::invalid_argument, "proving key " + key_id + " is changing tiers");
    victim = it->second;
    entries_.erase(it);
  }
  std::uint64_t freed = charged_all(*victim);
  free_entry(victim);
  device_cv_.notify_all();
  return freed;
}

Result<std::unique_ptr<SrsDevicePin>> SrsManager::pin(const std::shared_ptr<Entry>& e, int device) {
  auto r = e->key.get();  // ready: the caller waited for it
  if (!r) return r.status();
  std::shared_ptr<const ProvingKeyData> key = *r;
  PartitionProver& prover = *e->prover;
  const std::uint64_t need = prover.device_key_bytes(*key, device);
  // The small-card path: tables that stream from host memory (pinned pool or plain memory).
  const std::uint64_t host_bound = prover.device_host_bytes_bound(*key, device);
  if (need == 0 && host_bound == 0)
    return std::unique_ptr<SrsDevicePin>(
        new SrsDevicePin(this, nullptr, device));  // nothing to place
  const std::string where = "proving key " + e->key_id + " on device " + std::to_string(device);
  if (auto arena = prover.device_arena(device); arena && need > arena->total)
    return Status(Errc::out_of_range, where + ": needs " + std::to_string(need) +
                                          " bytes of VRAM, the arena holds " +
                                          std::to_string(arena->total));
  std::unique_lock lock(mu_);
  int failures = 0;
  struct Victim {
    std::shared_ptr<Entry> entry;
    std::shared_ptr<const ProvingKeyData> key;
    Reservation host;  // released after the copy is
  };
  // Demotes |victims|' copies on |device| (lock released meanwhile). Each copy stays in
  // |copies|, marked loading, until the prover has released it: a pin of that key meanwhile
  // waits, where with the copy gone it would place the key again, find it still resident and
  // keep a copy the release then took away.
  auto demote = [&](std::vector<Victim>& victims) {
    lock.unlock();
    for (auto& v : victims)
      if (v.key) v.entry->prover->release_resident(*v.key, device);
    lock.lock();
    for (auto& v : victims)
      if (auto c = v.entry->copies.find(device); c != v.entry->copies.end() && c->second.loading)
        v.entry->copies.erase(c);
    lock.unlock();
    victims.clear();  // their host reservations after the copies
    device_cv_.notify_all();
    lock.lock();
  };
  for (;;) {
    if (auto it = e->copies.find(device); it != e->copies.end()) {
      if (it->second.loading) {
        device_cv_.wait(lock);
        continue;
      }
      ++it->second.pins;
      it->second.last_used = Clock::now();
      return std::unique_ptr<SrsDevicePin>(new SrsDevicePin(this, e, device));
    }
    // Idle copies on this device (no pins, not loading), least recently used first.
    bool others_busy = false;
    auto idle_copies = [&] {
      std::vector<std::pair<std::shared_ptr<Entry>, Clock::time_point>> idle;
      others_busy = false;
      for (auto& [id, o] : entries_) {
        if (o == e) continue;
        auto c = o->copies.find(device);
        if (c == o->copies.end()) continue;
        if (c->second.pins || c->second.loading)
          others_busy = true;
        else
          idle.emplace_back(o, c->second.last_used);
      }
      std::sort(idle.begin(), idle.end(), [](auto& a, auto& b) { return a.second < b.second; });
      return idle;
    };
    auto take = [&](const std::shared_ptr<Entry>& o, std::vector<Victim>& victims) {
      auto& c = o->copies[device];
      Victim v{o, loaded_key(*o), std::move(c.host)};
      c.loading = true;  // being released (demote erases it)
      victims.push_back(std::move(v));
    };
    const auto arena = prover.device_arena(device);
    // Pinned pool, LRU across keys: when this key's streamed tables would not find room in the
    // pool (but could in an empty one), idle copies holding pinned bytes give theirs back first.
    if (arena && host_bound && arena->pinned_total >= host_bound &&
        arena->pinned_total - std::min(arena->pinned_used, arena->pinned_total) < host_bound) {
      std::uint64_t pfree = arena->pinned_total - std::min(arena->pinned_used, arena->pinned_total);
      std::vector<Victim> victims;
      for (auto& [o, t] : idle_copies()) {
        if (pfree >= host_bound) break;
        const std::uint64_t held = o->copies[device].pinned;
        if (held == 0) continue;
        pfree += held;
        take(o, victims);
      }
      if (!victims.empty()) {
        demote(victims);
        continue;  // re-read the arena and the pool
      }
    }
    // Room: demote idle copies on this device, least recently used first, until the arena has
    // |need| bytes free plus the working reserve; wait for pinned ones when even |need| is not
    // free (the reserve alone is not waited for).
    if (arena) {
      std::uint64_t free = arena->total - std::min(arena->used, arena->total);
      const std::uint64_t want = need + std::min(device_reserve_, arena->total - need);
      if (free < want) {
        std::vector<Victim> victims;
        for (auto& [o, t] : idle_copies()) {
          if (free >= want) break;
          free += o->copies[device].bytes;
          take(o, victims);
        }
        if (!victims.empty()) {
          demote(victims);
          continue;  // re-read the arena
        }
        if (others_busy && free < need) {
          device_cv_.wait(lock);
          continue;
        }
        // Nothing to demote and no other key pinned: the rest of the arena is working buffers
        // of running device stages; try, and wait on out_of_memory below.
      }
    }
    // Streamed tables in plain memory are charged to the budget: the bound (every streamed
    // table outside the pinned pool) before the copy is made, trimmed to what it holds after.
    Reservation host;
    if (host_bound) {
      bool ok = budget_.try_reserve(host_bound, Priority::high);
      if (!ok) {
        lock.unlock();
        evict_idle(host_bound, e->key_id);
        lock.lock();
        ok = budget_.try_reserve(host_bound, Priority::high);
      }
      if (!ok) {
        if (++failures < 3) {
          device_cv_.wait_for(
              lock, std::chrono::milliseconds(200));  // a partition may give its bytes back
          continue;
        }
        return Status(Errc::out_of_memory, where + ": no budget room for " +
                                               std::to_string(host_bound) +
                                               " bytes of streamed tables in host memory");
      }
      host = Reservation(&budget_, host_bound);
    }
    e->copies[device] = Entry::Copy{.bytes = need, .pins = 0, .loading = true};
    lock.unlock();
    Status st = prover.make_resident(*key, device);
    const PartitionProver::DeviceHostBytes held =
        st.ok() ? prover.device_host_bytes(*key, device) : PartitionProver::DeviceHostBytes{};
    if (held.plain < host.bytes())
      host.release(host.bytes() - held.plain);
    else if (held.plain > host.bytes() &&
             budget_.try_reserve(held.plain - host.bytes(), Priority::critical))
      host = Reservation(&budget_, held.plain);  // a table that found no arena room streams too
    lock.lock();
    if (!st.ok()) {
      e->copies.erase(device);
      device_cv_.notify_all();
      host.reset();
      if (st.code() == Errc::out_of_memory && ++failures < 3) {
        device_cv_.wait_for(lock,
                            std::chrono::milliseconds(200));  // a device stage may free its buffers
        continue;
      }
      return st.with_context(where);
    }
    auto& c = e->copies[device];
    c.loading = false;
    c.pins = 1;
    c.last_used = Clock::now();
    c.host = std::move(host);
    c.pinned = held.pinned;
    // The device has its copy: when no host backend proves from the tables, the owned host copy
    // is not needed any more (host → mmap, its bytes leave the budget and the RSS).
    const bool map_now =
        !e->mapped && !e->busy && !prover.host_tables_used(*key) && prover.key_mapping(*key);
    lock.unlock();
    device_cv_.notify_all();
    if (map_now) map_entry(e, /*idle_only=*/false);
    return std::unique_ptr<SrsDevicePin>(new SrsDevicePin(this, e, device));
  }
}

void SrsManager::unpin(const std::shared_ptr<void>& p, int device) {
  auto e = std::static_pointer_cast<Entry>(p);
  {
    std::lock_guard lock(mu_);
    if (auto it = e->copies.find(device); it != e->copies.end()) {
      if (it->second.pins) --it->second.pins;
      it->second.last_used = Clock::now();
    }
    e->last_used = Clock::now();
  }
  device_cv_.notify_all();
}

bool SrsManager::is_loaded(const std::string& key_id) const {
  std::lock_guard lock(mu_);
  auto it = entries_.find(key_id);
  return it != entries_.end() && it->second->done && !it->second->failed;
}

std::vector<SrsEntryStatus> SrsManager::status(std::span<PartitionProver* const> provers) const {
  std::vector<SrsEntryStatus> out;
  std::set<std::string> present;
  {
    std::lock_guard lock(mu_);
    auto now = Clock::now();
    for (auto& [id, e] : entries_) {
      SrsEntryStatus s;
      s.key_id = id;
      s.loaded = e->done && !e->failed;
      s.size_bytes = e->size;
      s.host_bytes = s.loaded ? charged(*e) : 0;
      s.mapped_bytes = s.loaded && e->mapped ? e->image_bytes : 0;
      for (auto& [device, c] : e->copies) {
        if (c.loading) continue;
        s.devices.push_back(
            SrsDeviceCopy{.device = device,
                          .bytes = c.bytes,
                          .pins = c.pins,
                          .idle_seconds = c.pins ? 0.0 : seconds_since(c.last_used, now),
                          .host_bytes = c.host.bytes(),
                          .pinned_bytes = c.pinned});
        s.vram_bytes += c.bytes;
      }
      const char* backing = e->mapped ? (e->params ? "params" : "mmap") : "host";
      s.tier = !e->done ? "loading" : e->failed ? "failed" : !s.devices.empty() ? "vram" : backing;
      if (s.loaded) s.backing = backing;
      s.ref_count = e->refs;
      s.load_ms = e->load_ms;
      s.idle_seconds = e->refs ? 0.0 : seconds_since(e->last_used, now);
      present.insert(id);
      out.push_back(std::move(s));
    }
    // Keys being prepared (their circuit recorded) before their load, and failed preparations.
    for (auto& [id, prep] : preparing_) {
      if (prep->done && prep->status.ok()) continue;
      if (!present.insert(id).second) continue;
      SrsEntryStatus s;
      s.key_id = id;
      s.tier = prep->done ? "failed" : "loading";
      s.load_ms = prep->load_ms;
      out.push_back(std::move(s));
    }
  }
  // Files on disk that nothing has loaded (outside the lock: a directory scan).
  for (PartitionProver* p : provers) {
    if (!p) continue;
    for (auto& d : p->disk_keys()) {
      if (!present.insert(d.key_id).second) continue;
      SrsEntryStatus s;
      s.key_id = d.key_id;
      s.tier = "disk";
      s.size_bytes = d.bytes;
      s.path = d.path;
      out.push_back(std::move(s));
    }
  }
  return out;
}

SrsDeviceStatus SrsManager::device_status(int device, const PartitionProver* prover) const {
  SrsDeviceStatus s;
  s.device = device;
  if (prover) {
    if (auto a = prover->device_arena(device)) {
      s.has_arena = true;
      s.arena_total = a->total;
      s.arena_used = a->used;
      s.pinned_total = a->pinned_total;
      s.pinned_used = a->pinned_used;
      s.streamed_bytes = a->streamed_bytes;
    }
  }
  std::lock_guard lock(mu_);
  for (auto& [id, e] : entries_) {
    auto c = e->copies.find(device);
    if (c == e->copies.end() || c->second.loading) continue;
    s.keys_bytes += c->second.bytes;
    ++s.keys;
  }
  return s;
}

}  // namespace cuzk::engine
