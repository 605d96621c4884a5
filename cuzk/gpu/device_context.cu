// The only file of cuzk allowed to call device-global CUDA APIs (scripts/check-interlock.sh): they
// run at creation and destruction of a DeviceContext, never on the proving path.
#include "cuzk/gpu/device_context.hpp"

#include <algorithm>
#include <cstring>
#include <exception>
#include <thread>

#include "cuzk/base/pinned_host.hpp"
#include "cuzk/gpu/cuda_check.cuh"

namespace cuzk::gpu {

namespace {
constexpr std::size_t kAlign = 256;
constexpr int kUserEvents = 16;
constexpr std::size_t kDirectCopyBytes = std::size_t{4} << 20;
std::size_t round_up(std::size_t v) { return (v + kAlign - 1) / kAlign * kAlign; }
}  // namespace

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& o) noexcept {
  if (this != &o) {
    reset();
    ctx_ = o.ctx_;
    ptr_ = o.ptr_;
    bytes_ = o.bytes_;
    o.ctx_ = nullptr;
    o.ptr_ = nullptr;
    o.bytes_ = 0;
  }
  return *this;
}

void DeviceBuffer::reset() {
  if (ctx_ && ptr_) ctx_->release(ptr_, bytes_);
  ctx_ = nullptr;
  ptr_ = nullptr;
  bytes_ = 0;
}

PinnedBuffer& PinnedBuffer::operator=(PinnedBuffer&& o) noexcept {
  if (this != &o) {
    reset();
    ctx_ = o.ctx_;
    ptr_ = o.ptr_;
    bytes_ = o.bytes_;
    index_ = o.index_;
    o.ctx_ = nullptr;
    o.ptr_ = nullptr;
    o.index_ = -1;
  }
  return *this;
}

void PinnedBuffer::reset() {
  if (ctx_ && index_ >= 0) ctx_->release_pinned(index_);
  ctx_ = nullptr;
  ptr_ = nullptr;
  index_ = -1;
}

PinnedHostBlock& PinnedHostBlock::operator=(PinnedHostBlock&& o) noexcept {
  if (this != &o) {
    reset();
    ctx_ = o.ctx_;
    ptr_ = o.ptr_;
    bytes_ = o.bytes_;
    o.ctx_ = nullptr;
    o.ptr_ = nullptr;
    o.bytes_ = 0;
  }
  return *this;
}

void PinnedHostBlock::reset() {
  if (ctx_ && ptr_) ctx_->release_host(ptr_, bytes_);
  ctx_ = nullptr;
  ptr_ = nullptr;
  bytes_ = 0;
}

namespace {
// First fit from a coalesced free list (offset → size); returns the offset or SIZE_MAX.
std::size_t take_range(std::map<std::size_t, std::size_t>& free, std::size_t need) {
  for (auto it = free.begin(); it != free.end(); ++it) {
    if (it->second < need) continue;
    const std::size_t off = it->first, size = it->second;
    free.erase(it);
    if (size > need) free[off + need] = size - need;
    return off;
  }
  return SIZE_MAX;
}
void give_range(std::map<std::size_t, std::size_t>& free, std::size_t off, std::size_t bytes) {
  auto next = free.lower_bound(off);
  if (next != free.end() && next->first == off + bytes) {
    bytes += next->second;
    next = free.erase(next);
  }
  if (next != free.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == off) {
      prev->second += bytes;
      return;
    }
  }
  free[off] = bytes;
}
}  // namespace

// The partition-vector pool: one cudaMallocHost block at creation, carved first fit (256-byte
// aligned blocks), registered with PinnedHostPools while the context lives.
struct DeviceContext::PartitionPool final : PinnedHostPool {
  char* base = nullptr;
  std::size_t bytes = 0;
  mutable std::mutex mu;
  std::map<std::size_t, std::size_t> free;  // offset → size, coalesced
  std::size_t used = 0;
  void* allocate(std::size_t n) override {
    const std::size_t need = round_up(std::max<std::size_t>(n, 1));
    std::lock_guard<std::mutex> lock(mu);
    const std::size_t off = take_range(free, need);
    if (off == SIZE_MAX) return nullptr;
    used += need;
    return base + off;
  }
  void deallocate(void* p, std::size_t n) override {
    const std::size_t need = round_up(std::max<std::size_t>(n, 1));
    std::lock_guard<std::mutex> lock(mu);
    give_range(free, static_cast<std::size_t>(static_cast<char*>(p) - base), need);
    used -= need;
  }
  bool contains(const void* p, std::size_t n) const override {
    const char* c = static_cast<const char*>(p);
    return c >= base && n <= bytes && c - base <= static_cast<std::ptrdiff_t>(bytes - n);
  }
};

