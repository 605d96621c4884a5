// A partition from its compact witness on the CUDA backend (CudaBackend::prove_partition_compact:
// the compact witness uploaded, z and a, b, c made in the arena from the circuit's resident compact
// R1CS, then the device H step and MSMs, those over z splitting their scalars from the compact
// witness: gpu/msm/compact_classify.cuh) against CpuBackend::prove_partition on the host's z, a, b,
// c for the same tables and densities: the five sums are equal. Circuits: the recorded test circuit
// (tests/support/bitty_circuit.hpp; constraint counts not powers of two) with witnesses of bits only
// (no runs), mixed, and mostly field values (mostly runs), both conventions; the 2 KiB PoRep
// partition (a synthetic C1, partition 0); the benchmark circuit as one block. Tables are random
// points of the counts a key has; the upload is the compact witness's bytes only. Also:
// prove_compact on the CUDA backend gives the CPU's proof bytes, and so does the host fallback
// (circuits kept on the host: CudaBackendOptions::device_circuits off).
// Skips where no GPU is present. Seeded (printed; CUZK_SEED replays).
#include <gtest/gtest.h>

#include <bit>
#include <random>

#include "cuzk/backend/cpu_backend.hpp"
#include "cuzk/backend/device_memory.hpp"
#include "cuzk/circuits/filecoin/porep_circuit.hpp"
#include "cuzk/circuits/filecoin/porep_witness.hpp"
#include "cuzk/filecoin/synth_inputs.hpp"
#include "cuzk/gpu/cuda_backend.hpp"
#include "cuzk/groth16/prove.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/r1cs/bench_circuit.hpp"
#include "cuzk/r1cs/compact_from_matrices.hpp"
#include "cuzk/r1cs/compact_partition.hpp"
#include "cuzk/r1cs/pce_compact_recorder.hpp"
#include "cuzk/r1cs/witness_cs.hpp"
#include "tests/support/bitty_circuit.hpp"
#include "tests/support/partition_sums.hpp"
#include "tests/support/seed.hpp"

