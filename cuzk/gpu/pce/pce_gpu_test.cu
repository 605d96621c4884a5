// The compact R1CS and the compact witness on the device (gpu/pce/) against their host twins:
//   * SpMV: random compact forms built block by block (tests/support/random_compact_r1cs.hpp:
//     several blocks and segments, empty blocks, blocks without locals or slots, general terms,
//     rows of hundreds of terms; tiles of 1 to 1024 rows, long rows (a warp each) from 8 words
//     or none, rows sorted or not) on a random z of bits and field values: the device's a, b, c
//     equal pce_compact_evaluate_into's (itself checked against spmv_naive here) bit for bit;
//   * expansion: random compact witnesses (runs of every length, sizes not multiples of 64, no
//     runs, no variables) expand on the device to the host's z;
//   * end to end on a real circuit: the 2 KiB PoRep's compact form (recorded blank) and a
//     generated C1's partition's compact witness (straight from the synthesis), uploaded,
//     expanded and evaluated on the device, equal to the host's compact SpMV of the full z;
//   * compact_partition_vectors: z, and a, b, c over the power-of-two domain (zero past the rows),
//     equal to the host twin compact_partition_vectors_host (the fallback path);
//   * arena bytes: the upload takes exactly device_*_bytes() from the arena and gives it back.
// Skipped without a GPU (CI). Seeded (printed; CUZK_SEED replays).
#include <gtest/gtest.h>

#include <bit>
#include <random>

#include "cuzk/circuits/filecoin/porep_circuit.hpp"
#include "cuzk/circuits/filecoin/porep_witness.hpp"
#include "cuzk/filecoin/synth_inputs.hpp"
#include "cuzk/gpu/cuda_check.cuh"
#include "cuzk/gpu/gpu_test_util.cuh"
#include "cuzk/gpu/pce/compact_partition.cuh"
#include "cuzk/gpu/pce/device_compact_r1cs.cuh"
#include "cuzk/gpu/pce/device_compact_witness.cuh"
#include "cuzk/r1cs/compact_partition.hpp"
#include "cuzk/r1cs/compact_witness.hpp"
#include "cuzk/r1cs/pce_compact_flat.hpp"
#include "cuzk/r1cs/pce_compact_recorder.hpp"
#include "tests/support/random_compact_r1cs.hpp"

