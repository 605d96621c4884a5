// DeviceContext: everything one GPU owns for the lifetime of the process (DESIGN.md §3, the
// interlock rule). At creation it reserves one VRAM arena, creates its streams and events and a pool
// of pinned staging buffers; afterwards nothing on the proving path calls a device-global API
// (allocation, device-wide synchronization, pool trims, memory queries): buffers are carved from the
// arena, waits are on streams or events. scripts/check-interlock.sh fails the build's tests if such
// a call appears in any other file.
//
// A pinned host pool (pinned_host_bytes), reserved here once, holds host tables whose bases
// stream to the device when they do not fit the arena.
//
// A VRAM cap (vram_cap_bytes) makes the arena no larger than that, so the small-card path (e.g. a
// 16 GiB card, where two partition slots do not fit) is exercised on the H200.
#pragma once

#include <algorithm>

#include <cuda_runtime.h>

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "cuzk/base/status.hpp"

namespace cuzk::gpu {

struct DeviceContextOptions {
  int device = 0;
  /// Arena size; 0 takes |free_fraction| of the memory free at creation.
  std::size_t arena_bytes = 0;
  double free_fraction = 0.90;
  /// Upper bound on the arena (0: none), to behave like a smaller card.
  std::size_t vram_cap_bytes = 0;
  /// Stream 0 computes, stream 1 copies, stream 2 runs a partition's G2 MSM beside the G1 work.
  int streams = 3;
  /// Pinned staging: |pinned_buffers| buffers of |pinned_buffer_bytes| each (allocated at creation).
  int pinned_buffers = 16;
  std::size_t pinned_buffer_bytes = std::size_t{32} << 20;
  /// Host threads that copy between pageable memory and the pinned buffers in one upload or
  /// download (each double-buffered, so at most pinned_buffers / 2 of them work). Copies of at
  /// most 4 MiB skip the staging buffers (one cudaMemcpyAsync from pageable memory).
  int copy_threads = 8;
  /// Pinned host pool reserved once at creation (0: none) for host tables whose bases stream to
  /// the device (msm/streamed.cuh): blocks are carved from it like arena buffers, so nothing on
  /// the proving path pins memory.
  std::size_t pinned_host_bytes = 0;
  /// Pinned host pool for partition vectors (z, a, b, c), reserved once at creation (0: none) and
  /// registered with PinnedHostPools (base/pinned_host.hpp): synthesis writes into it and
  /// upload() copies such a source by DMA with no staging copy.
  std::size_t partition_pinned_bytes = 0;
};

class DeviceContext;

/// A range of the arena; returned to it on destruction (move-only).
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  DeviceBuffer(DeviceBuffer&& o) noexcept { *this = std::move(o); }
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() { reset(); }

  void* data() const { return ptr_; }
  template <class T>
  T* as() const {
    return static_cast<T*>(ptr_);
  }
  std::size_t size() const { return bytes_; }
  explicit operator bool() const { return ptr_ != nullptr; }
  /// Returns the range to the arena now.
  void reset();

 private:
  friend class DeviceContext;
  DeviceContext* ctx_ = nullptr;
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
};

/// A pinned host staging buffer from the context's pool; returned on destruction.
class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  PinnedBuffer(PinnedBuffer&& o) noexcept { *this = std::move(o); }
  PinnedBuffer& operator=(PinnedBuffer&& o) noexcept;
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  ~PinnedBuffer() { reset(); }
  void* data() const { return ptr_; }
  std::size_t size() const { return bytes_; }
  void reset();

 private:
  friend class DeviceContext;
  DeviceContext* ctx_ = nullptr;
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
  int index_ = -1;
};

/// A block of the context's pinned host pool; returned to it on destruction (move-only).
class PinnedHostBlock {
 public:
  PinnedHostBlock() = default;
  PinnedHostBlock(PinnedHostBlock&& o) noexcept { *this = std::move(o); }
  PinnedHostBlock& operator=(PinnedHostBlock&& o) noexcept;
  PinnedHostBlock(const PinnedHostBlock&) = delete;
  PinnedHostBlock& operator=(const PinnedHostBlock&) = delete;
  ~PinnedHostBlock() { reset(); }
  void* data() const { return ptr_; }
  std::size_t size() const { return bytes_; }
  explicit operator bool() const { return ptr_ != nullptr; }
  void reset();

 private:
  friend class DeviceContext;
  DeviceContext* ctx_ = nullptr;
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
};

class DeviceContext {
 public:
  /// Selects the device, reserves the arena, creates streams, events and pinned buffers.
  /// device_failure when there is no such device; out_of_memory when the reservation fails.
  static Result<std::unique_ptr<DeviceContext>> create(const DeviceContextOptions& options);
  ~DeviceContext();
  DeviceContext(const DeviceContext&) = delete;
  DeviceContext& operator=(const DeviceContext&) = delete;

