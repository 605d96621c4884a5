// Groth16 through the CUDA backend: the benchmark circuit (PoRep statistics: mostly 0/1 witness,
// A density ≈ 99.7 %, B ≈ 25 %) at 2^10 and 2^13 rows in the bellperson layout, and at 2^10 in the
// snarkjs layout, proved with CpuBackend and with CudaBackend (its one-call prove_partition and
// the step-wise calls) for the same r, s: the proofs are equal and verify (groth16::verify). Prints the seed; skips with a message where no GPU is present.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <tuple>

#include "cuzk/backend/cpu_backend.hpp"
#include "cuzk/gpu/cuda_backend.hpp"
#include "cuzk/groth16/prove.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/verify.hpp"
#include "cuzk/r1cs/bench_circuit.hpp"
#include "cuzk/r1cs/pce.hpp"

namespace cuzk {
namespace {

struct Case {
  unsigned log_rows;
  KeyLayout layout;
};

class GpuGroth16 : public ::testing::TestWithParam<Case> {};

TEST_P(GpuGroth16, CudaProofEqualsCpuProofAndVerifies) {
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device present: GPU Groth16 test skipped";
  const Case tc = GetParam();
  const std::uint64_t seed = std::random_device{}();
  std::printf("seed=%llu log_rows=%u layout=%s\n", static_cast<unsigned long long>(seed),
              tc.log_rows, tc.layout == KeyLayout::snarkjs ? "snarkjs" : "bellperson");
  ThreadPool pool(2);
  auto circuit =
      generate_bench_r1cs(pool, {.log_rows = tc.log_rows, .seed = seed, .num_public = 3});
  ASSERT_TRUE(circuit.ok()) << circuit.status().to_string();
  const R1csMatrices& m = circuit->matrices;
  const std::vector<Fr> z = circuit->assignment();

  SeededRng rng(seed);
  auto pk = setup(m, rng, {.layout = tc.layout, .pool = &pool});
  ASSERT_TRUE(pk.ok()) << pk.status().to_string();
  const Fr r = random_fr(rng), s = random_fr(rng);

  CpuBackend cpu(pool);
  auto gpu = make_cuda_backend("cuda:0", {.arena_bytes = std::size_t{1} << 30});
  ASSERT_TRUE(gpu.ok()) << gpu.status().to_string();

  auto p_cpu = prove(cpu, pool, *pk, m, z, {.r = r, .s = s});
  ASSERT_TRUE(p_cpu.ok()) << p_cpu.status().to_string();
  ProveTimings t;
  auto p_gpu = prove(**gpu, pool, *pk, m, z, {.r = r, .s = s, .timings = &t});
  ASSERT_TRUE(p_gpu.ok()) << p_gpu.status().to_string();
  std::printf(
      "cuda: h %.2f ms, msm a %.2f, b_g1 %.2f, b_g2 %.2f, l %.2f, h %.2f, upload %.2f, total %.2f "
      "ms\n",
      t.h * 1e3, t.msm_a * 1e3, t.msm_b1 * 1e3, t.msm_b2 * 1e3, t.msm_l * 1e3, t.msm_h * 1e3,
      t.upload * 1e3, t.total * 1e3);
  EXPECT_EQ(*p_cpu, *p_gpu) << "seed=" << seed;
  // The step-wise backend calls (compute_h + eight MSMs, each input uploaded per call) give the same
  // proof as the one-call partition (gpu/partition.cuh).
  auto p_steps = prove(**gpu, pool, *pk, m, z, {.r = r, .s = s, .stepwise = true});
  ASSERT_TRUE(p_steps.ok()) << p_steps.status().to_string();
  EXPECT_EQ(*p_cpu, *p_steps) << "seed=" << seed;

  const auto pvk = prepare_verifying_key(pk->vk);
  const std::span<const Fr> pub(z.data() + 1, m.num_inputs - 1);
  auto ok = verify(pvk, pub, *p_gpu);
  ASSERT_TRUE(ok.ok()) << ok.status().to_string();
  EXPECT_TRUE(*ok) << "seed=" << seed;
  // A wrong public input is rejected for the GPU proof as well.
  std::vector<Fr> bad(pub.begin(), pub.end());
  bad[0] += Fr::one();
  EXPECT_FALSE(*verify(pvk, bad, *p_gpu));

  // A second proof on the same resident key (bases loaded once), fresh r, s: still equal.
  auto key = ResidentKey::load(**gpu, *pk);
  ASSERT_TRUE(key.ok()) << key.status().to_string();
  const Fr r2 = random_fr(rng), s2 = random_fr(rng);
  auto q_gpu = prove(pool, **key, m, z, {.r = r2, .s = s2});
  auto q_cpu = prove(cpu, pool, *pk, m, z, {.r = r2, .s = s2});
  ASSERT_TRUE(q_gpu.ok() && q_cpu.ok());
  EXPECT_EQ(*q_cpu, *q_gpu) << "seed=" << seed;
  EXPECT_TRUE(*verify(pvk, pub, *q_gpu));
}

// The prover's backend calls one by one on the bellperson layout (CPU vs CUDA): the H step on the
// circuit's a, b, c, and each MSM with the prover's scalars, densities and base offsets. Names the
// first stage that differs when the whole proofs disagree.
TEST(GpuGroth16Stages, BellpersonStagesMatchCpu) {
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device present: GPU Groth16 test skipped";
  for (unsigned lg : {10u, 11u, 13u}) {
    const std::uint64_t seed = std::random_device{}();
    std::printf("seed=%llu log_rows=%u\n", static_cast<unsigned long long>(seed), lg);
    ThreadPool pool(2);
    auto circuit = generate_bench_r1cs(pool, {.log_rows = lg, .seed = seed, .num_public = 3});
    ASSERT_TRUE(circuit.ok());
    const R1csMatrices& m = circuit->matrices;
    const std::vector<Fr> z = circuit->assignment();
    SeededRng rng(seed);
    auto pk = setup(m, rng, {.layout = KeyLayout::bellperson, .pool = &pool});
    ASSERT_TRUE(pk.ok());
    CpuBackend cpu(pool);
    auto gpu = make_cuda_backend("cuda:0", {.arena_bytes = std::size_t{1} << 30});
    ASSERT_TRUE(gpu.ok());
    auto kc = ResidentKey::load(cpu, *pk);
    auto kg = ResidentKey::load(**gpu, *pk);
    ASSERT_TRUE(kc.ok() && kg.ok());
    // H.
    auto abc = pce_evaluate(pool, m, z);
    ASSERT_TRUE(abc.ok());
    const std::size_t n = pk->domain_size;
    for (auto* v : {&abc->a, &abc->b, &abc->c}) v->resize(n, Fr::zero());
    AbcVectors abc2 = *abc;
    std::vector<Fr> h1(n - 1), h2(n - 1);
    ASSERT_TRUE(cpu.compute_h({abc->a, abc->b, abc->c}, h1).ok());
    ASSERT_TRUE((*gpu)->compute_h({abc2.a, abc2.b, abc2.c}, h2).ok());
    std::size_t h_diff = 0;
    for (std::size_t i = 0; i < n - 1; ++i) h_diff += h1[i] != h2[i];
    EXPECT_EQ(h_diff, 0u) << "H differs in " << h_diff << " of " << n - 1 << " lg=" << lg
                          << " seed=" << seed;
    // MSMs as prove_with_abc calls them.
    const std::span<const Fr> inputs(z.data(), m.num_inputs),
        aux(z.data() + m.num_inputs, m.num_aux);
    const MsmDensity a_aux{.bits = m.a_aux_density.words, .base_offset = m.num_inputs};
    const MsmDensity b_in{.bits = m.b_input_density.words, .base_offset = 0};
    const MsmDensity b_aux{.bits = m.b_aux_density.words, .base_offset = m.b_input_density.count()};
    struct G1Call {
      const char* name;
      BasesId ResidentKey::*q;
      std::span<const Fr> s;
      MsmDensity d;
    };
    const G1Call g1_calls[] = {{"a inputs", &ResidentKey::a, inputs, {}},
                               {"a aux", &ResidentKey::a, aux, a_aux},
                               {"b_g1 inputs", &ResidentKey::b_g1, inputs, b_in},
                               {"b_g1 aux", &ResidentKey::b_g1, aux, b_aux},
                               {"l", &ResidentKey::l, aux, {}},
                               {"h", &ResidentKey::h, h1, {}}};
    for (const auto& c : g1_calls) {
      auto rc = cpu.msm_g1((**kc).*c.q, c.s, {.density = c.d});
      auto rg = (*gpu)->msm_g1((**kg).*c.q, c.s, {.density = c.d});
      ASSERT_TRUE(rc.ok() && rg.ok()) << c.name;
      EXPECT_EQ(rc->to_affine_vartime(), rg->to_affine_vartime())
          << "MSM " << c.name << " n=" << c.s.size() << " lg=" << lg << " seed=" << seed;
    }
    for (const auto& [name, s, d] :
         {std::tuple{"b_g2 inputs", inputs, b_in}, std::tuple{"b_g2 aux", aux, b_aux}}) {
      auto rc = cpu.msm_g2((**kc).b_g2, s, {.density = d});
      auto rg = (*gpu)->msm_g2((**kg).b_g2, s, {.density = d});
      ASSERT_TRUE(rc.ok() && rg.ok()) << name;
      EXPECT_EQ(rc->to_affine_vartime(), rg->to_affine_vartime())
          << "MSM " << name << " n=" << s.size() << " lg=" << lg << " seed=" << seed;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Bench, GpuGroth16,
    ::testing::Values(Case{10, KeyLayout::bellperson}, Case{13, KeyLayout::bellperson},
                      Case{10, KeyLayout::snarkjs}),
    [](const auto& info) {
      return std::string(info.param.layout == KeyLayout::snarkjs ? "snarkjs" : "bellperson") +
             "_2e" + std::to_string(info.param.log_rows);
    });

}  // namespace
}  // namespace cuzk