std::size_t DeviceContext::partition_pinned_bytes() const {
  return partition_pool_ ? partition_pool_->bytes : 0;
}
std::size_t DeviceContext::partition_pinned_used() const {
  if (!partition_pool_) return 0;
  std::lock_guard<std::mutex> lock(partition_pool_->mu);
  return partition_pool_->used;
}

Result<std::unique_ptr<DeviceContext>> DeviceContext::create(const DeviceContextOptions& o) {
  std::unique_ptr<DeviceContext> ctx(new DeviceContext());
  try {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
      (void)cudaGetLastError();
      return Status(Errc::device_failure, "no CUDA device is present");
    }
    if (o.device < 0 || o.device >= count)
      return Status(Errc::invalid_argument, "CUDA device " + std::to_string(o.device) +
                                                " does not exist (" + std::to_string(count) +
                                                " present)");
    ctx->device_ = o.device;
    CUZK_CUDA_CHECK(cudaSetDevice(o.device));
    cudaDeviceProp prop{};
    CUZK_CUDA_CHECK(cudaGetDeviceProperties(&prop, o.device));
    ctx->name_ = prop.name;
    ctx->sm_count_ = prop.multiProcessorCount;

    std::size_t free_b = 0, total_b = 0;
    CUZK_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    std::size_t want =
        o.arena_bytes ? o.arena_bytes
                      : static_cast<std::size_t>(static_cast<double>(free_b) * o.free_fraction);
    if (o.vram_cap_bytes) want = std::min(want, o.vram_cap_bytes);
    want = want / kAlign * kAlign;
    if (want == 0 || want > free_b)
      return Status(Errc::out_of_memory, "VRAM arena of " + std::to_string(want) +
                                             " bytes requested, " + std::to_string(free_b) +
                                             " free on " + ctx->name_);
    void* p = nullptr;
    if (cudaMalloc(&p, want) != cudaSuccess) {
      (void)cudaGetLastError();
      return Status(Errc::out_of_memory,
                    "cannot reserve a VRAM arena of " + std::to_string(want) + " bytes");
    }
    ctx->arena_ = static_cast<char*>(p);
    ctx->arena_bytes_ = want;
    ctx->free_[0] = want;

    for (int i = 0; i < std::max(1, o.streams); ++i) {
      cudaStream_t s;
      CUZK_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
      ctx->streams_.push_back(s);
    }
    for (int i = 0; i < kUserEvents + std::max(2, o.pinned_buffers); ++i) {
      cudaEvent_t e;
      CUZK_CUDA_CHECK(cudaEventCreate(&e));
      ctx->events_.push_back(e);
    }
    ctx->copy_threads_ = std::max(1, o.copy_threads);
    ctx->pinned_bytes_ = o.pinned_buffer_bytes;
    for (int i = 0; i < std::max(2, o.pinned_buffers); ++i) {
      void* h = nullptr;
      CUZK_CUDA_CHECK(cudaMallocHost(&h, o.pinned_buffer_bytes));
      ctx->pinned_.push_back(h);
      ctx->pinned_busy_.push_back(false);
    }
    if (o.pinned_host_bytes) {
      const std::size_t want_host = round_up(o.pinned_host_bytes);
      void* h = nullptr;
      if (cudaMallocHost(&h, want_host) != cudaSuccess) {
        (void)cudaGetLastError();
        return Status(Errc::out_of_memory, "cannot reserve a pinned host pool of " +
                                               std::to_string(want_host) + " bytes");
      }
      ctx->host_pool_ = static_cast<char*>(h);
      ctx->host_pool_bytes_ = want_host;
      ctx->host_free_[0] = want_host;
    }
    if (o.partition_pinned_bytes) {
      const std::size_t want_part = round_up(o.partition_pinned_bytes);
      void* h = nullptr;
      if (cudaMallocHost(&h, want_part) != cudaSuccess) {
        (void)cudaGetLastError();
        return Status(Errc::out_of_memory, "cannot reserve a pinned pool of " +
                                               std::to_string(want_part) +
                                               " bytes for partition vectors");
      }
      ctx->partition_pool_ = std::make_unique<PartitionPool>();
      ctx->partition_pool_->base = static_cast<char*>(h);
      ctx->partition_pool_->bytes = want_part;
      ctx->partition_pool_->free[0] = want_part;
      PinnedHostPools::add(ctx->partition_pool_.get());
    }
  } catch (const CudaError& e) {
    return Status(Errc::device_failure, e.what());
  }
  return Result<std::unique_ptr<DeviceContext>>(std::move(ctx));
}

