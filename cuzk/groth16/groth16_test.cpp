// Groth16 setup → prove → verify on random benchmark circuits (sizes not powers of two, seed
// printed) in both key layouts, with a slow twin: the proof recomputed from the trapdoor by scalar
// arithmetic alone (A = (α + Σ z_i·u_i(τ) + rδ)·G1, ...), no MSM and no NTT. Tampered proofs,
// inputs and keys are rejected; batch verification agrees with single verification.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>

#include "cuzk/backend/cpu_backend.hpp"
#include "cuzk/groth16/prove.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/verify.hpp"
#include "cuzk/poly/domain.hpp"
#include "cuzk/r1cs/bench_circuit.hpp"
#include "cuzk/r1cs/pce.hpp"

namespace cuzk {
namespace {

struct Fixture {
  BenchR1cs circuit;
  std::vector<Fr> z;
};

Fixture make_circuit(std::uint64_t seed, std::uint64_t rows) {
  auto c = generate_bench_r1cs({.rows = rows, .seed = seed, .num_public = 3});
  EXPECT_TRUE(c.ok()) << c.status().to_string();
  Fixture f{std::move(*c), {}};
  f.z = f.circuit.assignment();
  return f;
}

// The proof computed from the trapdoor with field arithmetic and three scalar multiplications.
Proof slow_proof(const R1csMatrices& m, std::span<const Fr> z, const Trapdoor& td, KeyLayout layout,
                 const Fr& r, const Fr& s) {
  auto dom = Domain::for_size(
      m.num_constraints,
      {.roots = layout == KeyLayout::snarkjs ? RootFamily::ffjs : RootFamily::bellman});
  std::vector<Fr> lag(dom->size());
  EXPECT_TRUE(dom->lagrange_at(td.tau, lag).ok());
  // a(τ) = Σ_k (A·z)_k·L_k(τ) = Σ_i z_i·u_i(τ), likewise b, c; and the aux part of Σ(βu+αv+w).
  Fr at = Fr::zero(), bt = Fr::zero(), ct = Fr::zero(), l_sum = Fr::zero();
  auto row_dot = [&](const SparseMatrix& mat, std::size_t k, bool aux_only) {
    Fr acc = Fr::zero();
    mat.for_each_term(k, [&](std::uint32_t col, const Fr& c) {
      if (!aux_only || col >= m.num_inputs) acc += c * z[col];
    });
    return acc;
  };
  for (std::size_t k = 0; k < m.num_constraints; ++k) {
    at += row_dot(m.a, k, false) * lag[k];
    bt += row_dot(m.b, k, false) * lag[k];
    ct += row_dot(m.c, k, false) * lag[k];
    l_sum += (td.beta * row_dot(m.a, k, true) + td.alpha * row_dot(m.b, k, true) +
              row_dot(m.c, k, true)) *
             lag[k];
  }
  const Fr delta_inv = td.delta.inverse_vartime();
  const Fr a = td.alpha + at + r * td.delta;
  const Fr b = td.beta + bt + s * td.delta;
  const Fr b1 = b;
  const Fr c = (l_sum + (at * bt - ct)) * delta_inv + s * a + r * b1 - r * s * td.delta;
  return {mul_vartime(G1Affine::generator(), a).to_affine(),
          mul_vartime(G2Affine::generator(), b).to_affine(),
          mul_vartime(G1Affine::generator(), c).to_affine()};
}

class Groth16Test : public ::testing::TestWithParam<KeyLayout> {};

TEST_P(Groth16Test, ProveMatchesSlowTwinAndVerifies) {
  const KeyLayout layout = GetParam();
  const std::uint64_t seed = std::random_device{}();
  std::printf("seed=%llu\n", static_cast<unsigned long long>(seed));
  std::mt19937_64 gen(seed);
  const std::uint64_t rows = 256 + gen() % 500;
  Fixture f = make_circuit(seed, rows);
  const R1csMatrices& m = f.circuit.matrices;
  ThreadPool pool(2);
  CpuBackend backend(pool);
  SeededRng rng(seed);
  const Trapdoor td = random_trapdoor(rng);
  auto pk = setup_with_trapdoor(m, td, {.layout = layout, .pool = &pool});
  ASSERT_TRUE(pk.ok()) << pk.status().to_string() << " seed=" << seed;
  const Fr r = random_fr(rng), s = random_fr(rng);
  auto proof = prove(backend, pool, *pk, m, f.z, {.r = r, .s = s});
  ASSERT_TRUE(proof.ok()) << proof.status().to_string();
  EXPECT_EQ(*proof, slow_proof(m, f.z, td, layout, r, s)) << "seed=" << seed << " rows=" << rows;

  const auto pvk = prepare_verifying_key(pk->vk);
  const std::span<const Fr> pub(f.z.data() + 1, m.num_inputs - 1);
  auto ok = verify(pvk, pub, *proof);
  ASSERT_TRUE(ok.ok());
  EXPECT_TRUE(*ok) << "seed=" << seed;

  // Tampered input, proof points, key.
  std::vector<Fr> bad_pub(pub.begin(), pub.end());
  bad_pub[0] += Fr::one();
  EXPECT_FALSE(*verify(pvk, bad_pub, *proof));
  Proof bad = *proof;
  bad.a = (G1Jacobian::from_affine(bad.a) + G1Affine::generator()).to_affine();
  EXPECT_FALSE(*verify(pvk, pub, bad));
  bad = *proof;
  bad.c = bad.a;
  EXPECT_FALSE(*verify(pvk, pub, bad));
  VerifyingKey bad_vk = pk->vk;
  bad_vk.ic[1] = bad_vk.ic[2];
  EXPECT_FALSE(*verify(prepare_verifying_key(bad_vk), pub, *proof));
  EXPECT_EQ(verify(pvk, std::span<const Fr>(bad_pub).subspan(1), *proof).status().code(),
            Errc::size_mismatch);

  // A random proof (OS randomness) also verifies and differs.
  auto proof2 = prove(backend, pool, *pk, m, f.z);
  ASSERT_TRUE(proof2.ok());
  EXPECT_NE(*proof2, *proof);
  EXPECT_TRUE(*verify(pvk, pub, *proof2));

  // Batch verification.
  std::vector<ProofWithInputs> batch = {{&*proof, pub}, {&*proof2, pub}, {&*proof, pub}};
  EXPECT_TRUE(*verify_batch(pvk, batch, rng));
  batch[1].inputs = bad_pub;
  EXPECT_FALSE(*verify_batch(pvk, batch, rng));
  batch[1] = {&bad, pub};
  EXPECT_FALSE(*verify_batch(pvk, batch, rng));
}

TEST_P(Groth16Test, KeyThatDoesNotFitIsRejected) {
  const KeyLayout layout = GetParam();
  Fixture f = make_circuit(7, 300);
  Fixture g = make_circuit(8, 700);
  ThreadPool pool(2);
  CpuBackend backend(pool);
  SeededRng rng(1);
  auto pk = setup(f.circuit.matrices, rng, {.layout = layout, .pool = &pool});
  ASSERT_TRUE(pk.ok());
  auto p = prove(backend, pool, *pk, g.circuit.matrices, g.z);
  EXPECT_EQ(p.status().code(), Errc::size_mismatch) << p.status().to_string();
  ProvingKey cut = *pk;
  cut.l.pop_back();
  p = prove(backend, pool, cut, f.circuit.matrices, f.z);
  EXPECT_EQ(p.status().code(), Errc::size_mismatch);
  EXPECT_NE(p.status().message().find("l"), std::string::npos) << p.status().message();
  std::vector<Fr> short_z(f.z.begin(), f.z.end() - 1);
  EXPECT_EQ(prove(backend, pool, *pk, f.circuit.matrices, short_z).status().code(),
            Errc::size_mismatch);
}

// The H step reuses a/b/c (h is written over a's prefix, FORMATS.md §2.2): a/b/c reserved to the
// domain once are extended, used and handed back (ProveOptions::used_abc) in place, proof after
// proof, with no vector of the domain allocated per proof; the proofs match the slow twin.
TEST_P(Groth16Test, ProveWithAbcReusesItsBuffersForH) {
  const KeyLayout layout = GetParam();
  const std::uint64_t seed = std::random_device{}();
  std::printf("seed=%llu\n", static_cast<unsigned long long>(seed));
  std::mt19937_64 gen(seed);
  const std::uint64_t rows = 300 + gen() % 400;  // not a power of two: the domain extends a/b/c
  Fixture f = make_circuit(seed, rows);
  const R1csMatrices& m = f.circuit.matrices;
  ThreadPool pool(2);
  CpuBackend backend(pool);
  SeededRng rng(seed);
  const Trapdoor td = random_trapdoor(rng);
  auto pk = setup_with_trapdoor(m, td, {.layout = layout, .pool = &pool});
  ASSERT_TRUE(pk.ok()) << pk.status().to_string();
  auto key = ResidentKey::load(backend, *pk);
  ASSERT_TRUE(key.ok());
  AbcVectors abc;
  for (std::vector<Fr>* v : {&abc.a, &abc.b, &abc.c}) v->reserve(pk->domain_size);
  const Fr* where[3] = {abc.a.data(), abc.b.data(), abc.c.data()};
  for (int proof_no = 0; proof_no < 3; ++proof_no) {
    for (std::vector<Fr>* v : {&abc.a, &abc.b, &abc.c}) v->resize(m.num_constraints);
    ASSERT_TRUE(pce_evaluate_into(pool, m, f.z, abc.a, abc.b, abc.c).ok());
    const Fr r = random_fr(rng), s = random_fr(rng);
    AbcVectors used;
    auto proof =
        prove_with_abc(pool, **key, m, std::move(abc), f.z, {.r = r, .s = s, .used_abc = &used});
    ASSERT_TRUE(proof.ok()) << proof.status().to_string();
    EXPECT_EQ(*proof, slow_proof(m, f.z, td, layout, r, s))
        << "seed=" << seed << " proof " << proof_no;
    abc = std::move(used);
    EXPECT_EQ(abc.a.data(), where[0]) << "a reallocated, seed=" << seed;
    EXPECT_EQ(abc.b.data(), where[1]) << "b reallocated, seed=" << seed;
    EXPECT_EQ(abc.c.data(), where[2]) << "c reallocated, seed=" << seed;
    EXPECT_EQ(abc.a.capacity(), pk->domain_size);
  }
}

INSTANTIATE_TEST_SUITE_P(Layouts, Groth16Test,
                         ::testing::Values(KeyLayout::bellperson, KeyLayout::snarkjs),
                         [](const auto& info) {
                           return info.param == KeyLayout::snarkjs ? "snarkjs" : "bellperson";
                         });

}  // namespace
}  // namespace cuzk
