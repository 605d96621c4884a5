// Microbenchmark ops for `cuzk microbench`. Each op prepares its inputs outside the timed region,
// runs once to warm up, then |repeats| timed runs; the median is reported.
#include "cuzk/cli/microbench.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <map>
#include <random>

#include "cuzk/ec/g1.hpp"
#include "cuzk/ec/g2.hpp"
#include "cuzk/ec/pairing.hpp"
#include "cuzk/ff/fp.hpp"
#include "cuzk/ff/fr.hpp"

namespace cuzk {
namespace {

using Clock = std::chrono::steady_clock;

struct OpContext {
  std::uint64_t n;
  unsigned threads;
  std::mt19937_64 rng{0x5eed};
};

/// An op: prepares state for n, returns the timed body.
using OpFactory = std::function<std::function<void()>(OpContext&)>;

struct OpInfo {
  unsigned default_log_n;
  OpFactory make;
  bool uses_threads = false;  ///< per-element ops run on one thread whatever --threads says
};

template <class F>
F random_field(std::mt19937_64& rng) {
  typename F::Repr c{};
  for (auto& w : c) w = rng();
  return F::from_limbs_reduce(c);
}

template <class T>
void keep(const T& v) {
  asm volatile("" : : "r"(&v) : "memory");
}

G1Affine random_g1(std::mt19937_64& rng) { return mul(G1Jacobian::generator(), random_field<Fr>(rng)).to_affine(); }
G2Affine random_g2(std::mt19937_64& rng) { return mul(G2Jacobian::generator(), random_field<Fr>(rng)).to_affine(); }

const std::map<std::string, OpInfo>& registry() {
  static const std::map<std::string, OpInfo> ops = {
      {"fp-mul", {20, [](OpContext& c) {
         Fp a = random_field<Fp>(c.rng), b = random_field<Fp>(c.rng);
         return std::function<void()>([a, b, n = c.n]() mutable {
           for (std::uint64_t i = 0; i < n; ++i) a = a * b;  // dependent chain
           keep(a);
         });
       }}},
      {"fr-mul", {20, [](OpContext& c) {
         Fr a = random_field<Fr>(c.rng), b = random_field<Fr>(c.rng);
         return std::function<void()>([a, b, n = c.n]() mutable {
           for (std::uint64_t i = 0; i < n; ++i) a = a * b;
           keep(a);
         });
       }}},
      {"fp-inv", {12, [](OpContext& c) {
         Fp a = random_field<Fp>(c.rng);
         return std::function<void()>([a, n = c.n]() mutable {
           for (std::uint64_t i = 0; i < n; ++i) a = a.inverse_vartime() + Fp::one();
           keep(a);
         });
       }}},
      {"g1-add-mixed", {16, [](OpContext& c) {
         G1Jacobian acc = G1Jacobian::from_affine(random_g1(c.rng));
         G1Affine q = random_g1(c.rng);
         return std::function<void()>([acc, q, n = c.n]() mutable {
           for (std::uint64_t i = 0; i < n; ++i) acc.add_mixed(q);
           keep(acc);
         });
       }}},
      {"g1-double", {16, [](OpContext& c) {
         G1Jacobian acc = G1Jacobian::from_affine(random_g1(c.rng));
         return std::function<void()>([acc, n = c.n]() mutable {
           for (std::uint64_t i = 0; i < n; ++i) acc.dbl();
           keep(acc);
         });
       }}},
      {"g2-add-mixed", {14, [](OpContext& c) {
         G2Jacobian acc = G2Jacobian::from_affine(random_g2(c.rng));
         G2Affine q = random_g2(c.rng);
         return std::function<void()>([acc, q, n = c.n]() mutable {
           for (std::uint64_t i = 0; i < n; ++i) acc.add_mixed(q);
           keep(acc);
         });
       }}},
      {"g1-mul", {8, [](OpContext& c) {
         G1Jacobian p = G1Jacobian::from_affine(random_g1(c.rng));
         Fr k = random_field<Fr>(c.rng);
         return std::function<void()>([p, k, n = c.n]() mutable {
           for (std::uint64_t i = 0; i < n; ++i) p = mul(p, k);
           keep(p);
         });
       }}},
      {"g2-mul", {6, [](OpContext& c) {
         G2Jacobian p = G2Jacobian::from_affine(random_g2(c.rng));
         Fr k = random_field<Fr>(c.rng);
         return std::function<void()>([p, k, n = c.n]() mutable {
           for (std::uint64_t i = 0; i < n; ++i) p = mul(p, k);
           keep(p);
         });
       }}},
      {"pairing", {4, [](OpContext& c) {
         G1Affine p = random_g1(c.rng);
         G2Affine q = random_g2(c.rng);
         return std::function<void()>([p, q, n = c.n]() {
           for (std::uint64_t i = 0; i < n; ++i) keep(pairing(p, q));
         });
       }}},
      {"multi-pairing-4", {3, [](OpContext& c) {
         std::vector<G1Affine> ps;
         std::vector<G2Affine> qs;
         for (int i = 0; i < 4; ++i) {
           ps.push_back(random_g1(c.rng));
           qs.push_back(random_g2(c.rng));
         }
         return std::function<void()>([ps, qs, n = c.n]() {
           for (std::uint64_t i = 0; i < n; ++i) {
             auto f = multi_miller_loop(std::span<const G1Affine>(ps), std::span<const G2Affine>(qs));
             keep(final_exponentiation(f.value()));
           }
         });
       }}},
  };
  return ops;
}

}  // namespace

std::string MicrobenchResult::to_json() const {
  char buf[512];
  std::snprintf(buf, sizeof buf, R"({"op":"%s","n":%llu,"threads":%u,"backend":"%s","seconds":%.9g})", op.c_str(),
                static_cast<unsigned long long>(n), threads, backend.c_str(), seconds);
  return buf;
}

std::vector<std::string> microbench_ops() {
  std::vector<std::string> names;
  for (const auto& [name, info] : registry()) names.push_back(name);
  return names;
}

Result<MicrobenchResult> run_microbench(const MicrobenchOptions& o) {
  auto it = registry().find(o.op);
  if (it == registry().end()) return Status(Errc::invalid_argument, "unknown microbench op '" + o.op + "'");
  if (o.backend != "cpu")
    return Status(Errc::invalid_argument, "op '" + o.op + "' has no implementation on backend '" + o.backend + "'");
  if (o.threads == 0) return Status(Errc::invalid_argument, "--threads must be at least 1");
  const unsigned log_n = o.log_n ? o.log_n : it->second.default_log_n;
  if (log_n > 40) return Status(Errc::invalid_argument, "--log-n must be at most 40");
  OpContext ctx{std::uint64_t{1} << log_n, o.threads};
  auto body = it->second.make(ctx);
  body();  // warm-up
  std::vector<double> times;
  for (unsigned r = 0; r < std::max(1u, o.repeats); ++r) {
    auto t0 = Clock::now();
    body();
    times.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
  }
  std::sort(times.begin(), times.end());
  MicrobenchResult res{o.op, ctx.n, it->second.uses_threads ? o.threads : 1u, o.backend, times[times.size() / 2]};
  return res;
}

}  // namespace cuzk