DeviceContext::~DeviceContext() {
  // Teardown only: the device-global calls here are outside any proving path.
  (void)cudaSetDevice(device_);
  for (auto s : streams_) (void)cudaStreamSynchronize(s);
  for (auto h : pinned_) (void)cudaFreeHost(h);
  if (host_pool_) (void)cudaFreeHost(host_pool_);
  if (partition_pool_) {
    PinnedHostPools::remove(partition_pool_.get());
    (void)cudaFreeHost(partition_pool_->base);
  }
  for (auto e : events_) (void)cudaEventDestroy(e);
  for (auto s : streams_) (void)cudaStreamDestroy(s);
  if (arena_) (void)cudaFree(arena_);
}

Result<DeviceBuffer> DeviceContext::alloc(std::size_t bytes, const char* what) {
  const std::size_t need = arena_block_bytes(bytes);
  std::lock_guard<std::mutex> lock(arena_mu_);
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    if (it->second < need) continue;
    const std::size_t off = it->first, size = it->second;
    free_.erase(it);
    if (size > need) free_[off + need] = size - need;
    DeviceBuffer b;
    b.ctx_ = this;
    b.ptr_ = arena_ + off;
    b.bytes_ = need;
    return Result<DeviceBuffer>(std::move(b));
  }
  std::size_t largest = 0;
  for (auto& [o, s] : free_) largest = std::max(largest, s);
  return Status(Errc::out_of_memory, std::string(what) + ": " + std::to_string(need) +
                                         " bytes needed, largest free block of the VRAM arena is " +
                                         std::to_string(largest) + " of " +
                                         std::to_string(arena_bytes_));
}

DeviceBuffer DeviceContext::alloc_or_throw(std::size_t bytes, const char* what) {
  auto b = alloc(bytes, what);
  if (!b.ok())
    throw CudaError(cudaErrorMemoryAllocation, b.status().to_string().c_str(), __FILE__, __LINE__);
  return std::move(b).value();
}

void DeviceContext::release(void* ptr, std::size_t bytes) {
  std::lock_guard<std::mutex> lock(arena_mu_);
  std::size_t off = static_cast<std::size_t>(static_cast<char*>(ptr) - arena_);
  auto next = free_.lower_bound(off);
  if (next != free_.end() && next->first == off + bytes) {  // merge with the following block
    bytes += next->second;
    next = free_.erase(next);
  }
  if (next != free_.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == off) {  // merge with the preceding block
      prev->second += bytes;
      return;
    }
  }
  free_[off] = bytes;
}

std::size_t DeviceContext::arena_used() const {
  std::lock_guard<std::mutex> lock(arena_mu_);
  std::size_t f = 0;
  for (auto& [o, s] : free_) f += s;
  return arena_bytes_ - f;
}

std::size_t DeviceContext::arena_largest_free() const {
  std::lock_guard<std::mutex> lock(arena_mu_);
  std::size_t largest = 0;
  for (auto& [o, s] : free_) largest = std::max(largest, s);
  return largest;
}

std::size_t DeviceContext::slots_for(std::size_t bytes_per_slot) const {
  if (bytes_per_slot == 0) return 0;
  std::lock_guard<std::mutex> lock(arena_mu_);
  std::size_t n = 0;
  for (auto& [o, s] : free_) n += s / round_up(bytes_per_slot);
  return n;
}

