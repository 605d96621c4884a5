#include "cuzk/backend_factory/make_fixed_base.hpp"

#include <charconv>
#include <string>

#if CUZK_HAVE_CUDA_BACKEND
#include "cuzk/gpu/fixed_base_executor.hpp"
#endif

namespace cuzk {

Result<std::unique_ptr<FixedBaseExecutor>> make_fixed_base(std::string_view spec, ThreadPool& pool,
                                                           std::size_t g1_count,
                                                           std::size_t g2_count) {
  if (spec == "cpu") return make_cpu_fixed_base(pool, g1_count, g2_count);
  constexpr std::string_view kCuda = "cuda:";
  if (spec.starts_with(kCuda)) {
    const std::string_view ordinal = spec.substr(kCuda.size());
    int device = -1;
    const auto [end, ec] = std::from_chars(ordinal.data(), ordinal.data() + ordinal.size(), device);
    if (ordinal.empty() || ec != std::errc() || end != ordinal.data() + ordinal.size() ||
        device < 0)
      return Status(Errc::invalid_argument, "device \"" + std::string(spec) +
                                                "\": the device ordinal must be a "
                                                "non-negative integer");
#if CUZK_HAVE_CUDA_BACKEND
    return gpu::make_cuda_fixed_base({.device = device}, pool);
#else
    return Status(Errc::unimplemented, "device \"" + std::string(spec) +
                                           "\": this build has no CUDA backend (configure with "
                                           "CUDA)");
#endif
  }
  return Status(Errc::invalid_argument,
                "unknown device \"" + std::string(spec) + "\" (expected \"cpu\" or \"cuda:N\")");
}

}  // namespace cuzk
