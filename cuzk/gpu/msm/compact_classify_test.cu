// The GPU MSM's classify step from a compact witness in VRAM (compact_classify.cuh) against the
// classify rule over the witness's z (msm_split_from_scalars, backend/compact_msm_split.hpp):
//   * the device lists (ones, tail with values, zeros) equal the rule's as multisets, for random
//     compact witnesses (sizes not powers of two, no runs, runs at the start and the end) over
//     every witness term partition_msm_terms makes in both conventions, with random densities
//     (stray bits past the term) and base offsets, the split on and off;
//   * the MSM sums (G1 and G2) with GpuMsmConfig::compact equal those classified from z on the
//     device (z expanded there) and the CPU MSM's, with the same counts; a term past the witness
//     refused.
// prove_partition_compact through this path against the CPU backend: compact_prove_gpu_test.cpp.
// Skips where no GPU is present. Seeded (printed; CUZK_SEED replays).
#include <gtest/gtest.h>

#include <bit>
#include <random>
#include <vector>

#include "cuzk/backend/backend.hpp"
#include "cuzk/backend/compact_msm_split.hpp"
#include "cuzk/base/thread_pool.hpp"
#include "cuzk/ec/batch_affine.hpp"
#include "cuzk/ec/g1.hpp"
#include "cuzk/ec/g2.hpp"
#include "cuzk/ec/scalar_mul.hpp"
#include "cuzk/gpu/cuda_check.cuh"
#include "cuzk/gpu/device_context.hpp"
#include "cuzk/gpu/gpu_test_util.cuh"
#include "cuzk/gpu/msm/compact_classify.cuh"
#include "cuzk/gpu/msm/pippenger.cuh"
#include "cuzk/gpu/pce/device_compact_witness.cuh"
#include "cuzk/msm/msm.hpp"
#include "tests/support/random_compact_witness.hpp"

