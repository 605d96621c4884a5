// make_backend: a Backend from its name. "cpu" → CpuBackend on the given pool (which must outlive
// it); "cuda:N" → the CUDA backend on device N (gpu/cuda_backend.hpp, make_cuda_backend) when the
// build has it, unimplemented otherwise.
#pragma once

#include <memory>
#include <string_view>

#include "cuzk/backend/backend.hpp"
#include "cuzk/base/status.hpp"
#include "cuzk/base/thread_pool.hpp"

namespace cuzk {

/// The backend named |spec|: "cpu" or "cuda:N" (N a device ordinal). invalid_argument for another
/// name or a malformed ordinal; unimplemented for "cuda:N" in a build without the CUDA backend.
Result<std::unique_ptr<Backend>> make_backend(std::string_view spec, ThreadPool& pool);

/// True when this build contains the CUDA backend (it may still find no device at run time).
bool cuda_backend_built();

}  // namespace cuzk
