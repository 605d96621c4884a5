#include "cuzk/engine/srs_manager.hpp"

#include <algorithm>

namespace cuzk::engine {

struct SrsLease::Entry {
  std::string key_id;
  std::uint64_t size = 0;
  Reservation res;
  std::shared_future<Result<std::shared_ptr<const ProvingKeyData>>> key;
  std::uint32_t refs = 0;
  Clock::time_point last_used = Clock::now();
  std::uint64_t load_ms = 0;
  bool done = false;    // load finished (ok or failed)
  bool failed = false;
};

SrsLease::~SrsLease() { m_->unref(e_); }

Result<std::shared_ptr<const ProvingKeyData>> SrsLease::wait(std::uint64_t* waited_ms) const {
  auto t0 = Clock::now();
  auto r = e_->key.get();
  if (waited_ms)
    *waited_ms = static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count());
  return r;
}

SrsManager::~SrsManager() {
  for (auto& f : loads_) f.wait();
}

void SrsManager::unref(const std::shared_ptr<SrsLease::Entry>& e) {
  std::lock_guard lock(mu_);
  if (e->refs) --e->refs;
  e->last_used = Clock::now();
}

Result<std::shared_ptr<SrsLease>> SrsManager::acquire(const std::string& key_id, PartitionProver& prover, Priority p) {
  std::lock_guard lock(mu_);
  // Reap finished load tasks.
  loads_.erase(std::remove_if(loads_.begin(), loads_.end(),
                              [](std::future<void>& f) { return f.wait_for(std::chrono::seconds(0)) == std::future_status::ready; }),
               loads_.end());
  auto it = entries_.find(key_id);
  if (it != entries_.end() && it->second->failed) {
    // A failed load is retried by the next job that needs the key.
    entries_.erase(it);
    it = entries_.end();
  }
  if (it != entries_.end()) {
    ++it->second->refs;
    it->second->last_used = Clock::now();
    return std::shared_ptr<SrsLease>(new SrsLease(this, it->second));
  }
  auto bytes = prover.key_bytes(key_id);
  if (!bytes) return bytes.status();
  if (!budget_.can_ever_fit(*bytes, p))
    return Status(Errc::invalid_argument, "proving key " + key_id + " needs " + std::to_string(*bytes) +
                                              " bytes, more than the memory budget");
  if (!budget_.try_reserve(*bytes, p)) {
    // Evict idle keys (we hold mu_, so do it inline).
    std::vector<std::shared_ptr<SrsLease::Entry>> idle;
    for (auto& [id, e] : entries_)
      if (e->refs == 0 && e->done) idle.push_back(e);
    std::sort(idle.begin(), idle.end(), [](auto& a, auto& b) { return a->last_used < b->last_used; });
    bool ok = false;
    for (auto& e : idle) {
      entries_.erase(e->key_id);
      e->res.reset();
      e->key = {};
      if (budget_.try_reserve(*bytes, p)) {
        ok = true;
        break;
      }
    }
    if (!ok) return Status(Errc::out_of_memory, "no room for proving key " + key_id + " yet");
  }
  auto e = std::make_shared<SrsLease::Entry>();
  e->key_id = key_id;
  e->size = *bytes;
  e->res = Reservation(&budget_, *bytes);
  e->refs = 1;
  auto promise = std::make_shared<std::promise<Result<std::shared_ptr<const ProvingKeyData>>>>();
  e->key = promise->get_future().share();
  entries_[key_id] = e;
  std::weak_ptr<SrsLease::Entry> weak = e;
  loads_.push_back(std::async(std::launch::async, [this, weak, promise, key_id, &prover]() mutable {
    auto t0 = Clock::now();
    auto r = prover.load_key(key_id);
    auto ms = static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count());
    {
      std::lock_guard lock(mu_);
      if (auto e = weak.lock()) {
        e->done = true;
        e->failed = !r.ok();
        e->load_ms = ms;
        if (r.ok() && (*r)->size_bytes() != e->size) {
          // Trust the real size: adjust the charge (a smaller key gives bytes back).
          if ((*r)->size_bytes() < e->size) e->res.release(e->size - (*r)->size_bytes());
        }
        if (!r.ok()) e->res.reset();
      }
    }
    promise->set_value(r.ok() ? r : Result<std::shared_ptr<const ProvingKeyData>>(r.status().with_context("loading key " + key_id)));
    // The async state keeps this callable until reaped; do not let it pin the key.
    r = Status(Errc::cancelled, "released");
    promise.reset();
  }));
  return std::shared_ptr<SrsLease>(new SrsLease(this, e));
}

std::uint64_t SrsManager::evict_idle(std::uint64_t bytes, const std::string& keep) {
  std::vector<std::shared_ptr<SrsLease::Entry>> victims;
  {
    std::lock_guard lock(mu_);
    std::vector<std::shared_ptr<SrsLease::Entry>> idle;
    for (auto& [id, e] : entries_)
      if (e->refs == 0 && e->done && id != keep) idle.push_back(e);
    std::sort(idle.begin(), idle.end(), [](auto& a, auto& b) { return a->last_used < b->last_used; });
    std::uint64_t freed = 0;
    for (auto& e : idle) {
      if (freed >= bytes) break;
      freed += e->res.bytes();
      entries_.erase(e->key_id);
      victims.push_back(e);
    }
  }
  std::uint64_t freed = 0;
  for (auto& e : victims) {
    freed += e->res.bytes();
    e->key = {};
    e->res.reset();
  }
  return freed;
}

Result<std::uint64_t> SrsManager::evict(const std::string& key_id) {
  std::shared_ptr<SrsLease::Entry> victim;
  {
    std::lock_guard lock(mu_);
    auto it = entries_.find(key_id);
    if (it == entries_.end()) return Status(Errc::not_found, "proving key " + key_id + " is not loaded");
    if (it->second->refs)
      return Status(Errc::invalid_argument, "proving key " + key_id + " is in use by " +
                                                std::to_string(it->second->refs) + " job(s)");
    if (!it->second->done) return Status(Errc::invalid_argument, "proving key " + key_id + " is still loading");
    victim = it->second;
    entries_.erase(it);
  }
  std::uint64_t freed = victim->res.bytes();
  victim->key = {};
  victim->res.reset();
  return freed;
}

bool SrsManager::is_loaded(const std::string& key_id) const {
  std::lock_guard lock(mu_);
  auto it = entries_.find(key_id);
  return it != entries_.end() && it->second->done && !it->second->failed;
}

std::vector<SrsEntryStatus> SrsManager::status() const {
  std::lock_guard lock(mu_);
  std::vector<SrsEntryStatus> out;
  auto now = Clock::now();
  for (auto& [id, e] : entries_) {
    SrsEntryStatus s;
    s.key_id = id;
    s.loaded = e->done && !e->failed;
    s.tier = !e->done ? "loading" : e->failed ? "failed" : "host";
    s.size_bytes = e->size;
    s.ref_count = e->refs;
    s.load_ms = e->load_ms;
    s.idle_seconds = e->refs ? 0.0 : std::chrono::duration<double>(now - e->last_used).count();
    out.push_back(s);
  }
  return out;
}

}  // namespace cuzk::engine
