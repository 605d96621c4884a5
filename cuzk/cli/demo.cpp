#include "cuzk/cli/demo.hpp"

#include <cstdio>
#include <random>

#include "cuzk/cli/microbench.hpp"
#include "cuzk/ec/g1.hpp"
#include "cuzk/ec/g2.hpp"
#include "cuzk/ec/pairing.hpp"

namespace cuzk {

int run_demo() {
  std::printf("cuzk demo: BLS12-381 arithmetic on the CPU\n\n");
  std::printf("%-18s %12s %14s\n", "op", "count", "per op");
  for (const char* op : {"fp-mul", "fr-mul", "fp-inv", "g1-add-mixed", "g1-double", "g2-add-mixed",
                         "g1-mul", "g2-mul", "pairing", "multi-pairing-4"}) {
    auto r = run_microbench({.op = op, .repeats = 3});
    if (!r) {
      std::printf("%-18s error: %s\n", op, r.status().to_string().c_str());
      return 1;
    }
    const double per = r->seconds / static_cast<double>(r->n);
    std::printf("%-18s %12llu %11.3f %s\n", op, static_cast<unsigned long long>(r->n),
                per < 1e-6 ? per * 1e9 : per * 1e6, per < 1e-6 ? "ns" : "us");
  }
  // Bilinearity: e(a·G1, b·G2) · e(−ab·G1, G2) = 1 for random a, b.
  std::mt19937_64 rng(std::random_device{}());
  Fr::Repr ra{}, rb{};
  for (auto& w : ra) w = rng();
  for (auto& w : rb) w = rng();
  const Fr a = Fr::from_limbs_reduce(ra), b = Fr::from_limbs_reduce(rb);
  const G1Affine p[2] = {mul(G1Jacobian::generator(), a).to_affine(),
                         mul(G1Jacobian::generator(), -(a * b)).to_affine()};
  const G2Affine q[2] = {mul(G2Jacobian::generator(), b).to_affine(), G2Affine::generator()};
  const bool ok =
      pairing_product_is_one(std::span<const G1Affine>(p), std::span<const G2Affine>(q));
  std::printf("\npairing check e(aG1, bG2) * e(-abG1, G2) == 1: %s\n", ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}

}  // namespace cuzk