Result<PinnedHostBlock> DeviceContext::alloc_pinned_host(std::size_t bytes, const char* what) {
  const std::size_t need = arena_block_bytes(bytes);
  std::lock_guard<std::mutex> lock(host_mu_);
  const std::size_t off = take_range(host_free_, need);
  if (off == SIZE_MAX) {
    std::size_t largest = 0;
    for (auto& [o, s] : host_free_) largest = std::max(largest, s);
    return Status(Errc::out_of_memory,
                  std::string(what) + ": " + std::to_string(need) +
                      " bytes needed, largest free block of the pinned host pool is " +
                      std::to_string(largest) + " of " + std::to_string(host_pool_bytes_));
  }
  PinnedHostBlock b;
  b.ctx_ = this;
  b.ptr_ = host_pool_ + off;
  b.bytes_ = need;
  return Result<PinnedHostBlock>(std::move(b));
}

void DeviceContext::release_host(void* ptr, std::size_t bytes) {
  std::lock_guard<std::mutex> lock(host_mu_);
  give_range(host_free_, static_cast<std::size_t>(static_cast<char*>(ptr) - host_pool_), bytes);
}

std::size_t DeviceContext::pinned_host_used() const {
  std::lock_guard<std::mutex> lock(host_mu_);
  std::size_t f = 0;
  for (auto& [o, s] : host_free_) f += s;
  return host_pool_bytes_ - f;
}

PinnedBuffer DeviceContext::acquire_pinned() {
  std::unique_lock<std::mutex> lock(pinned_mu_);
  for (;;) {
    for (std::size_t i = 0; i < pinned_.size(); ++i) {
      if (!pinned_busy_[i]) {
        pinned_busy_[i] = true;
        PinnedBuffer b;
        b.ctx_ = this;
        b.ptr_ = pinned_[i];
        b.bytes_ = pinned_bytes_;
        b.index_ = static_cast<int>(i);
        return b;
      }
    }
    pinned_cv_.wait(lock);
  }
}

std::vector<PinnedBuffer> DeviceContext::acquire_pinned(int min, int max) {
  std::unique_lock<std::mutex> lock(pinned_mu_);
  min = std::clamp(min, 1, static_cast<int>(pinned_.size()));
  for (;;) {
    int free_count = 0;
    for (bool busy : pinned_busy_) free_count += busy ? 0 : 1;
    if (free_count >= min) break;
    pinned_cv_.wait(lock);
  }
  std::vector<PinnedBuffer> out;
  for (std::size_t i = 0; i < pinned_.size() && static_cast<int>(out.size()) < max; ++i) {
    if (pinned_busy_[i]) continue;
    pinned_busy_[i] = true;
    PinnedBuffer b;
    b.ctx_ = this;
    b.ptr_ = pinned_[i];
    b.bytes_ = pinned_bytes_;
    b.index_ = static_cast<int>(i);
    out.push_back(std::move(b));
  }
  return out;
}

void DeviceContext::release_pinned(int index) {
  {
    std::lock_guard<std::mutex> lock(pinned_mu_);
    pinned_busy_[static_cast<std::size_t>(index)] = false;
  }
  pinned_cv_.notify_one();
}

void DeviceContext::upload(void* dst, const void* src, std::size_t bytes, cudaStream_t stream) {
  copy_chunks(true, dst, src, bytes, stream);
}

void DeviceContext::download(void* dst, const void* src, std::size_t bytes, cudaStream_t stream) {
  copy_chunks(false, dst, src, bytes, stream);
}

