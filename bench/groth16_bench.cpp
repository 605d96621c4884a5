// Groth16 prove benchmark on mulchain(N) — N = 2^K − 3 constraints x[i+1] = x[i]² + b, public out
// and a, private b (the oracles' circuit, full-width witness values: snarkjs's worst case) — so the
// domain is exactly 2^K. Compared with `snarkjs groth16 prove` on the same files by
// bench/groth16_vs_snarkjs.sh; results in docs/perf/groth16.md.
//
//   groth16_bench gen K DIR            writes DIR/mulchain_K.{r1cs,wtns} (circom formats) and
//                                      DIR/mulchain_K.zkey (cuzk setup, snarkjs layout)
//   groth16_bench prove K DIR [REPS] [THREADS] [params]
//                                      loads the key once, proves REPS times, prints CSV:
//                                      k,layout,threads,best_s,abc,h,msm_a,msm_b1,msm_b2,msm_l,msm_h
//                                      (params: the same circuit with a bellperson-layout key)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "cuzk/backend/cpu_backend.hpp"
#include "cuzk/formats/mapped_file.hpp"
#include "cuzk/formats/zkey.hpp"
#include "cuzk/groth16/prove.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/verify.hpp"
#include "cuzk/r1cs/circom.hpp"

using namespace cuzk;