namespace cuzk {
namespace {

struct Tables {
  std::vector<G1Affine> a, b_g1, l, h;
  std::vector<G2Affine> b_g2;
};

// The query counts of a key for |m| in |convention| (FORMATS.md §2; check_key_matches).
Tables random_tables(std::mt19937_64& rng, const CompactR1cs& m, std::uint64_t n,
                     HConvention convention, std::size_t period) {
  const R1csDims d = m.dims();
  const bool snarkjs = convention == HConvention::snarkjs;
  const std::size_t na = snarkjs ? d.num_columns() : d.a_query_points();
  const std::size_t nb = snarkjs ? d.num_columns() : d.b_query_points();
  return {test::periodic_points<G1Curve>(rng, na, period),
          test::periodic_points<G1Curve>(rng, nb, period),
          test::periodic_points<G1Curve>(rng, d.num_aux, period),
          test::periodic_points<G1Curve>(rng, snarkjs ? n : n - 1, period),
          test::periodic_points<G2Curve>(rng, nb, period)};
}

struct Loaded {
  BasesId a, b_g1, b_g2, l, h;
};

Loaded load(Backend& be, const Tables& t) {
  Loaded l;
  l.a = be.load_bases_g1(t.a).value();
  l.b_g1 = be.load_bases_g1(t.b_g1).value();
  l.b_g2 = be.load_bases_g2(t.b_g2).value();
  l.l = be.load_bases_g1(t.l).value();
  l.h = be.load_bases_g1(t.h).value();
  return l;
}

CompactPartitionInputs compact_inputs(const CompactR1cs& m, const CompactWitness& w, CircuitId id,
                                      std::uint64_t n, HConvention convention, const Loaded& l,
                                      ThreadPool& pool) {
  CompactPartitionInputs in{.witness = &w,
                            .circuit = id,
                            .domain_size = n,
                            .convention = convention,
                            .a = l.a,
                            .b_g1 = l.b_g1,
                            .b_g2 = l.b_g2,
                            .l = l.l,
                            .h = l.h,
                            .host_pool = &pool};
  if (convention == HConvention::bellperson) {
    in.a_aux = {.bits = m.a_aux_density.words, .base_offset = m.num_inputs};
    in.b_input = {.bits = m.b_input_density.words, .base_offset = 0};
    in.b_aux = {.bits = m.b_aux_density.words, .base_offset = m.b_input_density.count()};
  }
  return in;
}

// CudaBackend::prove_partition_compact against CpuBackend::prove_partition on the host vectors.
void check_partition(std::mt19937_64& rng, ThreadPool& pool, Backend& gpu,
                     std::shared_ptr<const CompactR1cs> form, const CompactWitness& w,
                     HConvention convention, std::size_t period) {
  const CompactR1cs& m = *form;
  const std::uint64_t n = std::bit_ceil(std::max<std::uint64_t>(m.num_constraints, 2));
  const Tables t = random_tables(rng, m, n, convention, period);
  CpuBackend cpu(pool);
  const Loaded lc = load(cpu, t), lg = load(gpu, t);
  std::vector<Fr> z(m.num_columns()), a(n), b(n), c(n);
  ASSERT_TRUE(compact_partition_vectors_host(pool, m, w, z, a, b, c).ok());
  const PartitionInputs host{.abc = {.a = a, .b = b, .c = c, .convention = convention},
                             .z = z,
                             .num_inputs = m.num_inputs,
                             .a = lc.a,
                             .b_g1 = lc.b_g1,
                             .b_g2 = lc.b_g2,
                             .l = lc.l,
                             .h = lc.h,
                             .a_aux = compact_inputs(m, w, {}, n, convention, lc, pool).a_aux,
                             .b_input = compact_inputs(m, w, {}, n, convention, lc, pool).b_input,
                             .b_aux = compact_inputs(m, w, {}, n, convention, lc, pool).b_aux};
  auto want = cpu.prove_partition(host);
  ASSERT_TRUE(want.ok()) << want.status().to_string();

  auto id = gpu.load_circuit(form);
  ASSERT_TRUE(id.ok()) << id.status().to_string();
  PartitionTimings tm;
  auto got = gpu.prove_partition_compact(compact_inputs(m, w, *id, n, convention, lg, pool), &tm);
  ASSERT_TRUE(got.ok()) << got.status().to_string();
  test::expect_same_sums(*got, *want);
  EXPECT_EQ(tm.upload_bytes, w.bytes()) << "only the compact witness crosses";
  std::printf("  %llu rows, %llu variables, %zu runs: compact %zu bytes, abc %.3f ms, h %.3f ms\n",
              static_cast<unsigned long long>(m.num_constraints),
              static_cast<unsigned long long>(m.num_columns()), w.num_runs(), w.bytes(),
              tm.abc * 1e3, tm.h * 1e3);
  // Twice on the same resident circuit: the same sums.
  auto again = gpu.prove_partition_compact(compact_inputs(m, w, *id, n, convention, lg, pool));
  ASSERT_TRUE(again.ok());
  test::expect_same_sums(*again, *want);
  // With window copies of the H table (key placement rule 3): its MSM on the copies' windows, the
  // same sums.
  auto made = gpu.add_window_copies(lg.h, 3);
  ASSERT_TRUE(made.ok()) << made.status().to_string();
  auto copied = gpu.prove_partition_compact(compact_inputs(m, w, *id, n, convention, lg, pool));
  ASSERT_TRUE(copied.ok()) << copied.status().to_string();
  test::expect_same_sums(*copied, *want);
  EXPECT_TRUE(gpu.release_circuit(*id).ok());
  for (BasesId b : {lg.a, lg.b_g1, lg.b_g2, lg.l, lg.h}) EXPECT_TRUE(gpu.release_bases(b).ok());
}

// |compact_msm_split|: the MSMs over z split their scalars from the compact witness
// (CudaBackendOptions::compact_msm_split) instead of classifying the expanded z.
std::unique_ptr<Backend> make_gpu(std::size_t arena_bytes = std::size_t{2} << 30,
                                  bool compact_msm_split = false) {
  auto gpu = make_cuda_backend(
      "cuda:0", {.arena_bytes = arena_bytes, .compact_msm_split = compact_msm_split});
  EXPECT_TRUE(gpu.ok()) << gpu.status().to_string();
  return gpu.ok() ? std::move(gpu).value() : nullptr;
}

struct Recorded {
  std::shared_ptr<const CompactR1cs> form;
  std::vector<Fr> z;
  CompactWitness w;
};

Recorded record(ThreadPool& pool, const test::BittyOptions& o) {
  test::BittyCircuit circuit(o);
  auto form = record_compact(circuit);
  EXPECT_TRUE(form.ok()) << form.status().to_string();
  WitnessConstraintSystem wcs;
  EXPECT_TRUE(synthesize_circuit(circuit, wcs).ok());
  Recorded r{std::make_shared<const CompactR1cs>(std::move(*form)), wcs.take_assignment(), {}};
  r.w = compact_witness_from_z(pool, r.z, r.form->num_inputs).value();
  return r;
}

// A recorded circuit (|uses| as record's), a key made for it, blinding r, s and the CPU backend's
// proof from the compact witness: the bytes a GPU path must give.
struct CpuReference {
  Recorded r;
  Result<ProvingKey> pk = Status(Errc::invalid_argument, "not made");
  Fr rr, ss;
  Result<Proof> want = Status(Errc::invalid_argument, "not made");
};

CpuReference cpu_reference(std::mt19937_64& rng, ThreadPool& pool, unsigned uses) {
  CpuReference ref;
  ref.r = record(pool, {.seed = rng(), .uses = uses, .field_chain = 3});
  SeededRng trng(rng());
  ref.pk = setup_with_trapdoor(*ref.r.form, random_trapdoor(trng), {.pool = &pool});
  if (!ref.pk.ok()) {
    ref.want = ref.pk.status();
    return ref;
  }
  ref.rr = test::random_fr(rng), ref.ss = test::random_fr(rng);
  CpuBackend cpu(pool);
  auto cpu_key = ResidentKey::load(cpu, *ref.pk);
  if (!cpu_key.ok()) {
    ref.want = cpu_key.status();
    return ref;
  }
  const CircuitId cpu_id = cpu.load_circuit(ref.r.form).value();
  ref.want = prove_compact(pool, **cpu_key, ref.r.form->dims(), cpu_id, ref.r.w,
                           {.r = ref.rr, .s = ref.ss});
  return ref;
}

#define REQUIRE_GPU() \
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device present: GPU test skipped"

TEST(GpuCompactProve, SumsEqualTheCpuOnRecordedCircuits) {
  REQUIRE_GPU();
  std::mt19937_64 rng(test::fresh_seed());
  ThreadPool pool(4);
  for (const bool split : {false, true}) {
    auto gpu = make_gpu(std::size_t{2} << 30, split);
    ASSERT_TRUE(gpu);
    for (unsigned chain : {0u, 2u, 12u}) {
      for (HConvention conv : {HConvention::bellperson, HConvention::snarkjs}) {
        SCOPED_TRACE(testing::Message() << "field_chain " << chain << " convention "
                                        << static_cast<int>(conv) << " compact split " << split);
        const Recorded r = record(pool, {.seed = rng(),
                                         .uses = 300 + static_cast<unsigned>(rng() % 300),
                                         .field_chain = chain});
        ASSERT_FALSE(std::has_single_bit(r.form->num_constraints));
        if (chain == 0) {
          EXPECT_EQ(r.w.num_runs(), 0u);
        }
        if (chain == 12) {
          EXPECT_GT(r.w.values.size() * 2, r.z.size());
        }
        check_partition(rng, pool, *gpu, r.form, r.w, conv, 1 << 20);
      }
    }
  }
}

TEST(GpuCompactProve, Porep2KiBPartitionSumsEqualTheCpu) {
  REQUIRE_GPU();
  namespace fc = cuzk::filecoin;
  namespace cf = cuzk::circuits::filecoin;
  const std::uint64_t seed = test::fresh_seed();
  std::mt19937_64 rng(seed);
  ThreadPool pool(8);
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
  auto w = cf::porep_partition_compact_witness(pc->shape, pc->pub, pc->priv, pool);
  ASSERT_TRUE(w.ok()) << w.status().to_string();
  const auto shared = std::make_shared<const CompactR1cs>(std::move(*form));
  for (const bool split : {false, true}) {
    SCOPED_TRACE(split ? "MSM split from the compact witness" : "MSMs classify z");
    auto gpu = make_gpu(std::size_t{8} << 30, split);
    ASSERT_TRUE(gpu);
    // 65,521 (prime) distinct points per table, repeated.
    check_partition(rng, pool, *gpu, shared, *w, HConvention::bellperson, 65521);
  }
}

// The benchmark circuit as one compact block (compact_from_matrices: every aux a local, the inputs
// slots, a power-of-two row count, a third of the witness random field values).
TEST(GpuCompactProve, BenchCircuitAsOneBlockSumsEqualTheCpu) {
  REQUIRE_GPU();
  std::mt19937_64 rng(test::fresh_seed());
  ThreadPool pool(4);
  auto bench = generate_bench_r1cs(pool, {.log_rows = 14, .seed = rng(), .num_public = 3});
  ASSERT_TRUE(bench.ok()) << bench.status().to_string();
  auto form = compact_from_matrices(bench->matrices);
  ASSERT_TRUE(form.ok()) << form.status().to_string();
  const std::vector<Fr> z = bench->assignment();
  const CompactWitness w = compact_witness_from_z(pool, z, form->num_inputs).value();
  auto gpu = make_gpu();
  ASSERT_TRUE(gpu);
  check_partition(rng, pool, *gpu, std::make_shared<const CompactR1cs>(std::move(*form)), w,
                  HConvention::bellperson, 1 << 20);
}

// prove_compact on the CUDA backend: the proof bytes of the CPU backend's, for a real key; and the
// host fallback (the circuit kept on the host: an arena too small for it) gives them too.
TEST(GpuCompactProve, ProofEqualsTheCpuAndTheHostFallback) {
  REQUIRE_GPU();
  std::mt19937_64 rng(test::fresh_seed());
  ThreadPool pool(4);
  const CpuReference ref = cpu_reference(rng, pool, 500);
  ASSERT_TRUE(ref.want.ok()) << ref.want.status().to_string();
  const auto& [r, pk, rr, ss, want] = ref;
  const CompactR1cs& m = *r.form;

  auto gpu = make_gpu();
  ASSERT_TRUE(gpu);
  EXPECT_GT(gpu->device_circuit_bytes(m), 0u);
  auto key = ResidentKey::load(*gpu, *pk);
  ASSERT_TRUE(key.ok());
  const CircuitId id = gpu->load_circuit(r.form).value();
  ProveTimings tm;
  auto got = prove_compact(pool, **key, m.dims(), id, r.w, {.r = rr, .s = ss, .timings = &tm});
  ASSERT_TRUE(got.ok()) << got.status().to_string();
  EXPECT_EQ(*got, *want);
  EXPECT_EQ(tm.upload_bytes, r.w.bytes());
  EXPECT_EQ(gpu->prove_partition_compact({.witness = &r.w, .circuit = CircuitId{id.value + 99}})
                .status()
                .code(),
            Errc::not_found);

  // A backend that keeps circuits on the host (CudaBackendOptions::device_circuits off, as for a
  // card without room): prove_compact expands on the host, then the device partition from the
  // host vectors; the same proof, and z, a, b, c cross instead.
  auto host_gpu =
      make_cuda_backend("cuda:0", {.arena_bytes = std::size_t{2} << 30, .device_circuits = false});
  ASSERT_TRUE(host_gpu.ok()) << host_gpu.status().to_string();
  EXPECT_EQ((*host_gpu)->device_circuit_bytes(m), 0u);
  auto host_key = ResidentKey::load(**host_gpu, *pk);
  ASSERT_TRUE(host_key.ok());
  const CircuitId host_id = (*host_gpu)->load_circuit(r.form).value();
  ProveTimings host_tm;
  auto host_path = prove_compact(pool, **host_key, m.dims(), host_id, r.w,
                                 {.r = rr, .s = ss, .timings = &host_tm});
  ASSERT_TRUE(host_path.ok()) << host_path.status().to_string();
  EXPECT_EQ(*host_path, *want);
  EXPECT_GT(host_tm.upload_bytes, r.z.size() * sizeof(Fr)) << "z, a, b, c crossed";
}

// Every table kept in host memory (the placement of a key too large for its card, here forced):
// the partition is still expanded on the device from its compact witness and each MSM streams its
// table through the arena in small slots, reading z and h in place; the same proof as the CPU's,
// and only the compact witness crosses as scalars.
TEST(GpuCompactProve, StreamedTablesKeepTheDeviceExpansion) {
  REQUIRE_GPU();
  std::mt19937_64 rng(test::fresh_seed());
  ThreadPool pool(4);
  const CpuReference ref = cpu_reference(rng, pool, 700);
  ASSERT_TRUE(ref.want.ok()) << ref.want.status().to_string();
  const auto& [r, pk, rr, ss, want] = ref;
  const CompactR1cs& m = *r.form;

  // With and without the MSM split from the compact witness: a streamed table classifies its
  // chunks from z, so the split must keep z (both give the CPU's proof).
  for (const bool split : {false, true}) {
    SCOPED_TRACE(split ? "compact_msm_split on" : "compact_msm_split off");
    auto gpu = make_cuda_backend("cuda:0", {.arena_bytes = std::size_t{512} << 20,
                                            .pinned_host_bytes = std::size_t{64} << 20,
                                            .stream_bases = StreamBases::always,
                                            .stream_slot_points = 300,
                                            .compact_msm_split = split,
                                            .fused_streamed_partitions = true});
    ASSERT_TRUE(gpu.ok()) << gpu.status().to_string();
    auto key = ResidentKey::load(**gpu, *pk);
    ASSERT_TRUE(key.ok()) << key.status().to_string();
    const DeviceMemoryReport* rep = device_memory_report(**gpu);
    ASSERT_NE(rep, nullptr);
    EXPECT_GT(rep->device_memory().streamed_bytes, 0u);
    const CircuitId id = (*gpu)->load_circuit(r.form).value();
    ProveTimings tm;
    auto got = prove_compact(pool, **key, m.dims(), id, r.w, {.r = rr, .s = ss, .timings = &tm});
    ASSERT_TRUE(got.ok()) << got.status().to_string();
    EXPECT_EQ(*got, *want);
    EXPECT_EQ(tm.upload_bytes, r.w.bytes()) << "the device expansion ran (no host z, a, b, c)";
  }
}

}  // namespace
}  // namespace cuzk
