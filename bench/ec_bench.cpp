// G1/G2 point arithmetic, scalar multiplication, subgroup checks and decompression.
// Anchor (PERF.md §5, this VM): blst p1_add_or_double 1.47 µs. Run: build/bin/ec_bench.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "cuzk/ec/encoding.hpp"
#include "cuzk/ec/fixed_base.hpp"
#include "cuzk/ec/g1.hpp"
#include "cuzk/ec/g2.hpp"

namespace cuzk {
namespace {

Fr bench_scalar(std::mt19937_64& rng) {
  Limbs<4> c{};
  for (auto& w : c) w = rng();
  c[3] &= 0x3fffffffffffffffULL;
  return Fr::from_limbs_reduce(c);
}

template <class C>
std::vector<Affine<C>> bench_points(std::size_t n) {
  std::mt19937_64 rng(42);
  std::vector<Affine<C>> v;
  for (std::size_t i = 0; i < n; ++i)
    v.push_back(mul_vartime(Jacobian<C>::generator(), bench_scalar(rng)).to_affine_vartime());
  return v;
}

template <class C>
void BM_JacobianAddMixed(benchmark::State& st) {
  const auto pts = bench_points<C>(64);
  Jacobian<C> acc = Jacobian<C>::from_affine(pts[0]);
  acc.dbl();
  std::size_t i = 0;
  for (auto _ : st) {
    acc.add_mixed(pts[i++ & 63]);
    benchmark::DoNotOptimize(acc);
  }
}
template <class C>
void BM_JacobianAdd(benchmark::State& st) {
  const auto pts = bench_points<C>(64);
  std::vector<Jacobian<C>> js;
  for (const auto& p : pts) js.push_back(Jacobian<C>::from_affine(p).doubled());
  Jacobian<C> acc = js[0].doubled();
  std::size_t i = 0;
  for (auto _ : st) {
    acc.add(js[i++ & 63]);
    benchmark::DoNotOptimize(acc);
  }
}
template <class C>
void BM_JacobianDouble(benchmark::State& st) {
  Jacobian<C> acc = Jacobian<C>::generator();
  for (auto _ : st) {
    acc.dbl();
    benchmark::DoNotOptimize(acc);
  }
}
template <class C>
void BM_XyzzAddMixed(benchmark::State& st) {
  const auto pts = bench_points<C>(64);
  Xyzz<C> acc = Xyzz<C>::from_affine(pts[0]);
  acc.dbl();
  std::size_t i = 0;
  for (auto _ : st) {
    acc.add_mixed(pts[i++ & 63]);
    benchmark::DoNotOptimize(acc);
  }
}
template <class C>
void BM_ScalarMul(benchmark::State& st) {
  std::mt19937_64 rng(7);
  const Jacobian<C> p = Jacobian<C>::generator();
  for (auto _ : st) benchmark::DoNotOptimize(mul(p, bench_scalar(rng)));
}
template <class C>
void BM_ScalarMulVartime(benchmark::State& st) {
  std::mt19937_64 rng(7);
  const Jacobian<C> p = Jacobian<C>::generator();
  for (auto _ : st) benchmark::DoNotOptimize(mul_vartime(p, bench_scalar(rng)));
}
void BM_G1ScalarMulGlv(benchmark::State& st) {
  std::mt19937_64 rng(7);
  const G1Jacobian p = G1Jacobian::generator();
  for (auto _ : st) benchmark::DoNotOptimize(mul_glv_vartime(p, bench_scalar(rng)));
}
void BM_G2ScalarMulGls(benchmark::State& st) {
  std::mt19937_64 rng(7);
  const G2Jacobian p = G2Jacobian::generator();
  for (auto _ : st) benchmark::DoNotOptimize(mul_gls_vartime(p, bench_scalar(rng)));
}
template <class C>
void BM_SubgroupCheck(benchmark::State& st) {
  const auto pts = bench_points<C>(16);
  std::size_t i = 0;
  for (auto _ : st) benchmark::DoNotOptimize(is_in_subgroup(pts[i++ & 15]));
}
template <class C>
void BM_ToAffine(benchmark::State& st) {
  Jacobian<C> p = Jacobian<C>::generator().doubled();
  for (auto _ : st) {
    benchmark::DoNotOptimize(p.to_affine_vartime());
    p.Z += C::Field::one();
  }
}
template <class C>
void BM_FixedBaseMul(benchmark::State& st) {
  std::mt19937_64 rng(7);
  const auto table =
      FixedBaseTable<C>::build(Affine<C>::generator(), static_cast<unsigned>(st.range(0)));
  for (auto _ : st) benchmark::DoNotOptimize(table.mul(bench_scalar(rng)));
}
void BM_G1Decompress(benchmark::State& st) {
  const bool checked = st.range(0) != 0;
  std::vector<G1Compressed> enc;
  for (const auto& p : bench_points<G1Curve>(16)) enc.push_back(to_compressed(p));
  std::size_t i = 0;
  for (auto _ : st) {
    const auto& b = enc[i++ & 15];
    benchmark::DoNotOptimize(checked ? g1_from_compressed(b) : g1_from_compressed_unchecked(b));
  }
}
void BM_G2Decompress(benchmark::State& st) {
  const bool checked = st.range(0) != 0;
  std::vector<G2Compressed> enc;
  for (const auto& p : bench_points<G2Curve>(16)) enc.push_back(to_compressed(p));
  std::size_t i = 0;
  for (auto _ : st) {
    const auto& b = enc[i++ & 15];
    benchmark::DoNotOptimize(checked ? g2_from_compressed(b) : g2_from_compressed_unchecked(b));
  }
}
void BM_G1DecodeUncompressed(benchmark::State& st) {
  std::vector<G1Uncompressed> enc;
  for (const auto& p : bench_points<G1Curve>(16)) enc.push_back(to_uncompressed(p));
  std::size_t i = 0;
  for (auto _ : st) benchmark::DoNotOptimize(g1_from_uncompressed(enc[i++ & 15]));
}

BENCHMARK(BM_JacobianAddMixed<G1Curve>)->Name("G1/add_mixed");
BENCHMARK(BM_JacobianAdd<G1Curve>)->Name("G1/add");
BENCHMARK(BM_JacobianDouble<G1Curve>)->Name("G1/double");
BENCHMARK(BM_XyzzAddMixed<G1Curve>)->Name("G1/xyzz_add_mixed");
BENCHMARK(BM_JacobianAddMixed<G2Curve>)->Name("G2/add_mixed");
BENCHMARK(BM_JacobianAdd<G2Curve>)->Name("G2/add");
BENCHMARK(BM_JacobianDouble<G2Curve>)->Name("G2/double");
BENCHMARK(BM_XyzzAddMixed<G2Curve>)->Name("G2/xyzz_add_mixed");
BENCHMARK(BM_ScalarMul<G1Curve>)->Name("G1/mul")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ScalarMulVartime<G1Curve>)->Name("G1/mul_vartime")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_G1ScalarMulGlv)->Name("G1/mul_glv_vartime")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ScalarMul<G2Curve>)->Name("G2/mul")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ScalarMulVartime<G2Curve>)->Name("G2/mul_vartime")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_G2ScalarMulGls)->Name("G2/mul_gls_vartime")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_FixedBaseMul<G1Curve>)
    ->Name("G1/fixed_base_mul")
    ->ArgName("w")
    ->Arg(8)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_FixedBaseMul<G2Curve>)
    ->Name("G2/fixed_base_mul")
    ->ArgName("w")
    ->Arg(8)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SubgroupCheck<G1Curve>)->Name("G1/is_in_subgroup")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SubgroupCheck<G2Curve>)->Name("G2/is_in_subgroup")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ToAffine<G1Curve>)->Name("G1/to_affine_vartime")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_G1Decompress)
    ->Name("G1/from_compressed")
    ->ArgName("checked")
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_G2Decompress)
    ->Name("G2/from_compressed")
    ->ArgName("checked")
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_G1DecodeUncompressed)
    ->Name("G1/from_uncompressed_checked")
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace cuzk

BENCHMARK_MAIN();
