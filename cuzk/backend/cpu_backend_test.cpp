// CpuBackend tests: the H step against schoolbook polynomial arithmetic (A·B − C = H·Z with A, B, C
// interpolated by an O(n²) inverse DFT), the snarkjs H step against the prover's previous CPU code
// and against A·B − C evaluated on the odd coset, the NTT family against the O(n²) definition, MSMs through
// resident tables against the naive MSM, table life cycle and errors, and make_backend's names.
#include <gtest/gtest.h>

#include <bit>
#include <random>
#include <thread>
#include <vector>

#include "cuzk/backend/cpu_backend.hpp"
#include "cuzk/backend_factory/make_backend.hpp"
#include "cuzk/ec/batch_affine.hpp"
#include "cuzk/ec/test_util.hpp"
#include "cuzk/msm/naive.hpp"
#include "cuzk/poly/domain.hpp"
#include "cuzk/poly/ntt.hpp"

namespace cuzk {
namespace {

using ec_test::fresh_seed;
using ec_test::random_fr;

// Coefficients of the polynomial taking values |v| on ⟨ω⟩: c_j = n^(-1)·Σ_i v_i·ω^(−ij).
std::vector<Fr> interpolate_naive(const std::vector<Fr>& v, const Fr& omega) {
  const std::size_t n = v.size();
  const Fr w_inv = omega.inverse();
  const Fr n_inv = Fr::from_u64(n).inverse();
  std::vector<Fr> c(n, Fr::zero());
  for (std::size_t j = 0; j < n; ++j) {
    const Fr step = w_inv.pow_u64(j);
    Fr x = Fr::one();
    for (std::size_t i = 0; i < n; ++i) {
      c[j] += v[i] * x;
      x *= step;
    }
    c[j] *= n_inv;
  }
  return c;
}

std::vector<Fr> poly_mul(const std::vector<Fr>& a, const std::vector<Fr>& b) {
  std::vector<Fr> r(a.size() + b.size() - 1, Fr::zero());
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t j = 0; j < b.size(); ++j) r[i + j] += a[i] * b[j];
  return r;
}

// Runs compute_h on evaluations a, b, c (length n) and checks A·B − C = H·(X^n − 1) coefficient by
// coefficient; returns whether the identity holds.
bool h_identity_holds(CpuBackend& backend, std::vector<Fr> a, std::vector<Fr> b,
                      std::vector<Fr> c) {
  const std::size_t n = a.size();
  const Fr omega = Domain::for_size(n)->omega();
  const auto pa = interpolate_naive(a, omega), pb = interpolate_naive(b, omega),
             pc = interpolate_naive(c, omega);
  std::vector<Fr> h(n - 1);
  EXPECT_TRUE(backend.compute_h({a, b, c}, h).ok());
  auto p = poly_mul(pa, pb);  // degree ≤ 2n − 2
  for (std::size_t i = 0; i < n; ++i) p[i] -= pc[i];
  std::vector<Fr> hz(2 * n - 1, Fr::zero());  // H·X^n − H
  for (std::size_t i = 0; i + 1 < n; ++i) {
    hz[i] -= h[i];
    hz[i + n] += h[i];
  }
  return p == hz;
}

TEST(CpuBackend, ComputeHSatisfiesTheQapIdentity) {
  const auto seed = fresh_seed();
  std::mt19937_64 rng(seed);
  ThreadPool pool(2);
  CpuBackend backend(pool);
  for (unsigned k = 1; k <= 6; ++k) {
    const std::size_t n = std::size_t{1} << k;
    const std::size_t m = 1 + rng() % n;  // constraints; the rest is zero padding
    std::vector<Fr> a(n, Fr::zero()), b(n, Fr::zero()), c(n, Fr::zero());
    for (std::size_t i = 0; i < m; ++i) {
      a[i] = random_fr(rng);
      b[i] = (i % 5 == 0) ? Fr::one() : random_fr(rng);
      c[i] = a[i] * b[i];
    }
    EXPECT_TRUE(h_identity_holds(backend, a, b, c)) << "n=" << n << " m=" << m << " seed=" << seed;
    // An unsatisfied constraint leaves a remainder mod Z: no H satisfies the identity.
    c[rng() % m] += Fr::one();
    EXPECT_FALSE(h_identity_holds(backend, a, b, c)) << "n=" << n << " m=" << m << " seed=" << seed;
  }
}

// |h| may be the prefix of |a| (Backend::prove_partition_steps writes h over a): the same values as
// a separate |h|, in both conventions.
TEST(CpuBackend, ComputeHIntoThePrefixOfA) {
  const auto seed = fresh_seed();
  std::mt19937_64 rng(seed);
  ThreadPool pool(2);
  CpuBackend backend(pool);
  for (HConvention conv : {HConvention::bellperson, HConvention::snarkjs}) {
    const std::size_t n = 64, h_len = conv == HConvention::snarkjs ? n : n - 1;
    std::vector<Fr> a(n), b(n), c(n);
    for (std::size_t i = 0; i < n; ++i)
      a[i] = random_fr(rng), b[i] = random_fr(rng), c[i] = a[i] * b[i];
    std::vector<Fr> a2 = a, b2 = b, c2 = c, h(h_len);
    ASSERT_TRUE(backend.compute_h({a, b, c, conv}, h).ok());
    ASSERT_TRUE(backend.compute_h({a2, b2, c2, conv}, std::span<Fr>(a2).subspan(0, h_len)).ok());
    EXPECT_TRUE(std::equal(h.begin(), h.end(), a2.begin())) << "seed=" << seed;
  }
}

TEST(CpuBackend, ComputeHRejectsBadLengths) {
  ThreadPool pool(1);
  CpuBackend backend(pool);
  std::vector<Fr> a(8), b(8), c(8), h(7), h_bad(8), c_bad(6);
  EXPECT_EQ(backend.compute_h({a, b, c}, h_bad).code(), Errc::size_mismatch);
  EXPECT_EQ(backend.compute_h({a, b, c_bad}, h).code(), Errc::size_mismatch);
  std::vector<Fr> a6(6), b6(6), c6(6), h5(5);
  EXPECT_EQ(backend.compute_h({a6, b6, c6}, h5).code(), Errc::invalid_argument);
  EXPECT_TRUE(backend.compute_h({a, b, c}, h).ok());
}

// The snarkjs-layout H step as the prover ran it on the CPU before it went through the Backend
// (groth16/prove.cpp before it called Backend::compute_h): the slow twin of compute_h with HConvention::snarkjs.
std::vector<Fr> snarkjs_h_previous(std::vector<Fr> a, std::vector<Fr> b, ThreadPool& pool) {
  const std::size_t n = a.size();
  const unsigned k = static_cast<unsigned>(std::countr_zero(n));
  const NttPlan plan(*Domain::from_log_size(k, snarkjs_domain_options(k)));
  std::vector<Fr> c(n);
  for (std::size_t i = 0; i < n; ++i) c[i] = a[i] * b[i];
  for (std::vector<Fr>* v : {&a, &b, &c}) {
    EXPECT_TRUE(ntt(*v, plan, {.direction = NttDirection::inverse}, pool).ok());
    EXPECT_TRUE(ntt(*v, plan, {.direction = NttDirection::forward, .coset = true}, pool).ok());
  }
  for (std::size_t i = 0; i < n; ++i) a[i] = a[i] * b[i] - c[i];
  return a;
}

TEST(CpuBackend, ComputeHSnarkjsEqualsThePreviousProverPath) {
  const auto seed = fresh_seed();
  std::mt19937_64 rng(seed);
  ThreadPool pool(2);
  CpuBackend backend(pool);
  for (unsigned k : {1u, 2u, 5u, 8u, 11u, 13u}) {
    const std::size_t n = std::size_t{1} << k;
    for (int round = 0; round < 2; ++round) {  // the second round runs on the cached plan
      const std::size_t m = 1 + rng() % n;
      std::vector<Fr> a(n, Fr::zero()), b(n, Fr::zero()), c(n);
      for (std::size_t i = 0; i < m; ++i) {
        a[i] = random_fr(rng);
        b[i] = (i % 7 == 0) ? Fr::one() : random_fr(rng);
      }
      for (auto& v : c) v = random_fr(rng);  // not read: snarkjs takes c = a∘b
      const auto want = snarkjs_h_previous(a, b, pool);
      std::vector<Fr> h(n);
      ASSERT_TRUE(backend.compute_h({a, b, c, HConvention::snarkjs}, h).ok());
      ASSERT_EQ(h, want) << "n=" << n << " m=" << m << " seed=" << seed;
    }
  }
}

TEST(CpuBackend, ComputeHSnarkjsIsABMinusCOnTheOddCoset) {
  const auto seed = fresh_seed();
  std::mt19937_64 rng(seed);
  ThreadPool pool(2);
  CpuBackend backend(pool);
  for (unsigned k = 0; k <= 5; ++k) {
    const std::size_t n = std::size_t{1} << k;
    std::vector<Fr> a(n), b(n), c(n);
    for (std::size_t i = 0; i < n; ++i)
      a[i] = random_fr(rng), b[i] = random_fr(rng), c[i] = a[i] * b[i];
    const auto d = Domain::from_log_size(k, snarkjs_domain_options(k));
    const auto pa = interpolate_naive(a, d->omega()), pb = interpolate_naive(b, d->omega()),
               pc = interpolate_naive(c, d->omega());
    auto p = poly_mul(pa, pb);
    for (std::size_t i = 0; i < n; ++i) p[i] -= pc[i];
    std::vector<Fr> h(n);
    ASSERT_TRUE(backend.compute_h({a, b, c, HConvention::snarkjs}, h).ok());
    // ω_2n^(2j+1) = g·ω^j with g = ω_2n.
    const Fr g = snarkjs_coset_shift(k);
    for (std::size_t j = 0; j < n; ++j)
      ASSERT_EQ(h[j], evaluate_polynomial(p, g * d->element(j)))
          << "n=" << n << " j=" << j << " seed=" << seed;
  }
}

TEST(CpuBackend, ComputeHSnarkjsRejectsBadLengths) {
  ThreadPool pool(1);
  CpuBackend backend(pool);
  std::vector<Fr> a(8), b(8), c(8), h(8), h7(7), c_bad(4);
  EXPECT_EQ(backend.compute_h({a, b, c, HConvention::snarkjs}, h7).code(), Errc::size_mismatch);
  EXPECT_EQ(backend.compute_h({a, b, c_bad, HConvention::snarkjs}, h).code(), Errc::size_mismatch);
  EXPECT_TRUE(backend.compute_h({a, b, c, HConvention::snarkjs}, h).ok());
}

TEST(CpuBackend, NttFamilyMatchesTheDefinition) {
  const auto seed = fresh_seed();
  std::mt19937_64 rng(seed);
  ThreadPool pool(3);
  CpuBackend backend(pool);
  for (unsigned k : {0u, 1u, 3u, 6u, 9u}) {
    const std::size_t n = std::size_t{1} << k;
    const Fr omega = Domain::for_size(n)->omega();
    for (std::uint64_t shift : {std::uint64_t{7}, std::uint64_t{25}}) {
      for (bool coset : {false, true}) {
        std::vector<Fr> x(n);
        for (auto& v : x) v = random_fr(rng);
        // forward: X_j = Σ_i x_i·g^i·ω^(ij)
        std::vector<Fr> expect(n, Fr::zero());
        const Fr g = coset ? Fr::from_u64(shift) : Fr::one();
        for (std::size_t j = 0; j < n; ++j) {
          const Fr wj = omega.pow_u64(j);
          Fr x_pow = Fr::one();
          for (std::size_t i = 0; i < n; ++i) {
            expect[j] += x[i] * g.pow_u64(i) * x_pow;
            x_pow *= wj;
          }
        }
        auto y = x;
        ASSERT_TRUE(
            backend
                .ntt(y, {.direction = NttDirection::forward, .coset = coset, .coset_shift = shift})
                .ok());
        EXPECT_EQ(y, expect) << "n=" << n << " coset=" << coset << " shift=" << shift
                             << " seed=" << seed;
        ASSERT_TRUE(
            backend
                .ntt(y, {.direction = NttDirection::inverse, .coset = coset, .coset_shift = shift})
                .ok());
        EXPECT_EQ(y, x) << "n=" << n << " coset=" << coset << " seed=" << seed;
      }
    }
  }
  std::vector<Fr> bad(12);
  EXPECT_EQ(backend.ntt(bad, {}).code(), Errc::invalid_argument);
}

template <class C>
std::vector<Affine<C>> random_bases(std::size_t n, std::mt19937_64& rng) {
  std::vector<Jacobian<C>> j(n);
  Jacobian<C> acc = ec_test::random_subgroup_point<C>(rng),
              step = ec_test::random_subgroup_point<C>(rng);
  for (auto& p : j) {
    acc += step;
    acc.dbl();
    p = acc;
  }
  auto out = batch_to_affine_vartime<C>(j);
  out[rng() % n] = Affine<C>::identity();
  return out;
}

TEST(CpuBackend, MsmThroughResidentTables) {
  const auto seed = fresh_seed();
  std::mt19937_64 rng(seed);
  ThreadPool pool(2);
  CpuBackend backend(pool);
  const std::size_t n1 = 150 + rng() % 50, n2 = 20 + rng() % 20;
  const auto g1 = random_bases<G1Curve>(n1, rng);
  const auto g2 = random_bases<G2Curve>(n2, rng);
  const auto id1 = backend.load_bases_g1(g1);
  const auto id2 = backend.load_bases_g2(g2);
  ASSERT_TRUE(id1.ok() && id2.ok());
  EXPECT_FALSE(*id1 == *id2);
  EXPECT_EQ(backend.loaded_tables(), 2u);

  std::vector<Fr> s(n1 - 3);
  for (auto& k : s) k = (rng() % 3 == 0) ? Fr::from_u64(rng() % 2) : random_fr(rng);
  std::vector<std::uint64_t> bits((s.size() + 63) / 64);
  for (auto& w : bits) w = rng();
  for (BitSplit split : {BitSplit::automatic, BitSplit::always, BitSplit::never}) {
    const auto dense = backend.msm_g1(*id1, s, {.bit_split = split});
    ASSERT_TRUE(dense.ok());
    EXPECT_TRUE(*dense == *msm_naive<G1Curve>(g1, s)) << "seed=" << seed;
    const auto sparse =
        backend.msm_g1(*id1, s, {.density = {.bits = bits, .base_offset = 3}, .bit_split = split});
    ASSERT_TRUE(sparse.ok());
    EXPECT_TRUE(*sparse == *msm_naive<G1Curve>(g1, s, bits, 3)) << "seed=" << seed;
  }
  std::vector<Fr> s2(n2);
  for (auto& k : s2) k = random_fr(rng);
  const auto r2 = backend.msm_g2(*id2, s2, {});
  ASSERT_TRUE(r2.ok());
  EXPECT_TRUE(*r2 == *msm_naive<G2Curve>(g2, s2)) << "seed=" << seed;

  // Wrong group, too few bases, unknown and released ids.
  EXPECT_EQ(backend.msm_g2(*id1, s2, {}).status().code(), Errc::invalid_argument);
  EXPECT_EQ(backend.msm_g1(*id2, s, {}).status().code(), Errc::invalid_argument);
  std::vector<Fr> too_many(n2 + 1, Fr::one());
  EXPECT_EQ(backend.msm_g2(*id2, too_many, {}).status().code(), Errc::size_mismatch);
  ASSERT_TRUE(backend.release_bases(*id1).ok());
  EXPECT_EQ(backend.release_bases(*id1).code(), Errc::not_found);
  EXPECT_EQ(backend.msm_g1(*id1, s, {}).status().code(), Errc::not_found);
  EXPECT_EQ(backend.loaded_tables(), 1u);
}

// Calls from several threads share one backend: MSMs on one table, NTTs building the same plan, and a
// release that comes while another table is in use.
TEST(CpuBackend, ConcurrentCallsAgree) {
  const auto seed = fresh_seed();
  std::mt19937_64 rng(seed);
  ThreadPool pool(2);
  CpuBackend backend(pool);
  const auto bases = random_bases<G1Curve>(300 + rng() % 100, rng);
  std::vector<Fr> s(bases.size());
  for (auto& k : s) k = random_fr(rng);
  const auto id = backend.load_bases_g1(bases);
  const auto other = backend.load_bases_g1(std::span(bases).subspan(0, 10));
  ASSERT_TRUE(id.ok() && other.ok());
  const auto expect = backend.msm_g1(*id, s, {.bit_split = BitSplit::never});
  ASSERT_TRUE(expect.ok());
  std::vector<Fr> v(1024);
  for (auto& x : v) x = random_fr(rng);
  auto v_expect = v;
  ASSERT_TRUE(backend.ntt(v_expect, {.coset = true, .coset_shift = 11}).ok());
  std::vector<int> ok(4, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      bool good = true;
      for (int r = 0; r < 3; ++r) {
        const auto got = backend.msm_g1(*id, s, {.bit_split = static_cast<BitSplit>((t + r) % 3)});
        good = good && got.ok() && *got == *expect;
        auto w = v;
        good = good && backend.ntt(w, {.coset = true, .coset_shift = 11}).ok() && w == v_expect;
      }
      if (t == 0) good = good && backend.release_bases(*other).ok();
      ok[t] = good ? 1 : 0;
    });
  }
  for (auto& th : threads) th.join();
  for (int t = 0; t < 4; ++t) EXPECT_EQ(ok[t], 1) << "thread " << t << " seed=" << seed;
  EXPECT_EQ(backend.loaded_tables(), 1u);
}