namespace cuzk::gpu {
namespace {

using test::fresh_seed;

std::unique_ptr<DeviceContext> make_ctx() {
  auto c = DeviceContext::create({.arena_bytes = std::size_t{2} << 30});
  EXPECT_TRUE(c.ok()) << c.status().to_string();
  return c.ok() ? std::move(c).value() : nullptr;
}

std::vector<Fr> download(DeviceContext& ctx, const DeviceBuffer& b, std::size_t n) {
  std::vector<Fr> out(n);
  ctx.download(out.data(), b.data(), n * sizeof(Fr), ctx.stream());
  return out;
}

struct Abc {
  std::vector<Fr> a, b, c;
};

// a, b, c of |form| on the device from the device witness |d_z|.
Abc device_spmv(DeviceContext& ctx, const CompactR1cs& form, const CompactFlatOptions& opt,
                const DeviceBuffer& d_z) {
  auto flat = compact_flatten(form, opt);
  EXPECT_TRUE(flat.ok()) << flat.status().to_string();
  const std::size_t before = ctx.arena_used();
  Abc r;
  {
    const DeviceCompactR1cs dm = upload_compact_r1cs(ctx, *flat, ctx.stream());
    EXPECT_EQ(dm.bytes(), device_compact_r1cs_bytes(*flat));
    EXPECT_EQ(ctx.arena_used() - before, dm.bytes());
    const std::size_t n = form.num_constraints;
    DeviceBuffer d_abc[3];
    for (auto& d : d_abc)
      d = ctx.alloc_or_throw(std::max<std::size_t>(n, 1) * sizeof(Fr), "test buffer");
    compact_spmv_device(dm, d_z.as<Fr>(), d_abc[0].as<Fr>(), d_abc[1].as<Fr>(), d_abc[2].as<Fr>(),
                        ctx.stream());
    r = {download(ctx, d_abc[0], n), download(ctx, d_abc[1], n), download(ctx, d_abc[2], n)};
  }
  EXPECT_EQ(ctx.arena_used(), before) << "the form's buffers went back to the arena";
  return r;
}

DeviceBuffer upload_z(DeviceContext& ctx, const std::vector<Fr>& z) {
  DeviceBuffer d =
      ctx.alloc_or_throw(std::max<std::size_t>(z.size(), 1) * sizeof(Fr), "test buffer");
  ctx.upload(d.data(), z.data(), z.size() * sizeof(Fr), ctx.stream());
  return d;
}

TEST(GpuPce, SpmvEqualsTheHostOnRandomCompactForms) {
  CUZK_REQUIRE_GPU();
  std::mt19937_64 rng(fresh_seed());
  auto ctx = make_ctx();
  ASSERT_TRUE(ctx);
  ThreadPool pool(2);
  for (int round = 0; round < 16; ++round) {
    SCOPED_TRACE(round);
    const CompactR1cs form = cuzk::test::random_compact_r1cs(
        rng, {.num_aux = 500 + rng() % 20000,
              .blocks = 1 + static_cast<unsigned>(rng() % 8),
              .segments = 1 + static_cast<unsigned>(rng() % 200),
              .max_block_rows = 100 + static_cast<unsigned>(rng() % 3000)});
    const std::vector<Fr> z = cuzk::test::random_bitty_witness(rng, form.num_columns());
    const std::size_t n = form.num_constraints;
    std::vector<Fr> a(n), b(n), c(n);
    ASSERT_TRUE(pce_compact_evaluate_into(pool, form, z, a, b, c).ok());
    if (round < 4) {
      const AbcVectors naive = spmv_naive(compact_to_matrices(form), z);
      ASSERT_TRUE(a == naive.a && b == naive.b && c == naive.c);
    }
    const std::uint32_t tiles[] = {1, 32, 100, 256, 1024}, longs[] = {0, 8, 40, 128};
    const CompactFlatOptions opt{.tile_rows = tiles[rng() % 5],
                                 .long_row_words = longs[rng() % 4],
                                 .sort_rows = rng() % 4 != 0};
    const DeviceBuffer d_z = upload_z(*ctx, z);
    const Abc got = device_spmv(*ctx, form, opt, d_z);
    SCOPED_TRACE(::testing::Message() << "tile rows " << opt.tile_rows << ", long rows above "
                                      << opt.long_row_words << " words, sorted " << opt.sort_rows);
    EXPECT_TRUE(got.a == a) << "A·z";
    EXPECT_TRUE(got.b == b) << "B·z";
    EXPECT_TRUE(got.c == c) << "C·z";
  }
}

TEST(GpuPce, ExpansionEqualsTheHost) {
  CUZK_REQUIRE_GPU();
  std::mt19937_64 rng(fresh_seed());
  auto ctx = make_ctx();
  ASSERT_TRUE(ctx);
  ThreadPool pool(2);
  std::vector<std::vector<Fr>> witnesses = {{}, {Fr::one()}};
  for (int i = 0; i < 10; ++i)
    witnesses.push_back(
        cuzk::test::random_bitty_witness(rng, 1 + rng() % (i < 8 ? 5000 : 3000000)));
  std::vector<Fr> bits(1000);
  for (auto& x : bits) x = rng() & 1 ? Fr::one() : Fr::zero();
  witnesses.push_back(bits);
  for (const std::vector<Fr>& z : witnesses) {
    SCOPED_TRACE(z.size());
    auto w = compact_witness_from_z(pool, z, std::min<std::size_t>(z.size(), 3));
    ASSERT_TRUE(w.ok()) << w.status().to_string();
    const std::size_t before = ctx->arena_used();
    {
      const DeviceCompactWitness dw = upload_compact_witness(*ctx, *w, ctx->stream());
      EXPECT_EQ(dw.bytes(), device_compact_witness_bytes(*w));
      EXPECT_EQ(ctx->arena_used() - before, dw.bytes());
      DeviceBuffer d_z =
          ctx->alloc_or_throw(std::max<std::size_t>(z.size(), 1) * sizeof(Fr), "test buffer");
      // Junk first: every value must be written by the expansion.
      CUZK_CUDA_CHECK(cudaMemsetAsync(d_z.data(), 0x5a, d_z.size(), ctx->stream()));
      expand_compact_witness_device(dw, d_z.as<Fr>(), ctx->stream());
      EXPECT_TRUE(download(*ctx, d_z, z.size()) == z);
    }
    EXPECT_EQ(ctx->arena_used(), before);
  }
}

TEST(GpuPce, Porep2KiBFromTheCompactWitness) {
  CUZK_REQUIRE_GPU();
  namespace fc = cuzk::filecoin;
  namespace cf = cuzk::circuits::filecoin;
  const std::uint64_t seed = fresh_seed();
  ThreadPool pool(4);
  const fc::SealProof proof = fc::seal_proof("StackedDrg2KiBV1_1").value();
  const cf::PorepCircuitShape shape = cf::porep_circuit_shape(proof);
  cf::PorepCircuit blank(shape);
  auto form = record_compact(blank);
  ASSERT_TRUE(form.ok()) << form.status().to_string();
  auto synth = fc::synth_c1(proof, seed, pool);
  ASSERT_TRUE(synth.ok()) << synth.status().to_string();
  const fc::SealCommitPhase1Output& c1 = synth->c1;
  auto pc = cf::porep_partition_from_c1(proof, c1, 0);
  ASSERT_TRUE(pc.ok()) << pc.status().to_string();
  auto z = cf::porep_partition_witness(pc->shape, pc->pub, pc->priv, pool);
  ASSERT_TRUE(z.ok()) << z.status().to_string();
  ASSERT_EQ(z->size(), form->num_columns());
  const std::size_t n = form->num_constraints;
  std::vector<Fr> a(n), b(n), c(n);
  ASSERT_TRUE(pce_compact_evaluate_into(pool, *form, *z, a, b, c).ok());
  // The witness satisfies the circuit: a·b = c on every row (so a, b, c are the real ones).
  for (std::size_t k = 0; k < n; ++k) ASSERT_TRUE(a[k] * b[k] == c[k]) << "row " << k;

  // The compact witness as a prover makes it: straight from the synthesis, no z held.
  auto w = cf::porep_partition_compact_witness(pc->shape, pc->pub, pc->priv, pool);
  ASSERT_TRUE(w.ok()) << w.status().to_string();
  EXPECT_TRUE(*w == compact_witness_from_z(pool, *z, form->num_inputs).value());
  auto ctx = make_ctx();
  ASSERT_TRUE(ctx);
  const DeviceCompactWitness dw = upload_compact_witness(*ctx, *w, ctx->stream());
  DeviceBuffer d_z = ctx->alloc_or_throw(z->size() * sizeof(Fr), "test buffer");
  expand_compact_witness_device(dw, d_z.as<Fr>(), ctx->stream());
  EXPECT_TRUE(download(*ctx, d_z, z->size()) == *z);
  for (const CompactFlatOptions& opt :
       {CompactFlatOptions{}, CompactFlatOptions{.tile_rows = 128, .long_row_words = 0}}) {
    const Abc got = device_spmv(*ctx, *form, opt, d_z);
    EXPECT_TRUE(got.a == a && got.b == b && got.c == c)
        << "tile rows " << opt.tile_rows << ", long rows above " << opt.long_row_words;
  }
  // The partition's vectors in one call, over the power-of-two domain: zero past the rows.
  auto flat = compact_flatten(*form);
  ASSERT_TRUE(flat.ok());
  const DeviceCompactR1cs dm = upload_compact_r1cs(*ctx, *flat, ctx->stream());
  const std::size_t domain = std::bit_ceil(n);
  DeviceBuffer d_z2 = ctx->alloc_or_throw(z->size() * sizeof(Fr), "test buffer"), d_v[3];
  for (auto& d : d_v) {
    d = ctx->alloc_or_throw(domain * sizeof(Fr), "test buffer");
    CUZK_CUDA_CHECK(cudaMemsetAsync(d.data(), 0x5a, d.size(), ctx->stream()));
  }
  compact_partition_vectors(dm, dw, d_z2.as<Fr>(), d_v[0].as<Fr>(), d_v[1].as<Fr>(),
                            d_v[2].as<Fr>(), domain, ctx->stream());
  // The host twin (the fallback path) gives the same z, a, b, c.
  std::vector<Fr> hz(z->size()), hv[3];
  for (auto& v : hv) v.assign(domain, Fr::from_u64(3));
  ASSERT_TRUE(compact_partition_vectors_host(pool, *form, *w, hz, hv[0], hv[1], hv[2]).ok());
  EXPECT_TRUE(hz == *z);
  EXPECT_TRUE(download(*ctx, d_z2, z->size()) == hz);
  for (int m = 0; m < 3; ++m) {
    EXPECT_TRUE(download(*ctx, d_v[m], domain) == hv[m]) << "vector " << m;
    EXPECT_TRUE(std::equal(hv[m].begin(), hv[m].begin() + static_cast<std::ptrdiff_t>(n),
                           (m == 0   ? a
                            : m == 1 ? b
                                     : c)
                               .begin()));
  }
  EXPECT_THROW(compact_partition_vectors(dm, dw, d_z2.as<Fr>(), d_v[0].as<Fr>(), d_v[1].as<Fr>(),
                                         d_v[2].as<Fr>(), n - 1, ctx->stream()),
               CudaError);
}

TEST(GpuPce, UploadRefusesBadTilesAndAFullArena) {
  CUZK_REQUIRE_GPU();
  std::mt19937_64 rng(fresh_seed());
  const CompactR1cs form = cuzk::test::random_compact_r1cs(rng);
  auto flat = compact_flatten(form, {.tile_rows = 2048});
  ASSERT_TRUE(flat.ok());
  auto ctx = make_ctx();
  ASSERT_TRUE(ctx);
  EXPECT_THROW(upload_compact_r1cs(*ctx, *flat, ctx->stream()), CudaError);
  flat->tile_rows = 256;
  // Leave less room than the form needs.
  const std::size_t need = device_compact_r1cs_bytes(*flat);
  DeviceBuffer filler = ctx->alloc_or_throw(ctx->arena_largest_free() - need / 2, "test buffer");
  try {
    upload_compact_r1cs(*ctx, *flat, ctx->stream());
    ADD_FAILURE() << "upload into a full arena succeeded";
  } catch (const CudaError& e) {
    EXPECT_EQ(e.code(), cudaErrorMemoryAllocation);
    EXPECT_NE(std::string(e.what()).find("compact R1CS"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace cuzk::gpu