namespace cuzk::gpu {
namespace {

std::unique_ptr<DeviceContext> make_ctx() {
  auto c = DeviceContext::create({.arena_bytes = std::size_t{2} << 30});
  EXPECT_TRUE(c.ok()) << c.status().to_string();
  return c.ok() ? std::move(c).value() : nullptr;
}

DeviceBuffer alloc(DeviceContext& ctx, std::size_t bytes) {
  return ctx.alloc(std::max<std::size_t>(1, bytes), "test").value();
}

// The witness terms of a partition over |z| with |ni| inputs, random densities of a key.
struct Terms {
  std::vector<std::uint64_t> a_aux, b_in, b_aux;
  std::vector<PartitionMsmTerm> list;
};
Terms witness_terms(std::mt19937_64& rng, std::size_t nz, std::size_t ni, HConvention conv) {
  Terms t;
  t.a_aux = cuzk::test::random_density(rng, nz - ni, rng() % 101);
  t.b_in = cuzk::test::random_density(rng, ni, rng() % 101);
  t.b_aux = cuzk::test::random_density(rng, nz - ni, rng() % 101);
  PartitionShape shape{.domain = 2, .witness = nz, .num_inputs = ni, .convention = conv};
  if (conv == HConvention::bellperson) {
    shape.a_aux = {.bits = t.a_aux, .base_offset = ni};
    shape.b_input = {.bits = t.b_in, .base_offset = 0};
    shape.b_aux = {.bits = t.b_aux, .base_offset = density_selected_count(t.b_in, ni)};
  }
  for (const PartitionMsmTerm& m : partition_msm_terms(shape))
    if (m.source == PartitionScalars::witness) t.list.push_back(m);
  return t;
}

// classify_compact_device's lists for one term, downloaded (tail values back in Montgomery form).
MsmScalarSplit device_split(DeviceContext& ctx, const DeviceCompactWitness& dw,
                            const PartitionMsmTerm& m, bool split, cudaStream_t st) {
  const std::size_t n = m.count, words = (n + 63) / 64;
  DeviceBuffer tail = alloc(ctx, n * sizeof(Fr)), tail_idx = alloc(ctx, n * 4),
               ones_idx = alloc(ctx, n * 4), counters = alloc(ctx, 24);
  CUZK_CUDA_CHECK(cudaMemsetAsync(counters.data(), 0, 24, st));
  DeviceBuffer bits, prefix;
  if (!m.density.bits.empty()) {
    std::vector<std::uint32_t> p(words);
    for (std::size_t w = 0, acc = 0; w < words; ++w) {
      p[w] = static_cast<std::uint32_t>(acc);
      acc += std::popcount(m.density.bits[w]);
    }
    bits = alloc(ctx, words * 8);
    prefix = alloc(ctx, words * 4);
    ctx.upload(bits.data(), m.density.bits.data(), words * 8, st);
    ctx.upload(prefix.data(), p.data(), words * 4, st);
  }
  classify_compact_device(
      msm_compact_scalars(dw, m.offset), n, bits ? bits.as<std::uint64_t>() : nullptr,
      prefix ? prefix.as<std::uint32_t>() : nullptr, m.density.base_offset, split,
      {tail.as<Fr>(), tail_idx.as<std::uint32_t>(), ones_idx.as<std::uint32_t>(),
       counters.as<unsigned long long>()},
      st);
  unsigned long long c[3];
  ctx.download(c, counters.data(), sizeof c, st);
  MsmScalarSplit out;
  out.ones.resize(c[0]);
  out.tail_bases.resize(c[1]);
  out.tail_scalars.resize(c[1]);
  out.zeros = c[2];
  if (c[0] > 0) ctx.download(out.ones.data(), ones_idx.data(), c[0] * 4, st);
  if (c[1] > 0) {
    ctx.download(out.tail_bases.data(), tail_idx.data(), c[1] * 4, st);
    ctx.download(out.tail_scalars.data(), tail.data(), c[1] * sizeof(Fr), st);
  }
  for (Fr& s : out.tail_scalars) s = Fr::from_canonical_unchecked(s.l);
  return out;
}

TEST(GpuCompactClassify, ListsEqualTheSplitOfZ) {
  CUZK_REQUIRE_GPU();
  std::mt19937_64 rng(test::fresh_seed());
  ThreadPool pool(4);
  auto ctx = make_ctx();
  ASSERT_TRUE(ctx);
  cudaStream_t st = ctx->stream();
  std::size_t ones = 0, tails = 0, zeros = 0;
  for (int round = 0; round < 12; ++round) {
    const cuzk::test::StretchyOptions o{.size = 1000 + rng() % 300000,
                                        .max_stretch = 1 + rng() % 500,
                                        .field_values = round % 4 != 0,
                                        .run_at_start = round % 3 == 1,
                                        .run_at_end = round % 4 == 2};
    const std::vector<Fr> z = cuzk::test::stretchy_z(rng, o);
    const std::size_t ni = 1 + rng() % 300;
    const CompactWitness w = compact_witness_from_z(pool, z, ni).value();
    SCOPED_TRACE(testing::Message() << "round " << round << ": " << z.size() << " variables, "
                                    << w.num_runs() << " runs");
    const DeviceCompactWitness dw = upload_compact_witness(*ctx, w, st);
    for (HConvention conv : {HConvention::bellperson, HConvention::snarkjs}) {
      const Terms t = witness_terms(rng, z.size(), ni, conv);
      for (const PartitionMsmTerm& m : t.list) {
        for (bool split : {true, false}) {
          MsmScalarSplit got = device_split(*ctx, dw, m, split, st);
          MsmScalarSplit want =
              msm_split_from_scalars(std::span<const Fr>(z).subspan(m.offset, m.count), m.density,
                                     split)
                  .value();
          got.sort();
          want.sort();
          EXPECT_EQ(got.ones, want.ones) << "term at " << m.offset << " split " << split;
          EXPECT_EQ(got.tail_bases, want.tail_bases) << "term at " << m.offset;
          EXPECT_TRUE(got.tail_scalars == want.tail_scalars) << "term at " << m.offset;
          EXPECT_EQ(got.zeros, want.zeros) << "term at " << m.offset;
          ones += want.ones.size(), tails += want.tail_bases.size(), zeros += want.zeros;
        }
      }
    }
  }
  EXPECT_GT(ones, 10000u);
  EXPECT_GT(tails, 10000u);
  EXPECT_GT(zeros, 10000u);
}

// |n| points P0 + i·Q (a sum over wrong bases or scalars differs).
template <class C>
std::vector<Affine<C>> table(std::mt19937_64& rng, std::size_t n) {
  Jacobian<C> p = mul_vartime(Jacobian<C>::generator(), test::random_fr(rng));
  const Jacobian<C> q = mul_vartime(Jacobian<C>::generator(), test::random_fr(rng));
  std::vector<Jacobian<C>> jac(n);
  for (auto& j : jac) {
    j = p;
    p.add(q);
  }
  return batch_to_affine_vartime<C>(jac);
}

template <class C, class Msm>
void check_sums(DeviceContext& ctx, ThreadPool& pool, const std::vector<Affine<C>>& host,
                const ResidentBases& rb, const Fr* d_z, const DeviceCompactWitness& dw,
                const std::vector<Fr>& z, const PartitionMsmTerm& m, bool split, Msm device_msm) {
  cudaStream_t st = ctx.stream();
  const auto& bits = m.density.bits;
  GpuMsmConfig cfg{.density_bits = bits, .base_offset = m.density.base_offset, .bit_split = split};
  GpuMsmStats from_z, from_compact;
  const auto via_z = device_msm(ctx, rb, d_z + m.offset, m.count, cfg, st, &from_z);
  cfg.compact = msm_compact_scalars(dw, m.offset);
  const auto via_compact = device_msm(ctx, rb, d_z + m.offset, m.count, cfg, st, &from_compact);
  auto cpu = cuzk::msm<C>(host, std::span<const Fr>(z).subspan(m.offset, m.count), pool,
                          {.density_bits = bits, .base_offset = m.density.base_offset});
  ASSERT_TRUE(cpu.ok()) << cpu.status().to_string();
  const auto want = cpu->to_affine_vartime();
  EXPECT_TRUE(via_compact.to_jacobian().to_affine_vartime() == want)
      << C::name << " term at " << m.offset << " split " << split;
  EXPECT_TRUE(via_z.to_jacobian().to_affine_vartime() == want) << C::name << " from z";
  EXPECT_EQ(from_compact.ones, from_z.ones);
  EXPECT_EQ(from_compact.tail, from_z.tail);
  EXPECT_EQ(from_compact.zeros, from_z.zeros);
}

TEST(GpuCompactClassify, MsmSumsEqualTheZClassificationAndTheCpu) {
  CUZK_REQUIRE_GPU();
  std::mt19937_64 rng(test::fresh_seed());
  ThreadPool pool(4);
  auto ctx = make_ctx();
  ASSERT_TRUE(ctx);
  cudaStream_t st = ctx->stream();
  const std::vector<Fr> z = cuzk::test::stretchy_z(
      rng, {.size = 20000 + rng() % 20000, .max_stretch = 300, .run_at_end = true});
  const std::size_t ni = 1 + rng() % 200;
  const CompactWitness w = compact_witness_from_z(pool, z, ni).value();
  const DeviceCompactWitness dw = upload_compact_witness(*ctx, w, st);
  DeviceBuffer d_z = alloc(*ctx, z.size() * sizeof(Fr));
  expand_compact_witness_device(dw, d_z.as<Fr>(), st);
  CUZK_CUDA_CHECK(cudaStreamSynchronize(st));
  const auto g1 = table<G1Curve>(rng, z.size());
  const auto g2 = table<G2Curve>(rng, z.size());
  const ResidentBases rb1 = upload_bases_g1(*ctx, g1, st), rb2 = upload_bases_g2(*ctx, g2, st);
  // A term past the witness is refused before any launch.
  EXPECT_THROW(classify_compact_device(msm_compact_scalars(dw, z.size() - 5), 10, nullptr, nullptr,
                                       0, true, {}, st),
               CudaError);
  for (HConvention conv : {HConvention::bellperson, HConvention::snarkjs}) {
    const Terms t = witness_terms(rng, z.size(), ni, conv);
    for (const PartitionMsmTerm& m : t.list) {
      for (bool split : {true, false}) {
        SCOPED_TRACE(testing::Message() << "convention " << static_cast<int>(conv));
        if (m.g2())
          check_sums<G2Curve>(*ctx, pool, g2, rb2, d_z.as<Fr>(), dw, z, m, split,
                              [](auto&&... a) { return msm_g2_device_resident(a...); });
        else
          check_sums<G1Curve>(*ctx, pool, g1, rb1, d_z.as<Fr>(), dw, z, m, split,
                              [](auto&&... a) { return msm_g1_device_resident(a...); });
      }
    }
  }
}

}  // namespace
}  // namespace cuzk::gpu
