// The small-card path (gpu/msm/streamed.cuh): base tables larger than the VRAM arena stay in host
// memory and stream through two arena slots per MSM. Against CpuBackend on random inputs:
//   - G1 over 2^20 bases (96 MiB packed) with a 64 MiB arena, with and without the pinned pool
//     (DMA straight from the pool, or through the staging buffers);
//   - G2 over 2^19 bases (96 MiB packed) with a 64 MiB arena;
//   - many small chunks (slot of 256 bases) with density bitmaps and offsets, every bit-split mode;
//   - a whole Groth16 proof with every table of the key streamed equals the CPU proof and verifies.
// The arena never reports more used than it holds. Prints the seed; skips where no GPU is present.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <thread>
#include <vector>

#include "cuzk/backend/cpu_backend.hpp"
#include "cuzk/backend/device_memory.hpp"
#include "cuzk/base/thread_pool.hpp"
#include "cuzk/ec/batch_affine.hpp"
#include "cuzk/ec/scalar_mul.hpp"
#include "cuzk/gpu/cuda_backend.hpp"
#include "cuzk/groth16/prove.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/verify.hpp"
#include "cuzk/r1cs/bench_circuit.hpp"
#include "tests/support/msm_inputs.hpp"
#include "tests/support/seed.hpp"