  int device() const { return device_; }
  const std::string& device_name() const { return name_; }
  int sm_count() const { return sm_count_; }

  /// A buffer of |bytes| (rounded up to 256) from the arena, or out_of_memory naming |what|.
  Result<DeviceBuffer> alloc(std::size_t bytes, const char* what);
  /// alloc() for code that cannot go on without the buffer: a failure throws CudaError
  /// (cudaErrorMemoryAllocation) carrying alloc()'s message, which names |what|.
  DeviceBuffer alloc_or_throw(std::size_t bytes, const char* what);
  /// The arena bytes alloc(|bytes|) takes: at least one byte, rounded up to 256.
  static std::size_t arena_block_bytes(std::size_t bytes) {
    return (std::max<std::size_t>(bytes, 1) + 255) / 256 * 256;
  }
  std::size_t arena_bytes() const { return arena_bytes_; }
  std::size_t arena_used() const;
  /// The largest block still free (what one more allocation can get).
  std::size_t arena_largest_free() const;
  /// How many working sets of |bytes_per_slot| fit in the free arena now (the partition slots).
  std::size_t slots_for(std::size_t bytes_per_slot) const;

  cudaStream_t stream(int i = 0) const { return streams_.at(static_cast<std::size_t>(i)); }
  int stream_count() const { return static_cast<int>(streams_.size()); }
  /// An event from the context's pool (reused, never destroyed before the context).
  cudaEvent_t event(int i) const { return events_.at(static_cast<std::size_t>(i)); }

  /// Waits for a free pinned staging buffer and takes it.
  PinnedBuffer acquire_pinned();
  /// Waits until at least |min| buffers are free, then takes up to |max| of them at once (so two
  /// callers never each hold part of what the other waits for).
  std::vector<PinnedBuffer> acquire_pinned(int min, int max);
  std::size_t pinned_buffer_bytes() const { return pinned_bytes_; }

  /// A block of |bytes| (rounded up to 256) from the pinned host pool, or out_of_memory naming
  /// |what| when the pool (possibly of size 0) has no such block free.
  Result<PinnedHostBlock> alloc_pinned_host(std::size_t bytes, const char* what);
  std::size_t pinned_host_bytes() const { return host_pool_bytes_; }
  std::size_t pinned_host_used() const;
  /// The partition-vector pool's size and bytes now handed out.
  std::size_t partition_pinned_bytes() const;
  std::size_t partition_pinned_used() const;

  /// Host → device copy of |bytes| on |stream| through the pinned pool: the chunks are dealt to up
  /// to copy_threads host threads, each double-buffered (it fills one pinned buffer while its
  /// previous one is in flight); the DMA copies queue on |stream|. Returns when the source may be
  /// reused and the data is on the device.
  void upload(void* dst, const void* src, std::size_t bytes, cudaStream_t stream);
  /// Device → host copy on |stream| through the pinned pool, the same way (each thread drains one
  /// buffer while its next is in flight); returns when |dst| holds the data.
  void download(void* dst, const void* src, std::size_t bytes, cudaStream_t stream);
  int copy_threads() const { return copy_threads_; }

 private:
  DeviceContext() = default;
  friend class DeviceBuffer;
  friend class PinnedBuffer;
  friend class PinnedHostBlock;
  void release(void* ptr, std::size_t bytes);
  void release_pinned(int index);
  void release_host(void* ptr, std::size_t bytes);

  int device_ = 0;
  std::string name_;
  int sm_count_ = 0;
  char* arena_ = nullptr;
  std::size_t arena_bytes_ = 0;
  mutable std::mutex arena_mu_;
  std::map<std::size_t, std::size_t> free_;  // offset → size, coalesced
  std::vector<cudaStream_t> streams_;
  std::vector<cudaEvent_t> events_;
  void copy_chunks(bool to_device, void* dst, const void* src, std::size_t bytes,
                   cudaStream_t stream);

  int copy_threads_ = 1;
  std::size_t pinned_bytes_ = 0;
  std::vector<void*> pinned_;
  std::vector<bool> pinned_busy_;
  std::mutex pinned_mu_;
  std::condition_variable pinned_cv_;
  char* host_pool_ = nullptr;
  std::size_t host_pool_bytes_ = 0;
  mutable std::mutex host_mu_;
  std::map<std::size_t, std::size_t> host_free_;  // offset → size, coalesced
  struct PartitionPool;
  std::unique_ptr<PartitionPool> partition_pool_;
};

}  // namespace cuzk::gpu
