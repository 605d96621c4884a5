// CUDA error handling inside gpu/: every runtime call is wrapped; a failure throws CudaError with
// the expression, file and line (STYLE.md rule 4). cuda_backend.cu converts it to a Status once.
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace cuzk::gpu {

/// A failed CUDA runtime call; what() names the call, the error and the place.
class CudaError : public std::runtime_error {
 public:
  CudaError(cudaError_t code, const char* expr, const char* file, int line)
      : std::runtime_error(std::string(expr) + " failed: " + cudaGetErrorName(code) + " (" +
                           cudaGetErrorString(code) + ") at " + file + ":" + std::to_string(line)),
        code_(code) {}
  cudaError_t code() const { return code_; }

 private:
  cudaError_t code_;
};

}  // namespace cuzk::gpu

#define CUZK_CUDA_CHECK(expr)                                                                     \
  do {                                                                                            \
    cudaError_t cuzk_e_ = (expr);                                                                 \
    if (cuzk_e_ != cudaSuccess) throw ::cuzk::gpu::CudaError(cuzk_e_, #expr, __FILE__, __LINE__); \
  } while (0)

/// Checks the last launch error (cheap: no synchronization).
#define CUZK_CUDA_CHECK_LAUNCH() CUZK_CUDA_CHECK(cudaGetLastError())