namespace cuzk {
namespace {
using cuzk::test::fresh_seed;

#define REQUIRE_GPU()                                                                         \
  do {                                                                                        \
    if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device present: GPU test skipped"; \
  } while (0)

unsigned threads() { return std::max(2u, std::thread::hardware_concurrency()); }

template <class C>
std::vector<Affine<C>> make_points(std::size_t n, std::mt19937_64& rng) {
  const Jacobian<C> g = Jacobian<C>::generator();
  const Jacobian<C> q = mul_vartime(g, test::random_fr(rng));
  Jacobian<C> x = mul_vartime(g, test::random_fr(rng));
  std::vector<Jacobian<C>> j(n);
  for (auto& v : j) v = x, x.add(q);
  for (std::size_t k = 0; k < n / 40 + 1; ++k)
    j[rng() % n] = (rng() & 1) ? Jacobian<C>::identity() : j[rng() % n];
  return batch_to_affine_vartime<C>(j);
}

template <class C>
Result<BasesId> load(Backend& b, const std::vector<Affine<C>>& pts) {
  if constexpr (std::is_same_v<C, G1Curve>)
    return b.load_bases_g1(pts);
  else
    return b.load_bases_g2(pts);
}
template <class C>
auto msm(Backend& b, BasesId id, std::span<const Fr> s, const MsmOptions& o) {
  if constexpr (std::is_same_v<C, G1Curve>)
    return b.msm_g1(id, s, o);
  else
    return b.msm_g2(id, s, o);
}

/// |rounds| MSMs over one table of |nb| bases: CPU vs a CUDA backend with |opt|.
template <class C>
void compare(std::size_t nb, const CudaBackendOptions& opt, int rounds, bool expect_streamed) {
  const std::uint64_t seed = fresh_seed();
  std::printf("seed=%llu %s nb=%zu arena=%zu pinned=%zu slot=%zu\n",
              static_cast<unsigned long long>(seed), C::name, nb, opt.arena_bytes,
              opt.pinned_host_bytes, opt.stream_slot_points);
  std::mt19937_64 rng(seed);
  ThreadPool pool(threads());
  CpuBackend cpu(pool);
  auto gpu = make_cuda_backend("cuda:0", opt);
  ASSERT_TRUE(gpu.ok()) << gpu.status().to_string();
  const auto pts = make_points<C>(nb, rng);
  auto idc = load<C>(cpu, pts), idg = load<C>(**gpu, pts);
  ASSERT_TRUE(idc.ok()) << idc.status().to_string();
  ASSERT_TRUE(idg.ok()) << idg.status().to_string();
  const DeviceMemoryReport* rep = device_memory_report(**gpu);
  ASSERT_NE(rep, nullptr);
  const DeviceMemory m0 = rep->device_memory();
  EXPECT_LE(m0.used, m0.total);
  if (expect_streamed) {
    EXPECT_EQ(m0.streamed_bytes, nb * (std::is_same_v<C, G1Curve> ? 96u : 192u));
    EXPECT_LT(m0.used, std::uint64_t{1} << 20)
        << "a streamed table occupies no arena between calls";
    if (opt.pinned_host_bytes >= m0.streamed_bytes) {
      EXPECT_GE(m0.pinned_used, m0.streamed_bytes);
    }
  }
  for (int round = 0; round < rounds; ++round) {
    const bool density = round % 2 == 1;
    const int mode = round % 3;
    const std::size_t n = density ? nb + rng() % nb : nb - rng() % (nb / 3);
    std::vector<Fr> s(n);
    for (auto& v : s) v = test::mixed_scalar(mode, rng);
    const test::RandomDensity d =
        density ? test::random_density(n, nb, rng) : test::RandomDensity{};
    const MsmOptions o{.density = {.bits = d.bits, .base_offset = d.offset},
                       .bit_split = mode == 1 ? BitSplit::never : BitSplit::automatic};
    auto rc = msm<C>(cpu, *idc, s, o);
    auto rg = msm<C>(**gpu, *idg, s, o);
    ASSERT_TRUE(rc.ok()) << rc.status().to_string();
    ASSERT_TRUE(rg.ok()) << rg.status().to_string();
    EXPECT_EQ(rc->to_affine_vartime(), rg->to_affine_vartime())
        << C::name << " n=" << n << " round=" << round << " density=" << density
        << " seed=" << seed;
    const DeviceMemory m1 = rep->device_memory();
    EXPECT_LE(m1.used, m1.total);
    EXPECT_EQ(m1.used, m0.used) << "the MSM's working buffers went back to the arena";
  }
  EXPECT_TRUE((*gpu)->release_bases(*idg).ok());
  EXPECT_EQ(rep->device_memory().streamed_bytes, 0u);
}

constexpr std::size_t kMiB = std::size_t{1} << 20;

TEST(GpuStreamed, G1LargerThanArenaPinned) {
  REQUIRE_GPU();
  compare<G1Curve>(std::size_t{1} << 20,
                   {.arena_bytes = 64 * kMiB, .pinned_host_bytes = 128 * kMiB}, 4, true);
}

TEST(GpuStreamed, G1LargerThanArenaPlainHostMemory) {
  REQUIRE_GPU();
  compare<G1Curve>(std::size_t{1} << 20, {.arena_bytes = 64 * kMiB}, 2, true);
}

TEST(GpuStreamed, G2LargerThanArena) {
  REQUIRE_GPU();
  compare<G2Curve>(std::size_t{1} << 19,
                   {.arena_bytes = 64 * kMiB, .pinned_host_bytes = 128 * kMiB}, 3, true);
}

TEST(GpuStreamed, ManySmallChunks) {
  REQUIRE_GPU();
  const CudaBackendOptions o{.arena_bytes = 256 * kMiB,
                             .pinned_host_bytes = 16 * kMiB,
                             .stream_bases = StreamBases::always,
                             .stream_slot_points = 256};
  compare<G1Curve>(5000, o, 6, true);
  compare<G2Curve>(3000, o, 6, true);
}

TEST(GpuStreamed, Groth16ProofWithStreamedKeyEqualsCpu) {
  REQUIRE_GPU();
  const std::uint64_t seed = std::random_device{}();
  std::printf("seed=%llu\n", static_cast<unsigned long long>(seed));
  ThreadPool pool(threads());
  for (KeyLayout layout : {KeyLayout::bellperson, KeyLayout::snarkjs}) {
    auto circuit = generate_bench_r1cs(pool, {.log_rows = 12, .seed = seed, .num_public = 3});
    ASSERT_TRUE(circuit.ok()) << circuit.status().to_string();
    const R1csMatrices& m = circuit->matrices;
    const std::vector<Fr> z = circuit->assignment();
    SeededRng rng(seed);
    auto pk = setup(m, rng, {.layout = layout, .pool = &pool});
    ASSERT_TRUE(pk.ok()) << pk.status().to_string();
    const Fr r = random_fr(rng), s = random_fr(rng);
    CpuBackend cpu(pool);
    auto p_cpu = prove(cpu, pool, *pk, m, z, {.r = r, .s = s});
    ASSERT_TRUE(p_cpu.ok()) << p_cpu.status().to_string();
    // The step-wise path, and the fused partition streaming each table through the arena.
    for (const bool fused : {false, true}) {
      auto gpu = make_cuda_backend("cuda:0", {.arena_bytes = 256 * kMiB,
                                              .pinned_host_bytes = 64 * kMiB,
                                              .stream_bases = StreamBases::always,
                                              .stream_slot_points = 1000,
                                              .fused_streamed_partitions = fused});
      ASSERT_TRUE(gpu.ok()) << gpu.status().to_string();
      auto p_gpu = prove(**gpu, pool, *pk, m, z, {.r = r, .s = s});
      ASSERT_TRUE(p_gpu.ok()) << p_gpu.status().to_string();
      EXPECT_EQ(*p_cpu, *p_gpu) << "seed=" << seed << " layout=" << static_cast<int>(layout)
                                << " fused=" << fused;
      const auto pvk = prepare_verifying_key(pk->vk);
      auto ok = verify(pvk, std::span<const Fr>(z.data() + 1, m.num_inputs - 1), *p_gpu);
      ASSERT_TRUE(ok.ok()) << ok.status().to_string();
      EXPECT_TRUE(*ok) << "seed=" << seed;
    }
  }
}

}  // namespace
}  // namespace cuzk
