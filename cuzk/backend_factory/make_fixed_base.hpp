// make_fixed_base: a Groth16 setup's FixedBaseExecutor (backend/fixed_base.hpp) from a device name,
// as make_backend: "cpu" → the CPU tables on the pool; "cuda:N" → the CUDA executor on device N
// (gpu/fixed_base_executor.hpp) when the build has it, unimplemented otherwise.
#pragma once

#include <cstddef>
#include <memory>
#include <string_view>

#include "cuzk/backend/fixed_base.hpp"
#include "cuzk/base/status.hpp"
#include "cuzk/base/thread_pool.hpp"

namespace cuzk {

/// The executor named |spec| ("cpu" or "cuda:N"); |g1_count| and |g2_count| (the points the setup
/// will ask for) size the CPU tables. |pool| must outlive it. invalid_argument for another name or
/// a malformed ordinal.
Result<std::unique_ptr<FixedBaseExecutor>> make_fixed_base(std::string_view spec, ThreadPool& pool,
                                                           std::size_t g1_count,
                                                           std::size_t g2_count);

}  // namespace cuzk
