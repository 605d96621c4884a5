// Key placement on a real device (groth16/key_placement.hpp): a VRAM arena capped so that a bench
// key fits alone but not with one partition's working set (CudaBackend::partition_working_bytes,
// gpu/partition.cu), no table over half the arena:
//   * backend level — the placement streams exactly the key's largest table; the key loaded with
//     it, from host points and from its .params encodings (decoded on the device, the streamed
//     table into its packed host copy), reports that table's packed bytes as streamed and the
//     rest as used; two proofs with fixed r, s each equal the CPU backend's byte for byte and
//     verify (the partition ran in the room kept for it);
//   * prover level — a Groth16Prover whose only backend is the capped cuda:0 predicts the same
//     (device_key_bytes, device_host_bytes_bound), and jobs through the engine prove and
//     self-verify with the key in the vram tier and the table reported as streamed.
// Prints the seed and the figures; skips where no GPU is present.
#include <gtest/gtest.h>

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cstdio>
#include <filesystem>
#include <random>
#include <thread>

#include "cuzk/backend/cpu_backend.hpp"
#include "cuzk/backend/device_memory.hpp"
#include "cuzk/engine/engine.hpp"
#include "cuzk/engine/fake_prover.hpp"
#include "cuzk/engine/groth16_prover.hpp"
#include "cuzk/engine/key_store.hpp"
#include "cuzk/formats/bellperson.hpp"
#include "cuzk/gpu/cuda_backend.hpp"
#include "cuzk/groth16/key_placement.hpp"
#include "cuzk/groth16/prove.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/verify.hpp"
#include "cuzk/r1cs/bench_circuit.hpp"