// prove_partition (the MSMs as concurrent one-thread tasks on pools of 2 and 3 threads, the
// step-wise path on 1) against the naive MSMs of every term, both conventions, bellperson
// densities with offsets; a term naming an unknown table fails with not_found either way.
TEST(CpuBackend, PartitionTasksMatchNaiveSums) {
  const auto seed = fresh_seed();
  std::mt19937_64 rng(seed);
  for (std::size_t threads : {1u, 2u, 3u}) {
    ThreadPool pool(threads);
    CpuBackend backend(pool);
    for (HConvention conv : {HConvention::snarkjs, HConvention::bellperson}) {
      const std::size_t n = std::size_t{1} << (3 + rng() % 4);
      const std::size_t nz = 5 + rng() % (2 * n), num_inputs = 1 + rng() % 4;
      std::vector<Fr> z(nz);
      for (auto& k : z) k = (rng() % 4 == 0) ? Fr::from_u64(rng() % 2) : random_fr(rng);
      z[0] = Fr::one();
      std::vector<Fr> a(n, Fr::zero()), b(n, Fr::zero()), c(n, Fr::zero());
      for (std::size_t i = 0; i < n; ++i)
        a[i] = random_fr(rng), b[i] = random_fr(rng), c[i] = a[i] * b[i];
      const auto ga = random_bases<G1Curve>(nz + 2, rng), gb1 = random_bases<G1Curve>(nz + 2, rng);
      const auto gb2 = random_bases<G2Curve>(nz + 2, rng);
      const auto gl = random_bases<G1Curve>(nz, rng), gh = random_bases<G1Curve>(n, rng);
      const auto ia = backend.load_bases_g1(ga), ib1 = backend.load_bases_g1(gb1),
                 ib2 = backend.load_bases_g2(gb2), il = backend.load_bases_g1(gl),
                 ih = backend.load_bases_g1(gh);
      ASSERT_TRUE(ia.ok() && ib1.ok() && ib2.ok() && il.ok() && ih.ok());
      std::vector<std::uint64_t> a_bits((nz + 63) / 64), bi_bits(1), b_bits((nz + 63) / 64);
      for (auto& w : a_bits) w = rng();
      for (auto& w : b_bits) w = rng();
      bi_bits[0] = rng() | 1;
      const std::size_t b_offset =
          static_cast<std::size_t>(std::popcount(bi_bits[0] & ((1u << num_inputs) - 1)));
      PartitionInputs in{.abc = {a, b, c, conv},
                         .z = z,
                         .num_inputs = num_inputs,
                         .a = *ia,
                         .b_g1 = *ib1,
                         .b_g2 = *ib2,
                         .l = *il,
                         .h = *ih,
                         .a_aux = {a_bits, num_inputs},
                         .b_input = {bi_bits, 0},
                         .b_aux = {b_bits, b_offset}};

      // Expected: h from compute_h on copies, each sum from the naive MSM of its terms.
      std::vector<Fr> a2 = a, b2 = b, c2 = c;
      const bool sj = conv == HConvention::snarkjs;
      std::vector<Fr> h(sj ? n : n - 1);
      ASSERT_TRUE(backend.compute_h({a2, b2, c2, conv}, h).ok());
      const std::span<const Fr> zs(z), inputs = zs.subspan(0, num_inputs),
                                       aux = zs.subspan(num_inputs);
      PartitionSums want = PartitionSums::identity();
      if (sj) {
        want.a = *msm_naive<G1Curve>(ga, zs), want.b_g1 = *msm_naive<G1Curve>(gb1, zs);
        want.b_g2 = *msm_naive<G2Curve>(gb2, zs);
      } else {
        want.a = *msm_naive<G1Curve>(ga, inputs) + *msm_naive<G1Curve>(ga, aux, a_bits, num_inputs);
        want.b_g1 = *msm_naive<G1Curve>(gb1, inputs, bi_bits, 0) +
                    *msm_naive<G1Curve>(gb1, aux, b_bits, b_offset);
        want.b_g2 = *msm_naive<G2Curve>(gb2, inputs, bi_bits, 0) +
                    *msm_naive<G2Curve>(gb2, aux, b_bits, b_offset);
      }
      want.l = *msm_naive<G1Curve>(gl, aux);
      want.h = *msm_naive<G1Curve>(gh, std::span<const Fr>(h));

      PartitionTimings tm;
      const auto got = backend.prove_partition(in, &tm);
      ASSERT_TRUE(got.ok()) << got.status().message();
      const std::string where = " threads=" + std::to_string(threads) + " n=" + std::to_string(n) +
                                " nz=" + std::to_string(nz) + " seed=" + std::to_string(seed);
      EXPECT_TRUE(got->a == want.a) << "A" << where;
      EXPECT_TRUE(got->b_g1 == want.b_g1) << "B_G1" << where;
      EXPECT_TRUE(got->b_g2 == want.b_g2) << "B_G2" << where;
      EXPECT_TRUE(got->l == want.l) << "L" << where;
      EXPECT_TRUE(got->h == want.h) << "H" << where;
      EXPECT_GT(tm.msm_b2, 0.0);

      // An unknown table fails the whole partition with the table's error.
      std::vector<Fr> a3 = a, b3 = b, c3 = c;
      PartitionInputs bad = in;
      bad.abc = {a3, b3, c3, conv};
      bad.l = BasesId{999999};
      EXPECT_EQ(backend.prove_partition(bad).status().code(), Errc::not_found) << where;
      for (BasesId id : {*ia, *ib1, *ib2, *il, *ih}) ASSERT_TRUE(backend.release_bases(id).ok());
    }
  }
}

TEST(MakeBackend, Names) {
  ThreadPool pool(1);
  auto cpu = make_backend("cpu", pool);
  ASSERT_TRUE(cpu.ok());
  EXPECT_EQ((*cpu)->name(), "cpu");
  EXPECT_EQ(make_backend("tpu", pool).status().code(), Errc::invalid_argument);
  EXPECT_EQ(make_backend("cuda:", pool).status().code(), Errc::invalid_argument);
  EXPECT_EQ(make_backend("cuda:x1", pool).status().code(), Errc::invalid_argument);
  EXPECT_EQ(make_backend("cuda:-1", pool).status().code(), Errc::invalid_argument);
  const auto cuda = make_backend("cuda:0", pool);
  if (!cuda_backend_built()) {
    EXPECT_EQ(cuda.status().code(), Errc::unimplemented);
    EXPECT_NE(cuda.status().message().find("no CUDA backend"), std::string::npos);
  }
}

}  // namespace
}  // namespace cuzk
