#include "cuzk/backend_factory/make_backend.hpp"

#include <charconv>
#include <optional>
#include <string>

#include "cuzk/backend/cpu_backend.hpp"

#if CUZK_HAVE_CUDA_BACKEND
#include "cuzk/gpu/cuda_backend.hpp"
#endif

namespace cuzk {

bool cuda_backend_built() { return CUZK_HAVE_CUDA_BACKEND != 0; }

Result<std::optional<int>> parse_device_spec(std::string_view spec, std::string_view what) {
  const std::string name = std::string(what) + " \"" + std::string(spec) + "\"";
  if (spec == "cpu") return std::optional<int>();
  constexpr std::string_view kCuda = "cuda:";
  if (!spec.starts_with(kCuda))
    return Status(Errc::invalid_argument, "unknown " + name + " (expected \"cpu\" or \"cuda:N\")");
  const std::string_view ordinal = spec.substr(kCuda.size());
  int device = -1;
  const auto [end, ec] = std::from_chars(ordinal.data(), ordinal.data() + ordinal.size(), device);
  if (ordinal.empty() || ec != std::errc() || end != ordinal.data() + ordinal.size() || device < 0)
    return Status(Errc::invalid_argument,
                  name + ": the device ordinal must be a non-negative integer");
  if (!cuda_backend_built())
    return Status(Errc::unimplemented,
                  name + ": this build has no CUDA backend (configure with CUDA)");
  return std::optional<int>(device);
}

Result<std::unique_ptr<Backend>> make_backend(std::string_view spec, ThreadPool& pool,
                                              const DeviceBackendOptions& device_options) {
  auto device = parse_device_spec(spec, "backend");
  if (!device) return device.status();
  if (!*device) return std::unique_ptr<Backend>(std::make_unique<CpuBackend>(pool));
#if CUZK_HAVE_CUDA_BACKEND
  return make_cuda_backend(
      spec, CudaBackendOptions{
                .arena_bytes = static_cast<std::size_t>(device_options.arena_bytes),
                .arena_fraction = device_options.arena_fraction,
                .vram_cap_bytes = static_cast<std::size_t>(device_options.vram_cap_bytes),
                .pinned_host_bytes = static_cast<std::size_t>(device_options.pinned_host_bytes),
                .partition_pinned_bytes =
                    static_cast<std::size_t>(device_options.partition_pinned_bytes)});
#else
  (void)device_options;  // not reached: parse_device_spec refuses "cuda:N" in this build
  return Status(Errc::unimplemented, "this build has no CUDA backend");
#endif
}

}  // namespace cuzk
