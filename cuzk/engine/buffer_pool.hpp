// FrBufferPool: vectors of field elements a prover keeps from one partition to the next (the
// witness z and a, b, c), so that proof after proof writes to memory already mapped instead of
// faulting in fresh pages (on the development VM a fresh 4 KiB page costs 10–15 µs: 110–145 ns
// per row for every 32-byte-per-row vector, as much as the SpMV itself; docs/perf/synthesis.md).
//
// Memory accounting stays exact. A partition's buffers are covered by the engine's reservation
// of plan().partition_bytes while the partition holds them. A buffer given back is kept only if
// its bytes (capacity · 32) can be reserved in the engine's budget at NORMAL priority (never the
// CRITICAL headroom); that reservation travels with the kept buffer and is released when a
// partition takes it (the partition's own reservation covers it from then on) or when the pool
// frees it. With no budget attached nothing is kept. take() hands out only a buffer whose
// capacity is exactly what was asked, so a partition never holds more than its plan reserved.
// The engine calls trim() when a reservation it needs fails, so kept buffers never stall work.
// It is also the HostVectorPool a backend's host expansion of a compact partition draws on
// (Backend::prove_partition_compact's z, a, b, c).
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <utility>
#include <vector>

#include "cuzk/backend/backend.hpp"
#include "cuzk/engine/memory_budget.hpp"
#include "cuzk/ff/fr.hpp"

namespace cuzk::engine {

class FrBufferPool final : public HostVectorPool {
 public:
  /// Keeps at most |max_kept| buffers.
  explicit FrBufferPool(std::size_t max_kept = 16) : max_kept_(max_kept) {}
  FrBufferPool(const FrBufferPool&) = delete;
  FrBufferPool& operator=(const FrBufferPool&) = delete;

  /// Charges kept buffers to |budget| from now on (what was kept under another budget is freed).
  void attach(MemoryBudget* budget) {
    std::vector<Kept> drop;
    {
      std::lock_guard lock(mu_);
      if (budget_ == budget) return;
      drop.swap(kept_);
      budget_ = budget;
    }
  }
  /// Frees everything kept and keeps nothing more, if |budget| is the one attached.
  void detach(MemoryBudget* budget) {
    std::vector<Kept> drop;
    {
      std::lock_guard lock(mu_);
      if (budget_ != budget) return;
      drop.swap(kept_);
      budget_ = nullptr;
    }
  }

  /// An empty vector of capacity |n|: a kept one (its charge released: the caller's reservation
  /// covers it now) when one of exactly that capacity is kept, else a new one.
  std::vector<Fr> take(std::size_t n) override {
    Kept k;
    {
      std::lock_guard lock(mu_);
      for (std::size_t i = 0; i < kept_.size(); ++i) {
        if (kept_[i].v.capacity() == n) {
          k = std::move(kept_[i]);
          kept_[i] = std::move(kept_.back());
          kept_.pop_back();
          ++reused_;
          break;
        }
      }
    }
    if (k.v.capacity() != n) k.v.reserve(n);
    k.v.clear();
    return std::move(k.v);  // k.charge released here, outside the lock
  }

  /// Keeps |v| (contents discarded) if a budget is attached, fewer than max_kept are kept and
  /// its capacity can be reserved; otherwise frees it.
  void give(std::vector<Fr>&& v) override {
    std::vector<Fr> drop = std::move(v);
    const std::uint64_t bytes = drop.capacity() * sizeof(Fr);
    if (bytes == 0) return;
    std::lock_guard lock(mu_);
    if (budget_ == nullptr || kept_.size() >= max_kept_) return;
    if (!budget_->try_reserve(bytes, Priority::normal)) return;
    kept_.push_back(Kept{std::move(drop), Reservation(budget_, bytes)});
  }

  /// Frees every kept buffer; the bytes released.
  std::uint64_t trim() {
    std::vector<Kept> drop;
    {
      std::lock_guard lock(mu_);
      drop.swap(kept_);
    }
    std::uint64_t bytes = 0;
    for (const Kept& k : drop) bytes += k.charge.bytes();
    return bytes;
  }

  std::uint64_t kept_bytes() const {
    std::lock_guard lock(mu_);
    std::uint64_t bytes = 0;
    for (const Kept& k : kept_) bytes += k.charge.bytes();
    return bytes;
  }
  std::size_t kept() const {
    std::lock_guard lock(mu_);
    return kept_.size();
  }
  /// take() calls served by a kept buffer.
  std::uint64_t reused() const {
    std::lock_guard lock(mu_);
    return reused_;
  }

 private:
  struct Kept {
    std::vector<Fr> v;
    Reservation charge;
  };
  const std::size_t max_kept_;
  mutable std::mutex mu_;
  MemoryBudget* budget_ = nullptr;
  std::vector<Kept> kept_;
  std::uint64_t reused_ = 0;
};

}  // namespace cuzk::engine
