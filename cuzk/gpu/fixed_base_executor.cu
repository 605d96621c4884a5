#include "cuzk/gpu/fixed_base_executor.hpp"

#include <algorithm>
#include <mutex>
#include <optional>
#include <string>

#include "cuzk/gpu/cuda_check.cuh"
#include "cuzk/gpu/device_context.hpp"
#include "cuzk/gpu/ec/fixed_base.cuh"

namespace cuzk::gpu {

namespace {

Status from_cuda_error(const CudaError& e) {
  if (e.code() == cudaErrorMemoryAllocation) return Status(Errc::out_of_memory, e.what());
  return Status(Errc::device_failure, e.what());
}

class CudaFixedBase final : public FixedBaseExecutor {
 public:
  CudaFixedBase(std::unique_ptr<DeviceContext> ctx, const CudaFixedBaseOptions& o, ThreadPool& pool)
      : ctx_(std::move(ctx)), o_(o), pool_(pool) {}

  Status g1_many(std::span<const Fr> ks, std::span<G1Affine> out) override {
    return run<G1Curve>(g1_, G1Affine::generator(), ks, out);
  }
  Status g2_many(std::span<const Fr> ks, std::span<G2Affine> out) override {
    return run<G2Curve>(g2_, G2Affine::generator(), ks, out);
  }
  std::string name() const override { return "cuda:" + std::to_string(ctx_->device()); }

 private:
  template <class H>
  Status run(std::optional<DeviceFixedBaseTable<H>>& table, const Affine<H>& base,
             std::span<const Fr> ks, std::span<Affine<H>> out) {
    if (ks.size() != out.size())
      return Status(Errc::size_mismatch, "fixed-base: scalars and outputs differ in length");
    std::lock_guard lock(mu_);  // one caller at a time on the context's stream
    try {
      if (!table) table.emplace(*ctx_, base, o_.window);
      // What the arena holds beside both tables, with a margin for the allocator's rounding.
      const std::size_t room = ctx_->arena_largest_free();
      const std::size_t fit =
          room > (std::size_t{16} << 20)
              ? (room - (std::size_t{16} << 20)) / DeviceFixedBaseTable<H>::bytes_per_point()
              : 0;
      if (fit == 0) return Status(Errc::out_of_memory, "fixed-base: the arena holds no chunk");
      table->mul_many(ks, out, std::min(o_.chunk, fit), pool_);
      return {};
    } catch (const CudaError& e) {
      return from_cuda_error(e);
    }
  }

  std::unique_ptr<DeviceContext> ctx_;
  CudaFixedBaseOptions o_;
  ThreadPool& pool_;
  std::mutex mu_;
  std::optional<DeviceFixedBaseTable<G1Curve>> g1_;
  std::optional<DeviceFixedBaseTable<G2Curve>> g2_;
};

}  // namespace

Result<std::unique_ptr<FixedBaseExecutor>> make_cuda_fixed_base(const CudaFixedBaseOptions& o,
                                                                ThreadPool& pool) {
  try {
    auto ctx = DeviceContext::create(
        {.device = o.device, .arena_bytes = o.arena_bytes, .streams = 1, .pinned_buffers = 8});
    if (!ctx.ok()) return ctx.status();
    return std::unique_ptr<FixedBaseExecutor>(
        std::make_unique<CudaFixedBase>(std::move(*ctx), o, pool));
  } catch (const CudaError& e) {
    return from_cuda_error(e);
  }
}

}  // namespace cuzk::gpu
