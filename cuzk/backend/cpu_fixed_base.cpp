#include <algorithm>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "cuzk/backend/fixed_base.hpp"
#include "cuzk/ec/batch_affine.hpp"
#include "cuzk/ec/fixed_base.hpp"

namespace cuzk {

namespace {

// out[i] = [ks[i]]·table's base, in chunks of 4096 (one batch normalisation each), in parallel.
template <class C>
void fixed_base_many(const FixedBaseTable<C>& table, std::span<const Fr> ks,
                     std::span<Affine<C>> out, ThreadPool& pool) {
  constexpr std::size_t kChunk = 4096;
  const std::size_t chunks = (ks.size() + kChunk - 1) / kChunk;
  pool.parallel_for(chunks, [&](std::size_t c) {
    const std::size_t b = c * kChunk, e = std::min(ks.size(), b + kChunk);
    std::vector<Jacobian<C>> j(e - b);
    for (std::size_t i = b; i < e; ++i) j[i - b] = table.mul(ks[i]);
    auto aff = batch_to_affine_vartime<C>(j);
    std::copy(aff.begin(), aff.end(), out.begin() + static_cast<std::ptrdiff_t>(b));
  });
}

class CpuFixedBase final : public FixedBaseExecutor {
 public:
  CpuFixedBase(ThreadPool& pool, std::size_t g1_count, std::size_t g2_count)
      : pool_(pool), w1_(fixed_base_window_for(g1_count)), w2_(fixed_base_window_for(g2_count)) {}

  Status g1_many(std::span<const Fr> ks, std::span<G1Affine> out) override {
    if (ks.size() != out.size()) return mismatch();
    std::call_once(g1_once_,
                   [&] { g1_ = FixedBaseTable<G1Curve>::build(G1Affine::generator(), w1_); });
    fixed_base_many<G1Curve>(*g1_, ks, out, pool_);
    return {};
  }
  Status g2_many(std::span<const Fr> ks, std::span<G2Affine> out) override {
    if (ks.size() != out.size()) return mismatch();
    std::call_once(g2_once_,
                   [&] { g2_ = FixedBaseTable<G2Curve>::build(G2Affine::generator(), w2_); });
    fixed_base_many<G2Curve>(*g2_, ks, out, pool_);
    return {};
  }
  std::string name() const override { return "cpu"; }

 private:
  static Status mismatch() {
    return Status(Errc::size_mismatch, "fixed-base: scalars and outputs differ in length");
  }
  ThreadPool& pool_;
  unsigned w1_, w2_;
  std::once_flag g1_once_, g2_once_;
  std::optional<FixedBaseTable<G1Curve>> g1_;
  std::optional<FixedBaseTable<G2Curve>> g2_;
};

}  // namespace

unsigned fixed_base_window_for(std::size_t n) {
  return n < 4096 ? 8 : (n < (std::size_t{1} << 18) ? 12 : 14);
}

std::unique_ptr<FixedBaseExecutor> make_cpu_fixed_base(ThreadPool& pool, std::size_t g1_count,
                                                       std::size_t g2_count) {
  return std::make_unique<CpuFixedBase>(pool, g1_count, g2_count);
}

}  // namespace cuzk
