#include "cuzk/backend_factory/make_fixed_base.hpp"

#include <string>

#include "cuzk/backend_factory/make_backend.hpp"

#if CUZK_HAVE_CUDA_BACKEND
#include "cuzk/gpu/fixed_base_executor.hpp"
#endif

namespace cuzk {

Result<std::unique_ptr<FixedBaseExecutor>> make_fixed_base(std::string_view spec, ThreadPool& pool,
                                                           std::size_t g1_count,
                                                           std::size_t g2_count) {
  auto device = parse_device_spec(spec, "device");
  if (!device) return device.status();
  if (!*device) return make_cpu_fixed_base(pool, g1_count, g2_count);
#if CUZK_HAVE_CUDA_BACKEND
  return gpu::make_cuda_fixed_base({.device = **device}, pool);
#else
  // not reached: parse_device_spec refuses "cuda:N" in this build
  return Status(Errc::unimplemented, "this build has no CUDA backend");
#endif
}

}  // namespace cuzk
