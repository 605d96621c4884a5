// make_backend: a Backend from its name. "cpu" → CpuBackend on the given pool (which must outlive
// it); "cuda:N" → the CUDA backend on device N (gpu/cuda_backend.hpp, make_cuda_backend) when the
// build has it, unimplemented otherwise. A backend with device memory also implements
// DeviceMemoryReport (backend/device_memory.hpp).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>

#include "cuzk/backend/backend.hpp"
#include "cuzk/base/status.hpp"
#include "cuzk/base/thread_pool.hpp"

namespace cuzk {

/// Device memory settings of a "cuda:N" backend (config [gpu]); ignored by "cpu".
struct DeviceBackendOptions {
  /// VRAM arena size in bytes; 0 = |arena_fraction| of the memory free at start.
  std::uint64_t arena_bytes = 0;
  /// Share of the free memory the arena takes when arena_bytes is 0; 0 = the backend's default (0.90).
  double arena_fraction = 0;
  /// Upper bound on the arena (0 = none), e.g. 16 GiB to behave as a small card.
  std::uint64_t vram_cap_bytes = 0;
  /// Pinned host pool reserved at start for base tables that stream from host memory (tables
  /// larger than half the arena, and those a key's placement keeps there so a partition fits);
  /// 0 = none (such tables then stream from plain host memory).
  std::uint64_t pinned_host_bytes = 0;
  /// Pinned host pool reserved at start for partition vectors (z, a, b, c): synthesis writes into
  /// it and the device copies it without staging; 0 = none (plain memory, staged uploads).
  std::uint64_t partition_pinned_bytes = 0;
};

/// The backend named |spec|: "cpu" or "cuda:N" (N a device ordinal). invalid_argument for another
/// name or a malformed ordinal; unimplemented for "cuda:N" in a build without the CUDA backend.
Result<std::unique_ptr<Backend>> make_backend(std::string_view spec, ThreadPool& pool,
                                              const DeviceBackendOptions& device = {});

/// The device |spec| names, as make_backend reads it: nullopt for "cpu", N for "cuda:N".
/// invalid_argument for another name or a malformed ordinal, unimplemented for "cuda:N" in a build
/// without the CUDA backend; the messages call the spec |what| ("backend", "device").
Result<std::optional<int>> parse_device_spec(std::string_view spec, std::string_view what);

/// True when this build contains the CUDA backend (it may still find no device at run time).
bool cuda_backend_built();

}  // namespace cuzk