// Chunk i goes to worker i mod T; a worker owns two pinned buffers and alternates between them.
// Upload: wait for the buffer's previous DMA (its event), memcpy pageable → pinned, queue the DMA,
// record the event. Download: queue the DMA into one buffer, then drain the worker's previous chunk
// (wait, memcpy pinned → pageable) while this one is in flight. All DMA copies share |stream|; an
// event there completes once everything queued before it has.
void DeviceContext::copy_chunks(bool to_device, void* dst, const void* src, std::size_t bytes,
                                cudaStream_t stream) {
  if (bytes == 0) return;
  // A host side in pinned memory (a partition vector drawn from a pinned pool) goes by DMA as
  // it is: no staging buffers, no host memcpy.
  if (bytes <= kDirectCopyBytes || PinnedHostPools::contains(to_device ? src : dst, bytes)) {
    // Small copies (density bitmaps, scale tables, results) go straight from pageable memory: they
    // never wait for staging buffers that a large upload on another thread holds.
    CUZK_CUDA_CHECK(cudaMemcpyAsync(
        dst, src, bytes, to_device ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost, stream));
    CUZK_CUDA_CHECK(cudaStreamSynchronize(stream));
    return;
  }
  // Chunks small enough that every copy thread gets two (so each one's memcpy overlaps its
  // previous DMA) but ≥ 4 MiB: a 128 MiB upload in 32 MiB chunks kept half the threads idle and
  // none double-buffered (≈ 15 GB/s on the H200 host against ≈ 22 GB/s at 512 MiB).
  const std::size_t per_thread_pair = bytes / (2 * static_cast<std::size_t>(copy_threads_));
  const std::size_t chunk = std::min(
      std::max<std::size_t>(per_thread_pair / 4096 * 4096, kDirectCopyBytes), pinned_bytes_);
  const std::size_t chunks = (bytes + chunk - 1) / chunk;
  const int want =
      static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(copy_threads_), chunks));
  std::vector<PinnedBuffer> bufs = acquire_pinned(2, 2 * want);
  const int workers = static_cast<int>(bufs.size()) / 2;
  auto work = [&](int w) {
    PinnedBuffer* b[2] = {&bufs[static_cast<std::size_t>(2 * w)],
                          &bufs[static_cast<std::size_t>(2 * w + 1)]};
    cudaEvent_t ev[2] = {events_[kUserEvents + b[0]->index_], events_[kUserEvents + b[1]->index_]};
    bool pending[2] = {false, false};
    std::size_t prev_off = 0, prev_n = 0;
    int k = 0, prev_k = -1;
    for (std::size_t i = static_cast<std::size_t>(w); i < chunks;
         i += static_cast<std::size_t>(workers), k ^= 1) {
      const std::size_t off = i * chunk, n = std::min(chunk, bytes - off);
      if (to_device) {
        if (pending[k]) CUZK_CUDA_CHECK(cudaEventSynchronize(ev[k]));
        std::memcpy(b[k]->data(), static_cast<const char*>(src) + off, n);
        CUZK_CUDA_CHECK(cudaMemcpyAsync(static_cast<char*>(dst) + off, b[k]->data(), n,
                                        cudaMemcpyHostToDevice, stream));
        CUZK_CUDA_CHECK(cudaEventRecord(ev[k], stream));
        pending[k] = true;
      } else {
        CUZK_CUDA_CHECK(cudaMemcpyAsync(b[k]->data(), static_cast<const char*>(src) + off, n,
                                        cudaMemcpyDeviceToHost, stream));
        CUZK_CUDA_CHECK(cudaEventRecord(ev[k], stream));
        if (prev_k >= 0) {
          CUZK_CUDA_CHECK(cudaEventSynchronize(ev[prev_k]));
          std::memcpy(static_cast<char*>(dst) + prev_off, b[prev_k]->data(), prev_n);
        }
        prev_k = k, prev_off = off, prev_n = n;
      }
    }
    if (to_device) {
      for (int i = 0; i < 2; ++i)
        if (pending[i]) CUZK_CUDA_CHECK(cudaEventSynchronize(ev[i]));
    } else if (prev_k >= 0) {
      CUZK_CUDA_CHECK(cudaEventSynchronize(ev[prev_k]));
      std::memcpy(static_cast<char*>(dst) + prev_off, b[prev_k]->data(), prev_n);
    }
  };
  if (workers == 1) {
    work(0);
    return;
  }
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(workers));
  std::vector<std::thread> threads;
  for (int w = 1; w < workers; ++w)
    threads.emplace_back([&, w] {
      try {
        work(w);
      } catch (...) {
        errors[static_cast<std::size_t>(w)] = std::current_exception();
      }
    });
  try {
    work(0);
  } catch (...) {
    errors[0] = std::current_exception();
  }
  for (auto& t : threads) t.join();
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace cuzk::gpu