namespace cuzk {
namespace {

#define SKIP_WITHOUT_GPU() \
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device present: GPU test skipped"

constexpr std::size_t kMiB = std::size_t{1} << 20;
constexpr unsigned kLogRows = 17;

unsigned threads() { return std::max(2u, std::thread::hardware_concurrency()); }

std::uint64_t largest_table(const QueryCounts& c) {
  std::uint64_t m = 192 * c.b_g2;
  for (std::uint64_t g1 : {c.h, c.l, c.a, c.b_g1}) m = std::max(m, 96 * g1);
  return m;
}

// The arena that holds the key's tables and a partition's working set only without the largest
// table: half of that table short of both.
std::uint64_t tight_arena(std::uint64_t whole, std::uint64_t working, std::uint64_t largest) {
  return whole + working - largest / 2;
}

TEST(GpuPlacement, LargestTableStreamsAndProofEqualsCpu) {
  SKIP_WITHOUT_GPU();
  const std::uint64_t seed = std::random_device{}();
  std::printf("seed=%llu\n", static_cast<unsigned long long>(seed));
  ThreadPool pool(threads());
  auto circuit = generate_bench_r1cs(pool, {.log_rows = kLogRows, .seed = seed, .num_public = 3});
  ASSERT_TRUE(circuit.ok()) << circuit.status().to_string();
  const R1csMatrices& m = circuit->matrices;
  const std::vector<Fr> z = circuit->assignment();
  SeededRng rng(seed);
  auto pk = setup(m, rng, {.pool = &pool});
  ASSERT_TRUE(pk.ok()) << pk.status().to_string();
  const QueryCounts counts = pk->query_counts();
  const std::uint64_t n = pk->domain_size, columns = m.num_inputs + m.num_aux;

  std::uint64_t whole = 0, working = 0;
  {
    auto big = make_cuda_backend("cuda:0", {.arena_bytes = std::size_t{2} << 30});
    ASSERT_TRUE(big.ok()) << big.status().to_string();
    const DeviceMemoryReport* rep = device_memory_report(**big);
    ASSERT_NE(rep, nullptr);
    const KeyPlacement all = plan_key_placement(*rep, counts, n, columns);
    EXPECT_FALSE(all.streamed.any());
    whole = all.resident_bytes;
    working = rep->partition_working_bytes(n, columns);
  }
  const std::uint64_t largest = largest_table(counts);
  const std::uint64_t arena = tight_arena(whole, working, largest);
  std::printf("domain 2^%d, key %llu B (largest table %llu B), partition %llu B, arena %llu B\n",
              static_cast<int>(std::countr_zero(n)), static_cast<unsigned long long>(whole),
              static_cast<unsigned long long>(largest), static_cast<unsigned long long>(working),
              static_cast<unsigned long long>(arena));
  ASSERT_LT(whole, arena);              // the key alone fits ...
  ASSERT_LT(largest + 256, arena / 2);  // ... and no table streams by the half-arena rule

  // The key as a .params file: the direct path's encoded queries (decoded on the device).
  const std::vector<std::uint8_t> file = *write_params(*pk, &pool);
  auto lay = scan_params(file);
  ASSERT_TRUE(lay.ok()) << lay.status().to_string();
  ProvingKey shape;  // what the key store keeps of a direct key
  shape.vk = lay->vk;
  shape.domain_size = lay->domain_size;
  auto enc = [&](const ParamsSection& sec, std::size_t per) {
    EncodedBases e;
    e.bytes = std::span<const std::uint8_t>(file).subspan(sec.offset, sec.count * per);
    return e;
  };

  CpuBackend cpu(pool);
  const auto pvk = prepare_verifying_key(pk->vk);
  for (const bool encoded : {false, true}) {
    SCOPED_TRACE(encoded ? "tables decoded from the .params on the device" : "host tables");
    auto gpu = make_cuda_backend("cuda:0", {.arena_bytes = arena});
    ASSERT_TRUE(gpu.ok()) << gpu.status().to_string();
    const DeviceMemoryReport* rep = device_memory_report(**gpu);
    ASSERT_NE(rep, nullptr);
    const KeyPlacement p = plan_key_placement(*rep, counts, n, columns);
    EXPECT_EQ(p.working_bytes, working);
    EXPECT_EQ(p.streamed_host_bytes, largest);  // one table: the largest
    EXPECT_EQ(p.resident_bytes, whole - largest - 256);
    auto rk = encoded ? ResidentKey::load_encoded(**gpu, shape,
                                                  {.h = enc(lay->h, 96),
                                                   .l = enc(lay->l, 96),
                                                   .a = enc(lay->a, 96),
                                                   .b_g1 = enc(lay->b_g1, 96),
                                                   .b_g2 = enc(lay->b_g2, 192)},
                                                  p.streamed)
                      : ResidentKey::load(**gpu, *pk, p.streamed);
    ASSERT_TRUE(rk.ok()) << rk.status().to_string();
    {
      const DeviceMemory dm = rep->device_memory();
      EXPECT_EQ(dm.streamed_bytes, largest);  // the backend reports the streamed table
      // Each resident table is one arena block, its bytes rounded up to 256 (resident_bases_bytes
      // counts 256 more per table).
      EXPECT_LE(dm.used, p.resident_bytes);
      EXPECT_GE(dm.used + 4 * 256, p.resident_bytes);
    }
    for (int round = 0; round < 2; ++round) {
      const Fr r = random_fr(rng), s = random_fr(rng);
      auto p_cpu = prove(cpu, pool, *pk, m, z, {.r = r, .s = s});
      ASSERT_TRUE(p_cpu.ok()) << p_cpu.status().to_string();
      auto p_gpu = prove(pool, **rk, m, z, {.r = r, .s = s});
      ASSERT_TRUE(p_gpu.ok()) << p_gpu.status().to_string();
      EXPECT_EQ(*p_cpu, *p_gpu) << "seed=" << seed << " round " << round;
      auto ok = verify(pvk, std::span<const Fr>(z.data() + 1, m.num_inputs - 1), *p_gpu);
      ASSERT_TRUE(ok.ok()) << ok.status().to_string();
      EXPECT_TRUE(*ok) << "seed=" << seed;
      const DeviceMemory dm = rep->device_memory();
      EXPECT_LE(dm.used, dm.total);
    }
  }
}

TEST(GpuPlacement, CudaProverStreamsTheLargestTableAndProves) {
  SKIP_WITHOUT_GPU();
  spdlog::set_level(spdlog::level::warn);
  namespace fs = std::filesystem;
  const fs::path dir =
      fs::temp_directory_path() / ("cuzk-placement-gpu-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string key_id = "bench-" + std::to_string(kLogRows);
  engine::Groth16ProverOptions o;
  o.cache_dir = dir.string();
  o.threads = threads();
  o.backends = {"cuda:0"};
  o.device.arena_bytes = std::size_t{2} << 30;
  std::uint64_t whole = 0, working = 0, largest = 0;
  {
    auto sizer = engine::Groth16Prover::create(o);
    ASSERT_TRUE(sizer.ok()) << sizer.status().to_string();
    auto key = (*sizer)->load_key(key_id);  // generated (seeded setup) and cached in |dir|
    ASSERT_TRUE(key.ok()) << key.status().to_string();
    const auto* gk = dynamic_cast<const engine::Groth16Key*>(key->get());
    ASSERT_NE(gk, nullptr);
    whole = (*sizer)->device_key_bytes(**key, 0);
    EXPECT_EQ((*sizer)->device_host_bytes_bound(**key, 0), 0u);
    largest = largest_table(gk->counts());
    auto be = make_cuda_backend("cuda:0", {.arena_bytes = 256 * kMiB});
    ASSERT_TRUE(be.ok()) << be.status().to_string();
    working = device_memory_report(**be)->partition_working_bytes(gk->pk.domain_size,
                                                                  gk->dims().num_columns());
  }
  o.device.arena_bytes = tight_arena(whole, working, largest);
  std::printf("key %llu B, largest table %llu B, partition %llu B, arena %llu B\n",
              static_cast<unsigned long long>(whole), static_cast<unsigned long long>(largest),
              static_cast<unsigned long long>(working),
              static_cast<unsigned long long>(o.device.arena_bytes));
  auto made = engine::Groth16Prover::create(o);
  ASSERT_TRUE(made.ok()) << made.status().to_string();
  std::shared_ptr<engine::Groth16Prover> prover(std::move(*made));
  {
    auto key = prover->load_key(key_id);
    ASSERT_TRUE(key.ok()) << key.status().to_string();
    EXPECT_EQ(prover->device_key_bytes(**key, 0), whole - largest - 256);
    EXPECT_EQ(prover->device_host_bytes_bound(**key, 0), largest);
  }
  engine::EngineOptions eo;
  eo.devices = prover->devices();
  auto e = engine::Engine::create(eo, {prover});
  ASSERT_TRUE(e.ok()) << e.status().to_string();
  for (std::uint64_t seed : {3u, 4u}) {
    engine::JobRequest r;
    r.request_id = "placed-" + std::to_string(seed);
    r.circuit_id = key_id;
    r.num_partitions = 2;
    r.vanilla_proof = engine::fake_input(seed);
    auto sub = (*e)->submit(r);
    ASSERT_TRUE(sub.ok()) << sub.status().to_string();
    auto out = (*e)->await(sub->job_id, std::chrono::seconds(120));
    ASSERT_TRUE(out.ok()) << out.status().to_string();
    ASSERT_EQ(out->status, engine::AwaitStatus::completed) << out->error;  // self-verified
  }
  const auto st = (*e)->status();
  bool seen = false;
  for (const auto& k : st.keys) {
    if (k.key_id != key_id) continue;
    seen = true;
    EXPECT_EQ(k.tier, "vram");
    ASSERT_EQ(k.devices.size(), 1u);
    EXPECT_EQ(k.devices[0].bytes, whole - largest - 256);
    EXPECT_EQ(k.devices[0].host_bytes + k.devices[0].pinned_bytes, largest);
  }
  EXPECT_TRUE(seen);
  ASSERT_EQ(st.devices.size(), 1u);
  EXPECT_EQ(st.devices[0].vram.streamed_bytes, largest);
  (*e)->shutdown(std::chrono::seconds(10));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace cuzk