namespace {

void put_fr(std::vector<std::uint8_t>& out, const Fr& v) {
  std::uint8_t b[32];
  v.to_bytes_le(b);
  out.insert(out.end(), b, b + 32);
}

void put_section(std::vector<std::uint8_t>& out, std::uint32_t id,
                 const std::vector<std::uint8_t>& body) {
  put_u32_le(out, id);
  put_u64_le(out, body.size());
  out.insert(out.end(), body.begin(), body.end());
}

std::string base(const std::string& dir, unsigned k) {
  return dir + "/mulchain_" + std::to_string(k);
}

// circom wire numbering: 0 ONE, 1 out (= x[N]), 2 a (= x[0]), 3 b, 4.. x[1..N−1].
std::uint32_t wire_of_x(std::uint64_t i, std::uint64_t n) {
  return i == 0 ? 2 : (i == n ? 1 : static_cast<std::uint32_t>(3 + i));
}

int gen(unsigned k, const std::string& dir) {
  const std::uint64_t n = (std::uint64_t{1} << k) - 3;
  const std::uint32_t wires = static_cast<std::uint32_t>(n + 3);
  const Fr minus_one = -Fr::one();
  // .r1cs
  std::vector<std::uint8_t> hdr, cons, labels, r1cs = {'r', '1', 'c', 's'};
  put_u32_le(hdr, 32);
  for (int i = 0; i < 32; ++i)
    hdr.push_back(static_cast<std::uint8_t>(Fr::kModulus[i / 8] >> (8 * (i % 8))));
  put_u32_le(hdr, wires);
  put_u32_le(hdr, 1);  // public outputs
  put_u32_le(hdr, 1);  // public inputs
  put_u32_le(hdr, 1);  // private inputs
  put_u64_le(hdr, wires);
  put_u32_le(hdr, static_cast<std::uint32_t>(n));
  for (std::uint64_t i = 0; i < n; ++i) {
    for (int m = 0; m < 2; ++m) {  // A = B = x[i]
      put_u32_le(cons, 1);
      put_u32_le(cons, wire_of_x(i, n));
      for (int b = 0; b < 32; ++b) cons.push_back(b == 0 ? 1 : 0);  // coefficient 1, canonical LE
    }
    put_u32_le(cons, 2);  // C = x[i+1] − b
    put_u32_le(cons, wire_of_x(i + 1, n));
    for (int b = 0; b < 32; ++b) cons.push_back(b == 0 ? 1 : 0);
    put_u32_le(cons, 3);
    std::uint8_t mb[32];
    minus_one.to_bytes_le(mb);
    cons.insert(cons.end(), mb, mb + 32);
  }
  for (std::uint32_t w = 0; w < wires; ++w) put_u64_le(labels, w);
  put_u32_le(r1cs, 1);
  put_u32_le(r1cs, 3);
  put_section(r1cs, 1, hdr);
  put_section(r1cs, 2, cons);
  put_section(r1cs, 3, labels);
  // .wtns, a = 3, b = 11
  std::vector<Fr> w(wires);
  w[0] = Fr::one();
  const Fr b = Fr::from_u64(11);
  Fr x = Fr::from_u64(3);
  w[2] = x;
  w[3] = b;
  for (std::uint64_t i = 1; i <= n; ++i) {
    x = x.square() + b;
    w[wire_of_x(i, n)] = x;
  }
  std::vector<std::uint8_t> s1, s2, wtns = {'w', 't', 'n', 's'};
  put_u32_le(s1, 32);
  for (int i = 0; i < 32; ++i)
    s1.push_back(static_cast<std::uint8_t>(Fr::kModulus[i / 8] >> (8 * (i % 8))));
  put_u32_le(s1, wires);
  for (const Fr& v : w) put_fr(s2, v);
  put_u32_le(wtns, 2);
  put_u32_le(wtns, 2);
  put_section(wtns, 1, s1);
  put_section(wtns, 2, s2);
  if (!write_whole_file(base(dir, k) + ".r1cs", r1cs).ok() ||
      !write_whole_file(base(dir, k) + ".wtns", wtns).ok())
    return 2;
  // zkey from cuzk setup (a fixed seed: benchmark keys only).
  ThreadPool pool(0);
  auto c = read_circom_r1cs(base(dir, k) + ".r1cs");
  if (!c.ok()) return std::fprintf(stderr, "%s\n", c.status().to_string().c_str()), 2;
  const auto t0 = std::chrono::steady_clock::now();
  SeededRng rng(k);
  auto pk = setup(c->matrices, rng, {.layout = KeyLayout::snarkjs, .pool = &pool});
  if (!pk.ok()) return std::fprintf(stderr, "%s\n", pk.status().to_string().c_str()), 2;
  const double ts = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  auto img = write_zkey(*pk, c->matrices, &pool);
  if (!img.ok() || !write_whole_file(base(dir, k) + ".zkey", *img).ok()) return 2;
  std::printf("gen k=%u constraints=%llu setup_s=%.2f zkey_bytes=%zu\n", k,
              static_cast<unsigned long long>(n), ts, img->size());
  return 0;
}

int prove_bench(unsigned k, const std::string& dir, int reps, unsigned threads, bool params) {
  ThreadPool pool(threads);
  auto w = read_snarkjs_wtns(base(dir, k) + ".wtns");
  if (!w.ok()) return std::fprintf(stderr, "%s\n", w.status().to_string().c_str()), 2;
  ProvingKey pk;
  R1csMatrices m;
  if (params) {
    auto c = read_circom_r1cs(base(dir, k) + ".r1cs");
    if (!c.ok()) return 2;
    m = std::move(c->matrices);
    SeededRng rng(k);
    auto p = setup(m, rng, {.layout = KeyLayout::bellperson, .pool = &pool});
    if (!p.ok()) return std::fprintf(stderr, "%s\n", p.status().to_string().c_str()), 2;
    pk = std::move(*p);
  } else {
    auto zk = read_zkey(base(dir, k) + ".zkey", {.check_subgroup = false, .pool = &pool});
    if (!zk.ok()) return std::fprintf(stderr, "%s\n", zk.status().to_string().c_str()), 2;
    pk = std::move(zk->pk);
    m = std::move(zk->matrices);
  }
  CpuBackend backend(pool);
  auto key = ResidentKey::load(backend, pk);
  if (!key.ok()) return 2;
  ProveTimings best;
  best.total = 1e30;
  Proof last;
  for (int i = 0; i < reps; ++i) {
    ProveTimings t;
    auto p = prove(pool, **key, m, *w, {.timings = &t});
    if (!p.ok()) return std::fprintf(stderr, "%s\n", p.status().to_string().c_str()), 2;
    if (t.total < best.total) best = t;
    last = *p;
  }
  const bool ok =
      *verify(prepare_verifying_key(pk.vk), std::span<const Fr>(w->data() + 1, 2), last);
  std::printf("%u,%s,%zu,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%s\n", k,
              params ? "bellperson" : "snarkjs", pool.size(), best.total, best.abc, best.h,
              best.msm_a, best.msm_b1, best.msm_b2, best.msm_l, best.msm_h,
              ok ? "verified" : "INVALID");
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr,
                 "usage: groth16_bench gen K DIR | prove K DIR [REPS] [THREADS] [params]\n");
    return 2;
  }
  const std::string cmd = argv[1], dir = argv[3];
  const unsigned k = static_cast<unsigned>(std::atoi(argv[2]));
  if (k < 3 || k > 26) return std::fprintf(stderr, "K must be in 3..26\n"), 2;
  if (cmd == "gen") return gen(k, dir);
  if (cmd == "prove")
    return prove_bench(k, dir, argc > 4 ? std::atoi(argv[4]) : 3,
                       argc > 5 ? static_cast<unsigned>(std::atoi(argv[5])) : 0,
                       argc > 6 && std::string(argv[6]) == "params");
  return 2;
}
